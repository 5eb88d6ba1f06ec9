//! The volumes of a pool's nodes, each beside the node it belongs to. Loaded on
//! first use (`lazy::pool_volumes`).

use std::collections::HashMap;

use leptos::prelude::*;

use crate::api::client::Client;
use crate::api::types::Volume;
use crate::app::components::{ErrorView, StatusBadge};
use crate::app::context::Refresh;
use crate::app::paths::params::{route, PoolRoute};
use crate::ops::Ops;
use crate::rules::outcome::ApiError;

/// A volume and the name of its node (its id when the node is not in the list:
/// a node deleted between the two reads).
type Row = (Volume, String);

/// The pool's volumes, one row each, in the order of the nodes table above.

#[component]
pub fn PoolVolumeList() -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let Refresh(refresh) = expect_context::<Refresh>();
    let route = route::<PoolRoute>();
    let cluster_id = move || route.read().cluster_id.clone();
    let pool_id = move || route.read().pool_id.clone();
    let volumes = LocalResource::new(move || {
        let client = client.clone();
        let (c, p) = (cluster_id(), pool_id());
        ops.revision.track();
        refresh.track();
        async move {
            let volumes = client.pool_volumes(&c, &p).await?;
            // Each node's place in the pool's list, and its name.
            let nodes: HashMap<String, (usize, String)> = client
                .nodes(&c, &p)
                .await?
                .into_iter()
                .enumerate()
                .map(|(at, n)| (n.id, (at, n.name)))
                .collect();
            let mut placed: Vec<(usize, Row)> = volumes
                .into_iter()
                .map(|v| {
                    let node_id = v.node_id.clone().unwrap_or_default();
                    let (at, node) = nodes
                        .get(&node_id)
                        .cloned()
                        .unwrap_or((usize::MAX, node_id));
                    (at, (v, node))
                })
                .collect();
            placed.sort_by_key(|(at, _)| *at);
            let rows: Vec<Row> = placed.into_iter().map(|(_, row)| row).collect();
            Ok::<_, ApiError>(rows)
        }
    });
    view! {
        <Transition fallback=|| view! { <p class="loading">"Loading volumes…"</p> }>
            {move || volumes.get().map(|read| match read {
                Err(error) => view! { <ErrorView error retry=move |_| volumes.refetch() /> }.into_any(),
                Ok(rows) if rows.is_empty() => view! {
                    <p class="empty">"No volumes in this pool: a pool scaled to zero has no nodes, and so no volumes."</p>
                }.into_any(),
                Ok(rows) => view! { <VolumeTable rows /> }.into_any(),
            })}
        </Transition>
    }
}

#[component]
fn VolumeTable(rows: Vec<Row>) -> impl IntoView {
    view! {
        <table class="table table-wide" aria-label="Volumes">
            <thead>
                <tr>
                    <th scope="col">"Node"</th>
                    <th scope="col">"Volume"</th>
                    <th scope="col">"Kind"</th>
                    <th scope="col">"Size"</th>
                    <th scope="col">"Type"</th>
                    <th scope="col">"Status"</th>
                </tr>
            </thead>
            <tbody>
                <For each=move || rows.clone() key=|row| row.clone() let((volume, node))>
                    {
                        let status = volume.status.as_str().to_string();
                        view! {
                            <tr>
                                <td>{node}</td>
                                <td>{volume.name}</td>
                                <td>{volume.kind.as_str().to_string()}</td>
                                <td class="nowrap figure">{format!("{} GB", volume.size)}</td>
                                <td>{volume.volume_type.as_str().to_string()}</td>
                                <td><StatusBadge status /></td>
                            </tr>
                        }
                    }
                </For>
            </tbody>
        </table>
    }
}
