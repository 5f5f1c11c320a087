//! Embedding latency: one sentence, and a batch of 32 sentences.
//!
//! Needs the model (`scripts/setup-model.sh tools/models/all-MiniLM-L6-v2`
//! or `CCOS_EMBED_MODEL_DIR`).
//!
//! Run: `cargo bench -p ccos-embed --bench embed`

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use ccos_embed::{Embedder, test_model_dir};
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = match test_model_dir(&root) {
        Ok(d) => d,
        Err(msg) => {
            eprintln!("skipping the embedding benches: {msg}");
            return;
        }
    };
    let e = match Embedder::load(&dir) {
        Ok(e) => e,
        Err(err) => {
            eprintln!("skipping the embedding benches: {err}");
            return;
        }
    };
    let one = "list the open issues of the ccos repository on github";
    c.bench_function("embed/1 sentence", |b| {
        b.iter(|| black_box(e.embed(&[one]).ok()))
    });
    let batch: Vec<String> = (0..32)
        .map(|i| format!("{one} and count the comments of issue number {i} by date"))
        .collect();
    let refs: Vec<&str> = batch.iter().map(String::as_str).collect();
    c.bench_function("embed/32 sentences", |b| {
        b.iter(|| black_box(e.embed(&refs).ok()))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
