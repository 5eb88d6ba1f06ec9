//! `kubectl cordon` / `kubectl drain` for real nodes, to move workloads gracefully.

use leptos::prelude::*;

use crate::api::client::Client;
use crate::api::types::Node;
use crate::app::components::{Commands, ErrorView};
use crate::rules::capacity::drain_commands;

/// The drain commands for every node of a pool (read from the API).
#[component]
pub fn DrainList(#[prop(into)] cluster_id: String, #[prop(into)] pool_id: String) -> impl IntoView {
    let client = expect_context::<Client>();
    let nodes = LocalResource::new(move || {
        let client = client.clone();
        let cluster = cluster_id.clone();
        let pool = pool_id.clone();
        async move { client.nodes(&cluster, &pool).await }
    });
    move || match nodes.get() {
        None => view! { <p class="loading">"Loading nodes…"</p> }.into_any(),
        Some(Err(error)) => view! { <ErrorView error retry=move |_| nodes.refetch() /> }.into_any(),
        Some(Ok(list)) if list.is_empty() => {
            view! { <p class="muted">"The old pool has no nodes left to drain."</p> }.into_any()
        }
        Some(Ok(list)) => view! { <DrainCommands nodes=list /> }.into_any(),
    }
}

/// The commands for the given nodes, ready to copy.
#[component]
pub fn DrainCommands(nodes: Vec<Node>) -> impl IntoView {
    let text: Vec<String> = nodes.iter().flat_map(|n| drain_commands(&n.name)).collect();
    view! { <Commands text=text.join("\n") label="Drain commands" what="drain commands" /> }
}
