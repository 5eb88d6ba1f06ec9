//! "Create pool", and "Replace pool": the same form pre-filled with an existing
//! pool's shape, because a pool's node configuration can only change by replacing it.

use crate::app::paths::params::{route, ClusterRoute};
use crate::app::paths::to;
use crate::app::paths::A;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use leptos_router::params::ParamsMap;
use nks_api::mutation::Mutation;

use super::pool_fields::{PoolFields, POOL_FIELDS};
use super::pool_inputs::PoolInputs;
use crate::api::client::Client;
use crate::api::types::{Cluster, InstanceType, Pool, PoolCreate};
use crate::app::components::{CreateCheck, Refusal, Submit, UncertainCreate};
use crate::app::context::page_title;
use crate::app::drafts::Draft;
use crate::app::operations::follow_href;
use crate::app::plan::PlanPanel;
use crate::rules::forms::{pool_create, problems, unsent_reason, FieldErrors, PoolForm};
use crate::rules::gate::Gate;
use crate::rules::outcome::ApiError;
use crate::rules::plan::{PlanRequest, QuotaNeed};

/// The page around the form: the way back, the heading, and for a replacement
/// what it is about.
#[component]
pub fn CreatePoolPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let route = route::<ClusterRoute>();
    let query = use_query_map();
    let project_id = move || route.read().project_id.clone();
    let cluster_id = move || route.read().cluster_id.clone();
    let replacing = move || query.read().get("replace").filter(|r| !r.is_empty());
    let cluster_href = move || to::cluster(&project_id(), &cluster_id());

    let instance_types = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            async move { client.instance_types::<InstanceType>().await }
        })
    };
    let cluster = LocalResource::new(move || {
        let client = client.clone();
        let id = cluster_id();
        async move { client.cluster(&id).await }
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
            <CreatePoolForm route query instance_types cluster />
        </section>
    }
}

