//! Where Create cluster's flow stands ([`Progress`], which only the flow
//! writes), its steps as they run, and how the flow ended when it ended
//! short of its last step.

use leptos::prelude::*;

use super::flow::{Answer, Start};
use crate::api::types::PoolCreate;
use crate::app::components::{ErrorView, OpProgress};
use crate::app::paths::A;
use crate::rules::first_pool::{create_pool_address, PendingPool, PoolFlowEnd};
use crate::rules::new_vpc::progress_line;
use crate::rules::new_vpc::FlowEnd;

/// Where the create stands, for the page to draw. Only the flow writes it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// The names as sent; an empty VPC or pool name: none in this flow.
    pub vpc_name: String,
    pub cluster_name: String,
    pub pool_name: String,
    /// The new VPC's operation, shown beside the cluster's once answered.
    pub vpc_op: Option<String>,
    /// The VPC is being made for the cluster (until the cluster's create is answered).
    pub vpc_waiting: bool,
    /// The VPC made on the way: it exists whatever happens to the cluster.
    pub made_vpc: Option<String>,
    pub cluster_sending: bool,
    pub cluster_op: Option<String>,
    /// The cluster the first pool goes into, once the cluster is made.
    pub pool_cluster: Option<String>,
    /// The cluster was made while no page of the flow was open: the person may
    /// have moved on, so the pool waits for Send or Discard.
    pub pool_waiting: bool,
    pub pool_sending: bool,
    pub pool_op: Option<String>,
    /// How the flow ended short of a cluster (shown on the form).
    pub vpc_end: Option<FlowEnd>,
    /// How the flow ended short of the pool's own operation.
    pub pool_end: Option<PoolFlowEnd>,
}

impl Progress {
    /// Back in this tab with a first pool kept: the cluster's create was answered.
    pub fn resumed(kept: &PendingPool, pool: &PoolCreate) -> Self {
        Progress {
            cluster_name: kept.cluster_name.clone(),
            pool_name: pool.name.clone(),
            cluster_op: Some(kept.operation_id.clone()),
            ..Progress::default()
        }
    }

    /// The form gives way to the steps: a VPC is being made for the cluster,
    /// or the cluster's create was answered.
    pub fn in_flow(&self) -> bool {
        self.vpc_waiting || self.cluster_op.is_some()
    }

    pub fn with_pool(&self) -> bool {
        !self.pool_name.is_empty()
    }
}

/// One list of the flow's steps, numbered once: the VPC (when one is made), the
/// cluster, the first pool (when one was asked for).
#[component]
pub fn FlowProgress(
    progress: RwSignal<Progress>,
    project_id: Signal<String>,
    run: Action<Start, ()>,
) -> impl IntoView {
    let read = move |f: fn(&Progress) -> String| progress.with(f);
    let cluster_op = move || progress.with(|p| p.cluster_op.clone());
    let vpc_op = move || progress.with(|p| p.vpc_op.clone());
    let with_pool = move || progress.with(Progress::with_pool);
    let line = move || {
        progress.with(|p| match (&p.cluster_op, p.with_pool()) {
            (Some(_), true) => pool_line(p),
            _ => progress_line(
                &p.vpc_name,
                &p.cluster_name,
                p.cluster_sending || p.cluster_op.is_some(),
            ),
        })
    };
    let cluster_step = move || {
        let name = read(|p| p.cluster_name.clone());
        match cluster_op() {
            Some(id) => {
                view! { <OpProgress operation_id=id title=format!("Create cluster {name}") /> }
                    .into_any()
            }
            None if progress.with(|p| p.cluster_sending) => {
                view! { <p>"Cluster " {name} ": sending the create…"</p> }.into_any()
            }
            None => {
                view! { <p class="muted">"Cluster " {name} ": sent once the VPC is ready."</p> }
                    .into_any()
            }
        }
    };
    let pool_step = move || {
        if cluster_op().is_some() {
            view! { <PoolStep progress project_id run /> }.into_any()
        } else {
            let name = read(|p| p.pool_name.clone());
            view! { <p class="muted">"Pool " {name} ": sent once the cluster is ready."</p> }
                .into_any()
        }
    };
    let pool_ended = move || progress.with(|p| p.pool_end.is_some() || p.pool_op.is_some());
    // The form that had the focus is gone: the focus moves to what replaced it,
    // so a keyboard or screen reader user is not left on the page's body.
    let here = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if let Some(el) = here.get() {
            let _ = el.focus();
        }
    });
    view! {
        <div class="flow-progress" tabindex="-1" node_ref=here aria-label="Create cluster: progress" role="region">
        {move || (vpc_op().is_some() || with_pool()).then(|| view! {
            <div class="new-vpc-flow" class:first-pool-flow=with_pool>
                <p class="flow-line" role="status">{line}</p>
                <ol class="flow-steps">
                    {move || vpc_op().map(|id| view! {
                        <li><OpProgress operation_id=id title=format!("Create VPC {}", read(|p| p.vpc_name.clone())) /></li>
                    })}
                    <li>{cluster_step}</li>
                    {move || with_pool().then(|| view! { <li>{pool_step}</li> })}
                </ol>
            </div>
        })}
        {move || (cluster_op().is_some() && !with_pool() && vpc_op().is_none()).then(|| view! {
            <p class="loading">"Sent. Opening its operation…"</p>
        })}
        {move || if pool_ended() || progress.with(|p| p.pool_waiting) {
            ().into_any()
        } else if !with_pool() {
            view! { <p class="muted">"A cluster usually takes about 20 minutes. You can leave this page: the operation is followed in the header."</p> }.into_any()
        } else {
            view! { <p class="muted">"A cluster usually takes about 20 minutes. The pool is sent from this page: keep it open, or come back to Create cluster in this tab (a reload is fine). Meanwhile the cluster's operation is followed in the header."</p> }.into_any()
        }}
        </div>
    }
}

