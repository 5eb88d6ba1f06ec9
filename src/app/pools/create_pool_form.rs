//! "Create pool", and "Replace pool": the same form pre-filled with an existing
//! pool's shape, because a pool's node configuration can only change by replacing it.

use crate::app::paths::params::{route, ClusterRoute};
use crate::app::paths::to;
use crate::app::paths::A;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::NavigateOptions;

use super::pool_fields::{PoolFields, PoolInputs, POOL_FIELDS};
use crate::api::client::Client;
use crate::api::types::{InstanceType, Pool};
use crate::app::components::{
    focus_first_error, follow_submission, CreateCheck, ErrorView, UncertainCreate,
};
use crate::app::context::page_title;
use crate::app::drafts::Draft;
use crate::app::operations::follow_href;
use crate::app::plan::PlanPanel;
use crate::rules::forms::{pool_create, unplaced, unsent_reason, PoolForm};
use crate::rules::gate::Gate;
use crate::rules::outcome::ApiError;
use crate::rules::plan::{PlanRequest, QuotaNeed};

#[component]
pub fn CreatePoolPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let route = route::<ClusterRoute>();
    let query = use_query_map();
    let project_id = move || route.read().project_id.clone();
    let cluster_id = move || route.read().cluster_id.clone();
    let replacing = move || query.read().get("replace").filter(|r| !r.is_empty());
    let cluster_href = move || to::cluster(&project_id(), &cluster_id());

    // Everything typed lives in these signals: nothing is lost on a rejection.
    let inputs = PoolInputs::new();
    let PoolInputs {
        instance_type,
        node_count,
        ..
    } = inputs;
    let touched = RwSignal::new(false);

    let instance_types = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            async move { client.instance_types::<InstanceType>().await }
        })
    };
    let cluster = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let id = cluster_id();
            async move { client.cluster(&id).await }
        })
    };
    // Replace pool: the old pool's shape pre-fills the form, to be changed.
    let old_pool = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let (c, old) = (cluster_id(), replacing());
            async move {
                match old {
                    Some(p) => client.pool(&c, &p).await.map(Some),
                    None => Ok(None),
                }
            }
        })
    };
    // Back after a reconnect (or from elsewhere): what was typed comes back;
    // after a reload, a send that failed comes back with it.
    let draft = Draft::here();
    let (restored, failed_send) = draft.restore_or_unsent::<PoolForm>();
    if let Some(typed) = &restored {
        inputs.restore(typed);
    }
    // A restored draft wins over the old pool's shape.
    let had_draft = restored.is_some();
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) || had_draft {
            return true;
        }
        let Some(Ok(Some(pool))) = old_pool.get() else {
            return false;
        };
        inputs.prefill(&pool);
        true
    });

    let form = move || inputs.form();
    draft.keep(form);
    let checked = Memo::new(move |_| pool_create(&form()));
    let server_error = RwSignal::new(None::<ApiError>);
    let gate = RwSignal::new(Gate::Idle);
    let form_el = NodeRef::<leptos::html::Form>::new();
    // A submit the API refused for a field: the focus goes to that field.
    Effect::new(move |_| {
        if server_error.with(|e| e.as_ref().and_then(ApiError::field).is_some()) {
            focus_first_error(form_el);
        }
    });

    // Why Create sends nothing: the fields whose problem is on screen.
    let unsent =
        Memo::new(move |_| unsent_reason(&inputs.unsent_labels(checked, touched.get(), "Name")));

    // A create that ended in a 5xx or no answer may have gone through: look for the
    // pool by name before anything is sent again.
    let check = {
        let client = client.clone();
        CreateCheck::new(server_error, move |name: String| {
            let client = client.clone();
            let cluster = cluster_id();
            async move {
                let pools = client.pools::<Pool>(&cluster).await?;
                Ok(pools
                    .into_iter()
                    .find(|p| p.name == name)
                    .map(|p| (p.id, p.status.as_str().to_string())))
            }
        })
    };
    let resend_blocked = move || check.resend_blocked();
    let attempted_name = check.attempted;
    if let (Some(error), Some(typed)) = (failed_send, &restored) {
        attempted_name.set(typed.name.clone());
        server_error.set(Some(error));
    }
    draft.keep_unsent(server_error, form);

    // Back after a 401 on Create pool: nothing was sent, and the form says so.
    let refused_before = RwSignal::new(draft.take_refusal());
    let note_refusal = draft.note_refusal();
    let submit = Action::new_local(move |body: &crate::api::types::PoolCreate| {
        let client = client.clone();
        let body = body.clone();
        let cluster = cluster_id();
        let note_refusal = note_refusal.clone();
        refused_before.set(false);
        async move {
            let sent = client.create_pool(&cluster, &body).await;
            if let Err(error) = &sent {
                note_refusal(error);
            }
            sent
        }
    });
    let submitted = follow_submission(move || submit.value().get(), server_error);
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        touched.set(true);
        if submit.pending().get_untracked()
            || submitted.get_untracked().is_some()
            || resend_blocked()
        {
            return; // no double submit, and no blind re-send of a create that may have happened
        }
        match checked.get_untracked() {
            Ok(body) => {
                if gate.with_untracked(Gate::allows_apply) {
                    attempted_name.set(body.name.clone());
                    server_error.set(None);
                    submit.dispatch(body);
                }
            }
            // Refused here: nothing is sent, and the focus goes to the first field in error.
            Err(_) => focus_first_error(form_el),
        }
    };
    let retry = Callback::new(move |_| {
        if let Ok(body) = checked.get_untracked() {
            attempted_name.set(body.name.clone());
            server_error.set(None);
            submit.dispatch(body);
        }
    });

    // Sent: the operation's own page follows it, and once done opens the new pool
    // (or, for a replacement, shows what to do with the old one). The draft stays
    // until then, for the way back from a failure.
    let navigate = use_navigate();
    Effect::new(move |_| {
        if let Some(id) = submitted.get() {
            let (cluster, old) = (cluster_id(), replacing());
            navigate(
                &follow_href(&project_id(), &id, Some(&cluster), old.as_deref()),
                NavigateOptions {
                    replace: true,
                    ..Default::default()
                },
            );
        }
    });

    // The plan: exactly the body Apply would send, its quota need and what it disrupts.
    let plan_request = Signal::derive(move || {
        checked.get().ok().map(|body| PlanRequest::CreatePool {
            cluster_id: cluster_id(),
            body,
        })
    });
    let region = Signal::derive(move || {
        cluster
            .get()
            .and_then(Result::ok)
            .map(|c| c.region)
            .unwrap_or_default()
    });
    let need = Signal::derive(move || {
        let count = i64::from(crate::rules::validation::node_count(&node_count.get()).unwrap_or(0));
        instance_types
            .get()
            .and_then(Result::ok)
            .and_then(|list| list.into_iter().find(|t| t.name == instance_type.get()))
            .map(|t| QuotaNeed::nodes(count, t.vcpu, t.memory_gb))
            .unwrap_or_default()
    });
    let disruption = Signal::derive(move || {
        if replacing().is_some() {
            vec!["Nothing is disrupted yet: the replacement is added beside the old pool, which keeps running until you drain and delete it.".to_string()]
        } else {
            Vec::new()
        }
    });

    // Which cluster the pool is for: in the heading, the way back and the tab.
    let cluster_name = move || {
        cluster.with(|read| match read {
            Some(Ok(c)) => c.name.clone(),
            _ => String::new(),
        })
    };
    let verb = move || {
        if replacing().is_some() {
            "Replace pool"
        } else {
            "Create pool"
        }
    };
    page_title(move || vec![verb().into(), cluster_name()]);

    let autoscaling =
        Signal::derive(move || cluster.get().and_then(Result::ok).map(|c| c.autoscaling));

    view! {
        <section class="page">
            <p class="breadcrumb">
                <A href=cluster_href>{move || format!("← {}", Some(cluster_name()).filter(|n| !n.is_empty()).unwrap_or_else(|| "Cluster".into()))}</A>
            </p>
            <header class="page-header">
                <h1>{move || match cluster_name().as_str() {
                    "" => verb().to_string(),
                    name => format!("{} for {name}", verb()),
                }}</h1>
            </header>
            {move || replacing().map(|_| view! {
                <p class="alert alert-warning">
                    "A pool's instance type, boot volume, labels and taints are fixed at creation. "
                    "Change the shape below to create the replacement; when it is ready, drain the old pool's nodes and delete it."
                </p>
            })}
            <Show
                when=move || submitted.with(Option::is_none)
                fallback=|| view! { <p class="loading">"Sent. Opening its operation…"</p> }
            >
                <div class="with-plan">
                <form class="form card" on:submit=on_submit novalidate=true node_ref=form_el>
                    {move || refused_before.get().then(|| view! {
                        <p class="alert alert-info" role="status">"Not sent: press Create pool again."</p>
                    })}
                    {move || server_error.get().filter(|e| e.field().is_none()).map(|error| view! { <ErrorView error /> })}
                    {move || server_error.with(|e| e.as_ref().and_then(|e| unplaced(e, &POOL_FIELDS))).map(|text| view! {
                        <p class="alert alert-error" role="alert">{text}</p>
                    })}
                    <Show when=move || check.uncertain.get()>
                        <UncertainCreate what="pool" name=attempted_name.get_untracked() found=check.found
                            href=Callback::new(move |id: String| to::pool(&project_id(), &cluster_id(), &id))
                            on_retry=retry />
                    </Show>
                    <PoolFields inputs checked rejected=server_error gate touched instance_types autoscaling
                        name_label="Name" tags_label="Tags" />
                    <div class="form-actions">
                        <button class="btn btn-primary" type="submit" disabled=move || submit.pending().get() || !gate.with(Gate::allows_apply) || resend_blocked()
                            aria-describedby=move || unsent.with(Option::is_some).then_some("pool-unsent")>
                            {move || if submit.pending().get() { "Creating…" } else { "Create pool" }}
                        </button>
                        <A href=cluster_href attr:class="btn btn-quiet" on:click=move |_| draft.discard()>"Cancel"</A>
                        {move || unsent.get().map(|why| view! { <span id="pool-unsent" class="field-hint">{why}</span> })}
                    </div>
                </form>
                <PlanPanel request=plan_request region need disruption gate />
                </div>
            </Show>
        </section>
    }
}
