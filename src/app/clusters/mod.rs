//! Clusters of a project, and one cluster with its pools.

mod detail;
mod list;

pub use detail::ClusterPage;
pub use list::ClusterList;
