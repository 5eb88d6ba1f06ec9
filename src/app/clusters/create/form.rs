//! Create cluster's form: its parts, Apply, and the way back after a reload.

use std::rc::Rc;

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use super::fields::ClusterFields;
use super::first_pool::FirstPool;
use super::flow::{Flow, Start};
use super::progress::Progress;
use super::progress::{ClusterEnded, FlowProgress, VpcEnded};
use super::state::{price_pool_in, Checks, Inputs, Refusals, State, Typed};
use crate::api::client::Client;
use crate::api::types::{Cluster, InstanceType, KubernetesVersion, Region, Vpc};
use crate::app::components::{focus_first_error, CreateCheck, ErrorView, Refusal, UncertainCreate};
use crate::app::drafts::{keep_tab_item, tab_item, Draft};
use crate::app::paths::params::{route, ProjectRoute};
use crate::app::paths::to;
use crate::app::plan::PlanPanel;
use crate::ops::Ops;
use crate::rules::first_pool::{
    default_instance_type, first_pool_create, PendingPool, PENDING_ITEM,
};
use crate::rules::gate::Gate;
use crate::rules::new_vpc::{initial_choice, vpc_choices, Ended, FlowEnd, VpcChoice};
use crate::rules::outcome::ApiError;
use crate::rules::plan::QuotaNeed;

pub type Choices = (Vec<KubernetesVersion>, Vec<Vpc>, Vec<Region>, Vec<Cluster>);

/// The request fields this form shows beside a control; a rejection naming any
/// other (`project_id`) is told above the form.
const CLUSTER_FIELDS: [&str; 6] = [
    "name",
    "kubernetes_version",
    "region",
    "vpc_id",
    "autoscaling",
    "tags",
];

#[component]
pub fn CreateClusterForm(choices: Choices) -> impl IntoView {
    let (versions, vpcs, regions, clusters) = choices;
    let client = expect_context::<Client>();
    let route = route::<ProjectRoute>();
    let project_id = Signal::derive(move || route.read().project_id.clone());
    let regions: Vec<Region> = regions
        .into_iter()
        .filter(|r| r.nks.as_ref().is_none_or(|n| n.clusters))
        .collect();
    let only_region = (regions.len() == 1).then(|| regions[0].name.clone());
    let inputs = Inputs::new(project_id, only_region.unwrap_or_default());

    let reread_vpcs = reread(client.clone(), project_id);
    let price_pool_in = price_pool_in(inputs, &clusters);
    let (vpcs, vpc_options) = vpc_lists(inputs, vpcs, clusters, reread_vpcs);
    inputs
        .vpc
        .set(initial_choice(&vpc_options.get_untracked()).to_string());
    let instance_types = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            async move { client.instance_types().await }
        })
    };

    // Back after a reconnect: what was typed comes back; after a reload, a send
    // that failed comes back with what was typed.
    let draft = Draft::here();
    let (restored, failed_send) = draft.restore_or_unsent::<Typed>();
    let failed_name = restored.as_ref().map(|typed| typed.0.name.clone());
    if restored.is_none() {
        smallest_instance_type(inputs, instance_types);
    }
    if let Some(typed) = restored {
        inputs.restore(typed);
    }
    draft.keep(move || inputs.typed());
    let state = State {
        inputs,
        checks: Checks::new(inputs, vpcs),
        refused: Refusals::new(),
    };
    let refused = state.refused;
    let check = find_cluster(client.clone(), refused.cluster, project_id);
    if let (Some(error), Some(name)) = (failed_send, failed_name) {
        check.attempted.set(name);
        refused.cluster.set(Some(error));
    }
    draft.keep_unsent(refused.cluster, move || inputs.typed());

    let progress = RwSignal::new(Progress::default());
    let flow = Flow {
        client,
        ops: expect_context::<Ops>(),
        project_id: project_id.get_untracked(),
        progress,
        cluster_refused: refused.cluster,
        vpc_refused: refused.vpc,
        pool_refused: refused.pool,
        attempted_name: check.attempted,
        vpc_choice: inputs.vpc,
        reread_vpcs,
        draft,
        open: replacing_navigate(),
    };
    let run = Action::new_local(move |start: &Start| flow.clone().run(start.clone()));
    resume_kept(inputs, progress, run);

    let blocked_reason = move || vpc_unsettled(inputs, progress, reread_vpcs);
    let busy = move || run.pending().get();
    let unsent = Memo::new(move |_| state.unsent());
    let form_el = NodeRef::<leptos::html::Form>::new();
    // A create the API refused for a field: the focus goes to that field.
    Effect::new(move |_| {
        let fielded = |e: &Option<ApiError>| e.as_ref().and_then(ApiError::field).is_some();
        if refused.cluster.with(fielded) || refused.vpc.with(fielded) {
            focus_first_error(form_el);
        }
    });
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        inputs.touched.set(true);
        // No double submit, and no blind re-send of a create that may have happened.
        if busy() || check.resend_blocked() || blocked_reason().is_some() {
            return;
        }
        if !refused.gate.with_untracked(Gate::allows_apply) {
            return;
        }
        match state.checks.plan.get_untracked() {
            Some(plan) => {
                run.dispatch(Start::Apply(plan));
            }
            // Refused here: nothing is sent, and the focus goes to the first field in error.
            None => focus_first_error(form_el),
        }
    };
    // "Create again" after a create that may not have happened, into a chosen VPC.
    let retry = Callback::new(move |_| {
        if let Some(plan) = state
            .checks
            .plan
            .get_untracked()
            .filter(|p| p.vpc.is_none())
        {
            run.dispatch(Start::Apply(plan));
        }
    });
    let plan_region = Signal::derive(move || {
        if inputs.with_pool.get() {
            inputs.region.get()
        } else {
            String::new()
        }
    });
    let pool_need = pool_need(state.checks, instance_types);
    let disruption = Signal::derive(move || disruption(inputs));
    let plan_request = Signal::derive(move || state.checks.plan_request());

    view! {
        <Show when=move || !progress.with(Progress::in_flow) fallback=move || view! { <FlowProgress progress project_id run /> }>
            <div class="with-plan">
            <form class="form card" on:submit=on_submit novalidate=true node_ref=form_el>
                <VpcEnded progress />
                <Refused refused check retry reread_vpcs project_id />
                <ClusterFields state versions=versions.clone() regions=regions.clone() vpc_options />
                <ClusterEnded progress />
                <FirstPool state instance_types />
                <div class="form-actions">
                    <button class="btn btn-primary" type="submit" aria-describedby="create-cluster-blocked"
                        disabled=move || busy() || !refused.gate.with(Gate::allows_apply) || check.resend_blocked() || blocked_reason().is_some()>
                        {move || match (busy(), inputs.new_vpc(), inputs.with_pool.get()) {
                            (true, _, _) => "Creating…",
                            (_, true, true) => "Create VPC, cluster and pool",
                            (_, true, false) => "Create VPC and cluster",
                            (_, false, true) => "Create cluster and pool",
                            (_, false, false) => "Create cluster",
                        }}
                    </button>
                    <span class="field-hint" id="create-cluster-blocked">{move || blocked_reason().map(str::to_string).or_else(|| unsent.get())}</span>
                </div>
            </form>
            <PlanPanel request=plan_request region=plan_region need=pool_need disruption gate=refused.gate first_pool=state.checks.pool_body price_pool_in problems=state.checks.problems />
            </div>
        </Show>
    }
}

