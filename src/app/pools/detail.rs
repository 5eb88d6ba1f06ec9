use crate::app::paths::A;
use leptos::prelude::*;

use crate::api::types::{Node, Pool, PoolUpdate, PriceNow};
use crate::app::clusters::figure_view;
use crate::app::components::{tag_list, Column, CopyableId, ErrorView, StatusBadge, Table, Time};
use crate::app::context::{after_ops, live, page_title};
use crate::app::not_found::Missing;
use crate::app::operations::InFlightBanner;
use crate::app::paths::params::{route, PoolRoute};
use crate::app::paths::to;
use crate::app::pools::delete_pool_dialog::{DeleteNodeDialog, DeletePoolDialog};
use crate::app::pools::kept_deletes::KeptDeletes;
use crate::app::pools::size_history::{PoolRead, SizeHistory};
use crate::ops::Ops;
use crate::rules::capacity::leaves_no_baseline;
use crate::rules::footprint::{readiness, Figure};
use crate::rules::money;
use crate::rules::outcome::ApiError;

/// One pool, or "Pool not found" when the API knows no such pool in the cluster.
#[component]
pub fn PoolPage() -> impl IntoView {
    let route = route::<PoolRoute>();
    let pool_id = Memo::new(move |_| route.read().pool_id.clone());
    let missing = RwSignal::new(false);
    Effect::watch(
        move || pool_id.get(),
        move |_, _, _| missing.set(false),
        false,
    );
    let cluster_href = move || route.with(|r| to::cluster(&r.project_id, &r.cluster_id));
    view! {
        <Show
            when=move || !missing.get()
            fallback=move || view! {
                <Missing what="Pool" id=pool_id.get() back=cluster_href() back_label="← Cluster" />
            }
        >
            <PoolView missing />
        </Show>
    }
}

/// One pool: its fields, its nodes, and what can be done to it.
#[component]
fn PoolView(missing: RwSignal<bool>) -> impl IntoView {
    let ops = expect_context::<Ops>();
    let route = route::<PoolRoute>();
    let project_id = move || route.read().project_id.clone();
    let cluster_id = move || route.read().cluster_id.clone();
    let pool_id = move || route.read().pool_id.clone();
    // Re-read when an operation ends and every few seconds: the autoscaler changes
    // node counts behind the person's back.
    let ids = move || (cluster_id(), pool_id());
    let pool = live(ids, |client, (c, p)| async move {
        futures_util::future::try_join(client.pool(&c, &p), client.pools(&c)).await
    });
    // The cluster, for its name (the way back, the tab's title).
    let cluster_name = after_ops(cluster_id, |client, c| async move {
        client.cluster(&c).await.map(|c| c.name).ok()
    });
    let cluster_name = move || cluster_name.get().flatten();
    Effect::new(move |_| {
        if pool.with(|read| matches!(read, Some(Err(error)) if error.is_not_found())) {
            missing.set(true);
        }
    });
    // The delete dialog holds what is typed and a delete's progress: it is built
    // once per pool, not on every refresh, and reads the counts it shows from here.
    let identity = Memo::new(move |_| {
        pool.with(|read| match read {
            Some(Ok((p, _))) => Some((p.id.clone(), p.name.clone())),
            _ => None,
        })
    });
    let node_count = Signal::derive(move || {
        pool.with(|read| match read {
            Some(Ok((p, _))) => p.node_count,
            _ => 0,
        })
    });
    let no_baseline = Signal::derive(move || {
        pool.with(|read| {
            matches!(read, Some(Ok((p, siblings))) if leaves_no_baseline(siblings, &p.id, None))
        })
    });
    let cost = monthly_cost(ids);
    let nodes = live(
        ids,
        |client, (c, p)| async move { client.nodes(&c, &p).await },
    );
    let back = move || to::cluster(&project_id(), &cluster_id());
    let edit = move || to::edit_pool(&project_id(), &cluster_id(), &pool_id());
    let in_flight = Memo::new(move |_| ops.in_flight_on(&pool_id()));
    let blocked = Signal::derive(move || {
        in_flight.get().map(|t| {
            format!(
                "An operation is in flight on this pool ({} {}); wait for it to end.",
                t.op.op_type.as_str(),
                t.op.status.as_str()
            )
        })
    });
    let deleting_node = RwSignal::new(None::<Node>);
    let kept = KeptDeletes::open();
    // The size history is read again when the pool reads differently.
    let pool_read = Memo::new(move |_| {
        pool.with(|read| match read {
            Some(Ok((p, _))) => Some(PoolRead {
                project_id: project_id(),
                pool_id: p.id.clone(),
                created_at: p.created_at.clone(),
                node_count: i64::from(p.node_count),
                status: p.status.as_str().to_string(),
                updated_at: p.updated_at.clone(),
            }),
            _ => None,
        })
    });
    let node_ids = Signal::derive(move || {
        nodes.with(|read| match read {
            Some(Ok(list)) => list.iter().map(|n| n.id.clone()).collect(),
            _ => Vec::new(),
        })
    });
    page_title(move || {
        let pool = identity.with(|i| i.as_ref().map(|(_, name)| name.clone()));
        vec![pool.unwrap_or_default(), cluster_name().unwrap_or_default()]
    });

    view! {
        <section class="page">
            <p class="breadcrumb"><A href=back>{move || format!("← {}", cluster_name().unwrap_or_else(|| "Cluster".into()))}</A></p>
            <Transition fallback=|| view! { <p class="loading">"Loading pool…"</p> }>
                {move || {
                    pool.get()
                        .map(|result| match result {
                            Err(error) => view! { <ErrorView error retry=move |_| pool.refetch() /> }.into_any(),
                            Ok((p, _)) => view! { <PoolFields pool=p /> }.into_any(),
                        })
                }}
            </Transition>
            <PoolFigures cost nodes />
            <InFlightBanner resource_id=Signal::derive(pool_id) />
            <p class="actions">
                <A href=edit attr:class="btn">"Edit or scale"</A>
            </p>
            <NodesSection nodes deleting=deleting_node />
            <SizeHistory pool=pool_read nodes=node_ids kept />
            <h2>"Volumes"</h2>
            {crate::app::lazy::pool_volumes()}
            {move || deleting_node.get().map(|node| view! {
                <DeleteNodeDialog node kept on_close=Callback::new(move |_| deleting_node.set(None)) />
            })}
            {move || identity.get().map(|(pool_id, pool_name)| view! {
                <DeletePoolDialog pool_id pool_name node_count no_baseline blocked
                    now=Signal::derive(move || pool.get().and_then(Result::ok).map(|(p, _)| nks_code::Resource::Pool(p))) />
            })}
        </section>
    }
}

