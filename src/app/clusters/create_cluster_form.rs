//! "Create cluster": every choice comes from the API (versions, VPCs, regions),
//! and autoscaling is an explicit choice with no silent default.
//!
//! Only one cluster fits in a VPC, so the VPC select also offers "New VPC…": the
//! VPC is created first, its operation followed by the tracker to `done`, and
//! only then is the cluster sent, with the VPC operation's `resource_id`. If the
//! VPC does not come to be, nothing else is sent and the form keeps what was typed.
//!
//! A cluster without a pool never finishes provisioning, so the form also holds
//! the cluster's first pool (on by default, removable), with Create pool's fields
//! and checks. The pool is sent once the cluster's operation is done, into it;
//! until then the page shows both steps. Its own operation's page follows it.

use crate::app::paths::params::{route, ProjectRoute};
use crate::app::paths::to;
use crate::app::paths::A;
use futures_util::future::try_join4;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use crate::api::client::Client;
use crate::api::types::{
    Cluster, ClusterCreate, KubernetesVersion, PoolCreate, Region, Vpc, VpcCreate,
};
use crate::app::components::{
    described_by, focus_first_error, follow_submission, CreateCheck, ErrorView, Field, OpProgress,
    UncertainCreate,
};
use crate::app::context::{page_title, Projects};
use crate::app::drafts::Draft;
use crate::app::operations::follow_href;
use crate::app::plan::PlanPanel;
use crate::app::pools::{PoolFields, PoolInputs};
use crate::ops::Ops;
use crate::rules::first_pool::{
    create_pool_address, default_instance_type, first_pool_create, PendingPool, PoolFlowEnd,
    DEFAULT_NAME, PENDING_ITEM,
};
use crate::rules::forms::{
    cluster_create, message_for, unplaced, unsent_reason, ClusterForm, FieldErrors, PoolForm,
};
use crate::rules::gate::Gate;
use crate::rules::new_vpc::{
    in_new_vpc, initial_choice, progress_line, vpc_choices, vpc_create, vpc_message_for, FlowEnd,
    VpcForm, VpcStep, NEW_VPC,
};
use crate::rules::outcome::ApiError;
use crate::rules::plan::{PlanRequest, QuotaNeed};

type Choices = (Vec<KubernetesVersion>, Vec<Vpc>, Vec<Region>, Vec<Cluster>);

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
pub fn CreateClusterPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let route = route::<ProjectRoute>();
    let project_id = move || route.read().project_id.clone();
    let choices = LocalResource::new(move || {
        let client = client.clone();
        let project = project_id();
        async move {
            try_join4(
                client.kubernetes_versions(),
                client.vpcs(&project),
                client.regions(),
                client.clusters::<Cluster>(&project),
            )
            .await
        }
    });
    let list_href = move || to::clusters(&project_id());
    let projects = expect_context::<Projects>();
    page_title(move || {
        vec![
            "Create cluster".into(),
            projects.name(&project_id()).unwrap_or_default(),
        ]
    });
    view! {
        <section class="page">
            <p class="breadcrumb"><A href=list_href>"← Clusters"</A></p>
            <header class="page-header"><h1>"Create cluster"</h1></header>
            {move || match choices.get() {
                None => view! { <p class="loading">"Loading choices…"</p> }.into_any(),
                Some(Err(error)) => view! { <ErrorView error retry=move |_| choices.refetch() /> }.into_any(),
                Some(Ok(choices)) => view! { <CreateClusterForm choices /> }.into_any(),
            }}
        </section>
    }
}

/// What Apply sends: a cluster into a chosen VPC, or a new VPC and then the cluster.
#[derive(Clone, Debug, PartialEq)]
enum Submit {
    Existing(ClusterCreate),
    NewVpc {
        vpc: VpcCreate,
        cluster: ClusterCreate,
    },
}

/// What is typed on the form: the cluster, the new VPC's and subnet's names,
/// whether a first pool is made, and that pool.
type Typed = (ClusterForm, String, String, bool, PoolForm);

