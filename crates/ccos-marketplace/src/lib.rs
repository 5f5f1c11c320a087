//! # The capability marketplace
//!
//! Plans act only through capabilities. This crate holds what a capability
//! *is* ([`manifest`]) and how one is executed ([`executor`]); the
//! marketplace registry, its search index, the agent registry, the built-in
//! capabilities and the OpenAPI provider build on these.

#![warn(missing_docs)]

pub mod executor;
pub mod manifest;

pub use executor::{BoxFuture, CallError, CapabilityExecutor};
pub use manifest::{CapabilityManifest, Effect, ProviderSpec, TrustTier};
