//! "Create cluster": every choice comes from the API (versions, VPCs, regions),
//! and autoscaling is an explicit choice with no silent default.
//!
//! Only one cluster fits in a VPC, so the VPC select also offers "New VPC…"; and
//! a cluster without a pool never finishes provisioning, so the form also holds
//! the cluster's first pool (on by default, removable). Apply runs one async
//! function ([`flow`]): the new VPC, then the cluster in it, then the pool in the
//! cluster, each once the one before is done.
//!
//! - `state`: what is typed and what the form makes of it;
//! - `fields`, `first_pool`: the form's parts;
//! - `flow`: what Apply does, step by step; `progress`: the steps on screen;
//! - `kept`: the first pool kept in this tab, sent or dropped; `waiting`: one
//!   whose flow was left, where its cluster is shown.

mod fields;
mod first_pool;
mod flow;
mod form;
mod kept;
mod progress;
mod state;
mod waiting;

use futures_util::future::try_join4;
use leptos::prelude::*;

use crate::api::client::Client;
use crate::api::types::Cluster;
use crate::app::components::ErrorView;
use crate::app::context::{page_title, Projects};
use crate::app::paths::params::{route, ProjectRoute};
use crate::app::paths::{to, A};
use form::CreateClusterForm;
pub use waiting::{waiting_pool_link, WaitingPool};

#[component]
pub fn CreateClusterPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let route = route::<ProjectRoute>();
    let project_id = move || route.read().project_id.clone();
    let choices = LocalResource::new(move || {
        let client = client.clone();
        let project = project_id();
        async move {
            try_join4(
                client.kubernetes_versions(),
                client.vpcs(&project),
                client.regions(),
                client.clusters::<Cluster>(&project),
            )
            .await
        }
    });
    let list_href = move || to::clusters(&project_id());
    let projects = expect_context::<Projects>();
    page_title(move || {
        vec![
            "Create cluster".into(),
            projects.name(&project_id()).unwrap_or_default(),
        ]
    });
    view! {
        <section class="page">
            <p class="breadcrumb"><A href=list_href>"← Clusters"</A></p>
            <header class="page-header"><h1>"Create cluster"</h1></header>
            {move || match choices.get() {
                None => view! { <p class="loading">"Loading choices…"</p> }.into_any(),
                Some(Err(error)) => view! { <ErrorView error retry=move |_| choices.refetch() /> }.into_any(),
                Some(Ok(choices)) => view! { <CreateClusterForm choices /> }.into_any(),
            }}
        </section>
    }
}
