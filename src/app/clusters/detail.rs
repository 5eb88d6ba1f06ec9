use crate::app::paths::A;
use leptos::prelude::*;
use std::sync::Arc;

use crate::api::client::Client;
use crate::api::types::{Cluster, InstanceSize, Operation, ResourceStatus, Vpc};
use crate::app::clusters::create::WaitingPool;
use crate::app::clusters::delete_cluster_dialog::DeleteClusterDialog;
use crate::app::clusters::figures::{self, ClusterSummaryLine, Shares};
use crate::app::clusters::kubeconfig::KubeconfigActions;
use crate::app::clusters::pool_reads::{read_pools, PoolSource, Pools};
use crate::app::clusters::pools_section::PoolList;
use crate::app::code::{Export, ExportPanel};
use crate::app::components::{tag_list, CopyableId, ErrorView, StatusBadge, Time};
use crate::app::context::{after_ops, live, page_title, read_again_while_failing, Projects};
use crate::app::lazy;
use crate::app::not_found::Missing;
use crate::app::operations::InFlightBanner;
use crate::app::paths::params::{route, ClusterRoute};
use crate::app::paths::to;
use crate::ops::Ops;
use crate::rules::outcome::ApiError;
use crate::rules::paged;
use crate::rules::{display, operations_list};
use std::collections::BTreeMap;

/// The project's VPCs, read once per page for their names.
type Vpcs = LocalResource<Result<Vec<Vpc>, ApiError>>;

/// The instance types, read once per visit and kept.
type Types = LocalResource<Result<Arc<Vec<InstanceSize>>, ApiError>>;

/// The cluster's monthly cost, as the API prices it now.
type Cost = LocalResource<Result<String, ApiError>>;

