//! What happens next on an operation's page: once it ended, the way on (the
//! resource, the form, or a replacement's next steps), and where to look when
//! the API no longer knows it.

use leptos::prelude::*;

use super::indicator::describe;
use super::noun;
use super::operation_resource::Place;
use crate::api::types::{Operation, OperationKind, OperationStatus, OperationType};
use crate::app::components::ErrorView;
use crate::app::paths::params::{route, OperationsRoute};
use crate::app::paths::to;
use crate::app::paths::A;
use crate::app::pools::DrainList;
use crate::rules::outcome::ApiError;

/// The operation's end, and the way on.
#[component]
pub(super) fn Outcome(
    op: Operation,
    place: Option<Place>,
    form: Option<String>,
    /// Watched to its end after a form's send: it opens the resource itself.
    opens: bool,
    replacing: Option<String>,
    cluster_id: Option<String>,
) -> impl IntoView {
    let route = route::<OperationsRoute>();
    let project = route.read_untracked().project_id.clone();
    let what = noun(&op).to_string();
    match op.status {
        OperationStatus::Failed => {
            let error = ApiError::OperationFailed {
                operation_id: op.id.clone(),
                what: describe(&op),
            };
            view! {
                <ErrorView error />
                <p class="muted">
                    "The API gives no reason for a failed operation; the " {what.clone()}
                    "'s own status may say more. Nothing was sent again."
                </p>
                {form.map(|address| view! {
                    <p><A href=move || address.clone() attr:class="btn">"Back to the form, with what was asked"</A></p>
                })}
            }
            .into_any()
        }
        OperationStatus::Done => {
            if let (Some(old), Some(cluster), OperationType::Create) =
                (replacing, cluster_id.clone(), &op.op_type)
            {
                return view! {
                    <ReplacementReady project cluster_id=cluster old_pool_id=old new_pool_id=op.resource_id.clone() />
                }
                .into_any();
            }
            let opens = opens && resource_href(&op, &project, cluster_id).is_some();
            match place {
                _ if opens => view! { <p role="status">{format!("Done. Opening the {what}…")}</p> }.into_any(),
                Some(Place::Exists { name, href, .. }) => view! {
                    <p>"Done. " <A href=move || href.clone()>{format!("Open the {what} {name}")}</A></p>
                }
                .into_any(),
                Some(Place::Gone) => view! { <p>{format!("Done. The {what} no longer exists.")}</p> }.into_any(),
                _ => view! { <p>"Done."</p> }.into_any(),
            }
        }
        _ => ().into_any(),
    }
}

/// An operation the API does not know (404) and this tab never followed.
#[component]
pub(super) fn Unknown(id: String) -> impl IntoView {
    view! {
        <div class="op-progress" role="status">
            <p>"Operation " <code>{id}</code> " is " <span class="badge badge-unknown">"no longer known"</span></p>
            <p class="alert alert-warning">
                "This operation is no longer known to the API (it answered 404): the API may have been "
                "restarted, or the operation dropped. Nothing was sent again. Check whether what it was "
                "changing exists before trying again: see the project's clusters and operations."
            </p>
        </div>
    }
}

/// After a replacement pool is ready: the old pool's drain commands, then its deletion.
#[component]
fn ReplacementReady(
    project: String,
    cluster_id: String,
    old_pool_id: String,
    new_pool_id: String,
) -> impl IntoView {
    let new_href = to::pool(&project, &cluster_id, &new_pool_id);
    let old_href = to::pool(&project, &cluster_id, &old_pool_id) + "#delete";
    view! {
        <section class="card replacement">
            <h2>"The replacement pool is ready"</h2>
            <p><A href=move || new_href.clone()>"Open the new pool"</A></p>
            <p>"Move workloads off the old pool gracefully, node by node, before deleting it:"</p>
            <DrainList cluster_id pool_id=old_pool_id />
            <p><A href=move || old_href.clone()>"Then delete the old pool"</A></p>
        </section>
    }
}

/// The page a done create or update opens, as its form did.
pub(super) fn resource_href(
    op: &Operation,
    project: &str,
    cluster: Option<String>,
) -> Option<String> {
    let id = &op.resource_id;
    match (&op.kind, &op.op_type) {
        (OperationKind::NksCluster, OperationType::Create | OperationType::Update) => {
            Some(to::cluster(project, id))
        }
        (OperationKind::NksNodePool, OperationType::Create | OperationType::Update) => {
            Some(to::pool(project, &cluster?, id))
        }
        _ => None,
    }
}

/// The address of the form that sends such an operation, where its draft lives.
pub(super) fn form_address(
    op: &Operation,
    project: &str,
    cluster: Option<String>,
    replacing: Option<String>,
) -> Option<String> {
    let id = &op.resource_id;
    match (&op.kind, &op.op_type) {
        (OperationKind::NksCluster, OperationType::Create) => Some(to::new_cluster(project)),
        (OperationKind::NksCluster, OperationType::Update) => Some(to::edit_cluster(project, id)),
        (OperationKind::NksNodePool, OperationType::Create) => {
            let cluster = cluster?;
            Some(match replacing {
                Some(old) => to::replacing_pool(project, &cluster, &old),
                None => to::new_pool(project, &cluster),
            })
        }
        (OperationKind::NksNodePool, OperationType::Update) => {
            Some(to::edit_pool(project, &cluster?, id))
        }
        _ => None,
    }
}
