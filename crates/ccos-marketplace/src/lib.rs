//! # The capability marketplace
//!
//! Plans act only through capabilities. This crate holds what a capability
//! *is* ([`manifest`]) and how one is executed ([`executor`]); the
//! marketplace registry, its search index, the agent registry, the built-in
//! capabilities and the OpenAPI provider build on these.

#![warn(missing_docs)]

pub mod builtins;
pub mod executor;
pub mod http;
pub mod ids;
pub mod keys;
pub mod manifest;
pub mod marketplace;
pub mod openapi;
pub mod prompt;
pub mod schema;
pub mod search;

pub use ccos_core::{AgentCard, CapabilityCard};
pub use executor::{BoxFuture, CallError, CallOutput, CapabilityExecutor};
pub use manifest::{CapabilityManifest, Effect, ProviderSpec, TrustTier};
pub use marketplace::{Marketplace, MarketplaceError};
