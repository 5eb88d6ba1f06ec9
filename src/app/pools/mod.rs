//! One pool and its nodes.

mod detail;

pub use detail::PoolPage;