/// Above the fields: what the API said that is not about one field.
#[component]
fn Refused(
    refused: Refusals,
    check: CreateCheck,
    retry: Callback<()>,
    reread_vpcs: Action<(), Result<Vec<Vpc>, ApiError>>,
    project_id: Signal<String>,
) -> impl IntoView {
    let reread_error = move || reread_vpcs.value().get().and_then(Result::err);
    view! {
        {move || reread_error().map(|error| view! {
            <p class="muted">"Could not read the project's VPCs again:"</p>
            <ErrorView error retry=move |_| { reread_vpcs.dispatch(()); } />
        })}
        <Refusal refused=refused.cluster fields=&CLUSTER_FIELDS button="Create cluster" />
        <Show when=move || check.uncertain.get()>
            <UncertainCreate what="cluster" name=check.attempted.get_untracked() found=check.found
                href=Callback::new(move |id: String| to::cluster(&project_id.get(), &id))
                on_retry=retry />
        </Show>
    }
}

/// Why a new VPC waits: after an end that may have left a VPC behind, the
/// project's VPCs are read again first, so the name check knows it.
fn vpc_unsettled(
    inputs: Inputs,
    progress: RwSignal<Progress>,
    reread_vpcs: Action<(), Result<Vec<Vpc>, ApiError>>,
) -> Option<&'static str> {
    let may_exist = progress.with(|p| match &p.vpc_end {
        Some(FlowEnd::VpcNotSent(error)) => error.may_have_acted(),
        Some(FlowEnd::VpcEnded { step, .. }) => *step != Ended::Failed,
        _ => false,
    });
    let unread =
        reread_vpcs.pending().get() || reread_vpcs.value().with(|v| matches!(v, Some(Err(_))));
    (inputs.new_vpc() && may_exist && unread).then_some(
        "Waiting to read the project's VPCs again, so a VPC that may exist is not created twice.",
    )
}

/// Where the flow goes once its operation is sent: that operation's page, in
/// place of the form (Back does not return to a form already sent).
fn replacing_navigate() -> Rc<dyn Fn(&str)> {
    let navigate = use_navigate();
    Rc::new(move |href| {
        let replace = NavigateOptions {
            replace: true,
            ..Default::default()
        };
        navigate(href, replace)
    })
}

