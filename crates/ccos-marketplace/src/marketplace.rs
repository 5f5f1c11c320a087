//! The marketplace: the registry of capabilities (and agent cards) that
//! plans draw from, its search, its persistence, and call dispatch.
//!
//! # API at a glance
//!
//! ```no_run
//! # use ccos_marketplace::{Marketplace, CapabilityManifest};
//! # fn demo(m: CapabilityManifest) -> Result<(), ccos_marketplace::MarketplaceError> {
//! let mp = Marketplace::open("/tmp/ccos-home/catalog")?; // or Marketplace::new()
//! mp.register(m.clone())?;            // error if the id exists
//! mp.replace(m)?;                     // upsert
//! let hits = mp.search("add numbers", 5)?; // [(id, score)], best first
//! let all = mp.list();                // sorted by id
//! # Ok(()) }
//! ```
//!
//! The marketplace is shared as `Arc<Marketplace>`: every method takes
//! `&self` (interior locks), so providers such as MCP can register tools
//! they discover while plans run.
//!
//! # Persistence
//!
//! [`Marketplace::open`] keeps the catalog in a directory
//! (`$CCOS_HOME/catalog/`): `capabilities.json` holds every capability whose
//! provider is not `builtin` (built-ins are registered in code at each start
//! and never persisted), `agents.json` the agent cards. Each mutation
//! rewrites the affected file atomically (temp file + rename); use
//! [`Marketplace::replace_all`] to import many capabilities with one write.
//! A file that does not parse is an error naming the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

use serde::{Deserialize, Serialize};

use crate::executor::{CallError, CallOutput, CapabilityExecutor};
use crate::ids::validate_id;
use crate::manifest::{CapabilityManifest, ProviderSpec};
use crate::search::{SearchError, SearchIndex};
use ccos_core::{AgentCard, CapabilityCard};

/// File name of the persisted capabilities inside the catalog directory.
pub const CAPABILITIES_FILE: &str = "capabilities.json";
/// File name of the persisted agent cards inside the catalog directory.
pub const AGENTS_FILE: &str = "agents.json";
const FORMAT_VERSION: u32 = 1;

/// Why a marketplace operation failed.
#[derive(Debug, thiserror::Error)]
pub enum MarketplaceError {
    /// The id is malformed.
    #[error("invalid id: {0}")]
    InvalidId(String),
    /// `register` of an id that already exists.
    #[error("capability {0} is already registered (use replace to update it)")]
    Duplicate(String),
    /// No such capability or agent.
    #[error("{0} is not registered")]
    NotFound(String),
    /// Reading or writing a catalog file failed.
    #[error("{path}: {message}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// A catalog file exists but is not a valid catalog.
    #[error("corrupted catalog file {path}: {message}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// The search index failed.
    #[error(transparent)]
    Search(#[from] SearchError),
}

#[derive(Serialize, Deserialize)]
struct CapabilitiesFile {
    version: u32,
    capabilities: Vec<CapabilityManifest>,
}

#[derive(Serialize, Deserialize)]
struct AgentsFile {
    version: u32,
    agents: Vec<AgentCard>,
}

#[derive(Default)]
struct Catalog {
    caps: BTreeMap<String, CapabilityManifest>,
    agents: BTreeMap<String, AgentCard>,
}

/// The capability registry. See the module docs.
pub struct Marketplace {
    catalog: RwLock<Catalog>,
    index: Mutex<SearchIndex>,
    executors: RwLock<BTreeMap<&'static str, Arc<dyn CapabilityExecutor>>>,
    dir: Option<PathBuf>,
}

impl std::fmt::Debug for Marketplace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Marketplace")
            .field("dir", &self.dir)
            .field("capabilities", &self.read().caps.len())
            .finish()
    }
}

impl Marketplace {
    /// An empty, in-memory marketplace (nothing persisted).
    pub fn new() -> Result<Marketplace, MarketplaceError> {
        Ok(Marketplace {
            catalog: RwLock::new(Catalog::default()),
            index: Mutex::new(SearchIndex::new()?),
            executors: RwLock::new(BTreeMap::new()),
            dir: None,
        })
    }

