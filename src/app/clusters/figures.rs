//! Capacity and cost where the cluster is shown: the clusters list's columns
//! (nodes, vCPU, memory, monthly cost of each cluster), the cluster page's
//! summary line and each pool's share.
//!
//! Sizes are summed from the pools and the instance types (`rules::footprint`);
//! the monthly cost is the API's own quote for the cluster as it is (the cost of
//! an empty update: its `before`), never a sum of floats. A figure that cannot be
//! read says "—" and why; one still being read says "…" or "≥".
//!
//! Every read here waits for one of [`MAX_READS`](super::read_slots::MAX_READS)
//! slots: forty clusters are forty pool lists and forty quotes, and a page of
//! many pools as many node reads; none of them is fired all at once.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use leptos::prelude::*;

use super::read_slots::slot;
pub use super::row_figures::ClusterFigures;
use crate::api::client::Client;
use crate::api::decode::Sourced;
use crate::api::types::{ClusterUpdate, InstanceSize, Node, Pool, PriceNow, ResourceStatus};
use crate::rules::footprint::{Figure, Footprint};
use crate::rules::money;
use crate::rules::outcome::ApiError;
use crate::rules::paged::{partial_sum_note, Listing};

/// A read of a cluster's pools, as the cluster page makes it: each with its
/// text (rows are keyed by it), shared, and the page that could not be read if
/// one could not (the pools read are then not all of them).
pub type PoolListing = Listing<Arc<Sourced<Pool>>>;

/// The pools as the cluster page shows them: `None` while the first read is
/// under way, `Err` when not one page could be read.
pub type PoolsRead = Signal<Option<Result<Arc<PoolListing>, ApiError>>>;

thread_local!(static TYPES: RefCell<Option<Arc<Vec<InstanceSize>>>> = const { RefCell::new(None) });

// By "cluster id/node id", so that one cluster's are a range of keys.
thread_local!(static NODES_SEEN: RefCell<BTreeMap<String, String>> = const { RefCell::new(BTreeMap::new()) });

/// Keeps the nodes read (cluster, id, name): an operation on a node names no
/// pool or cluster, and once the node is deleted no read lists it any more.
fn remember_nodes(cluster_id: &str, nodes: &[Node]) {
    NODES_SEEN.with_borrow_mut(|seen| {
        for n in nodes {
            seen.insert(format!("{cluster_id}/{}", n.id), n.name.clone());
        }
    });
}

/// The nodes of `cluster_id` read in this tab, deleted ones too: id → name.
pub fn nodes_seen(cluster_id: &str) -> BTreeMap<String, String> {
    let prefix = format!("{cluster_id}/");
    NODES_SEEN.with_borrow(|seen| {
        seen.range(prefix.clone()..)
            .map_while(|(key, name)| Some((key.strip_prefix(&prefix)?.to_string(), name.clone())))
            .collect()
    })
}

/// The instance types, read once and kept: every figure needs them, and they do
/// not change while the console is open. A failed read is not kept.
pub async fn instance_types(client: &Client) -> Result<Arc<Vec<InstanceSize>>, ApiError> {
    if let Some(kept) = TYPES.with(|t| t.borrow().clone()) {
        return Ok(kept);
    }
    let _permit = slot().await;
    // Another figure may have read them while this one waited.
    if let Some(kept) = TYPES.with(|t| t.borrow().clone()) {
        return Ok(kept);
    }
    let types = Arc::new(client.instance_types::<InstanceSize>().await?);
    TYPES.with(|t| *t.borrow_mut() = Some(types.clone()));
    Ok(types)
}

/// The cluster's monthly cost as the API prices it now, formatted exactly.
pub async fn cluster_cost(client: &Client, cluster_id: &str) -> Result<String, ApiError> {
    let _permit = slot().await;
    let quote: PriceNow = client
        .cluster_update_cost(cluster_id, &ClusterUpdate::default())
        .await?;
    Ok(money::format(&quote.before.monthly_total, &quote.currency))
}

/// Why vCPU and memory cannot be read when the instance types could not be.
pub(super) fn types_failed(error: &ApiError) -> String {
    format!("The instance types could not be read: {}", error.explain())
}

/// Why no size can be read when the pools could not be.
pub(super) fn pools_failed(error: &ApiError) -> String {
    format!("The pools could not be read: {}", error.explain())
}

/// A figure, with what it means for one who cannot hover (`None`: being read).
pub fn figure_view(figure: Option<Figure>) -> AnyView {
    match figure {
        None => view! {
            <span title="Being read">"…"</span><span class="visually-hidden">" being read"</span>
        }
        .into_any(),
        Some(f) => {
            let note = f.note();
            view! {
                <span title=note.clone()>{f.text()}</span>
                {note.map(|n| view! { <span class="visually-hidden">{format!(" ({n})")}</span> })}
            }
            .into_any()
        }
    }
}

/// The pools' shares of the cluster, for the pools table: the instance types and
/// the cluster's total vCPU, or why it is not known (a pool's size is not, or
/// not every pool could be read).
#[derive(Clone, Debug, PartialEq)]
pub struct Shares {
    pub types: Arc<Vec<InstanceSize>>,
    pub region: String,
    pub total_vcpu: Result<u64, String>,
}

impl Shares {
    /// A pool's share of the cluster's vCPU, as shown in its row.
    pub fn of(&self, pool: &Pool) -> Figure {
        let Some((vcpu, _)) = crate::rules::footprint::pool_size(
            (pool.node_config.instance_type.as_str(), pool.node_count),
            &self.types,
            &self.region,
        ) else {
            return Figure::Unreadable(format!(
                "Unknown instance type {}: its size is not listed",
                pool.node_config.instance_type
            ));
        };
        match &self.total_vcpu {
            Ok(total) => Figure::Exact(crate::rules::footprint::share(vcpu, *total)),
            Err(why) => Figure::Unreadable(format!("The cluster's total is not known: {why}")),
        }
    }
}

