//! Networking: a project's VPCs, one VPC with its firewall rules (add, edit,
//! delete, each followed by the tracker), and deleting a VPC.

mod delete_vpc;
mod rule_form;
mod vpc_list;
mod vpc_page;

pub use vpc_list::VpcListPage;
pub use vpc_page::VpcPage;

use crate::api::types::Cluster;

/// The cluster that uses the VPC `vpc_id`, if any (one cluster per VPC).
fn user_of<'a>(clusters: &'a [Cluster], vpc_id: &str) -> Option<&'a Cluster> {
    clusters.iter().find(|c| c.vpc_id == vpc_id)
}