    /// Opens (creating if needed) the catalog kept in `dir` and loads the
    /// persisted capabilities and agent cards.
    pub fn open(dir: impl AsRef<Path>) -> Result<Marketplace, MarketplaceError> {
        let dir = dir.as_ref().to_path_buf();
        std::fs::create_dir_all(&dir).map_err(|e| MarketplaceError::Io {
            path: dir.clone(),
            message: format!("creating the catalog directory: {e}"),
        })?;
        let mut mp = Marketplace::new()?;
        let mut catalog = Catalog::default();
        let cap_path = dir.join(CAPABILITIES_FILE);
        if let Some(file) = read_json::<CapabilitiesFile>(&cap_path)? {
            for m in file.capabilities {
                validate_id(&m.id).map_err(|message| MarketplaceError::Corrupt {
                    path: cap_path.clone(),
                    message,
                })?;
                catalog.caps.insert(m.id.clone(), m);
            }
        }
        let agents_path = dir.join(AGENTS_FILE);
        if let Some(file) = read_json::<AgentsFile>(&agents_path)? {
            for a in file.agents {
                validate_id(&a.id).map_err(|message| MarketplaceError::Corrupt {
                    path: agents_path.clone(),
                    message,
                })?;
                catalog.agents.insert(a.id.clone(), a);
            }
        }
        {
            let ix = mp.index.get_mut().unwrap_or_else(|p| p.into_inner());
            for m in catalog.caps.values() {
                ix.upsert(m)?;
            }
        }
        mp.catalog = RwLock::new(catalog);
        mp.dir = Some(dir);
        Ok(mp)
    }

