use crate::app::paths::A;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;
use std::sync::Arc;

use crate::api::client::Client;
use crate::api::decode::Sourced;
use crate::api::types::{Cluster, Operation, Pool, Vpc};
use crate::app::clusters::delete_cluster_dialog::DeleteClusterDialog;
use crate::app::clusters::figures::{self, figure_view, ClusterSummaryLine, Shares};
use crate::app::clusters::kubeconfig::KubeconfigActions;
use crate::app::components::SortHeader;
use crate::app::components::{tag_list, CopyableId, ErrorView, StatusBadge, Time};
use crate::app::context::{page_title, Projects, Refresh};
use crate::app::lazy;
use crate::app::not_found::Missing;
use crate::app::operations::InFlightBanner;
use crate::app::paths::params::{route, ClusterRoute};
use crate::app::paths::to;
use crate::app::perf::ListMarks;
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::listing::{
    aria_sort, keyed, pool_matches, pool_order, sort_on_click, PageOf, PER_PAGE,
};
use crate::rules::outcome::ApiError;
use crate::rules::paged::{self, Gap, Listing, Shown, Start};

/// The pools shown: each with its text, so a row is keyed by what its pool was
/// read as, and shared, so the rows shown hold them without copying.
type Pools = figures::PoolsRead;
type PoolListing = figures::PoolListing;

/// The cluster's pools as the page holds them: the read shown (which may have
/// a gap: a page that could not be read), and a newer read that stopped short
/// of it, held until Retry reads its gap. Of one cluster: another's reads are
/// not mixed in.
#[derive(Clone, Default)]
struct PoolReads {
    cluster: String,
    reads: Shown<Arc<PoolListing>>,
}

impl PoolReads {
    /// Takes a read of `cluster`'s pools (from page 1, or a gap continued).
    fn take(&mut self, cluster: &str, read: Arc<PoolListing>) {
        if self.cluster != cluster {
            *self = PoolReads {
                cluster: cluster.to_string(),
                reads: Shown::default(),
            };
        }
        self.reads.take(read);
    }
}

/// A read of pools as the page keeps them: each in an `Arc`.
fn shared(read: Listing<Sourced<Pool>>) -> Arc<PoolListing> {
    Arc::new(Listing {
        items: read.items.into_iter().map(Arc::new).collect(),
        total: read.total,
        gap: read.gap,
    })
}

/// The project's VPCs, read once per page for their names.
type Vpcs = LocalResource<Result<Vec<Vpc>, ApiError>>;

/// One cluster, or "Cluster not found" when the API does not know it (or it
/// belongs to another project than the address says).
#[component]
pub fn ClusterPage() -> impl IntoView {
    let route = route::<ClusterRoute>();
    let project_id = move || route.read().project_id.clone();
    let cluster_id = Memo::new(move |_| route.read().cluster_id.clone());
    let missing = RwSignal::new(false);
    Effect::watch(
        move || cluster_id.get(),
        move |_, _, _| missing.set(false),
        false,
    );
    view! {
        <Show
            when=move || !missing.get()
            fallback=move || view! {
                <Missing what="Cluster" id=cluster_id.get() back=to::clusters(&project_id()) back_label="← Clusters" />
            }
        >
            <ClusterView missing />
        </Show>
    }
}