/// The cluster page's summary: nodes ready of all, vCPU, memory, monthly cost.
/// Nodes are counted ready from each pool's node list, read a few at a time, for
/// a cluster of up to [`READY_POOLS`] pools; beyond that each pool's page says.
#[component]
pub fn ClusterSummaryLine(
    cluster_id: Signal<String>,
    region: Signal<String>,
    /// The pools as the page read them.
    pools: PoolsRead,
    /// The instance types (`None`: being read).
    types: Signal<Option<Result<Arc<Vec<InstanceSize>>, ApiError>>>,
    /// The monthly cost (`None`: being read).
    cost: Signal<Option<Result<String, ApiError>>>,
) -> impl IntoView {
    let client = expect_context::<Client>();
    // What the ready count depends on: each pool's id, size and status.
    // With a page of pools unread, their count is the API's total.
    let shape = Memo::new(move |_| {
        pools.with(|p| match p {
            Some(Ok(list)) => Some((
                list.items
                    .iter()
                    .map(|p| (p.id.clone(), p.node_count, p.status.clone()))
                    .collect::<Vec<_>>(),
                list.gap.is_some(),
                list.total.unwrap_or(0).max(list.read()),
            )),
            _ => None,
        })
    });
    let ready = LocalResource::new(move || {
        let client = client.clone();
        let shape = shape.get();
        let cluster = cluster_id.get();
        async move {
            let (shape, gap, all) = shape?;
            if shape.len() > READY_POOLS || gap {
                return Some(Err(format!(
                    "Ready nodes are counted on each pool's page: this cluster has {}",
                    crate::rules::display::counted(all, "pool", "pools")
                )));
            }
            let mut nodes: Vec<Node> = Vec::new();
            for (pool_id, count, _) in shape {
                if count == 0 {
                    continue;
                }
                let _permit = slot().await;
                match client.nodes(&cluster, &pool_id).await {
                    Ok(list) => {
                        remember_nodes(&cluster, &list);
                        nodes.extend(list)
                    }
                    Err(e) => {
                        return Some(Err(format!("The nodes could not be read: {}", e.explain())))
                    }
                }
            }
            let ready = nodes
                .iter()
                .filter(|n| n.status == ResourceStatus::Ready)
                .count();
            Some(Ok(ready))
        }
    });
    // The sums, and why they are only of the pools read when a page of them
    // could not be: then each figure is a floor that says so, never a total.
    let footprint = Memo::new(move |_| {
        let types = types.get();
        pools.with(|p| match (p, types) {
            (None, _) | (_, None) => None,
            (Some(Err(e)), _) => Some(Err(pools_failed(e))),
            (Some(Ok(list)), types) => {
                let (known, why): (&[InstanceSize], _) = match &types {
                    Some(Ok(t)) => (t, None),
                    Some(Err(e)) => (&[], Some(types_failed(e))),
                    None => (&[], None),
                };
                Some(Ok((
                    Footprint::of(
                        list.items
                            .iter()
                            .map(|p| (p.node_config.instance_type.as_str(), p.node_count)),
                        known,
                        &region.get(),
                    ),
                    why,
                    partial_sum_note(list, "pools"),
                )))
            }
        })
    });
    let size = move |pick: fn(&Footprint) -> Figure, needs_types: bool| {
        footprint.with(|f| match f {
            None => None,
            Some(Err(why)) => Some(Figure::Unreadable(why.clone())),
            Some(Ok((_, Some(why), _))) if needs_types => Some(Figure::Unreadable(why.clone())),
            Some(Ok((f, _, part))) => Some(pick(f).of_part(part.as_deref())),
        })
    };
    let nodes = move || {
        let total = size(Footprint::nodes_figure, false);
        let ready = match ready.get().flatten() {
            None => None,
            Some(Ok(n)) => Some(Figure::Exact(crate::rules::display::count(n))),
            Some(Err(why)) => Some(Figure::Unreadable(why)),
        };
        // "2 of 3 ready" only when both sides can be told: a total that cannot
        // be read is "—" alone, and a ready count that cannot be (too many pools
        // to count) leaves the total and says where readiness is counted.
        match (ready, total) {
            (_, Some(Figure::Unreadable(why))) => figure_view(Some(Figure::Unreadable(why))),
            (Some(Figure::Unreadable(why)), total) => view! {
                {figure_view(total)}
                <span class="muted" title=why>" (ready: on each pool's page)"</span>
            }
            .into_any(),
            (ready, total) => {
                view! { {figure_view(ready)} " of " {figure_view(total)} " ready" }.into_any()
            }
        }
    };
    let cost_figure = move || {
        cost.get().map(|c| match c {
            Ok(text) => Figure::Exact(text),
            Err(e) => Figure::Unreadable(format!("The cost could not be read: {}", e.explain())),
        })
    };
    view! {
        <ul class="figures" aria-label="Capacity and cost">
            <li><span class="figure-label">"Nodes "</span><span class="figure">{nodes}</span></li>
            <li><span class="figure-label">"vCPU "</span><span class="figure">{move || figure_view(size(Footprint::vcpu_figure, true))}</span></li>
            <li><span class="figure-label">"Memory "</span><span class="figure">{move || figure_view(size(Footprint::memory_figure, true))}</span></li>
            <li><span class="figure-label">"Monthly cost "</span><span class="figure">{move || figure_view(cost_figure())}</span></li>
        </ul>
    }
}

/// Above this many pools, the cluster page does not read every pool's nodes to
/// count the ready ones.
pub const READY_POOLS: usize = 40;