    /// The catalog directory, when persistent.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn read(&self) -> RwLockReadGuard<'_, Catalog> {
        self.catalog.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> RwLockWriteGuard<'_, Catalog> {
        self.catalog.write().unwrap_or_else(|p| p.into_inner())
    }

    fn index(&self) -> MutexGuard<'_, SearchIndex> {
        self.index.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Registers a new capability; an error if its id is taken or invalid.
    pub fn register(&self, manifest: CapabilityManifest) -> Result<(), MarketplaceError> {
        validate_id(&manifest.id).map_err(MarketplaceError::InvalidId)?;
        let mut cat = self.write();
        if cat.caps.contains_key(&manifest.id) {
            return Err(MarketplaceError::Duplicate(manifest.id));
        }
        self.insert_locked(&mut cat, vec![manifest])
    }

    /// Registers or updates a capability (upsert).
    pub fn replace(&self, manifest: CapabilityManifest) -> Result<(), MarketplaceError> {
        self.replace_all(vec![manifest])
    }

    /// Registers or updates many capabilities with a single catalog write
    /// (imports, MCP discovery). All ids are checked before anything changes.
    pub fn replace_all(&self, manifests: Vec<CapabilityManifest>) -> Result<(), MarketplaceError> {
        for m in &manifests {
            validate_id(&m.id).map_err(MarketplaceError::InvalidId)?;
        }
        let mut cat = self.write();
        self.insert_locked(&mut cat, manifests)
    }

    fn insert_locked(
        &self,
        cat: &mut Catalog,
        manifests: Vec<CapabilityManifest>,
    ) -> Result<(), MarketplaceError> {
        let persist = manifests
            .iter()
            .any(|m| m.provider != ProviderSpec::Builtin)
            || manifests.iter().any(|m| {
                cat.caps
                    .get(&m.id)
                    .is_some_and(|old| old.provider != ProviderSpec::Builtin)
            });
        {
            let mut ix = self.index();
            for m in &manifests {
                ix.upsert(m)?;
            }
        }
        for m in manifests {
            cat.caps.insert(m.id.clone(), m);
        }
        if persist {
            self.save_caps(cat)?;
        }
        Ok(())
    }

    /// Removes a capability; returns it.
    pub fn remove(&self, id: &str) -> Result<CapabilityManifest, MarketplaceError> {
        let mut cat = self.write();
        let m = cat
            .caps
            .remove(id)
            .ok_or_else(|| MarketplaceError::NotFound(id.to_string()))?;
        self.index().remove(id);
        if m.provider != ProviderSpec::Builtin {
            self.save_caps(&cat)?;
        }
        Ok(m)
    }

    /// The manifest of `id`.
    pub fn get(&self, id: &str) -> Option<CapabilityManifest> {
        self.read().caps.get(id).cloned()
    }

    /// True when `id` is registered.
    pub fn contains(&self, id: &str) -> bool {
        self.read().caps.contains_key(id)
    }

    /// Number of registered capabilities.
    pub fn len(&self) -> usize {
        self.read().caps.len()
    }

    /// True when no capability is registered.
    pub fn is_empty(&self) -> bool {
        self.read().caps.is_empty()
    }

    /// Every manifest, sorted by id.
    pub fn list(&self) -> Vec<CapabilityManifest> {
        self.read().caps.values().cloned().collect()
    }

    /// Every id, sorted.
    pub fn ids(&self) -> Vec<String> {
        self.read().caps.keys().cloned().collect()
    }

    /// The `k` most relevant capabilities for free text, as `(id, score)`
    /// pairs, best first, ties broken by id (see [`crate::search`]).
    pub fn search(&self, text: &str, k: usize) -> Result<Vec<(String, f32)>, MarketplaceError> {
        Ok(self.index().search(text, k)?)
    }

    /// Up to `n` registered ids closest to `id` (for "did you mean").
    pub fn closest_ids(&self, id: &str, n: usize) -> Vec<String> {
        let cat = self.read();
        crate::ids::closest(id, cat.caps.keys().map(String::as_str), n)
    }

    /// Registers the executor for its provider label, replacing any previous one.
    pub fn register_executor(&self, executor: Arc<dyn CapabilityExecutor>) {
        self.executors
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(executor.provider(), executor);
    }

    /// The executor registered for a provider label.
    pub fn executor(&self, provider: &str) -> Option<Arc<dyn CapabilityExecutor>> {
        self.executors
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(provider)
            .cloned()
    }

    /// Calls capability `id`: looks up its manifest and dispatches to the
    /// executor of its provider. An unknown id or a provider without
    /// executor is [`CallError::NoExecutor`] (naming the closest ids).
    pub async fn call(&self, id: &str, args: Vec<rtfs::Value>) -> Result<rtfs::Value, CallError> {
        let (manifest, exec) = self.dispatch(id)?;
        exec.call(&manifest, args).await
    }

    /// Like [`Marketplace::call`], also returning the result as the
    /// provider sent it when it has such a form (an MCP `CallToolResult`).
    pub async fn call_with_wire(
        &self,
        id: &str,
        args: Vec<rtfs::Value>,
    ) -> Result<CallOutput, CallError> {
        let (manifest, exec) = self.dispatch(id)?;
        exec.call_with_wire(&manifest, args).await
    }

    /// The manifest of `id` and the executor of its provider.
    fn dispatch(
        &self,
        id: &str,
    ) -> Result<(CapabilityManifest, Arc<dyn CapabilityExecutor>), CallError> {
        let Some(manifest) = self.get(id) else {
            let near = self.closest_ids(id, 3);
            let message = if near.is_empty() {
                "unknown capability".to_string()
            } else {
                format!("unknown capability; did you mean {}?", near.join(", "))
            };
            return Err(CallError::NoExecutor {
                capability: id.to_string(),
                message,
            });
        };
        let label = manifest.provider.label();
        let Some(exec) = self.executor(label) else {
            return Err(CallError::NoExecutor {
                capability: id.to_string(),
                message: format!("no executor registered for provider {label}"),
            });
        };
        Ok((manifest, exec))
    }

    /// Planner snapshot (spec 026): one card per capability, sorted by id.
    pub fn capability_cards(&self) -> Vec<CapabilityCard> {
        self.read()
            .caps
            .values()
            .map(CapabilityManifest::card)
            .collect()
    }

    /// Registers or updates an agent card (persisted when the marketplace
    /// has a directory).
    pub fn register_agent(&self, card: AgentCard) -> Result<(), MarketplaceError> {
        validate_id(&card.id).map_err(MarketplaceError::InvalidId)?;
        let mut cat = self.write();
        cat.agents.insert(card.id.clone(), card);
        self.save_agents(&cat)
    }

    /// The agent card `id`.
    pub fn get_agent(&self, id: &str) -> Option<AgentCard> {
        self.read().agents.get(id).cloned()
    }

    /// Every agent card, sorted by id.
    pub fn agent_cards(&self) -> Vec<AgentCard> {
        self.read().agents.values().cloned().collect()
    }

    fn save_caps(&self, cat: &Catalog) -> Result<(), MarketplaceError> {
        let Some(dir) = &self.dir else { return Ok(()) };
        let file = CapabilitiesFile {
            version: FORMAT_VERSION,
            capabilities: cat
                .caps
                .values()
                .filter(|m| m.provider != ProviderSpec::Builtin)
                .cloned()
                .collect(),
        };
        write_json_atomic(&dir.join(CAPABILITIES_FILE), &file)
    }

    fn save_agents(&self, cat: &Catalog) -> Result<(), MarketplaceError> {
        let Some(dir) = &self.dir else { return Ok(()) };
        let file = AgentsFile {
            version: FORMAT_VERSION,
            agents: cat.agents.values().cloned().collect(),
        };
        write_json_atomic(&dir.join(AGENTS_FILE), &file)
    }
}

