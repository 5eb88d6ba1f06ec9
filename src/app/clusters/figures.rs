//! Capacity and cost where the cluster is shown: the clusters list's columns
//! (nodes, vCPU, memory, monthly cost of each cluster), the cluster page's
//! summary line and each pool's share.
//!
//! Sizes are summed from the pools and the instance types (`rules::footprint`);
//! the monthly cost is the API's own quote for the cluster as it is (the cost of
//! an empty update: its `before`), never a sum of floats. A figure that cannot be
//! read says "—" and why; one still being read says "…" or "≥".
//!
//! Every read here waits for one of [`MAX_READS`] slots: forty clusters are
//! forty pool lists and forty quotes, and a page of many pools as many node
//! reads; none of them is fired all at once.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use leptos::prelude::*;

use crate::api::client::Client;
use crate::api::decode::Sourced;
use crate::api::types::{
    ClusterUpdate, InstanceSize, Node, Pool, PoolSize, PriceNow, ResourceStatus,
};
use crate::rules::footprint::{Figure, Footprint};
use crate::rules::money;
use crate::rules::outcome::ApiError;
use crate::rules::paged::{gap_title, partial_sum_note, Listing, Missing};

/// A read of a cluster's pools, as the cluster page makes it: each with its
/// text (rows are keyed by it), shared, and the page that could not be read if
/// one could not (the pools read are then not all of them).
pub type PoolListing = Listing<Arc<Sourced<Pool>>>;

/// The pools as the cluster page shows them: `None` while the first read is
/// under way, `Err` when not one page could be read.
pub type PoolsRead = Signal<Option<Result<Arc<PoolListing>, ApiError>>>;

/// Reads under way at once from these figures.
pub const MAX_READS: usize = 3;

#[derive(Default)]
struct Slots {
    busy: usize,
    next_ticket: u64,
    queue: VecDeque<(u64, Option<Waker>)>,
}

thread_local!(static SLOTS: RefCell<Slots> = RefCell::new(Slots::default()));

/// Waits for a slot, first come first served. Dropped while waiting (its page
/// left), it leaves the queue and the next in line moves up.
struct Acquire {
    ticket: Option<u64>,
    done: bool,
}

/// A slot held; freed when dropped.
pub struct Permit(());

impl Future for Acquire {
    type Output = Permit;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Permit> {
        let ticket = self.ticket;
        let got = SLOTS.with(|s| {
            let mut s = s.borrow_mut();
            let ticket = match ticket {
                Some(t) => t,
                None => {
                    let t = s.next_ticket;
                    s.next_ticket += 1;
                    s.queue.push_back((t, None));
                    t
                }
            };
            let first = s.queue.front().map(|(t, _)| *t) == Some(ticket);
            if first && s.busy < MAX_READS {
                s.queue.pop_front();
                s.busy += 1;
                (ticket, true)
            } else {
                if let Some(entry) = s.queue.iter_mut().find(|(t, _)| *t == ticket) {
                    entry.1 = Some(cx.waker().clone());
                }
                (ticket, false)
            }
        });
        self.ticket = Some(got.0);
        if got.1 {
            self.done = true;
            wake_next();
            Poll::Ready(Permit(()))
        } else {
            Poll::Pending
        }
    }
}

impl Drop for Acquire {
    fn drop(&mut self) {
        if let (Some(ticket), false) = (self.ticket, self.done) {
            SLOTS.with(|s| s.borrow_mut().queue.retain(|(t, _)| *t != ticket));
            wake_next();
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        SLOTS.with(|s| {
            let mut s = s.borrow_mut();
            s.busy = s.busy.saturating_sub(1);
        });
        wake_next();
    }
}

/// Wakes the first in line when a slot is free.
fn wake_next() {
    let waker = SLOTS.with(|s| {
        let s = s.borrow();
        if s.busy < MAX_READS {
            s.queue.front().and_then(|(_, w)| w.clone())
        } else {
            None
        }
    });
    if let Some(w) = waker {
        w.wake();
    }
}

/// A read slot (see [`MAX_READS`]).
pub fn slot() -> impl Future<Output = Permit> {
    Acquire {
        ticket: None,
        done: false,
    }
}

thread_local!(static TYPES: RefCell<Option<Arc<Vec<InstanceSize>>>> = const { RefCell::new(None) });

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
fn types_failed(error: &ApiError) -> String {
    format!("The instance types could not be read: {}", error.explain())
}

/// Why no size can be read when the pools could not be.
fn pools_failed(error: &ApiError) -> String {
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

thread_local!(static FILLING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) });

/// A row of the clusters list reading its figures. When the last row that was
/// reading is done, the list's figures are filled: the benchmark's
/// `nks:figures-filled` mark, set once they are drawn.
struct Filling;

impl Filling {
    fn start() -> Self {
        FILLING.with(|n| n.set(n.get() + 1));
        Filling
    }
}

