use std::cell::RefCell;
use std::collections::BTreeMap;

use crate::app::paths::params::{route, OperationsRoute};
use crate::app::paths::to;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use super::clock;
use super::filters::OpsFilters;
use super::results::{page_view, OpsPager};
use crate::api::client::Client;
use crate::api::types::{Operation, Page};
use crate::app::components::ErrorView;
use crate::app::context::{after_ops, page_title, Projects};
use crate::app::search::{project_index, Named, ProjectIndex};
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::operations_list::{known_resources, CursorTrail, Known, PER_PAGE};
use crate::rules::outcome::ApiError;
use crate::rules::tracking::feed::FeedFilter;

/// A read of the page: the project, the filters and the page's cursors.
type Key = (String, FeedFilter, CursorTrail);

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
    let Listing {
        project_id,
        filter,
        trail,
        read,
        current,
    } = listing(&client, ops);
    let Names {
        names,
        existing,
        known,
    } = names(project_id, current);
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
    let go = navigator(project_id);
    let to_page = {
        let go = go.clone();
        Callback::new(move |to: Option<CursorTrail>| {
            if let Some(to) = to {
                go(filter.get_untracked(), to, false);
            }
        })
    };
    let names_failed = move || names.get().and_then(Result::err);

    view! {
        <section class="page">
            <header class="page-header">
                <h1>"Operations"</h1>
            </header>
            <OpsFilters filter known go />
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
            <OpsPager current trail to_page />
        </section>
    }
}

/// What the URL asks for, and the page read for it.
#[derive(Clone, Copy)]
struct Listing {
    project_id: Memo<String>,
    filter: Memo<FeedFilter>,
    trail: Memo<CursorTrail>,
    /// The page asked for, with the key it was read for.
    read: LocalResource<(Key, Result<Page<Operation>, ApiError>)>,
    /// The read for the current key; `None` while another key's read is held.
    current: Memo<Option<Result<Page<Operation>, ApiError>>>,
}

/// Reads the route and the query, and the page they ask for (read again when
/// an operation ends).
fn listing(client: &Client, ops: Ops) -> Listing {
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
    Listing {
        project_id,
        filter,
        trail,
        read,
        current,
    }
}

/// Names of the project's clusters and pools, and every resource the search
/// can find.
#[derive(Clone, Copy)]
struct Names {
    names: LocalResource<Result<ProjectIndex, ApiError>>,
    existing: Memo<Option<BTreeMap<String, Named>>>,
    known: Memo<Vec<Known>>,
}

/// Reads the names (again when an operation ends), and gathers the resources
/// named by the operations read during this visit.
fn names(
    project_id: Memo<String>,
    current: Memo<Option<Result<Page<Operation>, ApiError>>>,
) -> Names {
    // Names and links of the project's clusters and pools; refreshed when an
    // operation ends (a create adds one).
    let names = after_ops(
        move || project_id.get(),
        |client, project| async move {
            let (index, networking) = futures_util::future::join(
                project_index(&client, &project),
                networking_names(&client, &project),
            )
            .await;
            index.map(|mut index| {
                index.names.extend(networking);
                index
            })
        },
    );
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
    Names {
        names,
        existing,
        known,
    }
}

/// The project's VPCs and their firewall rules by id, as far as they can be
/// read (the feed names them; a part not read shows its id, not an error in
/// place of the list).
async fn networking_names(client: &Client, project: &str) -> BTreeMap<String, Named> {
    let mut names = BTreeMap::new();
    let Ok(vpcs) = client.vpcs(project).await else {
        return names;
    };
    let rules =
        futures_util::future::join_all(vpcs.iter().map(|v| client.firewall_rules(&v.id))).await;
    for (vpc, rules) in vpcs.into_iter().zip(rules) {
        let href = to::vpc(project, &vpc.id);
        for rule in rules.unwrap_or_default() {
            let name = format!("{} / {}", vpc.name, rule.name);
            names.insert(
                rule.id,
                Named {
                    name,
                    href: href.clone(),
                    cluster_id: None,
                },
            );
        }
        names.insert(
            vpc.id,
            Named {
                name: vpc.name,
                href,
                cluster_id: None,
            },
        );
    }
    names
}

/// Opens the operations page with these filters and cursors.
/// A filter replaces the entry (Back leaves the page) and starts at the
/// first page, as a cursor is only valid with the filters it came with; a
/// page is a step of its own, so Back returns to the one before.
fn navigator(
    project_id: Memo<String>,
) -> impl Fn(FeedFilter, CursorTrail, bool) + Clone + Send + Sync + 'static {
    let navigate = use_navigate();
    move |filter: FeedFilter, trail: CursorTrail, replace: bool| {
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
    }
}