/// Reads a catalog file; `None` when it does not exist.
fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<T>, MarketplaceError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(MarketplaceError::Io {
                path: path.to_path_buf(),
                message: format!("reading: {e}"),
            });
        }
    };
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| MarketplaceError::Corrupt {
            path: path.to_path_buf(),
            message: format!("invalid JSON: {e}"),
        })?;
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if v == u64::from(FORMAT_VERSION) => {}
        Some(v) => {
            return Err(MarketplaceError::Corrupt {
                path: path.to_path_buf(),
                message: format!("unsupported catalog version {v} (expected {FORMAT_VERSION})"),
            });
        }
        None => {
            return Err(MarketplaceError::Corrupt {
                path: path.to_path_buf(),
                message: "missing \"version\"".into(),
            });
        }
    }
    serde_json::from_value(value)
        .map(Some)
        .map_err(|e| MarketplaceError::Corrupt {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
}

/// Writes JSON to `path` atomically: a temp file beside it, synced, renamed.
fn write_json_atomic<T: Serialize>(path: &Path, value: &T) -> Result<(), MarketplaceError> {
    use std::io::Write;
    let io = |message: String| MarketplaceError::Io {
        path: path.to_path_buf(),
        message,
    };
    let text = serde_json::to_string_pretty(value).map_err(|e| io(format!("serialising: {e}")))?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "catalog".into());
    let tmp = path.with_file_name(format!(".{file_name}.tmp.{}", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.write_all(b"\n")?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(format!("writing: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::TrustTier;
    use serde_json::json;

    fn cap(id: &str, provider: ProviderSpec) -> CapabilityManifest {
        CapabilityManifest::new(
            id,
            format!("does {id}"),
            json!({"type":"object","properties":{"q":{}},"required":["q"]}),
        )
        .with_provider(provider)
    }

    fn rtfs_cap(id: &str) -> CapabilityManifest {
        cap(id, ProviderSpec::Rtfs { body: "1".into() })
    }

    #[test]
    fn register_get_list_remove() {
        let mp = Marketplace::new().unwrap();
        mp.register(rtfs_cap("b.two")).unwrap();
        mp.register(rtfs_cap("a.one")).unwrap();
        assert!(matches!(
            mp.register(rtfs_cap("a.one")),
            Err(MarketplaceError::Duplicate(_))
        ));
        assert!(matches!(
            mp.register(rtfs_cap("bad id")),
            Err(MarketplaceError::InvalidId(_))
        ));
        let mut changed = rtfs_cap("a.one");
        changed.description = "changed".into();
        mp.replace(changed).unwrap();
        assert_eq!(mp.get("a.one").unwrap().description, "changed");
        assert_eq!(mp.ids(), ["a.one", "b.two"]);
        assert_eq!(mp.capability_cards()[0].expects_context_keys(), ["q"]);
        mp.remove("a.one").unwrap();
        assert!(mp.get("a.one").is_none());
        assert!(mp.remove("a.one").is_err());
        assert_eq!(mp.search("two", 5).unwrap()[0].0, "b.two");
    }

    #[test]
    fn persists_all_but_builtins() {
        let dir = tempfile::tempdir().unwrap();
        {
            let mp = Marketplace::open(dir.path()).unwrap();
            mp.replace(cap("ccos.x", ProviderSpec::Builtin)).unwrap();
            mp.replace_all(vec![rtfs_cap("imp.a"), rtfs_cap("imp.b")])
                .unwrap();
            mp.register_agent(AgentCard {
                id: "agent.one".into(),
                description: "helps".into(),
                skills: vec!["movies".into()],
                context_keys: vec!["title".into()],
                trust_tier: TrustTier::Trusted,
                plan: Some("(call :ccos.echo {:message \"hi\"})".into()),
            })
            .unwrap();
        }
        let mp = Marketplace::open(dir.path()).unwrap();
        assert_eq!(mp.ids(), ["imp.a", "imp.b"]);
        assert_eq!(mp.agent_cards()[0].skills, ["movies"]);
        assert_eq!(mp.search("imp", 5).unwrap().len(), 2);
    }

    #[test]
    fn corrupted_file_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CAPABILITIES_FILE), "{not json").unwrap();
        let e = Marketplace::open(dir.path()).unwrap_err().to_string();
        assert!(e.contains("corrupted catalog file"), "{e}");
        assert!(e.contains(CAPABILITIES_FILE), "{e}");
        std::fs::write(dir.path().join(CAPABILITIES_FILE), r#"{"version":7}"#).unwrap();
        let e = Marketplace::open(dir.path()).unwrap_err().to_string();
        assert!(e.contains("version 7"), "{e}");
    }

    #[test]
    fn shareable_across_threads() {
        fn send_sync<T: Send + Sync>(_: &T) {}
        fn send<T: Send>(_: &T) {}
        let mp = Marketplace::new().unwrap();
        send_sync(&mp);
        let fut = mp.call("x", vec![]);
        send(&fut);
    }

    struct Echo;
    impl CapabilityExecutor for Echo {
        fn provider(&self) -> &'static str {
            "rtfs"
        }
        fn call<'a>(
            &'a self,
            manifest: &'a CapabilityManifest,
            args: Vec<rtfs::Value>,
        ) -> crate::BoxFuture<'a, Result<rtfs::Value, CallError>> {
            Box::pin(async move {
                Ok(rtfs::Value::vector(
                    std::iter::once(rtfs::Value::string(&manifest.id))
                        .chain(args)
                        .collect(),
                ))
            })
        }
    }

    #[tokio::test]
    async fn call_dispatches_and_suggests() {
        let mp = Marketplace::new().unwrap();
        mp.register(rtfs_cap("ccos.math.add")).unwrap();
        mp.register(cap("ccos.echo", ProviderSpec::Builtin))
            .unwrap();
        let e = mp.call("ccos.math.ad", vec![]).await.unwrap_err();
        assert!(matches!(e, CallError::NoExecutor { .. }));
        assert!(e.to_string().contains("did you mean ccos.math.add"), "{e}");
        let e = mp.call("ccos.math.add", vec![]).await.unwrap_err();
        assert!(e.to_string().contains("provider rtfs"), "{e}");
        mp.register_executor(Arc::new(Echo));
        let v = mp
            .call("ccos.math.add", vec![rtfs::Value::Int(2)])
            .await
            .unwrap();
        assert_eq!(v.to_string(), "[\"ccos.math.add\" 2]");
    }
}