/// One cluster: its fields and its pools.
#[component]
fn ClusterView(missing: RwSignal<bool>) -> impl IntoView {
    let client = expect_context::<Client>();
    let projects = expect_context::<Projects>();
    let ops = expect_context::<Ops>();
    let Refresh(refresh) = expect_context::<Refresh>();
    let route = route::<ClusterRoute>();
    let project_id = move || route.read().project_id.clone();
    let cluster_id = move || route.read().cluster_id.clone();
    // Re-read when an operation ends, and every few seconds while visible: the
    // autoscaler changes pools behind the person's back.
    let cluster = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let id = cluster_id();
            let reading = ops.read();
            refresh.track();
            async move {
                let _reading = reading;
                client.cluster(&id).await
            }
        })
    };
    // The pools, every page from the first. A page that cannot be read leaves
    // a gap after the pages read (not an error in place of them all), and a
    // read that stops short of the list shown does not replace it.
    let fresh = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let id = cluster_id();
            let reading = ops.read();
            refresh.track();
            async move {
                let _reading = reading;
                let read = client
                    .pools_from::<Sourced<Pool>>(&id, &Start::first_page())
                    .await;
                (id, shared(read))
            }
        })
    };
    let reads = RwSignal::new(PoolReads::default());
    // Another cluster's pools are not shown while this one's are read.
    Effect::watch(
        cluster_id,
        move |id, _, _| {
            if reads.with_untracked(|r| &r.cluster != id) {
                reads.set(PoolReads {
                    cluster: id.clone(),
                    reads: Shown::default(),
                });
            }
        },
        false,
    );
    Effect::new(move |_| {
        if let Some((id, read)) = fresh.get() {
            reads.update(|r| r.take(&id, read));
        }
    });
    // Retry reads from the gap's page alone (its cursor), to the end, and puts
    // those pages after the ones already read. (`retrying` is read through
    // `with`: `get` on a bool signal is code the connect screen has too, and
    // sharing it would add a chunk to the first load.)
    let retrying = RwSignal::new(false);
    let retry = {
        let client = client.clone();
        Callback::new(move |()| {
            if retrying.with_untracked(|busy| *busy) {
                return;
            }
            let Some((id, base)) =
                reads.with_untracked(|r| Some((r.cluster.clone(), r.reads.to_retry()?.clone())))
            else {
                return;
            };
            let Some(from) = base.gap.as_ref().map(Gap::from) else {
                return;
            };
            retrying.set(true);
            let client = client.clone();
            leptos::task::spawn_local(async move {
                let more = client.pools_from::<Sourced<Pool>>(&id, &from).await;
                let more = Arc::unwrap_or_clone(shared(more));
                let read = Arc::new(base.continued(more));
                reads.try_update(|r| r.take(&id, read));
                retrying.try_set(false);
            });
        })
    };
    let pools: Pools = Signal::derive(move || {
        reads.with(|r| match (&r.reads.shown, &r.reads.held) {
            (Some(shown), _) => Some(Ok(shown.clone())),
            (None, Some(held)) => held.gap.as_ref().map(|g| Err(g.error.clone())),
            (None, None) => None,
        })
    });
    // Capacity and cost: the instance types (read once per visit, kept), and
    // the API's price of the cluster as it is, read again with the pools.
    let types = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            async move { figures::instance_types(&client).await }
        })
    };
    let cost = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let id = cluster_id();
            ops.revision.track();
            refresh.track();
            async move { figures::cluster_cost(&client, &id).await }
        })
    };
    let region = Signal::derive(move || {
        cluster.with(|read| match read {
            Some(Ok(c)) => c.region.clone(),
            _ => String::new(),
        })
    });
    // Each pool's share of the cluster's vCPU, for its row.
    let shares = Memo::new(move |_| {
        let types = types.get()?.ok()?;
        let region = region.get();
        pools.with(|read| {
            let list = read.as_ref()?.as_ref().ok()?;
            let sum = crate::rules::footprint::Footprint::of(
                list.items
                    .iter()
                    .map(|p| (p.node_config.instance_type.as_str(), p.node_count)),
                &types,
                &region,
            );
            let total_vcpu = match (list.missing(), sum.unknown_types.is_empty()) {
                (Some(missing), _) => Err(paged::gap_title(missing, "pools")
                    .trim_end_matches('.')
                    .to_string()),
                (None, false) => Err("another pool's instance type is unknown".to_string()),
                (None, true) => Ok(sum.vcpu),
            };
            Some(Shares {
                types: types.clone(),
                region,
                total_vcpu,
            })
        })
    });
    let vpcs: Vpcs = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let project = project_id();
            async move { client.vpcs(&project).await }
        })
    };
    let recent = LocalResource::new(move || {
        let client = client.clone();
        let (project, id) = (project_id(), cluster_id());
        ops.revision.track();
        async move {
            client
                .operations::<Operation>(
                    &project,
                    &[("resource_id", id), ("sort", "created_at:desc".into())],
                )
                .await
        }
    });
    // The parts with their own state (what is typed to confirm a delete and its
    // progress, a kubeconfig message) are built once per cluster, not on every
    // refresh, and read what they show from here.
    let identity = Memo::new(move |_| {
        cluster.with(|read| match read {
            Some(Ok(c)) => Some((c.id.clone(), c.name.clone())),
            _ => None,
        })
    });
    Effect::new(move |_| {
        let gone = cluster.with(|read| match read {
            Some(Err(error)) => error.is_not_found(),
            Some(Ok(c)) => !c.project_id.is_empty() && c.project_id != project_id(),
            None => false,
        });
        if gone {
            missing.set(true);
        }
    });
    page_title(move || {
        let name = identity.with(|i| i.as_ref().map(|(_, name)| name.clone()));
        vec![
            name.unwrap_or_default(),
            projects.name(&project_id()).unwrap_or_default(),
        ]
    });
    let pool_count = Signal::derive(move || {
        cluster.with(|read| match read {
            Some(Ok(c)) => c.pool_ids.len(),
            _ => 0,
        })
    });
    let in_flight = Memo::new(move |_| ops.in_flight_on(&cluster_id()));
    let blocked = Signal::derive(move || {
        in_flight.get().map(|t| {
            format!(
                "An operation is in flight on this cluster ({} {}); wait for it to end.",
                t.op.op_type.as_str(),
                t.op.status.as_str()
            )
        })
    });

    view! {
        <section class="page">
            <p class="breadcrumb"><A href=move || to::clusters(&project_id())>"← Clusters"</A></p>
            <Transition fallback=|| view! { <p class="loading">"Loading cluster…"</p> }>
                {move || {
                    cluster
                        .get()
                        .map(|result| match result {
                            Err(error) => view! { <ErrorView error retry=move |_| cluster.refetch() /> }.into_any(),
                            Ok(c) => view! { <ClusterFields cluster=c vpcs /> }.into_any(),
                        })
                }}
            </Transition>
            <ClusterSummaryLine
                cluster_id=Signal::derive(cluster_id)
                region
                pools
                types=Signal::derive(move || types.get())
                cost=Signal::derive(move || cost.get())
            />
            <InFlightBanner resource_id=Signal::derive(cluster_id) />
            <p class="actions">
                <A href=move || to::edit_cluster(&project_id(), &cluster_id()) attr:class="btn">"Edit cluster"</A>
                <A href=move || to::new_pool(&project_id(), &cluster_id()) attr:class="btn">"Add pool"</A>
                {move || identity.get().map(|(cluster_id, cluster_name)| view! { <KubeconfigActions cluster_id cluster_name /> })}
            </p>
            <h2>"Pools"</h2>
            <PoolList reads retry retrying shares />
            <h2>"Controllers"</h2>
            {lazy::controllers()}
            <h2>"Load balancers"</h2>
            {lazy::load_balancers()}
            <h2>"Reachability"</h2>
            {lazy::reachability()}
            <h2>"Persistent volume claims"</h2>
            {lazy::pvcs()}
            <h2>"Recent operations"</h2>
            <Transition fallback=|| view! { <p class="loading">"Loading operations…"</p> }>
                {move || recent.get().map(|result| match result {
                    Err(error) => view! { <ErrorView error retry=move |_| recent.refetch() /> }.into_any(),
                    Ok(list) if list.is_empty() => view! { <p class="muted">"No operations on this cluster."</p> }.into_any(),
                    Ok(list) => view! {
                        <ul class="recent-ops" aria-label="Recent operations">
                            {list.into_iter().take(10).map(|op| {
                                let status = op.status.as_str().to_string();
                                view! {
                                    <li>
                                        {format!("{} ", crate::app::operations::describe(&op))}
                                        <StatusBadge status />
                                        " " <Time at=op.created_at />
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    }.into_any(),
                })}
            </Transition>
            {move || identity.get().map(|(cluster_id, cluster_name)| view! { <DeleteClusterDialog cluster_id cluster_name pool_count blocked /> })}
        </section>
    }
}

#[component]
fn ClusterFields(cluster: Cluster, vpcs: Vpcs) -> impl IntoView {
    let status = cluster.status.as_str().to_string();
    // Names as they arrive; the ids are shown meanwhile, and when a read fails.
    let projects = expect_context::<Projects>();
    let project_id = cluster.project_id.clone();
    let project = move || projects.name(&project_id).map(|name| format!("{name} "));
    let (vpc_id, vpc_id_shown) = (cluster.vpc_id.clone(), cluster.vpc_id.clone());
    let vpc_name = move || {
        vpcs.with(|read| match read {
            Some(Ok(list)) => list.iter().find(|v| v.id == vpc_id).map(|v| v.name.clone()),
            _ => None,
        })
    };
    view! {
        <header class="page-header">
            <h1>{cluster.name.clone()}</h1>
            <StatusBadge status />
        </header>
        <dl class="fields">
            <dt>"ID"</dt>
            <dd><CopyableId id=cluster.id.clone() what="cluster ID" /></dd>
            <dt>"Project"</dt>
            <dd>{project}<CopyableId id=cluster.project_id.clone() what="project ID" /></dd>
            <dt>"Kubernetes version"</dt>
            <dd>{cluster.kubernetes_version}</dd>
            <dt>"Region"</dt>
            <dd>{cluster.region}</dd>
            <dt>"VPC"</dt>
            // The VPC's name leads to its page (its id until the name is read).
            <dd>
                <A href=to::vpc(&cluster.project_id, &cluster.vpc_id)>
                    {move || vpc_name().unwrap_or_else(|| cluster.vpc_id.clone())}
                </A>
                " "
                <CopyableId id=vpc_id_shown what="VPC ID" />
            </dd>
            <dt>"Autoscaling"</dt>
            <dd>{display::on_off(cluster.autoscaling)}</dd>
            <dt>"API endpoint (private)"</dt>
            <dd>{display::address(cluster.private_ip.as_deref()).to_string()}</dd>
            <dt>"Public IP"</dt>
            <dd>{display::address(cluster.public_ip.as_deref()).to_string()}</dd>
            <dt>"Tags"</dt>
            <dd>{tag_list(&cluster.tags)}</dd>
            <dt>"Created"</dt>
            <dd><Time at=cluster.created_at.clone() /></dd>
        </dl>
    }
}

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
fn PoolList(
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

/// Where the pages that could not be read are: the pools read, and those
/// missing, with a Retry that reads from the failed page on. Or, over a list
/// kept shown, a refresh that stopped short of it.
#[component]
fn PoolGap(
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

/// A cluster can have a thousand pools: they are filtered (by name, instance
/// type or label) and shown a page at a time. The filter and the page are in
/// the URL (`?filter=…&page=…`), so a filtered page can be reloaded and shared.
#[component]
fn PoolPages(
    shown: Signal<Option<Arc<PoolListing>>>,
    reads: RwSignal<PoolReads>,
    retry: Callback<()>,
    retrying: RwSignal<bool>,
    shares: Memo<Option<Shares>>,
) -> impl IntoView {
    let route = route::<ClusterRoute>();
    let read = shown;
    let query = use_query_map();
    let navigate = use_navigate();
    let filter = Memo::new(move |_| query.read().get("filter").unwrap_or_default());
    let sort = Memo::new(move |_| query.read().get("sort").unwrap_or_default());
    let asked = Memo::new(move |_| {
        query
            .read()
            .get("page")
            .and_then(|p| p.parse::<usize>().ok())
            .unwrap_or(1)
    });
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
    let shown = Memo::new(move |_| {
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
    });
    let none_match = Memo::new(move |_| shown.with(|s| s.page.total == 0));
    let paged = Memo::new(move |_| shown.with(|s| s.page.pages > 1));
    let go = {
        let navigate = navigate.clone();
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
    };
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
    let to_page = move |delta: isize| {
        let number = shown
            .with_untracked(|s| s.page.number)
            .saturating_add_signed(delta);
        go(filter.get_untracked(), sort.get_untracked(), number, false)
    };
    // A list with a gap says how many were read of how many, filtered or not.
    let count = move || {
        shown.with(|s| paged::pager_count(&s.page, s.page.total != s.all, s.all, s.missing))
    };
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
        <nav class="pager" aria-label="Pool pages">
            {
                let (back, on) = (to_page.clone(), to_page);
                move || paged.get().then(|| {
                    let (back, on) = (back.clone(), on.clone());
                    view! {
                        <button class="btn" disabled=move || shown.with(|s| !s.page.has_previous()) on:click=move |_| back(-1)>"Previous"</button>
                        <button class="btn" disabled=move || shown.with(|s| !s.page.has_next()) on:click=move |_| on(1)>"Next"</button>
                    }
                })
            }
            <span class="pager-count">{count}</span>
            {move || shown.with(|s| s.missing.map(|m| view! {
                <span class="pager-count pager-read">{paged::read_of(s.all, Some(m), "pools")}</span>
            }))}
        </nav>
    }
}

/// The rows of one page: a keyed `<For>`, so a read that changed one pool on
/// the page redraws that row and no other.
#[component]
fn PoolTable(
    shown: Memo<PoolPage>,
    shares: Memo<Option<Shares>>,
    sort: Memo<String>,
    sort_by: Callback<&'static str>,
) -> impl IntoView {
    let route = route::<ClusterRoute>();
    let sortable = move |column: &'static str, label: &'static str| {
        view! { <SortHeader column label state=Signal::derive(move || aria_sort(&sort.get(), column)) sort_by /> }
    };
    view! {
        // Its own sideways scroll when its columns outgrow the page: the page never widens.
        <div class="table-frame">
        <table class="table table-wide" aria-label="Pools">
            <thead>
                <tr>
                    {sortable("name", "Name")}
                    {sortable("instance", "Instance type")}
                    {sortable("nodes", "Nodes")}
                    <th scope="col" class="figure">"Share of vCPU"</th>
                    {sortable("status", "Status")}
                    <th scope="col">"Labels"</th>
                    <th scope="col">"Taints"</th>
                    <th scope="col">"Tags"</th>
                </tr>
            </thead>
            <tbody>
                <For each=move || shown.with(|s| s.rows.clone()) key=|row| row.clone() let((pool, _))>
                    {
                        // A plain link (the router still handles its clicks): a page of
                        // rows does not need each link to follow the location.
                        let href = route.with_untracked(|r| crate::app::paths::href(&to::pool(&r.project_id, &r.cluster_id, &pool.id)));
                        let status = pool.status.as_str();
                        view! {
                            <tr>
                                <td class="name" title=pool.name.clone()><a href=href>{pool.name.clone()}</a></td>
                                <td class="nowrap">{pool.node_config.instance_type.clone()}</td>
                                <td>{pool.node_count}</td>
                                <td class="figure">{
                                    let pool = pool.clone();
                                    move || figure_view(shares.with(|s| s.as_ref().map(|s| s.of(&pool))))
                                }</td>
                                <td><span class=format!("badge badge-{status}")>{status.to_string()}</span></td>
                                <td>{tag_list(&pool.node_config.labels)}</td>
                                <td>{tag_list(&pool.node_config.taints)}</td>
                                <td>{tag_list(&pool.tags)}</td>
                            </tr>
                        }
                    }
                </For>
            </tbody>
        </table>
        </div>
    }
}
