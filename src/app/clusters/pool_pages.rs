//! One page of a cluster's pools: the filter, the rows and the pager, with the
//! filter, the sort and the page in the URL.

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use std::sync::Arc;

use crate::api::decode::Sourced;
use crate::api::types::Pool;
use crate::app::clusters::figures::{figure_view, Shares};
use crate::app::clusters::pool_reads::{PoolListing, PoolReads};
use crate::app::components::{tag_list, Column, ErrorView, Table};
use crate::app::paths::params::{route, ClusterRoute};
use crate::app::paths::to;
use crate::app::perf::ListMarks;
use crate::rules::display;
use crate::rules::listing::{
    aria_sort, keyed, pool_matches, pool_order, sort_on_click, PageOf, PER_PAGE,
};
use crate::rules::paged;

/// The page of pools shown, and which page of the filtered list it is.
#[derive(Clone, Debug, PartialEq)]
struct PoolPage {
    page: PageOf,
    /// How many pools were read, filtered or not.
    all: usize,
    /// The pools not read (a page of them could not be), if any.
    missing: Option<paged::Missing>,
    /// The rows shown, each keyed by its pool's text (`Sourced`): an unchanged
    /// pool keeps its row, a changed one gets a new one.
    rows: Vec<(Arc<Sourced<Pool>>, usize)>,
}

impl Default for PoolPage {
    fn default() -> Self {
        PoolPage {
            page: PageOf::of(0, 1, PER_PAGE),
            all: 0,
            missing: None,
            rows: Vec::new(),
        }
    }
}
/// The filter, the sort and the page asked for, as the URL says them.
#[derive(Clone, Copy)]
struct PoolQuery {
    filter: Memo<String>,
    sort: Memo<String>,
    asked: Memo<usize>,
}

impl PoolQuery {
    /// Reads them from the URL's query (`?filter=…&sort=…&page=…`).
    fn from_url() -> Self {
        let query = use_query_map();
        let filter = Memo::new(move |_| query.read().get("filter").unwrap_or_default());
        let sort = Memo::new(move |_| query.read().get("sort").unwrap_or_default());
        let asked = Memo::new(move |_| {
            query
                .read()
                .get("page")
                .and_then(|p| p.parse::<usize>().ok())
                .unwrap_or(1)
        });
        PoolQuery {
            filter,
            sort,
            asked,
        }
    }
}

/// The page of the read's pools that `query` asks for, filtered and sorted.
fn page_of(read: Signal<Option<Arc<PoolListing>>>, query: PoolQuery) -> Memo<PoolPage> {
    let PoolQuery {
        filter,
        sort,
        asked,
    } = query;
    let marks = ListMarks {
        read: "nks:pools-loaded",
        updated: "nks:pools-updated",
        painted: "nks:pools-rendered",
    };
    // Where the read the page was last cut from lives: a new read is one reaching
    // the table. Two reads in a row never share an address (the resource holds
    // the last until the next is built), and the list itself is not kept here:
    // freeing a thousand pools would then fall into the next read's time.
    let last_read = StoredValue::new(0_usize);
    Memo::new(move |_| {
        let needle = filter.get().trim().to_ascii_lowercase();
        let sort = sort.get();
        let asked = asked.get();
        read.with(|read| {
            let Some(read) = read else {
                return PoolPage::default();
            };
            let list = &read.items;
            let at = Arc::as_ptr(read) as usize;
            if last_read.get_value() != at {
                // The read's script time runs from here to its rows written: the
                // filter, the comparison with what is shown, the keyed update.
                marks.reached();
                last_read.set_value(at);
            }
            let (page, rows) = if needle.is_empty() && sort.is_empty() {
                let page = PageOf::of(list.len(), asked, PER_PAGE);
                (page, keyed(&list[page.start..page.end]))
            } else {
                let mut matching: Vec<Arc<Sourced<Pool>>> = list
                    .iter()
                    .filter(|pool| pool_matches(pool, &needle))
                    .cloned()
                    .collect();
                let refs: Vec<&Pool> = matching.iter().map(|p| &***p).collect();
                if let Some(order) = pool_order(&refs, &sort) {
                    matching = order.into_iter().map(|i| matching[i].clone()).collect();
                }
                let page = PageOf::of(matching.len(), asked, PER_PAGE);
                (page, keyed(&matching[page.start..page.end]))
            };
            PoolPage {
                page,
                all: list.len(),
                missing: read.missing(),
                rows,
            }
        })
    })
}

