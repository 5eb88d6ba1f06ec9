use crate::app::paths::A;
use codee::string::FromToStringCodec;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use leptos_use_storage::use_local_storage;

use crate::api::decode::Sourced;
use crate::api::types::ClusterSummary;
use crate::app::clusters::list_filters::{param_setter, Clusters, FilterControls};
use crate::app::components::{local_time, utc_time, ErrorView, SortHeader};
use crate::app::context::{live, Projects};
use crate::app::drafts::tab_item;
use crate::app::paths::params::{route, ProjectRoute};
use crate::app::paths::to;
use crate::rules::display;
use crate::rules::first_pool::PENDING_ITEM;
use crate::rules::listing::{aria_sort, filter_and_sort, keyed, sort_on_click, ClusterQuery};
use crate::rules::outcome::ApiError;

/// Whether the capacity and cost columns were last hidden (`off`) on this device;
/// they are shown otherwise.
const FIGURES_ITEM: &str = "nks-console.cluster-figures";

/// Every cluster of the project (all pages), filtered and sorted as the URL says,
/// or the reason they could not be read: a failure is never shown as an empty list.
/// A project the key does not see is "Project not found" (the lazily loaded
/// not-found page says so), not an empty project: the API lists no clusters for it.
/// The tab's title is the shell's (the first page keeps its code small).
#[component]
pub fn ClusterList() -> impl IntoView {
    let projects = expect_context::<Projects>();
    let route = route::<ProjectRoute>();
    let query = use_query_map();
    let project_id = move || route.read().project_id.clone();
    let missing = move || projects.lookup(&project_id()) == Some(None);
    // Read again when an operation ends and every few seconds (`Refresh`); each
    // cluster keeps its text, which keys its row.
    let clusters: Clusters = live(project_id, |client, project| async move {
        client.clusters::<Sourced<ClusterSummary>>(&project).await
    });
    // Filters live in the URL, so a filtered list can be reloaded and shared.
    let current = Memo::new(move |_| {
        let q = query.read();
        ClusterQuery {
            name: q.get("name").unwrap_or_default(),
            status: q.get("status").unwrap_or_default(),
            tag: q.get("tag").unwrap_or_default(),
            sort: q.get("sort").unwrap_or_default(),
        }
    });
    // The capacity and cost columns: shown unless hidden. They read every
    // cluster's pools and a price, and their code and reads come once the list
    // is drawn. Hiding them is kept on this device, so the list opens as it was
    // left; `?figures=off` or `?figures=on` says it to whoever opens the link.
    let (kept, keep, _) = use_local_storage::<String, FromToStringCodec>(FIGURES_ITEM);
    let figures = Memo::new(move |_| match query.read().get("figures").as_deref() {
        Some("on") => true,
        Some("off") => false,
        _ => kept.with(|k| k != "off"),
    });
    let set_param = param_setter(current, query, project_id);
    let create_href = move || to::new_cluster(&project_id());
    // A column header's click: its sort, or the same one the other way round.
    let figures_param = set_param.clone();
    let toggle_figures = move |_| {
        let on = !figures.get_untracked();
        keep.set(if on { String::new() } else { "off".into() });
        figures_param("figures", if on { String::new() } else { "off".into() });
    };
    let sort_param = set_param.clone();
    let sort_by = Callback::new(move |column: &'static str| {
        sort_param("sort", sort_on_click(&current.get_untracked().sort, column));
    });
    // The choices the page opens with; each select's `prop:value` follows the URL after.
    let shown_first = current.get_untracked();

    view! {
        // In its place, the list stays, hidden by the not-found page before it
        // (style/main.css: `.missing ~ .page`), with no results drawn: kept,
        // not rebuilt, when the projects are read.
        {move || missing().then(crate::app::lazy::not_found)}
        <section class="page">
            <header class="page-header">
                <h1>"Clusters"</h1>
                <A href=create_href attr:class="btn btn-primary">"Create cluster"</A>
            </header>
            <div class="filters" role="search" on:input=move |ev| {
                // One listener for the four controls: each is named by its id.
                if let Some(key) = event_target::<web_sys::Element>(&ev).id().strip_prefix("filter-") {
                    set_param(key, event_target_value(&ev));
                }
            }>
                <FilterControls clusters current shown_first />
                <button
                    type="button"
                    class="btn"
                    aria-pressed=move || if figures.get() { "true" } else { "false" }
                    aria-describedby="figures-hint"
                    on:click=toggle_figures
                >
                    "Capacity and cost"
                </button>
                <span class="field-hint" id="figures-hint">"Nodes, vCPU, memory and monthly cost of each cluster, from its pools."</span>
            </div>
            // The last list read stays on screen while the next is on its way.
            <Transition fallback=|| view! { <p class="loading">"Loading clusters…"</p> }>
                <ClusterResults clusters current figures sort_by project=Signal::derive(project_id) />
            </Transition>
        </section>
    }
}