#[component]
fn CreateClusterForm(choices: Choices) -> impl IntoView {
    let (versions, vpcs, regions, clusters) = choices;
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let route = route::<ProjectRoute>();
    let project_id = move || route.read().project_id.clone();

    let nks_regions: Vec<Region> = regions
        .into_iter()
        .filter(|r| r.nks.as_ref().is_none_or(|n| n.clusters))
        .collect();
    let name = RwSignal::new(String::new());
    let version = RwSignal::new(String::new());
    let region = RwSignal::new(if nks_regions.len() == 1 {
        nks_regions[0].name.clone()
    } else {
        String::new()
    });
    let autoscaling = RwSignal::new(None::<bool>);
    let tags = RwSignal::new(String::new());
    let touched = RwSignal::new(false);
    let server_error = RwSignal::new(None::<ApiError>);
    let gate = RwSignal::new(Gate::Idle);

    // The project's VPCs, read again after a VPC create, and which of them are
    // free in the cluster's region. One cluster per VPC: a VPC hosting one is
    // shown, disabled, with the reason.
    let vpcs = RwSignal::new(vpcs);
    let clusters = StoredValue::new(clusters);
    let vpc_options = Memo::new(move |_| {
        let region = region.get();
        vpcs.with(|v| clusters.with_value(|c| vpc_choices(v, c, &region)))
    });
    let no_free_vpc = Memo::new(move |_| vpc_options.with(|c| initial_choice(c) == NEW_VPC));
    let vpc = RwSignal::new(initial_choice(&vpc_options.get_untracked()).to_string());
    let new_vpc = Memo::new(move |_| vpc.with(|v| v == NEW_VPC));
    let vpc_name = RwSignal::new(String::new());
    let subnet_name = RwSignal::new(String::new());
    let vpc_rejected = RwSignal::new(None::<ApiError>);

    // The first pool: on by default, with Create pool's fields and a name.
    let with_pool = RwSignal::new(true);
    let pool = PoolInputs::new();
    pool.name.set(DEFAULT_NAME.to_string());
    let instance_types = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            async move { client.instance_types().await }
        })
    };

    let form = move || ClusterForm {
        name: name.get(),
        project_id: project_id(),
        region: region.get(),
        vpc_id: vpc.get(),
        kubernetes_version: version.get(),
        autoscaling: autoscaling.get(),
        tags: tags.get(),
    };
    // Back after a reconnect (or from elsewhere): what was typed comes back.
    // After a reload, a send that failed comes back with what was typed.
    let draft = Draft::here();
    let (restored, failed_send) = draft.restore_or_unsent::<Typed>();
    let failed_name = restored.as_ref().map(|typed| typed.0.name.clone());
    let had_draft = restored.is_some();
    if let Some((typed, typed_vpc_name, typed_subnet, typed_with_pool, typed_pool)) = restored {
        name.set(typed.name);
        region.set(typed.region);
        vpc.set(typed.vpc_id);
        version.set(typed.kubernetes_version);
        autoscaling.set(typed.autoscaling);
        tags.set(typed.tags);
        vpc_name.set(typed_vpc_name);
        subnet_name.set(typed_subnet);
        with_pool.set(typed_with_pool);
        pool.restore(&typed_pool);
    }
    let typed = move || {
        (
            form(),
            vpc_name.get(),
            subnet_name.get(),
            with_pool.get(),
            pool.form(),
        )
    };
    draft.keep(typed);
    // The smallest instance type, once the list is read, unless one is chosen.
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) || had_draft {
            return true;
        }
        let Some(Ok(list)) = instance_types.get() else {
            return false;
        };
        if let Some(name) = default_instance_type(&list) {
            if pool.instance_type.with_untracked(String::is_empty) {
                pool.instance_type.set(name.to_string());
            }
        }
        true
    });
    let checked = Memo::new(move |_| cluster_create(&form()));
    let pool_checked = Memo::new(move |_| first_pool_create(&pool.form()));
    // The first pool Apply would send after the cluster, if one is asked for and valid.
    let pool_body = Memo::new(move |_| with_pool.get().then(|| pool_checked.get().ok()).flatten());
    let vpc_checked = Memo::new(move |_| {
        let taken: Vec<String> = vpcs.with(|v| v.iter().map(|v| v.name.clone()).collect());
        let form = VpcForm {
            name: vpc_name.get(),
            subnet_name: subnet_name.get(),
            project_id: project_id(),
            region: region.get(),
        };
        vpc_create(&form, &taken)
    });
    let submit = Memo::new(move |_| {
        let cluster = checked.get().ok()?;
        if with_pool.get() && pool_checked.with(Result::is_err) {
            return None;
        }
        if new_vpc.get() {
            let vpc = vpc_checked.get().ok()?;
            Some(Submit::NewVpc {
                vpc,
                cluster: in_new_vpc(&cluster, ""),
            })
        } else {
            Some(Submit::Existing(cluster))
        }
    });
    let error_for = move |field: &'static str| {
        Signal::derive(move || {
            let local = checked.with(|c| {
                c.as_ref()
                    .err()
                    .and_then(|e: &FieldErrors| e.get(field).cloned())
            });
            let typed = match field {
                "name" => !name.with(String::is_empty),
                "tags" => !tags.with(String::is_empty),
                _ => false,
            };
            let local = local.filter(|_| touched.get() || typed);
            server_error
                .with(|rejected| gate.with(|g| message_for(field, local, rejected.as_ref(), g)))
        })
    };
    // Beside a new VPC's fields: what is wrong with what was typed (as it is
    // typed), the VPC create's rejection, or the plan's refusal of the VPC.
    let vpc_error_for = move |field: &'static str| {
        Signal::derive(move || {
            let local = vpc_checked.with(|c| c.as_ref().err().and_then(|e| e.get(field).cloned()));
            let typed = match field {
                "name" => !vpc_name.with(String::is_empty),
                "subnet_name" => !subnet_name.with(String::is_empty),
                _ => false,
            };
            let local = local.filter(|_| touched.get() || typed);
            vpc_rejected
                .with(|rejected| gate.with(|g| vpc_message_for(field, local, rejected.as_ref(), g)))
        })
    };
    let plan_request = Signal::derive(move || {
        submit.get().map(|s| match s {
            Submit::Existing(body) => PlanRequest::CreateCluster(body),
            Submit::NewVpc { vpc, cluster } => {
                PlanRequest::CreateClusterWithNewVpc { vpc, cluster }
            }
        })
    });
    let disruption = Signal::derive(move || {
        let mut items = match autoscaling.get() {
        Some(true) => vec!["Autoscaling on: the platform will change node counts on its own, adding nodes for pending pods and draining idle ones.".to_string()],
        Some(false) => vec!["Autoscaling off: node counts change only when you change them; scale-from-zero pools stay empty.".to_string()],
        None => Vec::new(),
    };
        if new_vpc.get() {
            items.push("A new VPC is created first; the cluster is sent only once the VPC's operation is done. If the VPC is not made, nothing else is sent.".to_string());
        }
        if with_pool.get() {
            items.push("The first pool is sent once the cluster's operation is done, into the new cluster. If the cluster is not made, the pool is not sent.".to_string());
        }
        items
    });
    let versions = StoredValue::new(versions);
    let nks_regions = StoredValue::new(nks_regions);

    // A create that ended in a 5xx or no answer may have gone through: look for the
    // cluster by name before anything is sent again.
    let check = {
        let client = client.clone();
        CreateCheck::new(server_error, move |name: String| {
            let client = client.clone();
            let project = project_id();
            async move {
                let clusters = client.clusters::<Cluster>(&project).await?;
                Ok(clusters
                    .into_iter()
                    .find(|c| c.name == name)
                    .map(|c| (c.id, c.status.as_str().to_string())))
            }
        })
    };
    let resend_blocked = move || check.resend_blocked();
    let attempted_name = check.attempted;
    if let (Some(error), Some(name)) = (failed_send, failed_name) {
        attempted_name.set(name);
        server_error.set(Some(error));
    }
    draft.keep_unsent(server_error, typed);

    let create = Action::new_local({
        let client = client.clone();
        move |body: &ClusterCreate| {
            let client = client.clone();
            let body = body.clone();
            async move { client.create_cluster(&body).await }
        }
    });
    let submitted = follow_submission(move || create.value().get(), server_error);

    // ----- the new VPC, made first -----
    let create_vpc = Action::new_local({
        let client = client.clone();
        move |body: &VpcCreate| {
            let client = client.clone();
            let body = body.clone();
            async move { client.create_vpc(&body).await }
        }
    });
    // The project's VPCs, read again once a VPC create has ended one way or another.
    let reread = Action::new_local({
        let client = client.clone();
        move |_: &()| {
            let client = client.clone();
            let project = project_id();
            async move { client.vpcs(&project).await }
        }
    });
    Effect::new(move |_| {
        if let Some(Ok(list)) = reread.value().get() {
            vpcs.set(list);
        }
    });
    let reread_error = Memo::new(move |_| reread.value().get().and_then(Result::err));
    // The VPC operation being followed (until the cluster is sent or the flow ends),
    // the one shown beside the cluster's, the cluster body waiting for it, the VPC's
    // name for the words, and how the flow ended when it did not make a cluster.
    let vpc_submitted = follow_submission(move || create_vpc.value().get(), vpc_rejected);
    let shown_vpc_op = RwSignal::new(None::<String>);
    let waiting_cluster = RwSignal::new(None::<ClusterCreate>);
    let flow_vpc_name = RwSignal::new(String::new());
    let flow_cluster_name = RwSignal::new(String::new());
    let made_vpc = RwSignal::new(None::<String>);
    let flow_end = RwSignal::new(None::<FlowEnd>);
    let vpc_step = Memo::new(move |_| {
        let id = vpc_submitted.get()?;
        Some((id.clone(), VpcStep::of(ops.get(&id).as_ref())))
    });
    Effect::new(move |_| {
        if let Some(id) = vpc_submitted.get() {
            shown_vpc_op.set(Some(id));
        }
    });
    // A VPC create answered with an error: nothing else goes out.
    Effect::new(move |_| {
        if let Some(Err(error)) = create_vpc.value().get() {
            if waiting_cluster.get_untracked().is_some() {
                waiting_cluster.set(None);
                if error.may_have_acted() {
                    reread.dispatch(());
                }
                flow_end.set(Some(FlowEnd::VpcNotSent(error)));
            }
        }
    });
    // The VPC's operation: done sends the cluster, once, into it; any other end
    // stops the flow with nothing else sent.
    Effect::new(move |_| {
        let Some((op_id, step)) = vpc_step.get() else {
            return;
        };
        match step {
            VpcStep::Waiting => {}
            VpcStep::Ready { vpc_id } => {
                let Some(body) = waiting_cluster.get_untracked() else {
                    return;
                };
                waiting_cluster.set(None);
                // From here on the form picks this VPC: it exists now.
                made_vpc.set(Some(vpc_id.clone()));
                vpc.set(vpc_id.clone());
                reread.dispatch(());
                attempted_name.set(body.name.clone());
                server_error.set(None);
                create.dispatch(in_new_vpc(&body, &vpc_id));
            }
            other => {
                waiting_cluster.set(None);
                vpc_submitted.set(None);
                reread.dispatch(());
                flow_end.set(Some(FlowEnd::VpcEnded {
                    operation_id: op_id,
                    step: other,
                }));
            }
        }
    });
    // The cluster's answer ends the VPC phase: its operation is followed as any
    // create's, and a refusal returns to the form, which now picks the new VPC.
    Effect::new(move |_| {
        let answered = create.value().get();
        if vpc_submitted.get_untracked().is_none() {
            return;
        }
        match answered {
            Some(Ok(_)) => vpc_submitted.set(None),
            Some(Err(_)) => {
                vpc_submitted.set(None);
                if let Some(vpc_id) = made_vpc.get_untracked() {
                    flow_end.set(Some(FlowEnd::ClusterNotMade { vpc_id }));
                }
            }
            None => {}
        }
    });
    let flow_busy = move || {
        create_vpc.pending().get() || vpc_submitted.with(Option::is_some) || create.pending().get()
    };
    // After an end that may have left a VPC behind, a new VPC waits until the
    // project's VPCs have been read again: the name check then knows it.
    let vpc_unsettled = Memo::new(move |_| {
        let may_exist = flow_end.with(|e| {
            matches!(
                e,
                Some(FlowEnd::VpcNotSent(err)) if err.may_have_acted()
            ) || matches!(
                e,
                Some(FlowEnd::VpcEnded { step, .. }) if !matches!(step, VpcStep::Failed)
            )
        });
        may_exist && (reread.pending().get() || reread_error.with(Option::is_some))
    });
    let blocked_reason = move || {
        (new_vpc.get() && vpc_unsettled.get()).then_some(
            "Waiting to read the project's VPCs again, so a VPC that may exist is not created twice.",
        )
    };

    // Why Create sends nothing: the cluster fields whose problem is on screen.
    let unsent = Memo::new(move |_| {
        let mut labels: Vec<&str> = checked.with(|c| {
            let Err(errors) = c else {
                return Vec::new();
            };
            errors
                .keys()
                .filter(|f| {
                    touched.get()
                        || (**f == "name" && !name.with(String::is_empty))
                        || (**f == "tags" && !tags.with(String::is_empty))
                })
                .map(|f| match *f {
                    "name" => "Name",
                    "tags" => "Tags",
                    "project_id" => "Project",
                    "vpc_id" => "VPC",
                    "kubernetes_version" => "Kubernetes version",
                    "autoscaling" => "Autoscaling",
                    _ => "a field",
                })
                .collect()
        });
        if with_pool.get() {
            labels.extend(pool.unsent_labels(pool_checked, touched.get(), "Pool name"));
        }
        unsent_reason(&labels)
    });

    // ----- the first pool, sent once the cluster is made -----
    // The pool waiting for the cluster's operation, its name for the words (empty:
    // no pool in this flow), the cluster it went to, and how the flow stopped
    // short of the pool's own operation.
    let waiting_pool = RwSignal::new(None::<PoolCreate>);
    let flow_pool_name = RwSignal::new(String::new());
    let pool_cluster = RwSignal::new(None::<String>);
    let pool_end = RwSignal::new(None::<PoolFlowEnd>);
    let pool_rejected = RwSignal::new(None::<ApiError>);
    let create_pool = Action::new_local({
        let client = client.clone();
        move |(cluster, body): &(String, PoolCreate)| {
            let client = client.clone();
            let (cluster, body) = (cluster.clone(), body.clone());
            async move { client.create_pool(&cluster, &body).await }
        }
    });
    let pool_submitted = follow_submission(move || create_pool.value().get(), pool_rejected);
    // The pool waiting for the cluster, kept in this tab from the cluster's
    // answer until the pool's own: a reload on the way finds it (see PendingPool).
    let kept_pool = tab_storage()
        .and_then(|s| s.get_item(PENDING_ITEM).ok().flatten())
        .unwrap_or_default();
    let pending = move |sent_to: Option<String>| PendingPool {
        project_id: project_id(),
        operation_id: submitted.get_untracked().unwrap_or_default(),
        cluster_name: flow_cluster_name.get_untracked(),
        pool: untrack(|| pool.form()),
        sent_to,
    };
    let cluster_step = Memo::new(move |_| {
        let id = submitted.get()?;
        waiting_pool.with(Option::is_some).then_some(())?;
        Some((id.clone(), VpcStep::of(ops.get(&id).as_ref())))
    });
    // The cluster's operation: done sends the pool, once, into the cluster; any
    // other end stops the flow with the pool unsent and the form as it was.
    Effect::new(move |_| {
        let Some((op_id, step)) = cluster_step.get() else {
            return;
        };
        match step {
            VpcStep::Waiting => {}
            VpcStep::Ready { vpc_id: cluster_id } => {
                let Some(body) = waiting_pool.get_untracked() else {
                    return;
                };
                waiting_pool.set(None);
                pool_cluster.set(Some(cluster_id.clone()));
                // The cluster is made: its form is done with. What the pool holds
                // goes to the cluster's Create pool form, the way back if the pool
                // is not made (its operation's page links that form).
                draft.discard();
                Draft::at(&create_pool_address(&project_id(), &cluster_id))
                    .put(untrack(|| pool.form()));
                keep_pool(pending(Some(cluster_id.clone())).to_text());
                pool_rejected.set(None);
                create_pool.dispatch((cluster_id, body));
            }
            other => {
                waiting_pool.set(None);
                submitted.set(None);
                pool_end.set(Some(PoolFlowEnd::ClusterEnded {
                    operation_id: op_id,
                    step: other,
                }));
            }
        }
    });
    // The pool's create refused or unanswered: said, with Create pool as the way on.
    Effect::new(move |_| {
        if let (Some(error), Some(cluster_id)) = (pool_rejected.get(), pool_cluster.get_untracked())
        {
            pool_end.set(Some(PoolFlowEnd::PoolNotMade { cluster_id, error }));
        }
    });
    Effect::new(move |_| {
        if submitted.with(Option::is_some) && waiting_pool.with_untracked(Option::is_some) {
            keep_pool(pending(None).to_text());
        }
    });
    Effect::new(move |_| {
        if pool_submitted.with(Option::is_some)
            || pool_end.with(|e| e.as_ref().is_some_and(PoolFlowEnd::is_final))
        {
            keep_pool(String::new());
        }
    });
    // Back on this page in the same tab with a pool kept: the flow goes on where
    // it was; a pool already sent is not sent again.
    if let Some(kept) =
        PendingPool::from_text(&kept_pool).filter(|k| k.project_id == untrack(project_id))
    {
        match first_pool_create(&kept.pool) {
            Ok(body) => {
                with_pool.set(true);
                pool.restore(&kept.pool);
                name.set(kept.cluster_name.clone());
                flow_cluster_name.set(kept.cluster_name.clone());
                flow_pool_name.set(body.name.clone());
                match kept.sent_to.clone() {
                    None => {
                        waiting_pool.set(Some(body));
                        // Followed by the tracker (it resumes what it followed), or read once and handed to it.
                        let op_id = kept.operation_id.clone();
                        if untrack(|| ops.get(&op_id)).is_none() {
                            let client = client.clone();
                            leptos::task::spawn_local(async move {
                                if let Ok(op) = client.operation(&op_id).await {
                                    if untrack(|| ops.get(&op_id)).is_none() {
                                        ops.track(op);
                                    }
                                }
                            });
                        }
                    }
                    Some(cluster_id) => {
                        pool_cluster.set(Some(cluster_id.clone()));
                        Draft::at(&create_pool_address(&kept.project_id, &cluster_id))
                            .put(kept.pool.clone());
                        pool_end.set(Some(PoolFlowEnd::PoolAnswerUnseen { cluster_id }));
                    }
                }
                submitted.set(Some(kept.operation_id));
            }
            Err(_) => keep_pool(String::new()),
        }
    }

    let form_el = NodeRef::<leptos::html::Form>::new();
    // A create the API refused for a field (the cluster's or the new VPC's): the
    // focus goes to that field.
    Effect::new(move |_| {
        let fielded = |e: &Option<ApiError>| e.as_ref().and_then(ApiError::field).is_some();
        if server_error.with(fielded) || vpc_rejected.with(fielded) {
            focus_first_error(form_el);
        }
    });
    // Apply: the first pool, if any, waits for the cluster's operation.
    let start_pool_flow = move || {
        let body = pool_body.get_untracked();
        flow_pool_name.set(body.as_ref().map(|b| b.name.clone()).unwrap_or_default());
        waiting_pool.set(body);
        pool_cluster.set(None);
        pool_end.set(None);
        pool_rejected.set(None);
    };
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        touched.set(true);
        if flow_busy()
            || submitted.get_untracked().is_some()
            || resend_blocked()
            || blocked_reason().is_some()
        {
            return; // no double submit, and no blind re-send of a create that may have happened
        }
        if !gate.with_untracked(Gate::allows_apply) {
            return;
        }
        match submit.get_untracked() {
            Some(Submit::Existing(body)) => {
                start_pool_flow();
                flow_cluster_name.set(body.name.clone());
                flow_end.set(None);
                shown_vpc_op.set(None);
                attempted_name.set(body.name.clone());
                server_error.set(None);
                create.dispatch(body);
            }
            Some(Submit::NewVpc { vpc, cluster }) => {
                start_pool_flow();
                flow_end.set(None);
                made_vpc.set(None);
                server_error.set(None);
                vpc_rejected.set(None);
                flow_vpc_name.set(vpc.name.clone());
                flow_cluster_name.set(cluster.name.clone());
                waiting_cluster.set(Some(cluster));
                create_vpc.dispatch(vpc);
            }
            // Refused here: nothing is sent, and the focus goes to the first field in error.
            None => focus_first_error(form_el),
        }
    };
    let retry = Callback::new(move |_| {
        if let Some(Submit::Existing(body)) = submit.get_untracked() {
            attempted_name.set(body.name.clone());
            server_error.set(None);
            create.dispatch(body);
        }
    });
    // The cluster's create was sent (after its new VPC, when there is one): the
    // operation's own page follows it and opens the cluster once done. The draft
    // stays until then: a failure leads back here, to the form as it was sent,
    // with a VPC made on the way chosen (it is in the draft, and free).
    // With a first pool, the page stays through the cluster's operation, and goes to
    // the pool's operation once the pool is sent (a failure of it leads to the
    // cluster's Create pool form, holding the pool as typed).
    let navigate = use_navigate();
    Effect::new(move |_| {
        if let Some(id) = submitted.get() {
            if flow_pool_name.with_untracked(String::is_empty) {
                navigate(
                    &follow_href(&project_id(), &id, None, None),
                    NavigateOptions {
                        replace: true,
                        ..Default::default()
                    },
                );
            }
        }
    });
    let navigate = use_navigate();
    Effect::new(move |_| {
        if let (Some(id), Some(cluster)) = (pool_submitted.get(), pool_cluster.get_untracked()) {
            navigate(
                &follow_href(&project_id(), &id, Some(&cluster), None),
                NavigateOptions {
                    replace: true,
                    ..Default::default()
                },
            );
        }
    });

    let vpc_hint = Signal::derive(move || {
        if no_free_vpc.get() {
            let place = region.with(|r| {
                if r.is_empty() {
                    "this project".to_string()
                } else {
                    r.clone()
                }
            });
            format!("No free VPC in {place}: every VPC here already hosts a cluster, and only one cluster fits in a VPC. Choose “New VPC…” (chosen for you) to create one first, then the cluster in it.")
        } else {
            "Fixed at creation. Only one cluster per VPC; “New VPC…” creates one first.".to_string()
        }
    });
    // The pool's step, beside the cluster's operation.
    let pool_step_view = move || {
        let pool_name = flow_pool_name.get();
        if let Some(end) = pool_end.get() {
            let cluster_name = flow_cluster_name.get_untracked();
            let error = end.error(&cluster_name);
            let follow_up = end.follow_up(&cluster_name, &pool_name);
            let retry = end.retry_in().map(|cluster_id| {
                let href = create_pool_address(&project_id(), cluster_id);
                let label = format!("Create pool {pool_name} in {cluster_name}");
                view! { <A href=href attr:class="btn btn-primary">{label}</A> }
            });
            view! {
                <div class="first-pool-outcome">
                    {error.map(|error| view! { <ErrorView error /> })}
                    <p class="alert alert-info" role="status">{follow_up}</p>
                    {retry}
                </div>
            }
            .into_any()
        } else if pool_submitted.with(Option::is_some) {
            view! { <p class="loading">"Pool " {pool_name} " sent. Opening its operation…"</p> }
                .into_any()
        } else if create_pool.pending().get() {
            view! { <p>"Pool " {pool_name} ": sending the create…"</p> }.into_any()
        } else {
            view! { <p class="muted">"Pool " {pool_name} ": sent once the cluster is ready."</p> }
                .into_any()
        }
    };
    let pool_line = move || {
        let (cluster, pool_name) = (flow_cluster_name.get(), flow_pool_name.get());
        match pool_end.get() {
            Some(_) => format!("Cluster {cluster} is made; pool {pool_name} is not."),
            None if pool_cluster.with(Option::is_some) => {
                format!("Cluster {cluster} is ready; creating pool {pool_name} in it.")
            }
            None => {
                format!("Creating cluster {cluster}; pool {pool_name} follows once it is ready.")
            }
        }
    };
    // The plan: the pool's quota need in the cluster's region (no pool, no quota).
    let plan_region = Signal::derive(move || {
        if with_pool.get() {
            region.get()
        } else {
            String::new()
        }
    });
    let pool_need = Signal::derive(move || {
        let Some(body) = pool_body.get() else {
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
    });
    let autoscaling_signal = Signal::derive(move || autoscaling.get());
    let in_flow = move || vpc_submitted.with(Option::is_some) || submitted.with(Option::is_some);
    let with_first_pool = move || !flow_pool_name.with(String::is_empty);
    let line = move || {
        progress_line(
            &flow_vpc_name.get(),
            &flow_cluster_name.get(),
            create.pending().get() || submitted.with(Option::is_some),
        )
    };

    view! {
        <Show when=move || !in_flow() fallback=move || view! {
            // One list of the flow's steps, numbered once: the VPC (when one is
            // made), the cluster, the first pool (when one was asked for).
            {move || (shown_vpc_op.with(Option::is_some) || with_first_pool()).then(|| view! {
                <div class="new-vpc-flow" class:first-pool-flow=with_first_pool>
                    <p class="flow-line" role="status">{move || if submitted.with(Option::is_some) && with_first_pool() { pool_line() } else { line() }}</p>
                    <ol class="flow-steps">
                        {move || shown_vpc_op.get().map(|id| view! {
                            <li><OpProgress operation_id=id title=format!("Create VPC {}", flow_vpc_name.get_untracked()) /></li>
                        })}
                        <li>{move || match submitted.get() {
                            Some(id) => view! { <OpProgress operation_id=id title=format!("Create cluster {}", flow_cluster_name.get_untracked()) /> }.into_any(),
                            None if create.pending().get() => view! { <p>"Cluster " {flow_cluster_name.get_untracked()} ": sending the create…"</p> }.into_any(),
                            None => view! { <p class="muted">"Cluster " {flow_cluster_name.get_untracked()} ": sent once the VPC is ready."</p> }.into_any(),
                        }}</li>
                        {move || with_first_pool().then(|| view! {
                            <li>{move || if submitted.with(Option::is_some) {
                                pool_step_view().into_any()
                            } else {
                                view! { <p class="muted">"Pool " {flow_pool_name.get_untracked()} ": sent once the cluster is ready."</p> }.into_any()
                            }}</li>
                        })}
                    </ol>
                </div>
            })}
            {move || (submitted.with(Option::is_some) && !with_first_pool() && shown_vpc_op.with(Option::is_none)).then(|| view! {
                <p class="loading">"Sent. Opening its operation…"</p>
            })}
            {move || if pool_end.with(Option::is_some) || pool_submitted.with(Option::is_some) {
                ().into_any()
            } else if flow_pool_name.with(String::is_empty) {
                view! { <p class="muted">"A cluster usually takes about 20 minutes. You can leave this page: the operation is followed in the header."</p> }.into_any()
            } else {
                view! { <p class="muted">"A cluster usually takes about 20 minutes. The pool is sent from this page: keep it open, or come back to Create cluster in this tab (a reload is fine). Meanwhile the cluster's operation is followed in the header."</p> }.into_any()
            }}
        }>
            <div class="with-plan">
            <form class="form card" on:submit=on_submit novalidate=true node_ref=form_el>
                {move || flow_end.get().map(|end| {
                    let name = flow_vpc_name.get_untracked();
                    let error = end.error(&name);
                    let follow_up = end.follow_up(&name);
                    view! {
                        <div class="new-vpc-outcome">
                            {error.map(|error| view! { <ErrorView error /> })}
                            <p class="alert alert-info" role="status">{follow_up}</p>
                        </div>
                    }
                })}
                {move || reread_error.get().map(|error| view! {
                    <p class="muted">"Could not read the project's VPCs again:"</p>
                    <ErrorView error retry=move |_| { reread.dispatch(()); } />
                })}
                {move || server_error.get().filter(|e| e.field().is_none()).map(|error| view! { <ErrorView error /> })}
                {move || server_error.with(|e| e.as_ref().and_then(|e| unplaced(e, &CLUSTER_FIELDS))).map(|text| view! {
                    <p class="alert alert-error" role="alert">{text}</p>
                })}
                <Show when=move || check.uncertain.get()>
                    <UncertainCreate what="cluster" name=attempted_name.get_untracked() found=check.found
                        href=Callback::new(move |id: String| to::cluster(&project_id(), &id))
                        on_retry=retry />
                </Show>
                <Field id="cluster-name" label="Name" hint="Lowercase letters, digits and '-'." error=error_for("name")>
                    <input id="cluster-name" aria-describedby=described_by("cluster-name") prop:value=name
                        on:input=move |ev| name.set(event_target_value(&ev)) />
                </Field>
                <Field id="cluster-version" label="Kubernetes version" hint="Fixed at creation: there is no upgrade through this API." error=error_for("kubernetes_version")>
                    <select id="cluster-version" aria-describedby=described_by("cluster-version") on:change=move |ev| version.set(event_target_value(&ev))>
                        <option value="" prop:selected=move || version.with(String::is_empty)>"Choose a version"</option>
                        {versions.get_value().into_iter().map(|k| {
                            // The version's name (`v1.34.4`), as everywhere else: the API's
                            // display name ("Kubernetes 1.34.4") only repeats it.
                            let label = k.name.clone();
                            let value = k.name.clone();
                            view! { <option value=k.name prop:selected=move || version.with(|v| v == &value)>{label}</option> }
                        }).collect_view()}
                    </select>
                </Field>
                <Field id="cluster-region" label="Region" hint="Fixed at creation." error=error_for("region")>
                    <select id="cluster-region" aria-describedby=described_by("cluster-region") prop:value=region on:change=move |ev| region.set(event_target_value(&ev))>
                        <option value="">"Choose a region"</option>
                        {nks_regions.get_value().into_iter().map(|r| {
                            let selected = region.get_untracked() == r.name;
                            view! { <option value=r.name.clone() selected=selected>{r.name.clone()}</option> }
                        }).collect_view()}
                    </select>
                </Field>
                <Field id="cluster-vpc" label="VPC" hint=vpc_hint error=error_for("vpc_id")>
                    <select id="cluster-vpc" aria-describedby=described_by("cluster-vpc") on:change=move |ev| vpc.set(event_target_value(&ev))>
                        <option value="" prop:selected=move || vpc.with(String::is_empty)>"Choose a VPC"</option>
                        <For each=move || vpc_options.get() key=|c| c.clone() let:choice>
                            {
                                let id = choice.id.clone();
                                view! {
                                    <option value=choice.id.clone() disabled=choice.unavailable.is_some()
                                        prop:selected=move || vpc.with(|v| v == &id)>{choice.label.clone()}</option>
                                }
                            }
                        </For>
                        <option value=NEW_VPC prop:selected=move || new_vpc.get()>"New VPC…"</option>
                    </select>
                </Field>
                <Show when=move || new_vpc.get()>
                    <fieldset class="field new-vpc" aria-describedby="new-vpc-hint">
                        <legend>"New VPC"</legend>
                        <p class="field-hint" id="new-vpc-hint">
                            "Created first; the cluster is sent once the VPC is ready. The platform picks its address range."
                        </p>
                        <Field id="new-vpc-name" label="VPC name" error=vpc_error_for("name")>
                            <input id="new-vpc-name" aria-describedby=described_by("new-vpc-name") autocomplete="off" prop:value=vpc_name
                                on:input=move |ev| vpc_name.set(event_target_value(&ev)) />
                        </Field>
                        <Field id="new-vpc-subnet" label="Subnet name" error=vpc_error_for("subnet_name")>
                            <input id="new-vpc-subnet" aria-describedby=described_by("new-vpc-subnet") autocomplete="off" prop:value=subnet_name
                                on:input=move |ev| subnet_name.set(event_target_value(&ev)) />
                        </Field>
                        <p class="new-vpc-region">
                            "Region: "
                            {move || {
                                let r = region.get();
                                if r.is_empty() {
                                    view! { <span class="field-error" role="alert">{move || vpc_error_for("region").get()}</span> }.into_any()
                                } else {
                                    view! { <strong>{r}</strong> " — the cluster's region, chosen above" }.into_any()
                                }
                            }}
                        </p>
                    </fieldset>
                </Show>
                <fieldset class="field" aria-describedby="cluster-autoscaling-hint" class:field-invalid=move || error_for("autoscaling").with(Option::is_some)>
                    <legend>"Autoscaling"</legend>
                    <p class="field-hint" id="cluster-autoscaling-hint">
                        "A cluster-wide switch: when on, the platform's autoscaler adds nodes to your pools for pending pods and drains and removes idle ones. There is no per-pool setting."
                    </p>
                    <label class="choice"><input type="radio" name="autoscaling" value="on"
                        prop:checked=move || autoscaling.get() == Some(true) on:change=move |_| autoscaling.set(Some(true)) /> "On"</label>
                    <label class="choice"><input type="radio" name="autoscaling" value="off"
                        prop:checked=move || autoscaling.get() == Some(false) on:change=move |_| autoscaling.set(Some(false)) /> "Off"</label>
                    {move || error_for("autoscaling").get().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
                </fieldset>
                <Field id="cluster-tags" label="Tags" hint="Comma-separated." error=error_for("tags")>
                    <input id="cluster-tags" aria-describedby=described_by("cluster-tags") prop:value=tags
                        on:input=move |ev| tags.set(event_target_value(&ev)) />
                </Field>
                {move || pool_end.get().filter(|e| e.retry_in().is_none()).map(|end| {
                    let cluster_name = flow_cluster_name.get_untracked();
                    let error = end.error(&cluster_name);
                    let follow_up = end.follow_up(&cluster_name, &flow_pool_name.get_untracked());
                    view! {
                        <div class="first-pool-outcome">
                            {error.map(|error| view! { <ErrorView error /> })}
                            <p class="alert alert-info" role="status">{follow_up}</p>
                        </div>
                    }
                })}
                <Show when=move || with_pool.get() fallback=move || view! {
                    <section class="field first-pool" aria-labelledby="first-pool-off">
                        <h2 class="section-title" id="first-pool-off">"First pool"</h2>
                        <p class="alert alert-warning" role="status">
                            "No pool: without a worker node the new cluster never finishes provisioning, and CoreDNS has nowhere to run. "
                            "Add a first pool here, or create one on the cluster's page as soon as the cluster is made."
                        </p>
                        <button type="button" class="btn" on:click=move |_| with_pool.set(true)>"Add a first pool"</button>
                    </section>
                }>
                    <fieldset class="field first-pool" aria-describedby="first-pool-hint">
                        <legend>"First pool"</legend>
                        <p class="field-hint" id="first-pool-hint">
                            "A new cluster never finishes provisioning without a worker node: this pool gives it one (1 node or more). "
                            "It is created as soon as the cluster's operation is done, with the same fields as Create pool."
                        </p>
                        <PoolFields inputs=pool checked=pool_checked rejected=pool_rejected gate=Signal::stored(Gate::Idle)
                            touched instance_types autoscaling=autoscaling_signal name_label="Pool name" tags_label="Pool tags" />
                        <button type="button" class="btn btn-quiet" on:click=move |_| with_pool.set(false)>"Remove first pool"</button>
                    </fieldset>
                </Show>
                <div class="form-actions">
                    <button class="btn btn-primary" type="submit" aria-describedby="create-cluster-blocked"
                        disabled=move || flow_busy() || !gate.with(Gate::allows_apply) || resend_blocked() || blocked_reason().is_some()>
                        {move || match (flow_busy(), new_vpc.get(), with_pool.get()) {
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
            <PlanPanel request=plan_request region=plan_region need=pool_need disruption gate first_pool=pool_body />
            </div>
        </Show>
    }
}

/// This tab's sessionStorage, written at once (a navigation or a reload right
/// after a write must find it).
fn tab_storage() -> Option<web_sys::Storage> {
    window().session_storage().ok().flatten()
}

/// Keeps the first pool's text in this tab (empty: forgets it).
fn keep_pool(text: String) {
    if let Some(storage) = tab_storage() {
        let _ = if text.is_empty() {
            storage.remove_item(PENDING_ITEM)
        } else {
            storage.set_item(PENDING_ITEM, &text)
        };
    }
}
