//! One page of the project's operations as read: its timeline and rows, or why
//! there are none; and the pager through the API's cursors.

use crate::app::paths::A;
use leptos::prelude::*;

use super::indicator::describe;
use super::timeline::OpsTimeline;
use super::{change_text, operation_href};
use crate::api::types::{Operation, OperationKind, OperationStatus, Page};
use crate::app::components::{label_of, Column, Keyed, StatusBadge, Table, Time};
use crate::app::search::Named;
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::operation::elapsed_secs;
use crate::rules::operations_list::{pager_line, CursorTrail, Known};
use crate::rules::outcome::ApiError;
use crate::rules::tracking::feed::FeedFilter;

/// One page read: its rows, or why there are none.
#[allow(clippy::too_many_arguments)]
pub(super) fn page_view(
    page: Page<Operation>,
    number: usize,
    filter: Memo<FeedFilter>,
    ops: Ops,
    name_of: impl Fn(&str) -> Option<Named> + Copy + Send + Sync + 'static,
    known: Memo<Vec<Known>>,
    now: RwSignal<f64>,
    to_page: Callback<Option<CursorTrail>>,
) -> impl IntoView {
    let filtered = filter.with_untracked(|f| *f != FeedFilter::default());
    if page.items.is_empty() {
        return if number > 1 {
            view! {
                <p class="empty">
                    "No operations on this page: the list changed since it was paged. "
                    <button type="button" class="btn btn-quiet" on:click=move |_| to_page.run(Some(CursorTrail::default()))>"Go to the first page"</button>
                </p>
            }
            .into_any()
        } else if filtered {
            view! { <p class="empty">"No operation matches these filters."</p> }.into_any()
        } else {
            view! { <p class="empty">"No operations in this project yet."</p> }.into_any()
        };
    }
    let items = page.items;
    // The tracker's newer states on top (a live status without a re-read).
    let feed = Memo::new(move |_| ops.with_tracker(|t| filter.get().apply(&items, t)));
    // A bar's page and the name of what it changed, as its row gives them.
    let about = move |op: &Operation| {
        let name = match name_of(&op.resource_id) {
            Some(named) => named.name,
            None => known.with(|k| label_of(k, &op.resource_id)),
        };
        (page_href(op, name_of), name)
    };
    // An operation's row is drawn again when its status moves.
    let rows = Signal::derive(move || {
        Keyed::all(feed.get(), |op| {
            (op.id.clone(), op.status.clone(), op.updated_at.clone())
        })
    });
    let columns = columns(name_of, known, now);
    view! {
        <OpsTimeline ops=feed now about />
        <Table label="Operations" rows columns />
    }
    .into_any()
}

/// An operation as a row: keyed by its id, status and last update.
type Row = Keyed<(String, OperationStatus, String), Operation>;

/// The operations table's columns.
fn columns(
    name_of: impl Fn(&str) -> Option<Named> + Copy + Send + Sync + 'static,
    known: Memo<Vec<Known>>,
    now: RwSignal<f64>,
) -> Vec<Column<Row>> {
    vec![
        Column::new("Operation", move |op: &Row| {
            let page = {
                let op = Operation::clone(op);
                move || page_href(&op, name_of)
            };
            view! { <a href=page>{describe(op)}</a> }.into_any()
        }),
        // Beside what it is about: on a narrow screen the status is seen without
        // scrolling the table sideways.
        Column::new("Status", |op: &Row| {
            let status = op.status.as_str().to_string();
            view! { <StatusBadge status /> }.into_any()
        }),
        Column::new("Kind", |op: &Row| kind_label(&op.kind).into_any()).class("nowrap"),
        Column::new("Type", |op: &Row| {
            op.op_type.as_str().to_string().into_any()
        })
        .class("nowrap"),
        Column::new("Resource", move |op: &Row| {
            resource(op.resource_id.clone(), name_of, known).into_any()
        }),
        Column::new("Started", |op: &Row| {
            view! { <Time at=op.created_at.clone() /> }.into_any()
        })
        .class("nowrap"),
        Column::new("Elapsed", move |op: &Row| {
            let timed = Operation::clone(op);
            let elapsed = move || {
                elapsed_secs(&timed, None, now.get())
                    .map(display::elapsed)
                    .unwrap_or_default()
            };
            elapsed.into_any()
        })
        .class("nowrap"),
        Column::new("Changes", |op: &Row| {
            let changes: Vec<String> = op
                .changes()
                .map(|(field, c)| format!("{field}: {}", change_text(c)))
                .collect();
            changes.join("; ").into_any()
        })
        .class("ops-changes"),
    ]
}

