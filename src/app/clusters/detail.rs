use crate::app::paths::A;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use std::sync::Arc;

use crate::api::client::Client;
use crate::api::decode::Sourced;
use crate::api::types::{Cluster, Operation, Pool};
use crate::app::clusters::delete_cluster_dialog::DeleteClusterDialog;
use crate::app::clusters::kubeconfig::KubeconfigActions;
use crate::app::components::{tag_list, ErrorView, MarkupRows, StatusBadge};
use crate::app::operations::InFlightBanner;
use crate::app::perf::ListMarks;
use crate::app::shell::Refresh;
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::outcome::ApiError;

/// One cluster: its fields and its pools.
#[component]
pub fn ClusterPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let Refresh(refresh) = expect_context::<Refresh>();
    let params = use_params_map();
    let project_id = move || params.read().get("project_id").unwrap_or_default();
    let cluster_id = move || params.read().get("cluster_id").unwrap_or_default();
    // Re-read when an operation ends, and every few seconds while visible: the
    // autoscaler changes pools behind the person's back.
    let cluster = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let id = cluster_id();
            ops.revision.track();
            refresh.track();
            async move { client.cluster(&id).await }
        })
    };
    let pools = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let id = cluster_id();
            ops.revision.track();
            refresh.track();
            async move {
                // With their text, so each read is compared with the last cheaply,
                // and shared, so the table keeps what it shows without copying it.
                let list = client.pools::<Sourced<Pool>>(&id).await?;
                Ok::<_, ApiError>(list.into_iter().map(Arc::new).collect::<Vec<_>>())
            }
        })
    };
    let pools_state = Memo::new(move |_| {
        pools.with(|read| match read {
            None => ListState::Loading,
            Some(Err(error)) => ListState::Failed(error.clone()),
            Some(Ok(list)) if list.is_empty() => ListState::Empty,
            Some(Ok(_)) => ListState::Rows,
        })
    });
    // The table is built once; on each refresh only the rows whose pool changed are
    // rebuilt (see `MarkupRows`), so a 1,000-pool cluster stays cheap to follow
    // while the autoscaler moves one pool at a time.
    let pool_list = move || pools.with(|read| read.as_ref().and_then(|r| r.as_ref().ok()).cloned());
    let recent = LocalResource::new(move || {
        let client = client.clone();
        let (project, id) = (project_id(), cluster_id());
        ops.revision.track();
        async move {
            client
                .operations::<Operation>(
                    &project,
                    &[("resource_id", id), ("sort", "created_at:desc".into())],
                )
                .await
        }
    });
    // The parts with their own state (what is typed to confirm a delete and its
    // progress, a kubeconfig message) are built once per cluster, not on every
    // refresh, and read what they show from here.
    let identity = Memo::new(move |_| {
        cluster.with(|read| match read {
            Some(Ok(c)) => Some((c.id.clone(), c.name.clone())),
            _ => None,
        })
    });
    let pool_count = Signal::derive(move || {
        cluster.with(|read| match read {
            Some(Ok(c)) => c.pool_ids.len(),
            _ => 0,
        })
    });
    let in_flight = Memo::new(move |_| ops.in_flight_on(&cluster_id()));
    let blocked = Signal::derive(move || {
        in_flight.get().map(|t| {
            format!(
                "An operation is in flight on this cluster ({} {}); wait for it to end.",
                t.op.op_type.as_str(),
                t.op.status.as_str()
            )
        })
    });
    let base = move || format!("/projects/{}/clusters/{}", project_id(), cluster_id());

    view! {
        <section class="page">
            <Transition fallback=|| view! { <p class="loading">"Loading cluster…"</p> }>
                {move || {
                    cluster
                        .get()
                        .map(|result| match result {
                            Err(error) => view! { <ErrorView error retry=move |_| cluster.refetch() /> }.into_any(),
                            Ok(c) => view! { <ClusterFields cluster=c /> }.into_any(),
                        })
                }}
            </Transition>
            <InFlightBanner resource_id=Signal::derive(cluster_id) />
            <p class="actions">
                <A href=move || format!("{}/edit", base()) attr:class="btn">"Edit cluster"</A>
                <A href=move || format!("{}/pools/new", base()) attr:class="btn">"Add pool"</A>
                {move || identity.get().map(|(cluster_id, cluster_name)| view! { <KubeconfigActions cluster_id cluster_name /> })}
            </p>
            <h2>"Pools"</h2>
            {move || match pools_state.get() {
                ListState::Loading => view! { <p class="loading">"Loading pools…"</p> }.into_any(),
                ListState::Failed(error) => view! { <ErrorView error retry=move |_| pools.refetch() /> }.into_any(),
                ListState::Empty => view! { <p class="empty">"This cluster has no pools."</p> }.into_any(),
                ListState::Rows => view! { <PoolTable pools=pool_list base=Signal::derive(base) /> }.into_any(),
            }}
            <h2>"Recent operations"</h2>
            <Transition fallback=|| view! { <p class="loading">"Loading operations…"</p> }>
                {move || recent.get().map(|result| match result {
                    Err(error) => view! { <ErrorView error retry=move |_| recent.refetch() /> }.into_any(),
                    Ok(list) if list.is_empty() => view! { <p class="muted">"No operations on this cluster."</p> }.into_any(),
                    Ok(list) => view! {
                        <ul class="recent-ops" aria-label="Recent operations">
                            {list.into_iter().take(10).map(|op| {
                                let status = op.status.as_str().to_string();
                                view! {
                                    <li>
                                        {format!("{} {} ", op.op_type.as_str(), op.kind.as_str())}
                                        <StatusBadge status />
                                        <span class="muted">{format!(" {}", display::timestamp(&op.created_at))}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any(),
                })}
            </Transition>
            {move || identity.get().map(|(cluster_id, cluster_name)| view! { <DeleteClusterDialog cluster_id cluster_name pool_count blocked /> })}
        </section>
    }
}

#[component]
fn ClusterFields(cluster: Cluster) -> impl IntoView {
    let status = cluster.status.as_str().to_string();
    view! {
        <header class="page-header">
            <h1>{cluster.name.clone()}</h1>
            <StatusBadge status />
        </header>
        <dl class="fields">
            <dt>"Kubernetes version"</dt>
            <dd>{cluster.kubernetes_version}</dd>
            <dt>"Region"</dt>
            <dd>{cluster.region}</dd>
            <dt>"VPC"</dt>
            <dd><code>{cluster.vpc_id}</code></dd>
            <dt>"Autoscaling"</dt>
            <dd>{display::on_off(cluster.autoscaling)}</dd>
            <dt>"API endpoint (private)"</dt>
            <dd>{cluster.private_ip.filter(|ip| !ip.is_empty()).unwrap_or_else(|| "not assigned yet".into())}</dd>
            <dt>"Public IP"</dt>
            <dd>{cluster.public_ip.filter(|ip| !ip.is_empty()).unwrap_or_else(|| "not assigned yet".into())}</dd>
            <dt>"Tags"</dt>
            <dd>{tag_list(&cluster.tags)}</dd>
            <dt>"Created"</dt>
            <dd>{display::timestamp(&cluster.created_at)}</dd>
        </dl>
    }
}

#[derive(Clone, Debug, PartialEq)]
enum ListState {
    Loading,
    Failed(ApiError),
    Empty,
    Rows,
}

#[component]
fn PoolTable(
    pools: impl Fn() -> Option<Vec<Arc<Sourced<Pool>>>> + 'static,
    base: Signal<String>,
) -> impl IntoView {
    view! {
        <table class="table" aria-label="Pools">
            <thead>
                <tr>
                    <th scope="col">"Name"</th>
                    <th scope="col">"Instance type"</th>
                    <th scope="col">"Nodes"</th>
                    <th scope="col">"Status"</th>
                    <th scope="col">"Labels"</th>
                    <th scope="col">"Taints"</th>
                    <th scope="col">"Tags"</th>
                </tr>
            </thead>
            <MarkupRows
                items=pools
                id={|pool: &Sourced<Pool>| pool.id.as_str()}
                cells={move |pool: &Sourced<Pool>| {
                    let href = format!("{}/pools/{}", base.get_untracked(), pool.id);
                    display::pool_row_cells(pool, &crate::app::paths::href(&href))
                }}
                marks=ListMarks {
                    read: "nks:pools-loaded",
                    painted: "nks:pools-rendered",
                    updated: "nks:pools-updated",
                }
            />
        </table>
    }
}
