//! Clusters of a project, one cluster with its pools, and the cluster forms.

mod controllers;
mod create;
mod delete_cluster_dialog;
mod detail;
mod edit_cluster_form;
mod figures;
mod kubeconfig;
mod list;
mod list_filters;
mod load_balancers;
mod pool_pages;
mod pool_reads;
mod pools_section;
mod pvcs;
mod reachability;
mod read_slots;
mod row_figures;

pub use controllers::ControllerList;
pub use create::{waiting_pool_link, CreateClusterPage};
pub use detail::ClusterPage;
pub use edit_cluster_form::EditClusterPage;
pub(crate) use figures::figure_view;
pub use figures::ClusterFigures;
pub use list::ClusterList;
pub use load_balancers::LoadBalancerList;
pub use pvcs::PvcList;
pub use reachability::ReachabilitySection;