impl Drop for Filling {
    fn drop(&mut self) {
        let left = FILLING.with(|n| {
            n.set(n.get().saturating_sub(1));
            n.get()
        });
        if left == 0 {
            crate::app::perf::mark_after_render("nks:figures-filled");
        }
    }
}

/// What a row of the clusters list has read so far.
#[derive(Clone, Debug, Default, PartialEq)]
struct RowRead {
    /// The pools summed so far (`None`: not started).
    footprint: Option<Result<Footprint, ApiError>>,
    /// Why the sums are over part of the pools: a page after the first could
    /// not be read.
    part: Option<String>,
    types: Option<Result<(), ApiError>>,
    cost: Option<Result<String, ApiError>>,
}

impl RowRead {
    fn size(&self, pick: fn(&Footprint) -> Figure, needs_types: bool) -> Option<Figure> {
        if needs_types {
            if let Some(Err(e)) = &self.types {
                return Some(Figure::Unreadable(types_failed(e)));
            }
        }
        match &self.footprint {
            None => None,
            Some(Err(e)) => Some(Figure::Unreadable(pools_failed(e))),
            Some(Ok(f)) => Some(pick(f).of_part(self.part.as_deref())),
        }
    }

    fn cost(&self) -> Option<Figure> {
        self.cost.as_ref().map(|c| match c {
            Ok(text) => Figure::Exact(text.clone()),
            Err(e) => Figure::Unreadable(format!("The cost could not be read: {}", e.explain())),
        })
    }
}

/// The clusters list's cells for one cluster: nodes, vCPU, memory and monthly
/// cost. The pools are read a page at a time and summed as they come ("≥"
/// meanwhile); a page that cannot be read leaves the sum of those before it,
/// said to be only that.
///
/// Read when the row is drawn: a changed cluster (a pool added or removed
/// changes its `pool_ids`) is a new row. A list left open keeps the figures it
/// read; the cluster's page reads its pools on every refresh.
#[component]
pub fn ClusterFigures(id: String, region: String) -> impl IntoView {
    let client = expect_context::<Client>();
    let read = RwSignal::new(RowRead::default());
    leptos::task::spawn_local(async move {
        let _filling = Filling::start();
        let cost = cluster_cost(&client, &id).await;
        if read.try_update(|r| r.cost = Some(cost)).is_none() {
            return; // the row is gone
        }
        let types = instance_types(&client).await;
        let known = types
            .as_ref()
            .map_or_else(|_| Arc::new(Vec::new()), Arc::clone);
        let _ = read.try_update(|r| r.types = Some(types.map(|_| ())));
        let mut sum = Footprint::default();
        let mut cursor: Option<String> = None;
        let mut total: Option<usize> = None;
        loop {
            let page = {
                let _permit = slot().await;
                client.pools_page::<PoolSize>(&id, cursor.as_deref()).await
            };
            let page = match page {
                Ok(page) => page,
                Err(e) if sum.pools == 0 => {
                    let _ = read.try_update(|r| r.footprint = Some(Err(e)));
                    return;
                }
                Err(e) => {
                    // As the cluster page says it: "pools 701–1,000 could not be read".
                    let read_so_far = sum.pools as usize;
                    let missing = Missing {
                        first: read_so_far + 1,
                        last: total.filter(|&t| t > read_so_far),
                    };
                    let part = format!(
                        "The sum of the {} read; {} {}",
                        crate::rules::display::counted(read_so_far, "pool", "pools"),
                        gap_title(missing, "pools"),
                        e.explain()
                    );
                    let _ = read.try_update(|r| r.part = Some(part));
                    return;
                }
            };
            total = page.pagination.as_ref().map(|p| p.total_count as usize);
            sum.add(
                page.items
                    .iter()
                    .map(|p| (p.node_config.instance_type.as_str(), p.node_count)),
                &known,
                &region,
            );
            let next = page.next_cursor().map(str::to_string);
            sum.complete = next.is_none() || next == cursor;
            let done = sum.complete;
            if read
                .try_update(|r| r.footprint = Some(Ok(sum.clone())))
                .is_none()
                || done
            {
                return;
            }
            cursor = next;
        }
    });
    let cell = move |figure: Signal<Option<Figure>>| {
        view! { <td class="figure">{move || figure_view(figure.get())}</td> }
    };
    view! {
        {cell(Signal::derive(move || read.with(|r| r.size(Footprint::nodes_figure, false))))}
        {cell(Signal::derive(move || read.with(|r| r.size(Footprint::vcpu_figure, true))))}
        {cell(Signal::derive(move || read.with(|r| r.size(Footprint::memory_figure, true))))}
        {cell(Signal::derive(move || read.with(RowRead::cost)))}
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
                    Ok(list) => nodes.extend(list),
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
        view! { {figure_view(ready)} " of " {figure_view(total)} " ready" }
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
