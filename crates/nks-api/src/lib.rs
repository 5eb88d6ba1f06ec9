//! The Nirvana Labs API as both sides of this workspace speak it: the console
//! (`nks-console`) reads and writes these types, and the simulator (`nks-sim`)
//! validates with the same limits and is held to these shapes by its tests.
//!
//! - [`types`]: requests and responses, named as the API names them, tolerant of
//!   unknown fields and enum values;
//! - [`decode`]: JSON text to those types, with errors that say where;
//! - [`limits`]: the ranges and sets the API validates with;
//! - [`mutation`]: every change as the request that makes it (method, path, body).

pub mod decode;
pub mod limits;
pub mod mutation;
pub mod types;
