use leptos::prelude::*;
use leptos_router::hooks::use_params_map;

use crate::api::client::Client;
use crate::app::components::{ErrorView, StatusBadge};
use crate::rules::display;

/// Every operation of the project, newest first, with the changes each carried.
#[component]
pub fn OperationsPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let params = use_params_map();
    let project_id = move || params.read().get("project_id").unwrap_or_default();
    let operations = LocalResource::new(move || {
        let client = client.clone();
        let project = project_id();
        async move {
            client
                .operations(&project, &[("sort", "created_at:desc".to_string())])
                .await
        }
    });
    view! {
        <section class="page">
            <header class="page-header">
                <h1>"Operations"</h1>
            </header>
            <Transition fallback=|| view! { <p class="loading">"Loading operations…"</p> }>
                {move || {
                    operations
                        .get()
                        .map(|result| match result {
                            Err(error) => view! { <ErrorView error retry=move |_| operations.refetch() /> }.into_any(),
                            Ok(list) if list.is_empty() => {
                                view! { <p class="empty">"No operations in this project yet."</p> }.into_any()
                            }
                            Ok(list) => view! {
                                <table class="table" aria-label="Operations">
                                    <thead>
                                        <tr>
                                            <th scope="col">"Kind"</th>
                                            <th scope="col">"Type"</th>
                                            <th scope="col">"Status"</th>
                                            <th scope="col">"Resource"</th>
                                            <th scope="col">"Changes"</th>
                                            <th scope="col">"Started"</th>
                                        </tr>
                                    </thead>
                                    <tbody>
                                        {list
                                            .into_iter()
                                            .map(|op| {
                                                let status = op.status.as_str().to_string();
                                                let changes: Vec<String> = op
                                                    .changes()
                                                    .map(|(field, c)| format!("{field}: {} → {}", c.from, c.to))
                                                    .collect();
                                                view! {
                                                    <tr>
                                                        <td>{op.kind.as_str()}</td>
                                                        <td>{op.op_type.as_str()}</td>
                                                        <td><StatusBadge status /></td>
                                                        <td><code>{op.resource_id.clone()}</code></td>
                                                        <td>{changes.join("; ")}</td>
                                                        <td>{display::timestamp(&op.created_at)}</td>
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