/// What the pool costs a month, as the API prices it as it is (the quote of
/// an unchanged pool: its `before`), read again with the pool.
fn monthly_cost(
    ids: impl Fn() -> (String, String) + 'static,
) -> LocalResource<Result<String, ApiError>> {
    live(ids, |client, (c, p)| async move {
        client
            .pool_update_cost::<PriceNow>(&c, &p, &PoolUpdate::default())
            .await
            .map(|q| money::format(&q.before.monthly_total, &q.currency))
    })
}

/// The pool's monthly cost and its nodes' readiness, each said unreadable when it is.
#[component]
fn PoolFigures(
    cost: LocalResource<Result<String, ApiError>>,
    nodes: LocalResource<Result<Vec<Node>, ApiError>>,
) -> impl IntoView {
    view! {
        <ul class="figures" aria-label="Cost and readiness">
            <li>
                <span class="figure-label">"Monthly cost "</span>
                <span class="figure">{move || figure_view(cost.get().map(|read| match read {
                    Ok(text) => Figure::Exact(text),
                    Err(e) => Figure::Unreadable(format!("The cost could not be read: {}", e.explain())),
                }))}</span>
            </li>
            <li>
                <span class="figure-label">"Nodes "</span>
                <span class="figure">{move || figure_view(nodes.get().map(|read| match read {
                    Ok(list) => Figure::Exact(readiness(&list)),
                    Err(e) => Figure::Unreadable(format!("The nodes could not be read: {}", e.explain())),
                }))}</span>
            </li>
        </ul>
    }
}