/// The operations on the cluster, newest first.
/// The cluster's own operations and the project's newest.
type Recent = LocalResource<Result<RecentRead, ApiError>>;
type RecentRead = (Vec<Operation>, Vec<Operation>);
/// Its load balancers' names by id, as far as they can be read.
type LbNames = LocalResource<BTreeMap<String, String>>;

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
    let route = route::<ClusterRoute>();
    let project_id = move || route.read().project_id.clone();
    let cluster_id = move || route.read().cluster_id.clone();
    // Re-read when an operation ends, and every few seconds while visible: the
    // autoscaler changes pools behind the person's back.
    let cluster = live(
        cluster_id,
        |client, id| async move { client.cluster(&id).await },
    );
    // The cluster as last read, kept through a refresh that fails (the header
    // shows it with the failure, as the pools keep theirs), and dropped for
    // another cluster.
    let shown = Memo::new(move |kept: Option<&Option<Cluster>>| match cluster.get() {
        Some(Ok(c)) => Some(c),
        _ => kept.cloned().flatten().filter(|c| c.id == cluster_id()),
    });
    let PoolSource {
        reads,
        retry,
        retrying,
        pools,
    } = read_pools(&client, cluster_id);
    let (types, cost) = capacity_reads(&client, cluster_id);
    let region = Signal::derive(move || {
        shown.with(|c| c.as_ref().map(|c| c.region.clone()).unwrap_or_default())
    });
    let shares = pool_shares(types, region, pools);
    let vpcs: Vpcs = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let project = project_id();
            async move { client.vpcs(&project).await }
        })
    };
    let recent = recent_operations(project_id, cluster_id);
    // Load balancers that could not be read leave their operations out, not the list.
    let lbs: LbNames = after_ops(cluster_id, |client, id| async move {
        let read = client.load_balancers(&id).await.unwrap_or_default();
        read.into_iter()
            .map(|lb| (lb.id, format!("{}/{}", lb.namespace, lb.service_name)))
            .collect()
    });
    // Read once (or until an operation ends), so read again after a failure
    // that passes: the figures, names and operations come back with the API.
    read_again_while_failing(types);
    read_again_while_failing(vpcs);
    read_again_while_failing(recent);
    // The parts with their own state (what is typed to confirm a delete and its
    // progress, a kubeconfig message) are built once per cluster, not on every
    // refresh, and read what they show from here.
    let identity =
        Memo::new(move |_| shown.with(|c| c.as_ref().map(|c| (c.id.clone(), c.name.clone()))));
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
    let pool_count =
        Signal::derive(move || shown.with(|c| c.as_ref().map_or(0, |c| c.pool_ids.len())));
    let blocked = blocked_by(ops, cluster_id);

    view! {
        <section class="page">
            <p class="breadcrumb"><A href=move || to::clusters(&project_id())>"← Clusters"</A></p>
            <Transition fallback=|| view! { <p class="loading">"Loading cluster…"</p> }>
                {move || {
                    let retry = move |_| cluster.refetch();
                    cluster.get().map(|result| match (result, shown.get_untracked()) {
                        (Ok(c), _) => view! { <ClusterFields cluster=c vpcs /> }.into_any(),
                        (Err(error), Some(c)) => view! {
                            <ClusterFields cluster=c vpcs />
                            <div class="refresh-stopped" role="group" aria-label="Cluster refresh stopped">
                                <p>"The last refresh of this cluster failed. What is shown is what was read before; it may be out of date."</p>
                                <ErrorView error retry />
                            </div>
                        }.into_any(),
                        (Err(error), None) => view! { <ErrorView error retry /> }.into_any(),
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
            {move || identity.get().map(|(cluster_id, cluster_name)| view! {
                <WaitingPool project_id=project_id() cluster_id cluster_name
                    ready=Signal::derive(move || shown.with(|c| c.as_ref().is_some_and(|c| c.status == ResourceStatus::Ready))) />
            })}
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
            <RecentOperations recent lbs pools cluster_id=Signal::derive(cluster_id) />
            <h2>"Export to Terraform"</h2>
            <ExportPanel what=Signal::derive(move || Export::Cluster(cluster_id())) />
            {move || identity.get().map(|(cluster_id, cluster_name)| view! {
                <DeleteClusterDialog cluster_id cluster_name pool_count blocked
                    now=Signal::derive(move || shown.get().map(nks_code::Resource::Cluster)) />
            })}
        </section>
    }
}

/// Capacity and cost: the instance types (read once per visit, kept), and the
/// API's price of the cluster as it is, read again with the pools.
fn capacity_reads(client: &Client, cluster_id: impl Fn() -> String + 'static) -> (Types, Cost) {
    let client = client.clone();
    let types = LocalResource::new(move || {
        let client = client.clone();
        async move { figures::instance_types(&client).await }
    });
    let cost = live(cluster_id, |client, id| async move {
        figures::cluster_cost(&client, &id).await
    });
    (types, cost)
}

/// Each pool's share of the cluster's vCPU, for its row.
fn pool_shares(types: Types, region: Signal<String>, pools: Pools) -> Memo<Option<Shares>> {
    Memo::new(move |_| {
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
    })
}

/// The cluster's operations, read again when one ends.
fn recent_operations(
    project_id: impl Fn() -> String + 'static,
    cluster_id: impl Fn() -> String + 'static,
) -> Recent {
    after_ops(
        move || (project_id(), cluster_id()),
        |client, (project, id)| async move {
            let own = [
                ("resource_id", id.clone()),
                ("sort", "created_at:desc".into()),
            ];
            let newest = [("sort", "created_at:desc".to_string())];
            // Either failing fails the list at once (it is read again as any
            // read that failed for a passing reason is).
            let (own, newest) = futures_util::future::try_join(
                client.operations::<Operation>(&project, &own),
                client.operations_page(&project, &newest, None, NEWEST),
            )
            .await?;
            Ok((own, newest.items))
        },
    )
}

/// The project's newest operations among which a cluster's parts' are found
/// (the API's largest page).
const NEWEST: usize = 100;

/// Why the cluster cannot be deleted now: an operation in flight on it.
fn blocked_by(
    ops: Ops,
    cluster_id: impl Fn() -> String + Send + Sync + 'static,
) -> Signal<Option<String>> {
    let in_flight = Memo::new(move |_| ops.in_flight_on(&cluster_id()));
    Signal::derive(move || {
        in_flight.get().map(|t| {
            format!(
                "An operation is in flight on this cluster ({} {}); wait for it to end.",
                t.op.op_type.as_str(),
                t.op.status.as_str()
            )
        })
    })
}

/// The cluster's last ten operations, or why they could not be read.
#[component]
fn RecentOperations(
    recent: Recent,
    lbs: LbNames,
    pools: Pools,
    cluster_id: Signal<String>,
) -> impl IntoView {
    // Its parts by id: the pools the page reads, the nodes this tab has read
    // in them (deleted ones too), its load balancers.
    let of_cluster = move |(own, newest): RecentRead| {
        let mut parts = lbs.get().unwrap_or_default();
        pools.with(|p| {
            if let Some(Ok(list)) = p {
                parts.extend(list.items.iter().map(|p| (p.id.clone(), p.name.clone())));
            }
        });
        parts.extend(figures::nodes_seen(&cluster_id.get()));
        operations_list::of_cluster(own, newest, &parts)
    };
    view! {
        <Transition fallback=|| view! { <p class="loading">"Loading operations…"</p> }>
            {move || recent.get().map(|result| match result.map(of_cluster) {
                Err(error) => view! { <ErrorView error retry=move |_| recent.refetch() /> }.into_any(),
                Ok(list) if list.is_empty() => view! { <p class="muted">"No operations on this cluster."</p> }.into_any(),
                Ok(list) => view! {
                    <ul class="recent-ops" aria-label="Recent operations">
                        {list.into_iter().map(|(op, part)| {
                            let status = op.status.as_str().to_string();
                            let what = crate::app::operations::describe(&op);
                            let what = part.map_or(what.clone(), |name| format!("{what} {name}"));
                            view! {
                                <li>
                                    <bdi>{what}</bdi> " "
                                    <StatusBadge status />
                                    " " <Time at=op.created_at />
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }.into_any(),
            })}
        </Transition>
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
