//! The volumes of a pool's nodes, each beside the node it belongs to. Loaded on
//! first use (`lazy::pool_volumes`).

use std::collections::HashMap;

use leptos::prelude::*;

use crate::api::types::Volume;
use crate::app::components::{listed, Column, StatusBadge, Table};
use crate::app::context::live;
use crate::app::paths::params::{route, PoolRoute};
use crate::rules::outcome::ApiError;

/// A volume and the name of its node (its id when the node is not in the list:
/// a node deleted between the two reads).
type Row = (Volume, String);

/// The pool's volumes, one row each, in the order of the nodes table above.

#[component]
pub fn PoolVolumeList() -> impl IntoView {
    let route = route::<PoolRoute>();
    let ids = move || route.with(|r| (r.cluster_id.clone(), r.pool_id.clone()));
    let volumes = live(ids, |client, (c, p)| async move {
        // The volumes and the nodes (for each one's place and name), together.
        let (volumes, nodes) =
            futures_util::future::try_join(client.pool_volumes(&c, &p), client.nodes(&c, &p))
                .await?;
        let nodes: HashMap<String, (usize, String)> = nodes
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
    });
    listed(
        volumes,
        "Loading volumes…",
        "No volumes in this pool: a pool scaled to zero has no nodes, and so no volumes.",
        |rows| view! { <VolumeTable rows /> }.into_any(),
    )
}

#[component]
fn VolumeTable(rows: Vec<Row>) -> impl IntoView {
    let columns = vec![
        Column::new("Node", |(_, node): &Row| node.clone().into_any()),
        Column::new("Volume", |(v, _): &Row| v.name.clone().into_any()),
        Column::new("Kind", |(v, _): &Row| {
            v.kind.as_str().to_string().into_any()
        }),
        Column::new("Size", |(v, _): &Row| format!("{} GB", v.size).into_any())
            .class("nowrap figure"),
        Column::new("Type", |(v, _): &Row| {
            v.volume_type.as_str().to_string().into_any()
        }),
        Column::new("Status", |(v, _): &Row| {
            view! { <StatusBadge status=v.status.as_str().to_string() /> }.into_any()
        }),
    ];
    view! { <Table label="Volumes" rows columns /> }
}