/// The pool's nodes: loading, unreadable, none, or their table.
#[component]
fn NodesSection(
    nodes: LocalResource<Result<Vec<Node>, ApiError>>,
    deleting: RwSignal<Option<Node>>,
) -> impl IntoView {
    view! {
        <h2>"Nodes"</h2>
        <Transition fallback=|| view! { <p class="loading">"Loading nodes…"</p> }>
            {move || {
                nodes
                    .get()
                    .map(|result| match result {
                        Err(error) => view! { <ErrorView error retry=move |_| nodes.refetch() /> }.into_any(),
                        Ok(list) if list.is_empty() => {
                            view! { <p class="empty">"No nodes: this pool is scaled to zero."</p> }.into_any()
                        }
                        Ok(list) => view! { <NodeTable nodes=list deleting /> }.into_any(),
                    })
            }}
        </Transition>
    }
}

#[component]
fn NodeTable(nodes: Vec<Node>, deleting: RwSignal<Option<Node>>) -> impl IntoView {
    let columns = vec![
        Column::new("Name", |n: &Node| n.name.clone().into_any())
            .class("name")
            .title(|n: &Node| n.name.clone()),
        Column::new("Private IP", |n: &Node| {
            n.private_ip
                .clone()
                .unwrap_or_else(|| "—".into())
                .into_any()
        }),
        Column::new("Status", |n: &Node| {
            let in_flight = node_in_flight(&n.id);
            let read_status = n.status.as_str().to_string();
            let status = Signal::derive(move || {
                if in_flight.get() {
                    "deleting".to_string()
                } else {
                    read_status.clone()
                }
            });
            view! { <StatusBadge status /> }.into_any()
        }),
        Column::new("Created", |n: &Node| {
            view! { <Time at=n.created_at.clone() /> }.into_any()
        }),
        Column::new("Actions", move |n: &Node| {
            view! { <DeleteNodeButton node=n.clone() deleting /> }.into_any()
        })
        .head_hidden(),
    ];
    // Keyed by the whole node: a node whose status or address changed is drawn
    // again, an unchanged one keeps its row.
    view! { <Table label="Nodes" rows=nodes columns /> }
}

/// A delete this console sent on node `id`, before the node is read again.
fn node_in_flight(id: &str) -> Memo<bool> {
    let ops = expect_context::<Ops>();
    let id = id.to_string();
    Memo::new(move |_| ops.in_flight_on(&id).is_some())
}

/// Opens the node's delete; disabled, with the reason, while a change to it is under way.
#[component]
fn DeleteNodeButton(node: Node, deleting: RwSignal<Option<Node>>) -> impl IntoView {
    let label = format!("Delete node {}", node.name);
    let reason_id = format!("node-busy-{}", node.id);
    let in_flight = node_in_flight(&node.id);
    view! {
        <button class="btn btn-quiet" aria-label=label
            aria-describedby={
                let reason_id = reason_id.clone();
                move || in_flight.get().then(|| reason_id.clone())
            }
            disabled=move || in_flight.get()
            on:click=move |_| deleting.set(Some(node.clone()))>
            "Delete"
        </button>
        {move || in_flight.get().then(|| view! {
            <p class="field-hint" id=reason_id.clone()>"A change to it is in flight; wait for it to end."</p>
        })}
    }
}

#[component]
fn PoolFields(pool: Pool) -> impl IntoView {
    let status = pool.status.as_str().to_string();
    let boot = format!(
        "{} GB {}",
        pool.node_config.boot_volume.size,
        pool.node_config.boot_volume.volume_type.as_str()
    );
    view! {
        <header class="page-header">
            <h1>{pool.name.clone()}</h1>
            <StatusBadge status />
        </header>
        <dl class="fields">
            <dt>"ID"</dt>
            <dd><CopyableId id=pool.id.clone() what="pool ID" /></dd>
            <dt>"Node count"</dt>
            <dd>{pool.node_count}</dd>
            <dt>"Instance type"</dt>
            <dd>{pool.node_config.instance_type}</dd>
            <dt>"Boot volume"</dt>
            <dd>{boot}</dd>
            <dt>"Labels"</dt>
            <dd>{tag_list(&pool.node_config.labels)}</dd>
            <dt>"Taints"</dt>
            <dd>{tag_list(&pool.node_config.taints)}</dd>
            <dt>"Tags"</dt>
            <dd>{tag_list(&pool.tags)}</dd>
            <dt>"Created"</dt>
            <dd><Time at=pool.created_at.clone() /></dd>
        </dl>
    }
}