/// The words of a flow with a first pool, once the cluster's create is answered.
fn pool_line(p: &Progress) -> String {
    let (cluster, pool) = (&p.cluster_name, &p.pool_name);
    match (&p.pool_end, &p.pool_cluster) {
        (Some(_), _) => format!("Cluster {cluster} is made; pool {pool} is not."),
        (None, Some(_)) if p.pool_waiting => {
            format!("Cluster {cluster} is ready; pool {pool} is waiting to be sent.")
        }
        (None, Some(_)) => format!("Cluster {cluster} is ready; creating pool {pool} in it."),
        (None, None) => {
            format!("Creating cluster {cluster}; pool {pool} follows once it is ready.")
        }
    }
}

/// The first pool's step, beside the cluster's operation.
#[component]
fn PoolStep(
    progress: RwSignal<Progress>,
    project_id: Signal<String>,
    run: Action<Start, ()>,
) -> impl IntoView {
    move || {
        let p = progress.get();
        let pool_name = p.pool_name.clone();
        if let Some(end) = p.pool_end {
            let retry = end.retry_in().map(|cluster_id| {
                let href = create_pool_address(&project_id.get_untracked(), cluster_id);
                let label = format!("Create pool {pool_name} in {}", p.cluster_name);
                view! { <A href=href attr:class="btn btn-primary">{label}</A> }
            });
            view! {
                <div class="first-pool-outcome">
                    {end.error(&p.cluster_name).map(|error| view! { <ErrorView error /> })}
                    <p class="alert alert-info" role="status">{end.follow_up(&p.cluster_name, &pool_name)}</p>
                    {retry}
                </div>
            }
            .into_any()
        } else if p.pool_waiting {
            let send = format!("Send pool {pool_name}");
            view! {
                <div class="first-pool-outcome">
                    <p class="alert alert-info">
                        "Cluster " {p.cluster_name.clone()} " was made while this page was closed, so pool "
                        {pool_name.clone()} " was not sent: nothing is sent without your word. Send it now, "
                        "or discard it (the cluster then has no pool: add one from its page)."
                    </p>
                    <p class="actions">
                        <button type="button" class="btn btn-primary" disabled=move || run.pending().get()
                            on:click=move |_| { run.dispatch(Start::Waiting(Answer::Send)); }>{send}</button>
                        <button type="button" class="btn" disabled=move || run.pending().get()
                            on:click=move |_| { run.dispatch(Start::Waiting(Answer::Discard)); }>"Discard"</button>
                    </p>
                </div>
            }
            .into_any()
        } else if p.pool_op.is_some() {
            view! { <p class="loading">"Pool " {pool_name} " sent. Opening its operation…"</p> }
                .into_any()
        } else if p.pool_sending {
            view! { <p>"Pool " {pool_name} ": sending the create…"</p> }.into_any()
        } else {
            view! { <p class="muted">"Pool " {pool_name} ": sent once the cluster is ready."</p> }
                .into_any()
        }
    }
}

/// On the form, how the last try ended short of a cluster: its new VPC's end.
#[component]
pub fn VpcEnded(progress: RwSignal<Progress>) -> impl IntoView {
    move || {
        let (end, name) = progress.with(|p| (p.vpc_end.clone(), p.vpc_name.clone()));
        end.map(|end| {
            view! {
                <div class="new-vpc-outcome">
                    {end.error(&name).map(|error| view! { <ErrorView error /> })}
                    <p class="alert alert-info" role="status">{end.follow_up(&name)}</p>
                </div>
            }
        })
    }
}

/// On the form, a first pool not sent because its cluster was not made.
#[component]
pub fn ClusterEnded(progress: RwSignal<Progress>) -> impl IntoView {
    move || {
        let p = progress.get();
        let end = p.pool_end.filter(|e| e.retry_in().is_none())?;
        Some(view! {
            <div class="first-pool-outcome">
                {end.error(&p.cluster_name).map(|error| view! { <ErrorView error /> })}
                <p class="alert alert-info" role="status">{end.follow_up(&p.cluster_name, &p.pool_name)}</p>
            </div>
        })
    }
}