/// The form: the pool's fields, Create pool and the plan, or once sent, the way
/// to its operation.
#[component]
fn CreatePoolForm(
    route: Memo<ClusterRoute>,
    /// The address's query: `replace` names the pool being replaced.
    query: Memo<ParamsMap>,
    instance_types: LocalResource<Result<Vec<InstanceType>, ApiError>>,
    cluster: LocalResource<Result<Cluster, ApiError>>,
) -> impl IntoView {
    let client = expect_context::<Client>();
    let project_id = move || route.read().project_id.clone();
    let cluster_id = move || route.read().cluster_id.clone();
    let replacing = move || query.read().get("replace").filter(|r| !r.is_empty());
    let cluster_href = move || to::cluster(&project_id(), &cluster_id());

    // Everything typed lives in these signals: nothing is lost on a rejection.
    let inputs = PoolInputs::new();
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
    // Sent: the operation's own page follows it, and once done opens the new pool
    // (or, for a replacement, shows what to do with the old one). The draft stays
    // until then, for the way back from a failure.
    let attempted = RwSignal::new(String::new());
    let submit = {
        let client = client.clone();
        Submit::opening(
            draft,
            move |body: PoolCreate| {
                attempted.set(body.name.clone());
                let (client, cluster) = (client.clone(), cluster_id());
                async move {
                    let create = Mutation::CreatePool {
                        cluster_id: cluster,
                        body,
                    };
                    client.apply(&create).await
                }
            },
            move |id| {
                follow_href(
                    &project_id(),
                    id,
                    Some(&cluster_id()),
                    replacing().as_deref(),
                )
            },
        )
    };
    let Submit { touched, gate, .. } = submit;
    let server_error = submit.refused;
    let check = existing_pool_check(client, server_error, attempted, cluster_id);
    if let (Some(error), Some(typed)) = (failed_send, &restored) {
        check.attempted.set(typed.name.clone());
        server_error.set(Some(error));
    }
    draft.keep_unsent(server_error, form);
    // Why Create sends nothing: the fields whose problem is on screen.
    let unsent =
        Memo::new(move |_| unsent_reason(&inputs.unsent_labels(checked, touched.get(), "Name")));
    // No double submit, and no blind re-send of a create that may have happened.
    let on_submit = submit.on_submit(
        move || checked.get_untracked().ok(),
        move || check.resend_blocked(),
    );
    let retry = Callback::new(move |_| {
        if let Ok(body) = checked.get_untracked() {
            submit.send(body);
        }
    });

    let plan = CreatePlan::new(
        checked,
        inputs,
        cluster,
        instance_types,
        cluster_id,
        replacing,
    );

    let autoscaling =
        Signal::derive(move || cluster.get().and_then(Result::ok).map(|c| c.autoscaling));

    view! {
        <Show
            when=move || !submit.is_sent()
            fallback=|| view! { <p class="loading">"Sent. Opening its operation…"</p> }
        >
            <div class="with-plan">
            <form class="form card" on:submit=on_submit novalidate=true node_ref=submit.form>
                <Refusal refused=server_error refused_before=submit.refused_before fields=&POOL_FIELDS button="Create pool" />
                <Show when=move || check.uncertain.get()>
                    <UncertainCreate what="pool" name=attempted.get_untracked() found=check.found
                        href=Callback::new(move |id: String| to::pool(&project_id(), &cluster_id(), &id))
                        on_retry=retry />
                </Show>
                <PoolFields inputs checked rejected=server_error gate touched instance_types autoscaling
                    name_label="Name" tags_label="Tags" />
                <div class="form-actions">
                    <button class="btn btn-primary" type="submit" disabled=move || submit.pending() || !gate.with(Gate::allows_apply) || check.resend_blocked()
                        aria-describedby=move || unsent.with(Option::is_some).then_some("pool-unsent")>
                        {move || if submit.pending() { "Creating…" } else { "Create pool" }}
                    </button>
                    <A href=cluster_href attr:class="btn btn-quiet" on:click=move |_| draft.discard()>"Cancel"</A>
                    {move || unsent.get().map(|why| view! { <span id="pool-unsent" class="field-hint">{why}</span> })}
                </div>
            </form>
            <PlanPanel request=plan.request region=plan.region need=plan.need disruption=plan.disruption gate
                problems=Signal::derive(move || problems(&checked.get())) />
            </div>
        </Show>
    }
}

/// A create that ended in a 5xx or no answer may have gone through: the pool
/// is looked for by name before anything is sent again.
fn existing_pool_check(
    client: Client,
    server_error: RwSignal<Option<ApiError>>,
    attempted: RwSignal<String>,
    cluster_id: impl Fn() -> String + 'static,
) -> CreateCheck {
    CreateCheck::new(server_error, attempted, move |name: String| {
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
}

/// What Create pool asks the plan: exactly the body Apply would send, its quota
/// need and what it disrupts.
#[derive(Clone, Copy)]
struct CreatePlan {
    request: Signal<Option<PlanRequest>>,
    region: Signal<String>,
    need: Signal<QuotaNeed>,
    disruption: Signal<Vec<String>>,
}

impl CreatePlan {
    fn new(
        checked: Memo<Result<PoolCreate, FieldErrors>>,
        inputs: PoolInputs,
        cluster: LocalResource<Result<Cluster, ApiError>>,
        instance_types: LocalResource<Result<Vec<InstanceType>, ApiError>>,
        cluster_id: impl Fn() -> String + Send + Sync + 'static,
        replacing: impl Fn() -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        let PoolInputs {
            instance_type,
            node_count,
            ..
        } = inputs;
        let request = Signal::derive(move || {
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
            let count =
                i64::from(crate::rules::validation::node_count(&node_count.get()).unwrap_or(0));
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
        CreatePlan {
            request,
            region,
            need,
            disruption,
        }
    }
}
