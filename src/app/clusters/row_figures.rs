//! The clusters list's capacity and cost cells for one cluster, read a page of
//! pools at a time once the list is drawn.

use std::sync::Arc;

use leptos::prelude::*;

use super::figures::{cluster_cost, figure_view, instance_types, pools_failed, types_failed};
use super::read_slots::slot;
use crate::api::client::Client;
use crate::api::types::PoolSize;
use crate::rules::footprint::{Figure, Footprint};
use crate::rules::outcome::ApiError;
use crate::rules::paged::{gap_title, Missing};

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
