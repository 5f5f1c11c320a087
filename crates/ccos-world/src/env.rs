//! The environment variables a world reads, captured once.
//!
//! Library crates below the world never read the environment; the world
//! reads it only through an [`Env`], which the CLI captures from the
//! process ([`Env::process`]) and tests build explicitly ([`Env::from_pairs`]).

use std::collections::BTreeMap;

/// A snapshot of environment variables.
#[derive(Debug, Clone, Default)]
pub struct Env {
    vars: BTreeMap<String, String>,
}

impl Env {
    /// The current process's environment (non-UTF-8 variables skipped).
    pub fn process() -> Env {
        Env {
            vars: std::env::vars().collect(),
        }
    }

    /// An environment with just these variables.
    pub fn from_pairs<K: Into<String>, V: Into<String>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Env {
        Env {
            vars: pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        }
    }

    /// A variable's value; empty values count as unset.
    pub fn get(&self, name: &str) -> Option<String> {
        self.vars.get(name).filter(|v| !v.is_empty()).cloned()
    }
}
