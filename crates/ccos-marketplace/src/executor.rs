//! How a capability is executed.
//!
//! A [`CapabilityExecutor`] runs the capabilities of one provider kind
//! (built-ins, OpenAPI, MCP, RTFS-defined). The marketplace dispatches a call
//! to the executor registered for the manifest's provider. Executors are
//! async because most providers do network or process I/O; the orchestrator
//! bridges them to the synchronous RTFS host.

use std::future::Future;
use std::pin::Pin;

use crate::manifest::CapabilityManifest;

/// A boxed, sendable future (executors are used as trait objects).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Why a capability call failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CallError {
    /// The arguments do not fit the capability (wrong type, missing key).
    #[error("invalid arguments for {capability}: {message}")]
    InvalidArguments {
        /// The capability id.
        capability: String,
        /// What is wrong.
        message: String,
    },
    /// The capability ran and reported a failure.
    #[error("{capability} failed: {message}")]
    Failed {
        /// The capability id.
        capability: String,
        /// The provider's message.
        message: String,
    },
    /// A boundary the policy sets for the provider was crossed: a file
    /// outside the allowed roots (or written through a hard link), a host
    /// (or a redirect to a host) not in the HTTP allow-list. Nothing was
    /// done; the orchestrator treats this as a policy denial (exit 3).
    #[error("{capability} denied: {message}")]
    Denied {
        /// The capability id.
        capability: String,
        /// Which boundary, naming the path or host.
        message: String,
    },
    /// The capability was refused for another reason (no answer available
    /// for a question in a non-interactive run).
    #[error("{capability} refused: {message}")]
    Refused {
        /// The capability id.
        capability: String,
        /// Why.
        message: String,
    },
    /// The provider could not be reached or broke the protocol.
    #[error("provider for {capability} unavailable: {message}")]
    Unavailable {
        /// The capability id.
        capability: String,
        /// What happened.
        message: String,
    },
    /// No executor is registered for the capability's provider, or the
    /// capability is unknown.
    #[error("no executor for {capability}: {message}")]
    NoExecutor {
        /// The capability id.
        capability: String,
        /// Details.
        message: String,
    },
}

impl CallError {
    /// Shorthand for [`CallError::Failed`].
    pub fn failed(capability: &str, message: impl Into<String>) -> Self {
        CallError::Failed {
            capability: capability.into(),
            message: message.into(),
        }
    }

    /// Shorthand for [`CallError::InvalidArguments`].
    pub fn invalid(capability: &str, message: impl Into<String>) -> Self {
        CallError::InvalidArguments {
            capability: capability.into(),
            message: message.into(),
        }
    }

    /// Shorthand for [`CallError::Denied`].
    pub fn denied(capability: &str, message: impl Into<String>) -> Self {
        CallError::Denied {
            capability: capability.into(),
            message: message.into(),
        }
    }

    /// Shorthand for [`CallError::Refused`].
    pub fn refused(capability: &str, message: impl Into<String>) -> Self {
        CallError::Refused {
            capability: capability.into(),
            message: message.into(),
        }
    }

    /// Shorthand for [`CallError::Unavailable`].
    pub fn unavailable(capability: &str, message: impl Into<String>) -> Self {
        CallError::Unavailable {
            capability: capability.into(),
            message: message.into(),
        }
    }
}

/// A call's value and, when the provider has one, the result as the
/// provider sent it (an MCP `CallToolResult` as JSON).
#[derive(Debug, Clone, PartialEq)]
pub struct CallOutput {
    /// The result as an RTFS value (what a plan sees).
    pub value: rtfs::Value,
    /// The result as the provider sent it, for front ends that pass it on
    /// unchanged (the MCP gateway); `None` for providers without one.
    pub wire: Option<serde_json::Value>,
}

/// Executes capabilities of one provider kind.
pub trait CapabilityExecutor: Send + Sync {
    /// The provider label this executor serves (`builtin`, `mcp`, `openapi`, `rtfs`).
    fn provider(&self) -> &'static str;

    /// Runs `manifest` with evaluated RTFS arguments.
    fn call<'a>(
        &'a self,
        manifest: &'a CapabilityManifest,
        args: Vec<rtfs::Value>,
    ) -> BoxFuture<'a, Result<rtfs::Value, CallError>>;

    /// Like [`CapabilityExecutor::call`], also returning the result as the
    /// provider sent it when there is such a form (MCP tools override this;
    /// the default has none).
    fn call_with_wire<'a>(
        &'a self,
        manifest: &'a CapabilityManifest,
        args: Vec<rtfs::Value>,
    ) -> BoxFuture<'a, Result<CallOutput, CallError>> {
        Box::pin(async move {
            self.call(manifest, args)
                .await
                .map(|value| CallOutput { value, wire: None })
        })
    }
}
