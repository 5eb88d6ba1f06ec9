//! Networking: a project's VPCs, one VPC with its firewall rules (add, edit,
//! delete, each followed by the tracker), and deleting a VPC.

mod delete_vpc;
mod rule_form;
mod vpc_list;
mod vpc_page;

use leptos::prelude::*;

use crate::api::types::Cluster;
use crate::app::paths::params::{route, NetworkingRoute};
use vpc_list::VpcListPage;
use vpc_page::VpcPage;

/// Both networking addresses, the list and one VPC: one page's code (one split,
/// fetched once), which shows the one the address names.
#[component]
pub fn NetworkingPage() -> impl IntoView {
    let route = route::<NetworkingRoute>();
    let one_vpc = Memo::new(move |_| route.with(|r| r.vpc_id.is_some()));
    move || {
        if one_vpc.get() {
            view! { <VpcPage /> }.into_any()
        } else {
            view! { <VpcListPage /> }.into_any()
        }
    }
}

/// The cluster that uses the VPC `vpc_id`, if any (one cluster per VPC).
fn user_of<'a>(clusters: &'a [Cluster], vpc_id: &str) -> Option<&'a Cluster> {
    clusters.iter().find(|c| c.vpc_id == vpc_id)
}
