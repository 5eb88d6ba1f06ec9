//! The cluster page's pools section: the pools read, or why there are none, and
//! where pages of them could not be read.

use leptos::prelude::*;

use crate::app::clusters::figures::Shares;
use crate::app::clusters::pool_pages::{PoolGap, PoolPages};
use crate::app::clusters::pool_reads::PoolReads;
use crate::app::components::ErrorView;
use crate::rules::outcome::ApiError;

/// What the pools part shows.
#[derive(Clone, Debug, PartialEq)]
enum ListState {
    Loading,
    /// Not one page could be read.
    Failed(ApiError),
    Empty,
    Rows,
}

/// The pools read, as a filter, a page of rows and the pager, or why there are
/// none. A failed read is shown as what it is, never as an empty table; pages
/// that could not be read are marked where the rows are, with a Retry of those
/// pages alone.
#[component]
pub(super) fn PoolList(
    reads: RwSignal<PoolReads>,
    retry: Callback<()>,
    retrying: RwSignal<bool>,
    shares: Memo<Option<Shares>>,
) -> impl IntoView {
    let state = Memo::new(move |_| {
        reads.with(|r| match (&r.reads.shown, &r.reads.held) {
            (Some(list), _) if list.items.is_empty() => ListState::Empty,
            (Some(_), _) => ListState::Rows,
            (None, Some(held)) => held
                .gap
                .as_ref()
                .map(|g| ListState::Failed(g.error.clone()))
                .unwrap_or(ListState::Loading),
            (None, None) => ListState::Loading,
        })
    });
    // Not a memo: each read is new to the table even when it equals the last
    // (its marks time every read), and comparing a thousand pools would cost
    // what the keyed rows save.
    let shown = Signal::derive(move || reads.with(|r| r.reads.shown.clone()));
    move || {
        match state.get() {
        ListState::Loading => view! { <p class="loading">"Loading pools…"</p> }.into_any(),
        ListState::Failed(error) => view! {
            <ErrorView error retry=move |_| retry.run(()) />
            {move || retrying.with(|busy| *busy).then(|| view! { <p class="loading">"Reading the pools again…"</p> })}
        }
        .into_any(),
        ListState::Empty => view! {
            <PoolGap reads retry retrying />
            <p class="empty">"This cluster has no pools."</p>
        }
        .into_any(),
        ListState::Rows => view! { <PoolPages shown reads retry retrying shares /> }.into_any(),
    }
    }
}
