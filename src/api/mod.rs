//! The Nirvana API as the console sees it: wire types (host-testable) and, in the
//! browser, the one client that speaks HTTP.

#[cfg(target_arch = "wasm32")]
pub mod client;
pub use nks_api::{decode, types};
