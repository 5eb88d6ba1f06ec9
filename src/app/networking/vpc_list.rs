//! The project's VPCs: name, region, subnet, status, and the cluster using each.

use leptos::prelude::*;

use super::user_of;
use crate::api::types::{Cluster, Vpc};
use crate::app::components::{Column, ErrorView, StatusBadge, Table};
use crate::app::context::{live, page_title, Projects};
use crate::app::paths::href;
use crate::app::paths::params::{route, NetworkingRoute};
use crate::app::paths::to;

#[component]
pub fn VpcListPage() -> impl IntoView {
    let route = route::<NetworkingRoute>();
    let project_id = move || route.read().project_id.clone();
    let projects = expect_context::<Projects>();
    page_title(move || {
        vec![
            "Networking".into(),
            projects.name(&project_id()).unwrap_or_default(),
        ]
    });
    // The VPCs and the clusters (for "used by") are read together: a VPC is
    // never shown as unused because the clusters could not be read.
    let read = live(project_id, |client, project| async move {
        futures_util::future::try_join(client.vpcs(&project), client.clusters::<Cluster>(&project))
            .await
    });
    view! {
        <section class="page">
            <header class="page-header"><h1>"Networking"</h1></header>
            <p class="muted">
                "Each cluster lives in a VPC; the VPC's firewall rules decide what reaches it. "
                "NKS creates no rules of its own."
            </p>
            <h2>"VPCs"</h2>
            <Transition fallback=|| view! { <p class="loading">"Loading VPCs…"</p> }>
                {move || read.get().map(|result| match result {
                    Err(error) => view! { <ErrorView error retry=move |_| read.refetch() /> }.into_any(),
                    Ok((vpcs, _)) if vpcs.is_empty() => view! {
                        <p class="empty">"This project has no VPCs."</p>
                    }.into_any(),
                    Ok((vpcs, clusters)) => view! { <VpcTable vpcs clusters project=project_id() /> }.into_any(),
                })}
            </Transition>
        </section>
    }
}

/// A row as shown: keyed by all of it, so a changed VPC is drawn again.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Row {
    id: String,
    name: String,
    region: String,
    subnet: String,
    status: String,
    /// The cluster using it: `(id, name)`.
    user: Option<(String, String)>,
}

#[component]
fn VpcTable(vpcs: Vec<Vpc>, clusters: Vec<Cluster>, project: String) -> impl IntoView {
    let rows: Vec<Row> = vpcs
        .into_iter()
        .map(|v| Row {
            user: user_of(&clusters, &v.id).map(|c| (c.id.clone(), c.name.clone())),
            subnet: v
                .subnet
                .as_ref()
                .map(|s| s.cidr.clone())
                .unwrap_or_else(|| "none".into()),
            status: v.status.as_str().to_string(),
            id: v.id,
            name: v.name,
            region: v.region,
        })
        .collect();
    let columns = vec![
        Column::new("Name", {
            let project = project.clone();
            move |row: &Row| {
                let vpc_href = href(&to::vpc(&project, &row.id));
                view! { <a href=vpc_href>{row.name.clone()}</a> }.into_any()
            }
        }),
        Column::new("Region", |row: &Row| row.region.clone().into_any()),
        Column::new("Subnet", |row: &Row| {
            view! { <code>{row.subnet.clone()}</code> }.into_any()
        })
        .class("nowrap"),
        Column::new("Status", |row: &Row| {
            view! { <StatusBadge status=row.status.clone() /> }.into_any()
        }),
        Column::new("Used by", move |row: &Row| match &row.user {
            Some((id, name)) => {
                let cluster_href = href(&to::cluster(&project, id));
                view! { <a href=cluster_href>{name.clone()}</a> }.into_any()
            }
            None => view! { <span class="muted">"no cluster"</span> }.into_any(),
        }),
    ];
    view! { <Table label="VPCs" rows columns /> }
}