/// Goes to the cluster's page with this filter, sort and page in its URL.
fn navigator(
    route: Memo<ClusterRoute>,
) -> impl Fn(String, String, usize, bool) + Clone + Send + Sync + 'static {
    let navigate = use_navigate();
    move |filter: String, sort: String, page: usize, replace: bool| {
        let mut pairs = Vec::new();
        for (key, value) in [("filter", filter), ("sort", sort)] {
            if !value.is_empty() {
                pairs.push(format!(
                    "{key}={}",
                    String::from(js_sys::encode_uri_component(&value))
                ));
            }
        }
        if page > 1 {
            pairs.push(format!("page={page}"));
        }
        let search = if pairs.is_empty() {
            String::new()
        } else {
            format!("?{}", pairs.join("&"))
        };
        navigate(
            &(route.with_untracked(|r| to::cluster(&r.project_id, &r.cluster_id)) + &search),
            NavigateOptions {
                replace,
                scroll: false,
                ..Default::default()
            },
        );
    }
}

/// A cluster can have a thousand pools: they are filtered (by name, instance
/// type or label) and shown a page at a time. The filter and the page are in
/// the URL (`?filter=…&page=…`), so a filtered page can be reloaded and shared.
#[component]
pub(super) fn PoolPages(
    shown: Signal<Option<Arc<PoolListing>>>,
    reads: RwSignal<PoolReads>,
    retry: Callback<()>,
    retrying: RwSignal<bool>,
    shares: Memo<Option<Shares>>,
) -> impl IntoView {
    let route = route::<ClusterRoute>();
    let read = shown;
    let query = PoolQuery::from_url();
    let PoolQuery { filter, sort, .. } = query;
    let shown = page_of(read, query);
    let none_match = Memo::new(move |_| shown.with(|s| s.page.total == 0));
    let go = navigator(route);
    // A new filter starts at its first page; typing is not a step to go back to.
    let on_filter = {
        let go = go.clone();
        move |ev| go(event_target_value(&ev), sort.get_untracked(), 1, true)
    };
    // A header's click sorts by its column from the first page; like the
    // filter, it replaces the entry.
    let sort_by = {
        let go = go.clone();
        Callback::new(move |column: &'static str| {
            let next = sort_on_click(&sort.get_untracked(), column);
            go(filter.get_untracked(), next, 1, true)
        })
    };
    let to_page = Callback::new(move |delta: isize| {
        let number = shown
            .with_untracked(|s| s.page.number)
            .saturating_add_signed(delta);
        go(filter.get_untracked(), sort.get_untracked(), number, false)
    });
    view! {
        <div class="filters" role="search">
            <div class="filter">
                <label for="pool-filter">"Filter pools"</label>
                <input id="pool-filter" type="search" aria-describedby="pool-filter-hint"
                    prop:value=move || filter.get() on:input=on_filter />
                <p class="field-hint" id="pool-filter-hint">"By name, instance type or label"</p>
            </div>
        </div>
        <PoolGap reads retry retrying />
        {move || {
            if none_match.get() {
                let (all, missing) = shown.with_untracked(|s| (s.all, s.missing));
                view! { <p class="empty">{paged::none_match(all, missing, "pool", "pools")}</p> }.into_any()
            } else {
                view! { <PoolTable shown shares sort sort_by /> }.into_any()
            }
        }}
        <PoolPager shown to_page />
    }
}

/// The pager under the pools: Previous and Next while there is more than one
/// page, and how many pools of how many are shown.
#[component]
fn PoolPager(shown: Memo<PoolPage>, to_page: Callback<isize>) -> impl IntoView {
    let paged = Memo::new(move |_| shown.with(|s| s.page.pages > 1));
    // A list with a gap says how many were read of how many, filtered or not.
    let count = move || {
        shown.with(|s| paged::pager_count(&s.page, s.page.total != s.all, s.all, s.missing))
    };
    view! {
        <nav class="pager" aria-label="Pool pages">
            {move || paged.get().then(|| view! {
                <button class="btn" disabled=move || shown.with(|s| !s.page.has_previous()) on:click=move |_| to_page.run(-1)>"Previous"</button>
                <button class="btn" disabled=move || shown.with(|s| !s.page.has_next()) on:click=move |_| to_page.run(1)>"Next"</button>
            })}
            <span class="pager-count">{count}</span>
            {move || shown.with(|s| s.missing.map(|m| view! {
                <span class="pager-count pager-read">{paged::read_of(s.all, Some(m), "pools")}</span>
            }))}
        </nav>
    }
}