/// What the list shows once read.
#[derive(Clone, Debug, PartialEq)]
enum Shown {
    Failed(ApiError),
    NoClusters,
    /// None of this many clusters passes the filters.
    NoMatch(usize),
    Rows,
}

/// The read list as a table, or why there is no table. Built inside the
/// `<Transition>`: the list is read here, which is how the transition knows to
/// wait for it.
#[component]
fn ClusterResults(
    clusters: Clusters,
    current: Memo<ClusterQuery>,
    figures: Memo<bool>,
    sort_by: Callback<&'static str>,
    project: Signal<String>,
) -> impl IntoView {
    let projects = expect_context::<Projects>();
    let project_id = move || project.get();
    let create_href = move || to::new_cluster(&project_id());
    // The rows: the filtered and sorted list, each cluster keyed by its text.
    let rows = Memo::new(move |_| {
        clusters.with(|read| match read {
            Some(Ok(list)) => keyed(&filter_and_sort(list, &current.get())),
            _ => Vec::new(),
        })
    });
    let shown = Memo::new(move |_| {
        // A project the key does not see: nothing (it says not found).
        if projects.lookup(&project.get()) == Some(None) {
            return None;
        }
        clusters.with(|read| {
            read.as_ref().map(|read| match read {
                Err(error) => Shown::Failed(error.clone()),
                Ok(list) if list.is_empty() => Shown::NoClusters,
                Ok(list) if rows.with(Vec::is_empty) => Shown::NoMatch(list.len()),
                Ok(_) => Shown::Rows,
            })
        })
    });
    // While filtered: how many of how many, and the way back to all of them
    // (in the order chosen).
    let count = move || {
        let all = clusters.with(|read| match read {
            Some(Ok(list)) => list.len(),
            _ => 0,
        });
        let q = current.get();
        let clear = q.filters().then(|| {
            // The order and the columns chosen stay.
            let mut kept = Vec::new();
            if !q.sort.is_empty() {
                kept.push(format!(
                    "sort={}",
                    String::from(js_sys::encode_uri_component(&q.sort))
                ));
            }
            if !figures.get() {
                kept.push("figures=off".to_string());
            }
            let kept = if kept.is_empty() {
                String::new()
            } else {
                format!("?{}", kept.join("&"))
            };
            let href = to::clusters(&project_id()) + &kept;
            view! { " " <A href=href>"Clear filters"</A> }
        });
        let all_of = display::counted(all, "cluster", "clusters");
        let text = if q.filters() {
            format!("{} of {all_of}", display::count(rows.with(Vec::len)))
        } else {
            all_of
        };
        view! { <p class="list-count"><span role="status">{text}</span>{clear}</p> }
    };
    move || {
        shown.get().map(|shown| match shown {
            Shown::Failed(error) => {
                view! { <ErrorView error retry=move |_| clusters.refetch() /> }.into_any()
            }
            Shown::NoClusters => view! {
                <div class="empty">
                    <p>"No clusters in this project yet."</p>
                    <A href=create_href attr:class="btn btn-primary">"Create cluster"</A>
                </div>
            }
            .into_any(),
            Shown::NoMatch(all) => view! {
                {count}
                <p class="empty">{display::none_match(all, "cluster", "clusters", "these filters")}</p>
            }
            .into_any(),
            Shown::Rows => {
                view! { {count} <ClusterTable rows current figures sort_by project /> }.into_any()
            }
        })
    }
}

