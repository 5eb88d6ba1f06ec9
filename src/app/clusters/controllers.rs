//! The cluster's controllers: the platform-managed control plane, with the
//! volumes of each. Loaded on first use (`lazy::controllers`).

use leptos::prelude::*;

use crate::api::client::Client;
use crate::api::types::{Controller, Volume};
use crate::app::components::{ErrorView, StatusBadge};
use crate::app::context::Refresh;
use crate::app::paths::params::{route, ClusterRoute};
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::outcome::ApiError;

/// A controller with its volumes, read together: a row never shows a controller
/// whose volumes could not be read as having none.
type Row = (Controller, Vec<Volume>);

/// The cluster's controllers, each with its address and volumes.
#[component]
pub fn ControllerList() -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let Refresh(refresh) = expect_context::<Refresh>();
    let route = route::<ClusterRoute>();
    let cluster_id = move || route.read().cluster_id.clone();
    let controllers = LocalResource::new(move || {
        let client = client.clone();
        let id = cluster_id();
        ops.revision.track();
        refresh.track();
        async move {
            let mut rows = Vec::new();
            for controller in client.controllers(&id).await? {
                let volumes = client.controller_volumes(&id, &controller.id).await?;
                rows.push((controller, volumes));
            }
            Ok::<Vec<Row>, ApiError>(rows)
        }
    });
    view! {
        <Transition fallback=|| view! { <p class="loading">"Loading controllers…"</p> }>
            {move || controllers.get().map(|read| match read {
                Err(error) => view! { <ErrorView error retry=move |_| controllers.refetch() /> }.into_any(),
                Ok(rows) if rows.is_empty() => view! {
                    <p class="empty">"The platform reports no controllers for this cluster yet."</p>
                }.into_any(),
                Ok(rows) => view! { <ControllerTable rows /> }.into_any(),
            })}
        </Transition>
    }
}

#[component]
fn ControllerTable(rows: Vec<Row>) -> impl IntoView {
    view! {
        <table class="table table-wide" aria-label="Controllers">
            <thead>
                <tr>
                    <th scope="col">"Name"</th>
                    <th scope="col">"Status"</th>
                    <th scope="col">"Private IP"</th>
                    <th scope="col">"Instance type"</th>
                    <th scope="col">"Volumes"</th>
                </tr>
            </thead>
            <tbody>
                // Keyed by what was read: a controller whose status, address or
                // volumes changed is drawn again, an unchanged one keeps its row.
                <For each=move || rows.clone() key=|row| row.clone() let((controller, volumes))>
                    {
                        let status = controller.status.as_str().to_string();
                        view! {
                            <tr>
                                <td>{controller.name}</td>
                                <td><StatusBadge status /></td>
                                <td class="nowrap">{display::address(controller.private_ip.as_deref()).to_string()}</td>
                                <td>{controller.instance_type}</td>
                                <td>{volume_list(&volumes)}</td>
                            </tr>
                        }
                    }
                </For>
            </tbody>
        </table>
    }
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
