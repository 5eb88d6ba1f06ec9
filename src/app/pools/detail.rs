use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use crate::api::client::Client;
use crate::api::types::Pool;
use crate::app::components::{tag_list, ErrorView, StatusBadge};
use crate::rules::display;

/// One pool: its fields and its nodes.
#[component]
pub fn PoolPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let params = use_params_map();
    let param = move |name: &'static str| move || params.read().get(name).unwrap_or_default();
    let (project_id, cluster_id, pool_id) =
        (param("project_id"), param("cluster_id"), param("pool_id"));
    let pool = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let (c, p) = (cluster_id(), pool_id());
            async move { client.pool(&c, &p).await }
        })
    };
    let nodes = LocalResource::new(move || {
        let client = client.clone();
        let (c, p) = (cluster_id(), pool_id());
        async move { client.nodes(&c, &p).await }
    });
    let back = move || format!("/projects/{}/clusters/{}", project_id(), cluster_id());

    view! {
        <section class="page">
            <p class="breadcrumb"><A href=back>"← Cluster"</A></p>
            <Transition fallback=|| view! { <p class="loading">"Loading pool…"</p> }>
                {move || {
                    pool.get()
                        .map(|result| match result {
                            Err(error) => view! { <ErrorView error retry=move |_| pool.refetch() /> }.into_any(),
                            Ok(p) => view! { <PoolFields pool=p /> }.into_any(),
                        })
                }}
            </Transition>
            <h2>"Nodes"</h2>
            <Transition fallback=|| view! { <p class="loading">"Loading nodes…"</p> }>
                {move || {
                    nodes
                        .get()
                        .map(|result| match result {
                            Err(error) => view! { <ErrorView error retry=move |_| nodes.refetch() /> }.into_any(),
                            Ok(list) if list.is_empty() => {
                                view! { <p class="empty">"No nodes: this pool is scaled to zero."</p> }.into_any()
                            }
                            Ok(list) => view! {
                                <table class="table" aria-label="Nodes">
                                    <thead>
                                        <tr>
                                            <th scope="col">"Name"</th>
                                            <th scope="col">"Private IP"</th>
                                            <th scope="col">"Status"</th>
                                            <th scope="col">"Created"</th>
                                        </tr>
                                    </thead>
                                    <tbody>
                                        {list
                                            .into_iter()
                                            .map(|n| {
                                                let status = n.status.as_str().to_string();
                                                view! {
                                                    <tr>
                                                        <td>{n.name}</td>
                                                        <td>{n.private_ip.unwrap_or_else(|| "—".into())}</td>
                                                        <td><StatusBadge status /></td>
                                                        <td>{display::timestamp(&n.created_at)}</td>
                                                    </tr>
                                                }
                                            })
                                            .collect_view()}
                                    </tbody>
                                </table>
                            }
                                .into_any(),
                        })
                }}
            </Transition>
        </section>
    }
}

#[component]
fn PoolFields(pool: Pool) -> impl IntoView {
    let status = pool.status.as_str().to_string();
    let boot = format!(
        "{} GB {}",
        pool.node_config.boot_volume.size,
        pool.node_config.boot_volume.volume_type.as_str()
    );
    view! {
        <header class="page-header">
            <h1>{pool.name.clone()}</h1>
            <StatusBadge status />
        </header>
        <dl class="fields">
            <dt>"Node count"</dt>
            <dd>{pool.node_count}</dd>
            <dt>"Instance type"</dt>
            <dd>{pool.node_config.instance_type}</dd>
            <dt>"Boot volume"</dt>
            <dd>{boot}</dd>
            <dt>"Labels"</dt>
            <dd>{tag_list(&pool.node_config.labels)}</dd>
            <dt>"Taints"</dt>
            <dd>{tag_list(&pool.node_config.taints)}</dd>
            <dt>"Tags"</dt>
            <dd>{tag_list(&pool.tags)}</dd>
            <dt>"Created"</dt>
            <dd>{display::timestamp(&pool.created_at)}</dd>
        </dl>
    }
}
