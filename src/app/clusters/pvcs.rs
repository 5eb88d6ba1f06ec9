//! The cluster's persistent volume claims. Loaded on first use (`lazy::pvcs`).

use leptos::prelude::*;

use crate::api::types::PersistentVolumeClaim;
use crate::app::components::{listed, Column, StatusBadge, Table, Time};
use crate::app::context::live;
use crate::app::paths::params::{route, ClusterRoute};

/// The cluster's persistent volume claims: name, size, type, status.
#[component]
pub fn PvcList() -> impl IntoView {
    let route = route::<ClusterRoute>();
    let claims = live(
        move || route.read().cluster_id.clone(),
        |client, id| async move { client.persistent_volume_claims(&id).await },
    );
    listed(
        claims,
        "Loading persistent volume claims…",
        "This cluster has no persistent volume claims.",
        |list| view! { <PvcTable list /> }.into_any(),
    )
}

#[component]
fn PvcTable(list: Vec<PersistentVolumeClaim>) -> impl IntoView {
    type Pvc = PersistentVolumeClaim;
    let columns = vec![
        Column::new("Name", |p: &Pvc| p.name.clone().into_any()),
        Column::new("Size", |p: &Pvc| format!("{} GB", p.size).into_any()).class("nowrap figure"),
        Column::new("Type", |p: &Pvc| {
            p.volume_type.as_str().to_string().into_any()
        }),
        Column::new("Status", |p: &Pvc| {
            view! { <StatusBadge status=p.status.as_str().to_string() /> }.into_any()
        }),
        Column::new("Created", |p: &Pvc| {
            view! { <Time at=p.created_at.clone() /> }.into_any()
        }),
    ];
    view! { <Table label="Persistent volume claims" rows=list columns /> }
}