/// The rows of one page, keyed by each pool's text: a read that changed one
/// pool on the page redraws that row and no other.
#[component]
fn PoolTable(
    shown: Memo<PoolPage>,
    shares: Memo<Option<Shares>>,
    sort: Memo<String>,
    sort_by: Callback<&'static str>,
) -> impl IntoView {
    let route = route::<ClusterRoute>();
    let state = move |column: &'static str| Signal::derive(move || aria_sort(&sort.get(), column));
    type Row = (Arc<Sourced<Pool>>, usize);
    let columns: Vec<Column<Row>> = vec![
        Column::new("Name", move |(pool, _): &Row| {
            // A plain link (the router still handles its clicks): a page of
            // rows does not need each link to follow the location.
            let href = route.with_untracked(|r| {
                crate::app::paths::href(&to::pool(&r.project_id, &r.cluster_id, &pool.id))
            });
            view! { <a href=href>{pool.name.clone()}</a> }.into_any()
        })
        .class("name")
        .title(|(pool, _): &Row| pool.name.clone())
        .sorted("name", state("name"), sort_by),
        Column::new("Instance type", |(pool, _): &Row| {
            pool.node_config.instance_type.clone().into_any()
        })
        .class("nowrap")
        .sorted("instance", state("instance"), sort_by),
        Column::new("Nodes", |(pool, _): &Row| pool.node_count.into_any()).sorted(
            "nodes",
            state("nodes"),
            sort_by,
        ),
        Column::new("Share of vCPU", move |(pool, _): &Row| {
            let pool = pool.clone();
            (move || figure_view(shares.with(|s| s.as_ref().map(|s| s.of(&pool))))).into_any()
        })
        .class("figure")
        .head_class("figure"),
        Column::new("Status", |(pool, _): &Row| {
            let status = pool.status.as_str();
            view! { <span class=format!("badge badge-{status}")>{status.to_string()}</span> }
                .into_any()
        })
        .sorted("status", state("status"), sort_by),
        Column::new("Labels", |(pool, _): &Row| {
            tag_list(&pool.node_config.labels).into_any()
        }),
        Column::new("Taints", |(pool, _): &Row| {
            tag_list(&pool.node_config.taints).into_any()
        }),
        Column::new("Tags", |(pool, _): &Row| tag_list(&pool.tags).into_any()),
    ];
    view! {
        // Its own sideways scroll when its columns outgrow the page: the page never widens.
        <div class="table-frame">
            <Table label="Pools" rows=Signal::derive(move || shown.with(|s| s.rows.clone())) columns />
        </div>
    }
}

/// Where the pages that could not be read are: the pools read, and those
/// missing, with a Retry that reads from the failed page on. Or, over a list
/// kept shown, a refresh that stopped short of it.
#[component]
pub(super) fn PoolGap(
    reads: RwSignal<PoolReads>,
    retry: Callback<()>,
    retrying: RwSignal<bool>,
) -> impl IntoView {
    let what = Memo::new(move |_| {
        reads.with(|r| {
            let (shown, held) = (r.reads.shown.as_ref()?, r.reads.held.as_ref());
            if let Some(held) = held {
                let gap = held.gap.clone()?;
                let mut says = vec![paged::refresh_stopped(held, "pools")?];
                if let Some(missing) = shown.missing() {
                    says.push(format!(
                        "In that list, {}",
                        paged::gap_title(missing, "pools")
                    ));
                }
                return Some(("Refresh stopped", String::new(), says, gap));
            }
            let gap = shown.gap.clone()?;
            let missing = shown.missing()?;
            Some((
                "Pools not read",
                paged::gap_title(missing, "Pools"),
                vec![format!(
                    "{}: those shown are not all of this cluster's pools.",
                    paged::read_of(shown.read(), Some(missing), "pools")
                )],
                gap,
            ))
        })
    });
    move || {
        what.get().map(|(label, title, says, gap)| {
            let retry_says = paged::retry_says(&gap);
            view! {
                <div class="pool-gap" role="group" aria-label=label>
                    {(!title.is_empty()).then(|| view! { <p class="alert-title">{title}</p> })}
                    {says.into_iter().map(|line| view! { <p>{line}</p> }).collect_view()}
                    <p>{retry_says}</p>
                    <ErrorView error=gap.error retry=move |_| retry.run(()) />
                    {move || retrying.with(|busy| *busy).then(|| view! {
                        <p class="loading">{format!("Reading page {} onward…", display::count(gap.page))}</p>
                    })}
                </div>
            }
        })
    }
}
