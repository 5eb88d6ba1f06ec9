//! The cluster's controllers: the platform-managed control plane, with the
//! volumes of each. Loaded on first use (`lazy::controllers`).

use leptos::prelude::*;

use crate::api::types::{Controller, Volume};
use crate::app::components::{listed, Column, StatusBadge, Table};
use crate::app::context::live;
use crate::app::paths::params::{route, ClusterRoute};
use crate::rules::display;
use crate::rules::outcome::ApiError;

/// A controller with its volumes, read together: a row never shows a controller
/// whose volumes could not be read as having none.
type Row = (Controller, Vec<Volume>);

/// The cluster's controllers, each with its address and volumes.
#[component]
pub fn ControllerList() -> impl IntoView {
    let route = route::<ClusterRoute>();
    let controllers = live(
        move || route.read().cluster_id.clone(),
        |client, id| async move {
            // Each controller's volumes, read together once the controllers are known.
            let controllers = client.controllers(&id).await?;
            let volumes = futures_util::future::try_join_all(
                controllers
                    .iter()
                    .map(|c| client.controller_volumes(&id, &c.id)),
            )
            .await?;
            Ok::<Vec<Row>, ApiError>(controllers.into_iter().zip(volumes).collect())
        },
    );
    listed(
        controllers,
        "Loading controllers…",
        "The platform reports no controllers for this cluster yet.",
        |rows| view! { <ControllerTable rows /> }.into_any(),
    )
}

/// Keyed by what was read: a controller whose status, address or volumes
/// changed is drawn again, an unchanged one keeps its row.
#[component]
fn ControllerTable(rows: Vec<Row>) -> impl IntoView {
    let columns = vec![
        Column::new("Name", |(c, _): &Row| c.name.clone().into_any()),
        Column::new("Status", |(c, _): &Row| {
            view! { <StatusBadge status=c.status.as_str().to_string() /> }.into_any()
        }),
        Column::new("Private IP", |(c, _): &Row| {
            display::address(c.private_ip.as_deref())
                .to_string()
                .into_any()
        })
        .class("nowrap"),
        Column::new("Instance type", |(c, _): &Row| {
            c.instance_type.clone().into_any()
        }),
        Column::new("Volumes", |(_, volumes): &Row| volume_list(volumes)),
    ];
    view! { <Table label="Controllers" rows columns /> }
}

/// Volumes as a short list in a cell: name, then kind, size and type.
fn volume_list(volumes: &[Volume]) -> AnyView {
    if volumes.is_empty() {
        return view! { <span class="muted">"none"</span> }.into_any();
    }
    view! {
        <ul class="volumes">
            {volumes.iter().map(|v| view! {
                <li>
                    <span class="volume-name">{v.name.clone()}</span>
                    " "
                    <span class="muted nowrap">{volume_summary(v)}</span>
                </li>
            }).collect_view()}
        </ul>
    }
    .into_any()
}

/// `boot · 128 GB abs`.
fn volume_summary(v: &Volume) -> String {
    format!(
        "{} · {} GB {}",
        v.kind.as_str(),
        v.size,
        v.volume_type.as_str()
    )
}
