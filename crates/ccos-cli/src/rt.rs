//! The async runtime bridge: subcommands are synchronous functions that
//! call [`block_on`] for the async parts (stores, MCP, HTTP).

use std::future::Future;

/// Runs a future to completion on a fresh multi-threaded tokio runtime.
#[allow(dead_code)]
pub fn block_on<F: Future>(fut: F) -> Result<F::Output, crate::exit::CliError> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| crate::exit::CliError::msg(format!("starting the async runtime: {e}")))?;
    Ok(rt.block_on(fut))
}
