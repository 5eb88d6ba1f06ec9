//! The cluster's persistent volume claims. Loaded on first use (`lazy::pvcs`).

use leptos::prelude::*;

use crate::api::client::Client;
use crate::api::types::PersistentVolumeClaim;
use crate::app::components::{ErrorView, StatusBadge, Time};
use crate::app::context::Refresh;
use crate::app::paths::params::{route, ClusterRoute};
use crate::ops::Ops;

/// The cluster's persistent volume claims: name, size, type, status.
#[component]
pub fn PvcList() -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let Refresh(refresh) = expect_context::<Refresh>();
    let route = route::<ClusterRoute>();
    let cluster_id = move || route.read().cluster_id.clone();
    let claims = LocalResource::new(move || {
        let client = client.clone();
        let id = cluster_id();
        ops.revision.track();
        refresh.track();
        async move { client.persistent_volume_claims(&id).await }
    });
    view! {
        <Transition fallback=|| view! { <p class="loading">"Loading persistent volume claims…"</p> }>
            {move || claims.get().map(|read| match read {
                Err(error) => view! { <ErrorView error retry=move |_| claims.refetch() /> }.into_any(),
                Ok(list) if list.is_empty() => view! {
                    <p class="empty">"This cluster has no persistent volume claims."</p>
                }.into_any(),
                Ok(list) => view! { <PvcTable list /> }.into_any(),
            })}
        </Transition>
    }
}

#[component]
fn PvcTable(list: Vec<PersistentVolumeClaim>) -> impl IntoView {
    view! {
        <table class="table table-wide" aria-label="Persistent volume claims">
            <thead>
                <tr>
                    <th scope="col">"Name"</th>
                    <th scope="col">"Size"</th>
                    <th scope="col">"Type"</th>
                    <th scope="col">"Status"</th>
                    <th scope="col">"Created"</th>
                </tr>
            </thead>
            <tbody>
                <For each=move || list.clone() key=|pvc| pvc.clone() let:pvc>
                    {
                        let status = pvc.status.as_str().to_string();
                        view! {
                            <tr>
                                <td>{pvc.name}</td>
                                <td class="nowrap figure">{format!("{} GB", pvc.size)}</td>
                                <td>{pvc.volume_type.as_str().to_string()}</td>
                                <td><StatusBadge status /></td>
                                <td><Time at=pvc.created_at.clone() /></td>
                            </tr>
                        }
                    }
                </For>
            </tbody>
        </table>
    }
}