/// One row per cluster, keyed by its text: a refresh that changed nothing
/// leaves the rows alone, and a changed cluster gets a new row. Written out, not
/// through `Table`: this is the first page, and `Table` would take its code past
/// the first-load budget (README, Benchmark).
#[component]
fn ClusterTable(
    rows: Memo<Vec<(Sourced<ClusterSummary>, usize)>>,
    current: Memo<ClusterQuery>,
    figures: Memo<bool>,
    sort_by: Callback<&'static str>,
    project: Signal<String>,
) -> impl IntoView {
    let sortable = move |column: &'static str, label: &'static str| {
        let state = Signal::derive(move || aria_sort(&current.get().sort, column));
        view! { <SortHeader column label state sort_by /> }
    };
    // A first pool this tab was to send into one of these clusters, left
    // waiting: its line's code comes only when the tab keeps one.
    let kept = !tab_item(PENDING_ITEM).is_empty();
    // The figures' code and reads wait for the list to be drawn: the list is
    // what a person came for, and it is not held up by them.
    let drawn = RwSignal::new(false);
    let each = move || {
        crate::app::perf::mark_after_render("nks:clusters-rendered");
        if !drawn.get_untracked() {
            crate::app::perf::after_render(move || drawn.set(true));
        }
        rows.get()
    };
    view! {
        // Too wide for the page (a phone, or the figures shown), it scrolls
        // sideways, the names kept in view.
        <div class="table-frame">
        <table class="table table-wide" aria-label="Clusters">
            <thead>
                <tr>
                    {sortable("name", "Name")}
                    {sortable("status", "Status")}
                    <th scope="col">"Region"</th>
                    {move || figures.get().then(|| view! {
                        <th scope="col" class="figure">"Nodes"</th>
                        <th scope="col" class="figure">"vCPU"</th>
                        <th scope="col" class="figure">"Memory"</th>
                        <th scope="col" class="figure">"Monthly cost"</th>
                    }.into_any())}
                    <th scope="col">"Kubernetes"</th>
                    <th scope="col">"Autoscaling"</th>
                    <th scope="col" class="figure">"Pools"</th>
                    <th scope="col">"Tags"</th>
                    {sortable("created", "Created")}
                </tr>
            </thead>
            <tbody>
                <For each key=|row| row.clone() let((c, _))>
                    {
                        let href = to::cluster(&project.get_untracked(), &c.id);
                        let (name, status) = (c.name.clone(), c.status.as_str());
                        // The local time, UTC on hover ("how long ago" is on the cluster's page).
                        let (created, utc) = local_time(&c.created_at).map_or_else(
                            || (c.created_at.clone(), String::new()),
                            |(ms, local)| (local, utc_time(ms)),
                        );
                        view! {
                            <tr>
                                <td class="name" title=c.name.clone()><A href=href.clone()>{name}</A></td>
                                <td><span class=format!("badge badge-{status}")>{status.to_string()}</span></td>
                                <td class="nowrap">{c.region.clone()}</td>
                                // Summed from the pools, priced by the API: loaded after the list.
                                {
                                    let (id, region) = (c.id.clone(), c.region.clone());
                                    move || figures.get().then(|| if drawn.get() {
                                        crate::app::lazy::cluster_figures(&id, &region).into_any()
                                    } else {
                                        crate::app::lazy::figures_pending().into_any()
                                    })
                                }
                                <td>{c.kubernetes_version.clone()}</td>
                                <td>{display::on_off(c.autoscaling)}</td>
                                <td class="figure">
                                    {display::count(c.pool_ids.len())}
                                    {kept.then(|| crate::app::lazy::waiting_pool(&project.get_untracked(), &c.name, &href))}
                                </td>
                                <td>{crate::app::components::tag_list(&c.tags)}</td>
                                <td title=utc>{created}</td>
                            </tr>
                        }
                    }
                </For>
            </tbody>
        </table>
        </div>
    }
}
