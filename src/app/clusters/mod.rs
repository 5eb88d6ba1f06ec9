//! Clusters of a project, one cluster with its pools, and the cluster forms.

mod create_cluster_form;
mod delete_cluster_dialog;
mod detail;
mod edit_cluster_form;
mod kubeconfig;
mod list;

pub use create_cluster_form::CreateClusterPage;
pub use detail::ClusterPage;
pub use edit_cluster_form::EditClusterPage;
pub use list::ClusterList;
