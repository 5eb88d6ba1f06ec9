//! A first pool kept in this tab whose cluster's create was left before the
//! cluster was made. Where the cluster is listed and on its page, it is said,
//! with Send and Discard: nothing is sent without that click.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use super::kept::{discard_kept_pool, kept_unsent, send_kept_pool};
use crate::api::client::Client;
use crate::app::components::ErrorView;
use crate::app::operations::follow_href;
use crate::app::paths::{to, A};
use crate::ops::Ops;
use crate::rules::first_pool::{first_pool_create, PendingPool, PoolFlowEnd};

/// Beside a cluster's pool count in the list: the pool kept for it, if one
/// waits, as a link to the cluster's page (where Send and Discard are). Loaded
/// only when this tab keeps a pool ([`crate::app::lazy::waiting_pool`]).
pub fn waiting_pool_link(project_id: &str, cluster_name: &str, href: &str) -> AnyView {
    let Some(kept) = kept_unsent(project_id).filter(|k| k.waits_for(project_id, cluster_name))
    else {
        return ().into_any();
    };
    let text = format!("pool {} waiting to be sent", kept.pool.name.trim());
    view! { <br /><A href=href.to_string() attr:class="waiting-pool-link">{text}</A> }.into_any()
}

/// On the cluster's page: the pool that waits, with Send (once the cluster is
/// ready) and Discard; then how the send ended, when it did not open the pool's
/// operation.
#[component]
pub fn WaitingPool(
    project_id: String,
    cluster_id: String,
    cluster_name: String,
    /// The cluster is ready: a pool can be sent into it.
    #[prop(into)]
    ready: Signal<bool>,
) -> impl IntoView {
    let kept =
        RwSignal::new(kept_unsent(&project_id).filter(|k| k.waits_for(&project_id, &cluster_name)));
    let ended = RwSignal::new(None::<(PoolFlowEnd, String)>);
    let (client, ops, navigate) = (
        expect_context::<Client>(),
        expect_context::<Ops>(),
        use_navigate(),
    );
    let send = {
        let (project_id, cluster_id) = (project_id.clone(), cluster_id.clone());
        Action::new_local(move |kept_pool: &PendingPool| {
            let (client, navigate) = (client.clone(), navigate.clone());
            let (project_id, cluster_id, kept_pool) =
                (project_id.clone(), cluster_id.clone(), kept_pool.clone());
            async move {
                let Ok(body) = first_pool_create(&kept_pool.pool) else {
                    discard_kept_pool(&project_id);
                    kept.try_set(None);
                    return;
                };
                let pool_name = kept_pool.pool.name.trim().to_string();
                let answer = send_kept_pool(&client, &ops, kept_pool, &cluster_id, body).await;
                kept.try_set(None);
                match answer {
                    Ok(op) => navigate(
                        &follow_href(&project_id, &op, Some(&cluster_id), None),
                        Default::default(),
                    ),
                    Err(end) => {
                        ended.try_set(Some((end, pool_name)));
                    }
                }
            }
        })
    };
    let discard = {
        let project_id = project_id.clone();
        move |_| {
            discard_kept_pool(&project_id);
            kept.set(None);
        }
    };
    let (name, retry_project) = (cluster_name.clone(), project_id.clone());
    view! {
        {move || kept.get().map(|k| {
            let pool = k.pool.name.trim().to_string();
            let why = move || (!ready.get()).then_some("It can be sent once the cluster is ready.");
            let sending = send.pending();
            view! {
                <div class="alert alert-info waiting-pool" role="group" aria-label="First pool waiting">
                    <p>
                        "Pool " <strong>{pool.clone()}</strong> " was asked for with this cluster in Create cluster, "
                        "and has not been sent: that page was left before the cluster was made. "
                        "Nothing is sent without your word; this cluster has no worker until a pool is added."
                    </p>
                    <p class="actions">
                        <button type="button" class="btn btn-primary" aria-describedby="waiting-pool-why"
                            disabled=move || !ready.get() || sending.get()
                            on:click=move |_| { send.dispatch(k.clone()); }>
                            {move || if sending.get() { "Sending…".to_string() } else { format!("Send pool {pool}") }}
                        </button>
                        <button type="button" class="btn" disabled=move || sending.get() on:click=discard.clone()>"Discard"</button>
                        <span class="field-hint" id="waiting-pool-why">{why}</span>
                    </p>
                </div>
            }
        })}
        {move || ended.get().map(|(end, pool_name)| {
            let pool = end.retry_in().map(|id| {
                let href = to::new_pool(&retry_project, id);
                view! { <A href=href attr:class="btn btn-primary">"Create pool"</A> }
            });
            view! {
                <div class="first-pool-outcome">
                    {end.error(&name).map(|error| view! { <ErrorView error /> })}
                    <p class="alert alert-info" role="status">{end.follow_up(&name, &pool_name)}</p>
                    {pool}
                </div>
            }
        })}
    }
}
