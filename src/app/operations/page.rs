use std::cell::RefCell;
use std::collections::BTreeMap;

use crate::app::paths::params::{route, OperationsRoute};
use crate::app::paths::to;
use crate::app::paths::A;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use super::indicator::describe;
use super::timeline::OpsTimeline;
use super::{change_text, clock, operation_href};
use crate::api::client::Client;
use crate::api::types::{Operation, OperationKind, OperationStatus, Page};
use crate::app::components::{label_of, ErrorView, NameSearch, StatusBadge, Time};
use crate::app::context::{page_title, Projects};
use crate::app::search::{project_index, Named};
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::operation::elapsed_secs;
use crate::rules::operations_list::{
    known_resources, page_count, rows_shown, CursorTrail, Known, PER_PAGE,
};
use crate::rules::tracking::feed::{FeedFilter, TYPES};

/// A read of the page: the project, the filters and the page's cursors.
type Key = (String, FeedFilter, CursorTrail);

const STATUSES: [OperationStatus; 5] = [
    OperationStatus::Pending,
    OperationStatus::Running,
    OperationStatus::Unknown,
    OperationStatus::Done,
    OperationStatus::Failed,
];

const KINDS: [OperationKind; 5] = [
    OperationKind::NksCluster,
    OperationKind::NksNodePool,
    OperationKind::NksNode,
    OperationKind::NksLoadBalancer,
    OperationKind::Vpc,
];

thread_local! {
    /// Every cluster's and pool's name read during this visit, by id: a resource
    /// deleted since keeps the name it had (never stored: it goes with the tab).
    static REMEMBERED: RefCell<BTreeMap<String, String>> = const { RefCell::new(BTreeMap::new()) };
}

