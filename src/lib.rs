//! nks-console: a browser console for Nirvana Labs NKS.
//!
//! Layers, each the only place for its concern:
//! - [`rules`]: pure rules (validation, outcomes, operation states, immutability,
//!   backoff), no browser types, tested on the host;
//! - [`api`]: wire types, and in the browser the one HTTP client;
//! - `ops` (browser only): the operations tracker, the only poller;
//! - `app` (browser only): views that read signals and call the client.

/// Calls a split point (a function marked `wasm_split`): in the split build the
/// call fetches its module first and must be awaited; in a plain build (tests) it
/// is an ordinary call. Either way the result is the function's `Result`.
#[cfg(target_arch = "wasm32")]
macro_rules! split_call {
    ($call:expr) => {{
        #[cfg(nks_split)]
        let loaded = $call.await;
        #[cfg(not(nks_split))]
        let loaded = $call;
        loaded
    }};
}

/// A split module's code could not be fetched: the error of every split point
/// (`split_call!`), whose callers show it or ask again later.
#[cfg(target_arch = "wasm32")]
pub struct SplitLoadError;

#[cfg(nks_split)]
impl From<wasm_split_helpers::SplitLoaderError> for SplitLoadError {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        SplitLoadError
    }
}

pub mod api;
pub mod rules;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod ops;
