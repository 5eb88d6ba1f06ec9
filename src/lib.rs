//! nks-console: a browser console for Nirvana Labs NKS.
//!
//! Layers, each the only place for its concern:
//! - [`rules`]: pure rules (validation, outcomes, operation states, immutability,
//!   backoff), no browser types, tested on the host;
//! - [`api`]: wire types, and in the browser the one HTTP client;
//! - `ops` (browser only): the operations tracker, the only poller;
//! - `app` (browser only): views that read signals and call the client.

pub mod api;
pub mod rules;

#[cfg(target_arch = "wasm32")]
pub mod app;
#[cfg(target_arch = "wasm32")]
pub mod ops;