/// The project's VPCs, read again during the flow, and which are free in the
/// cluster's region: one cluster per VPC.
fn vpc_lists(
    inputs: Inputs,
    first_read: Vec<Vpc>,
    clusters: Vec<Cluster>,
    reread_vpcs: Action<(), Result<Vec<Vpc>, ApiError>>,
) -> (Memo<Vec<Vpc>>, Memo<Vec<VpcChoice>>) {
    let vpcs = Memo::new(
        move |last: Option<&Vec<Vpc>>| match reread_vpcs.value().get() {
            Some(Ok(list)) => list,
            _ => last.cloned().unwrap_or_else(|| first_read.clone()),
        },
    );
    let clusters = StoredValue::new(clusters);
    let options = Memo::new(move |_| {
        let region = inputs.region.get();
        vpcs.with(|v| clusters.with_value(|c| vpc_choices(v, c, &region)))
    });
    (vpcs, options)
}

/// Reads the project's VPCs again.
fn reread(client: Client, project_id: Signal<String>) -> Action<(), Result<Vec<Vpc>, ApiError>> {
    Action::new_local(move |_: &()| {
        let client = client.clone();
        let project = project_id.get_untracked();
        async move { client.vpcs(&project).await }
    })
}

/// A create that ended in a 5xx or no answer may have gone through: the
/// cluster is looked for by name before anything is sent again.
fn find_cluster(
    client: Client,
    refused: RwSignal<Option<ApiError>>,
    project_id: Signal<String>,
) -> CreateCheck {
    CreateCheck::new(
        refused,
        RwSignal::new(String::new()),
        move |name: String| {
            let client = client.clone();
            let project = project_id.get_untracked();
            async move {
                let clusters = client.clusters::<Cluster>(&project).await?;
                Ok(clusters
                    .into_iter()
                    .find(|c| c.name == name)
                    .map(|c| (c.id, c.status.as_str().to_string())))
            }
        },
    )
}

/// The first pool's instance type: the smallest, once the list is read, unless one is chosen.
fn smallest_instance_type(
    inputs: Inputs,
    instance_types: LocalResource<Result<Vec<InstanceType>, ApiError>>,
) {
    let chosen = inputs.pool.instance_type;
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let Some(Ok(list)) = instance_types.get() else {
            return false;
        };
        if let Some(name) = default_instance_type(&list) {
            if chosen.with_untracked(String::is_empty) {
                chosen.set(name.to_string());
            }
        }
        true
    });
}

/// Back on this page in this tab with a first pool kept: the flow goes on.
fn resume_kept(inputs: Inputs, progress: RwSignal<Progress>, run: Action<Start, ()>) {
    let kept = PendingPool::from_text(&tab_item(PENDING_ITEM))
        .filter(|k| k.project_id == inputs.project_id.get_untracked());
    let Some(kept) = kept else {
        return;
    };
    match first_pool_create(&kept.pool) {
        Ok(body) => {
            inputs.with_pool.set(true);
            inputs.pool.restore(&kept.pool);
            inputs.name.set(kept.cluster_name.clone());
            if let Some(cluster) = &kept.cluster {
                inputs.version.set(cluster.kubernetes_version.clone());
                inputs.region.set(cluster.region.clone());
                inputs.vpc.set(cluster.vpc_id.clone());
                inputs.autoscaling.set(Some(cluster.autoscaling));
                inputs.tags.set(cluster.tags.join(", "));
            }
            progress.set(Progress::resumed(&kept, &body));
            run.dispatch(Start::Resume(kept, body));
        }
        Err(_) => keep_tab_item(PENDING_ITEM, ""),
    }
}

/// The plan's quota need: the first pool's nodes in the cluster's region.
fn pool_need(
    checks: Checks,
    instance_types: LocalResource<Result<Vec<InstanceType>, ApiError>>,
) -> Signal<QuotaNeed> {
    Signal::derive(move || {
        let Some(body) = checks.pool_body.get() else {
            return QuotaNeed::default();
        };
        instance_types
            .get()
            .and_then(Result::ok)
            .and_then(|list| {
                list.into_iter()
                    .find(|t| t.name == body.node_config.instance_type)
            })
            .map(|t| QuotaNeed::nodes(i64::from(body.node_count), t.vcpu, t.memory_gb))
            .unwrap_or_default()
    })
}

/// What Apply will set going, in words, for the plan.
fn disruption(inputs: Inputs) -> Vec<String> {
    let mut items = match inputs.autoscaling.get() {
        Some(true) => vec!["Autoscaling on: the platform will change node counts on its own, adding nodes for pending pods and draining idle ones.".to_string()],
        Some(false) => vec!["Autoscaling off: node counts change only when you change them; scale-from-zero pools stay empty.".to_string()],
        None => Vec::new(),
    };
    if inputs.new_vpc() {
        items.push("A new VPC is created first; the cluster is sent only once the VPC's operation is done. If the VPC is not made, nothing else is sent.".to_string());
    }
    if inputs.with_pool.get() {
        items.push("The first pool is sent once the cluster's operation is done, into the new cluster. If the cluster is not made, the pool is not sent.".to_string());
    }
    items
}
