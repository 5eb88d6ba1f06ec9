use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use crate::api::client::Client;
use crate::api::types::{Cluster, Pool};
use crate::app::components::{tag_list, ErrorView, StatusBadge};
use crate::rules::display;

/// One cluster: its fields and its pools.
#[component]
pub fn ClusterPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let params = use_params_map();
    let project_id = move || params.read().get("project_id").unwrap_or_default();
    let cluster_id = move || params.read().get("cluster_id").unwrap_or_default();
    let cluster = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let id = cluster_id();
            async move { client.cluster(&id).await }
        })
    };
    let pools = LocalResource::new(move || {
        let client = client.clone();
        let id = cluster_id();
        async move { client.pools(&id).await }
    });

    view! {
        <section class="page">
            <Transition fallback=|| view! { <p class="loading">"Loading cluster…"</p> }>
                {move || {
                    cluster
                        .get()
                        .map(|result| match result {
                            Err(error) => view! { <ErrorView error retry=move |_| cluster.refetch() /> }.into_any(),
                            Ok(c) => view! { <ClusterFields cluster=c /> }.into_any(),
                        })
                }}
            </Transition>
            <h2>"Pools"</h2>
            <Transition fallback=|| view! { <p class="loading">"Loading pools…"</p> }>
                {move || {
                    pools
                        .get()
                        .map(|result| match result {
                            Err(error) => view! { <ErrorView error retry=move |_| pools.refetch() /> }.into_any(),
                            Ok(list) if list.is_empty() => {
                                view! { <p class="empty">"This cluster has no pools."</p> }.into_any()
                            }
                            Ok(list) => {
                                let base = format!("/projects/{}/clusters/{}", project_id(), cluster_id());
                                view! { <PoolTable pools=list base /> }.into_any()
                            }
                        })
                }}
            </Transition>
        </section>
    }
}

#[component]
fn ClusterFields(cluster: Cluster) -> impl IntoView {
    let status = cluster.status.as_str().to_string();
    view! {
        <header class="page-header">
            <h1>{cluster.name.clone()}</h1>
            <StatusBadge status />
        </header>
        <dl class="fields">
            <dt>"Kubernetes version"</dt>
            <dd>{cluster.kubernetes_version}</dd>
            <dt>"Region"</dt>
            <dd>{cluster.region}</dd>
            <dt>"VPC"</dt>
            <dd><code>{cluster.vpc_id}</code></dd>
            <dt>"Autoscaling"</dt>
            <dd>{display::on_off(cluster.autoscaling)}</dd>
            <dt>"API endpoint (private)"</dt>
            <dd>{cluster.private_ip.filter(|ip| !ip.is_empty()).unwrap_or_else(|| "not assigned yet".into())}</dd>
            <dt>"Public IP"</dt>
            <dd>{cluster.public_ip.filter(|ip| !ip.is_empty()).unwrap_or_else(|| "not assigned yet".into())}</dd>
            <dt>"Tags"</dt>
            <dd>{tag_list(&cluster.tags)}</dd>
            <dt>"Created"</dt>
            <dd>{display::timestamp(&cluster.created_at)}</dd>
        </dl>
    }
}

#[component]
fn PoolTable(pools: Vec<Pool>, base: String) -> impl IntoView {
    view! {
        <table class="table" aria-label="Pools">
            <thead>
                <tr>
                    <th scope="col">"Name"</th>
                    <th scope="col">"Instance type"</th>
                    <th scope="col">"Nodes"</th>
                    <th scope="col">"Status"</th>
                    <th scope="col">"Labels"</th>
                    <th scope="col">"Taints"</th>
                    <th scope="col">"Tags"</th>
                </tr>
            </thead>
            <tbody>
                {pools
                    .into_iter()
                    .map(|p| {
                        let href = format!("{base}/pools/{}", p.id);
                        let status = p.status.as_str().to_string();
                        view! {
                            <tr>
                                <td><A href=href>{p.name}</A></td>
                                <td>{p.node_config.instance_type}</td>
                                <td>{p.node_count}</td>
                                <td><StatusBadge status /></td>
                                <td>{tag_list(&p.node_config.labels)}</td>
                                <td>{tag_list(&p.node_config.taints)}</td>
                                <td>{tag_list(&p.tags)}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}