/// The project's operations, newest first, a page of [`PER_PAGE`] at a time
/// through the API's cursors, filtered by the API (status, kind, type,
/// resource). The filters and the page are in the URL, so a reload, Back and
/// Forward, or a shared link show the same page. A page that cannot be read
/// says so in its place, with a retry of that page alone. Statuses of
/// operations in flight come live from the tracker; this page never polls.
#[component]
pub fn OperationsPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let route = route::<OperationsRoute>();
    let query = use_query_map();
    let project_id = Memo::new(move |_| route.read().project_id.clone());
    let filter = Memo::new(move |_| {
        let q = query.read();
        let get = |key: &str| q.get(key).unwrap_or_default();
        FeedFilter::from_query(get("status"), get("kind"), get("type"), get("resource"))
    });
    let trail = Memo::new(move |_| {
        let q = query.read();
        CursorTrail::from_query(q.get_all("prev").unwrap_or_default(), q.get("cursor"))
    });

    // Which read the page shows: the project, the filters and the page.
    let key: Memo<Key> = Memo::new(move |_| (project_id.get(), filter.get(), trail.get()));
    // The key whose read is on its way: set when the read starts, cleared when
    // it ends.
    let fetching = StoredValue::new_local(None::<Key>);
    // The page asked for; read again when an operation ends (a create adds one).
    let read = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let key = key.get();
            ops.revision.track();
            fetching.set_value(Some(key.clone()));
            async move {
                let (project, filter, trail) = &key;
                let result = client
                    .operations_page(project, &filter.api_query(), trail.cursor(), PER_PAGE)
                    .await;
                fetching.update_value(|f| {
                    if f.as_ref() == Some(&key) {
                        *f = None;
                    }
                });
                (key, result)
            }
        })
    };
    // A safety net: the read has ended for another key than the page's, and no
    // read for the page's key is on its way. Three filters set in a row could
    // leave the page at "page 1" with no read sent for the last one (seen in CI:
    // the reads for kind, then kind and type, and none with the status). The
    // resource's own tracking of `key` missed that change, so it is asked again.
    // When nothing is missed this adds no read: a read already queued takes this
    // request with it.
    Effect::new(move |_| {
        let key = key.get();
        let stale = read.with(|r| r.as_ref().is_some_and(|(read_for, _)| *read_for != key));
        if stale && fetching.with_value(|f| f.as_ref() != Some(&key)) {
            read.refetch();
        }
    });
    // The read for the current key; `None` while the resource still holds the
    // read of another (the new page is on its way): another page's rows never
    // stand in for it, while a re-read of the same page keeps its rows meanwhile.
    let current = Memo::new(move |_| {
        let key = key.get();
        read.get()
            .filter(|(read_for, _)| *read_for == key)
            .map(|(_, result)| result)
    });

    // Names and links of the project's clusters and pools; refreshed when an
    // operation ends (a create adds one).
    let names = LocalResource::new(move || {
        let client = client.clone();
        let project = project_id.get();
        ops.revision.track();
        async move { project_index(&client, &project).await }
    });
    let existing = Memo::new(move |_| names.get().and_then(Result::ok).map(|index| index.names));
    let remembered = RwSignal::new(REMEMBERED.with(|r| r.borrow().clone()));
    Effect::new(move |_| {
        if let Some(found) = existing.get() {
            remembered.update(|r| {
                r.extend(found.iter().map(|(id, n)| (id.clone(), n.name.clone())));
                REMEMBERED.with(|kept| kept.borrow_mut().clone_from(r));
            });
        }
    });
    // Every operation read during this visit, by id: the resources they name
    // are what the search finds beside the existing ones.
    let seen = RwSignal::new(BTreeMap::<String, Operation>::new());
    Effect::new(move |_| {
        // Another project's resources are not this one's to find.
        project_id.track();
        seen.set(BTreeMap::new());
    });
    Effect::new(move |_| {
        if let Some(Ok(page)) = current.get() {
            seen.update(|s| {
                for op in page.items {
                    s.insert(op.id.clone(), op);
                }
            });
        }
    });
    let known = Memo::new(move |_| {
        let existing = existing.with(|e| {
            e.as_ref().map(|e| {
                e.iter()
                    .map(|(id, n)| (id.clone(), n.name.clone()))
                    .collect::<BTreeMap<_, _>>()
            })
        });
        remembered.with(|r| seen.with(|s| known_resources(existing.as_ref(), r, s.values())))
    });
    let name_of = move |id: &str| -> Option<Named> {
        existing.with(|e| e.as_ref().and_then(|m| m.get(id).cloned()))
    };

    let now = clock();
    let projects = expect_context::<Projects>();
    page_title(move || {
        vec![
            "Operations".into(),
            projects.name(&project_id.get()).unwrap_or_default(),
        ]
    });
    let navigate = use_navigate();
    // A filter replaces the entry (Back leaves the page) and starts at the
    // first page, as a cursor is only valid with the filters it came with; a
    // page is a step of its own, so Back returns to the one before.
    let go = move |filter: FeedFilter, trail: CursorTrail, replace: bool| {
        let parts: Vec<String> = filter
            .url_query()
            .into_iter()
            .chain(trail.query())
            .map(|(k, v)| format!("{k}={}", js_sys::encode_uri_component(&v)))
            .collect();
        let search = if parts.is_empty() {
            String::new()
        } else {
            format!("?{}", parts.join("&"))
        };
        navigate(
            &(to::operations(&project_id.get_untracked()) + &search),
            NavigateOptions {
                replace,
                scroll: !replace,
                ..Default::default()
            },
        );
    };
    // The selects' own values, not the URL's: a change made before the URL
    // caught up with the one before it must not undo that one.
    let status_el = NodeRef::<leptos::html::Select>::new();
    let kind_el = NodeRef::<leptos::html::Select>::new();
    let type_el = NodeRef::<leptos::html::Select>::new();
    let set_filter = {
        let go = go.clone();
        move |resource: Option<String>| {
            let value = |el: NodeRef<leptos::html::Select>| {
                el.get_untracked().map(|s| s.value()).unwrap_or_default()
            };
            let mut next = filter.get_untracked();
            next.status = value(status_el);
            next.kind = value(kind_el);
            next.op_type = value(type_el);
            if let Some(resource) = resource {
                next.resource = resource;
            }
            go(next, CursorTrail::default(), true);
        }
    };
    let on_select = {
        let set = set_filter.clone();
        move |_| set(None)
    };
    let set_resource = Callback::new(move |id: String| set_filter(Some(id)));

    let next_trail = Memo::new(move |_| {
        current.with(|c| match c {
            Some(Ok(page)) => trail.with(|t| t.next(page.next_cursor())),
            _ => None,
        })
    });
    let previous_trail = Memo::new(move |_| trail.with(CursorTrail::previous));
    let to_page = Callback::new(move |to: Option<CursorTrail>| {
        if let Some(to) = to {
            go(filter.get_untracked(), to, false);
        }
    });
    let count = move || {
        let number = trail.with(CursorTrail::number);
        current.with(|c| match c {
            Some(Ok(page)) => {
                let total = page
                    .pagination
                    .as_ref()
                    .map_or(0, |p| p.total_count as usize);
                let total = total.max((number - 1) * PER_PAGE + page.items.len());
                format!(
                    "{} \u{b7} page {} of {}",
                    rows_shown(number, page.items.len(), total),
                    display::count(number),
                    display::count(page_count(total))
                )
            }
            Some(Err(_)) => format!("page {} could not be read", display::count(number)),
            None => format!("page {}", display::count(number)),
        })
    };
    let names_failed = move || names.get().and_then(Result::err);

    view! {
        <section class="page">
            <header class="page-header">
                <h1>"Operations"</h1>
            </header>
            <form class="ops-filters" aria-label="Filter operations" on:submit=|ev| ev.prevent_default()>
                <label>
                    "Status"
                    <select node_ref=status_el on:change=on_select.clone() prop:value=move || filter.get().status>
                        <option value="" selected=move || filter.get().status.is_empty()>"Any"</option>
                        {STATUSES
                            .iter()
                            .map(|s| {
                                let v = s.as_str();
                                view! { <option value=v selected=move || filter.get().status == v>{v}</option> }
                            })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    "Kind"
                    <select node_ref=kind_el on:change=on_select.clone() prop:value=move || filter.get().kind>
                        <option value="" selected=move || filter.get().kind.is_empty()>"Any"</option>
                        {KINDS
                            .iter()
                            .map(|k| {
                                let v = k.as_str();
                                view! { <option value=v selected=move || filter.get().kind == v>{kind_label(k)}</option> }
                            })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    "Type"
                    <select node_ref=type_el on:change=on_select prop:value=move || filter.get().op_type>
                        <option value="" selected=move || filter.get().op_type.is_empty()>"Any"</option>
                        {TYPES
                            .iter()
                            .map(|&v| view! { <option value=v selected=move || filter.get().op_type == v>{v}</option> })
                            .collect_view()}
                    </select>
                </label>
                <NameSearch
                    id="ops-resource"
                    label="Resource"
                    list_label="Resources"
                    placeholder="Name or id"
                    known
                    selected=Signal::derive(move || filter.get().resource)
                    on_choose=set_resource
                    no_match="No resource this console knows matches. Press Enter to filter by it as an id."
                    any_id=true
                >
                    {move || {
                        let id = filter.get().resource;
                        if id.is_empty() {
                            "Any resource. Type a name or an id.".to_string()
                        } else {
                            format!("Showing operations of {}.", known.with(|k| label_of(k, &id)))
                        }
                    }}
                    {move || (!filter.get().resource.is_empty()).then(|| view! {
                        " "
                        <button type="button" class="btn btn-quiet" on:click=move |_| set_resource.run(String::new())>
                            "Show every resource"
                        </button>
                    })}
                </NameSearch>
            </form>
            {move || names_failed().map(|error| view! {
                <p class="field-hint ops-names-failed">
                    {format!("Names of clusters and pools could not be read ({}); resources show by id.", error.headline())}
                    " "
                    <button type="button" class="btn btn-quiet" on:click=move |_| names.refetch()>"Read names again"</button>
                </p>
            })}
            <Transition fallback=|| view! { <p class="loading">"Loading operations…"</p> }>
                {move || {
                    // Reading `read` here is what lets the transition wait for it
                    // (`current` was made outside it).
                    read.with(|_| ());
                    let number = trail.with_untracked(CursorTrail::number);
                    match current.get() {
                        None => view! {
                            <p class="loading">{format!("Loading page {} of the operations…", display::count(number))}</p>
                        }
                            .into_any(),
                        Some(Err(error)) => view! {
                            <div class="ops-page-failed" role="group" aria-label=format!("Page {number} of the operations")>
                                <p class="alert-title">{format!("Page {} of the operations could not be read.", display::count(number))}</p>
                                <ErrorView error retry=move |_| read.refetch() />
                            </div>
                        }
                            .into_any(),
                        Some(Ok(page)) => page_view(page, number, filter, ops, name_of, known, now, to_page).into_any(),
                    }
                }}
            </Transition>
            <nav class="pager" aria-label="Operation pages">
                <button class="btn" aria-describedby="ops-pager-count"
                    disabled=move || previous_trail.with(Option::is_none)
                    on:click=move |_| to_page.run(previous_trail.get_untracked())>"Previous"</button>
                <button class="btn" aria-describedby="ops-pager-count"
                    disabled=move || next_trail.with(Option::is_none)
                    on:click=move |_| to_page.run(next_trail.get_untracked())>"Next"</button>
                <span class="pager-count" id="ops-pager-count">{count}</span>
            </nav>
        </section>
    }
}

/// One page read: its rows, or why there are none.
#[allow(clippy::too_many_arguments)]
fn page_view(
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
    view! {
        <OpsTimeline ops=feed now about />
        <table class="table table-wide" aria-label="Operations">
            <thead>
                <tr>
                    <th scope="col">"Operation"</th>
                    <th scope="col">"Kind"</th>
                    <th scope="col">"Type"</th>
                    <th scope="col">"Resource"</th>
                    <th scope="col">"Status"</th>
                    <th scope="col">"Started"</th>
                    <th scope="col">"Elapsed"</th>
                    <th scope="col">"Changes"</th>
                </tr>
            </thead>
            <tbody>
                // An operation's row is drawn again when its status moves.
                <For
                    each=move || feed.get()
                    key=|op| (op.id.clone(), op.status.clone(), op.updated_at.clone())
                    children=move |op| row(op, name_of, known, now)
                />
            </tbody>
        </table>
    }
    .into_any()
}

fn row(
    op: Operation,
    name_of: impl Fn(&str) -> Option<Named> + Copy + Send + Sync + 'static,
    known: Memo<Vec<Known>>,
    now: RwSignal<f64>,
) -> impl IntoView {
    let status = op.status.as_str().to_string();
    let changes: Vec<String> = op
        .changes()
        .map(|(field, c)| format!("{field}: {}", change_text(c)))
        .collect();
    let timed = op.clone();
    let elapsed = move || {
        elapsed_secs(&timed, None, now.get())
            .map(display::elapsed)
            .unwrap_or_default()
    };
    let page = {
        let op = op.clone();
        move || page_href(&op, name_of)
    };
    let title = describe(&op);
    let resource_id = op.resource_id.clone();
    // Linked while it exists; else its last known name (marked when it is
    // known to be deleted), else its id.
    let resource = move || match name_of(&resource_id) {
        Some(named) => view! { <A href=named.href>{named.name}</A> }.into_any(),
        None => {
            let (label, gone) = known.with(|k| {
                let gone = k
                    .binary_search_by(|x| x.id.as_str().cmp(&resource_id))
                    .is_ok_and(|i| k[i].gone);
                (label_of(k, &resource_id), gone)
            });
            if label == resource_id {
                view! { <code>{label}</code> }.into_any()
            } else {
                view! {
                    <span title=resource_id.clone()>{label}</span>
                    {gone.then(|| view! { <span class="muted">" (deleted)"</span> })}
                }
                .into_any()
            }
        }
    };
    view! {
        <tr>
            <td><a href=page>{title}</a></td>
            <td class="nowrap">{kind_label(&op.kind)}</td>
            <td class="nowrap">{op.op_type.as_str()}</td>
            <td>{resource}</td>
            <td><StatusBadge status /></td>
            <td class="nowrap"><Time at=op.created_at.clone() /></td>
            <td class="nowrap">{elapsed}</td>
            <td class="ops-changes">{changes.join("; ")}</td>
        </tr>
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

fn kind_label(kind: &OperationKind) -> String {
    match kind {
        OperationKind::NksCluster => "cluster".into(),
        OperationKind::NksNodePool => "pool".into(),
        OperationKind::NksNode => "node".into(),
        OperationKind::NksLoadBalancer => "load balancer".into(),
        OperationKind::Vpc => "VPC".into(),
        other => other.as_str().into(),
    }
}