/// What an operation changed: linked while it exists; else its last known
/// name (marked when it is known to be deleted), else its id.
fn resource(
    resource_id: String,
    name_of: impl Fn(&str) -> Option<Named> + Copy + Send + Sync + 'static,
    known: Memo<Vec<Known>>,
) -> impl IntoView {
    move || match name_of(&resource_id) {
        Some(named) => view! { <A href=named.href>{named.name}</A> }.into_any(),
        None => {
            let (label, gone) = known.with(|k| {
                let gone = k
                    .binary_search_by(|x| x.id.as_str().cmp(&resource_id))
                    .is_ok_and(|i| k[i].gone);
                (label_of(k, &resource_id), gone)
            });
            if label == resource_id {
                // Never named here: its id, short (the whole on hover and to
                // copy), marked when it is known to be gone.
                view! {
                    <code class="short-id" title=resource_id.clone()>{display::short_id(&label)}</code>
                    {gone.then(|| view! { <span class="muted">" (deleted)"</span> })}
                }
                .into_any()
            } else {
                view! {
                    <span title=resource_id.clone()>{label}</span>
                    {gone.then(|| view! { <span class="muted">" (deleted)"</span> })}
                }
                .into_any()
            }
        }
    }
}

/// An operation's own page, for its row and its bar; a pool's carries the
/// pool's cluster once the names are read.
fn page_href(op: &Operation, name_of: impl Fn(&str) -> Option<Named>) -> String {
    let cluster = name_of(&op.resource_id).and_then(|n| n.cluster_id);
    crate::app::paths::href(&operation_href(
        &op.project_id,
        &op.id,
        cluster.as_deref(),
        None,
    ))
}

/// An operation's kind as the page names it.
pub(super) fn kind_label(kind: &OperationKind) -> String {
    match kind {
        OperationKind::NksCluster => "cluster".into(),
        OperationKind::NksNodePool => "pool".into(),
        OperationKind::NksNode => "node".into(),
        OperationKind::NksLoadBalancer => "load balancer".into(),
        OperationKind::Vpc => "VPC".into(),
        OperationKind::FirewallRule => "firewall rule".into(),
        other => other.as_str().into(),
    }
}

/// Previous and Next through the API's cursors, and which rows of how many the
/// page shows.
#[component]
pub(super) fn OpsPager(
    current: Memo<Option<Result<Page<Operation>, ApiError>>>,
    trail: Memo<CursorTrail>,
    to_page: Callback<Option<CursorTrail>>,
) -> impl IntoView {
    let next_trail = Memo::new(move |_| {
        current.with(|c| match c {
            Some(Ok(page)) => trail.with(|t| t.next(page.next_cursor())),
            _ => None,
        })
    });
    let previous_trail = Memo::new(move |_| trail.with(CursorTrail::previous));
    let count = move || {
        let number = trail.with(CursorTrail::number);
        current.with(|c| match c {
            Some(Ok(page)) => {
                let total = page
                    .pagination
                    .as_ref()
                    .map_or(0, |p| p.total_count as usize);
                pager_line(number, page.items.len(), total)
            }
            Some(Err(_)) => format!("page {} could not be read", display::count(number)),
            None => format!("page {}", display::count(number)),
        })
    };
    view! {
        <nav class="pager" aria-label="Operation pages">
            <button class="btn" aria-describedby="ops-pager-count"
                disabled=move || previous_trail.with(Option::is_none)
                on:click=move |_| to_page.run(previous_trail.get_untracked())>"Previous"</button>
            <button class="btn" aria-describedby="ops-pager-count"
                disabled=move || next_trail.with(Option::is_none)
                on:click=move |_| to_page.run(next_trail.get_untracked())>"Next"</button>
            <span class="pager-count" id="ops-pager-count">{count}</span>
        </nav>
    }
}
