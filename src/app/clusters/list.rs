use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_params_map;

use crate::api::client::Client;
use crate::app::components::{ErrorView, StatusBadge};
use crate::rules::display;

/// Every cluster of the project (all pages), or the reason they could not be read.
#[component]
pub fn ClusterList() -> impl IntoView {
    let client = expect_context::<Client>();
    let params = use_params_map();
    let project_id = move || params.read().get("project_id").unwrap_or_default();
    let clusters = LocalResource::new(move || {
        let client = client.clone();
        let project = project_id();
        async move { client.clusters(&project).await }
    });

    view! {
        <section class="page">
            <header class="page-header">
                <h1>"Clusters"</h1>
            </header>
            <Transition fallback=|| view! { <p class="loading">"Loading clusters…"</p> }>
                {move || {
                    clusters
                        .get()
                        .map(|result| match result {
                            Err(error) => view! { <ErrorView error retry=move |_| clusters.refetch() /> }.into_any(),
                            Ok(list) if list.is_empty() => view! {
                                <div class="empty">
                                    <p>"No clusters in this project yet."</p>
                                </div>
                            }
                                .into_any(),
                            Ok(list) => {
                                let project = project_id();
                                view! {
                                    <table class="table" aria-label="Clusters">
                                        <thead>
                                            <tr>
                                                <th scope="col">"Name"</th>
                                                <th scope="col">"Status"</th>
                                                <th scope="col">"Kubernetes"</th>
                                                <th scope="col">"Autoscaling"</th>
                                                <th scope="col">"Pools"</th>
                                                <th scope="col">"Created"</th>
                                            </tr>
                                        </thead>
                                        <tbody>
                                            {list
                                                .into_iter()
                                                .map(|c| {
                                                    let href = format!("/projects/{project}/clusters/{}", c.id);
                                                    let status = c.status.as_str().to_string();
                                                    view! {
                                                        <tr>
                                                            <td><A href=href>{c.name}</A></td>
                                                            <td><StatusBadge status=status /></td>
                                                            <td>{c.kubernetes_version}</td>
                                                            <td>{display::on_off(c.autoscaling)}</td>
                                                            <td>{c.pool_ids.len()}</td>
                                                            <td>{display::timestamp(&c.created_at)}</td>
                                                        </tr>
                                                    }
                                                })
                                                .collect_view()}
                                        </tbody>
                                    </table>
                                }
                                    .into_any()
                            }
                        })
                }}
            </Transition>
        </section>
    }
}
