//! "Edit cluster": name, tags and autoscaling change; project, region, VPC and
//! Kubernetes version are shown locked, because the API silently ignores them.

use crate::app::paths::params::{route, ClusterRoute};
use crate::app::paths::to;
use crate::app::paths::A;
use leptos::prelude::*;
use nks_api::mutation::Mutation;

use crate::api::client::Client;
use crate::api::types::{Cluster, ClusterUpdate};
use crate::app::components::{described_by, ErrorView, Field, Refusal, Submit};
use crate::app::context::{page_title, Projects};
use crate::app::drafts::Draft;
use crate::app::operations::follow_href;
use crate::app::plan::PlanPanel;
use crate::ops::Ops;
use crate::rules::forms::message_for;
use crate::rules::gate::Gate;
use crate::rules::immutability::{cluster_update, ClusterEdit, FIXED_AT_CREATION};
use crate::rules::plan::{PlanRequest, QuotaNeed};
use crate::rules::validation as v;

#[component]
pub fn EditClusterPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let route = route::<ClusterRoute>();
    let cluster_id = move || route.read().cluster_id.clone();
    let cluster = LocalResource::new(move || {
        let client = client.clone();
        let id = cluster_id();
        async move { client.cluster(&id).await }
    });
    let back = move || to::cluster(&route.read().project_id, &cluster_id());
    let projects = expect_context::<Projects>();
    let name = move || {
        cluster.with(|read| match read {
            Some(Ok(c)) => c.name.clone(),
            _ => String::new(),
        })
    };
    page_title(move || {
        let project = route.read().project_id.clone();
        vec![
            "Edit cluster".into(),
            name(),
            projects.name(&project).unwrap_or_default(),
        ]
    });
    view! {
        <section class="page">
            <p class="breadcrumb">
                <A href=back>{move || format!("← {}", Some(name()).filter(|n| !n.is_empty()).unwrap_or_else(|| "Cluster".into()))}</A>
            </p>
            {move || match cluster.get() {
                None => view! { <p class="loading">"Loading cluster…"</p> }.into_any(),
                Some(Err(error)) => view! { <ErrorView error retry=move |_| cluster.refetch() /> }.into_any(),
                Some(Ok(c)) => view! { <EditClusterForm cluster=c /> }.into_any(),
            }}
        </section>
    }
}

#[component]
fn EditClusterForm(cluster: Cluster) -> impl IntoView {
    let now = Signal::stored(Some(nks_code::Resource::Cluster(cluster.clone())));
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let route = route::<ClusterRoute>();
    let name = RwSignal::new(cluster.name.clone());
    let tags = RwSignal::new(cluster.tags.join(", "));
    let autoscaling = RwSignal::new(cluster.autoscaling);
    // Back after a reconnect: what was typed comes back.
    let draft = Draft::here();
    if let Some((n, t, a)) = draft.restore::<(String, String, bool)>() {
        name.set(n);
        tags.set(t);
        autoscaling.set(a);
    }
    draft.keep(move || (name.get(), tags.get(), autoscaling.get()));
    // Sent: the operation's own page follows it, opens the cluster once done, and
    // leads back here, to this draft, if it fails.
    let submit = {
        let id = cluster.id.clone();
        Submit::opening(
            draft,
            move |body: ClusterUpdate| {
                let (client, id) = (client.clone(), id.clone());
                async move {
                    let update = Mutation::UpdateCluster {
                        cluster_id: id,
                        body,
                    };
                    client.apply(&update).await
                }
            },
            move |op| route.with_untracked(|r| follow_href(&r.project_id, op, None, None)),
        )
    };
    let (server_error, gate) = (submit.refused, submit.gate);
    // A name the API already holds is kept whatever it holds; a new one must be a DNS label.
    let old_name = cluster.name.clone();
    let checked_name = Memo::new(move |_| v::renamed(&name.get(), &old_name, "Name"));
    let name_error = Memo::new(move |_| checked_name.get().err());
    let tags_error = Memo::new(move |_| v::tags(&v::split_list(&tags.get())).err());
    let message = move |field: &'static str, local: Option<String>| {
        server_error.with(|rejected| gate.with(|g| message_for(field, local, rejected.as_ref(), g)))
    };
    let body = {
        let current = cluster.clone();
        Memo::new(move |_| -> Option<ClusterUpdate> {
            let edit = ClusterEdit {
                name: checked_name.get().ok()?,
                autoscaling: autoscaling.get(),
                tags: v::tags(&v::split_list(&tags.get())).ok()?,
            };
            Some(cluster_update(&current, &edit))
        })
    };
    let in_flight = {
        let id = cluster.id.clone();
        Memo::new(move |_| ops.in_flight_on(&id))
    };
    let busy = cluster.status.is_busy();
    let can_save = move || {
        body.with(|b| b.as_ref().is_some_and(|b| !b.is_empty()))
            && in_flight.with(Option::is_none)
            && !busy
            && !submit.pending()
            && gate.with(Gate::allows_apply)
    };
    let on_submit = submit.on_submit(move || body.get_untracked(), move || !can_save());
    let was_on = cluster.autoscaling;
    let plan_request = {
        let id = cluster.id.clone();
        Signal::derive(move || {
            body.get()
                .filter(|b| !b.is_empty())
                .map(|body| PlanRequest::UpdateCluster {
                    cluster_id: id.clone(),
                    body,
                })
        })
    };
    let disruption = Signal::derive(move || {
        match (was_on, autoscaling.get()) {
        (false, true) => vec!["Autoscaling off → on: the platform starts adding nodes to pools for pending pods and draining and removing idle ones; node counts will change on their own.".to_string()],
        (true, false) => vec!["Autoscaling on → off: node counts freeze where they are; scale-from-zero pools stay empty and nothing is added for pending pods.".to_string()],
        _ => Vec::new(),
    }
    });
    let locked = StoredValue::new(cluster.clone());
    view! {
        <header class="page-header"><h1>{format!("Edit cluster {}", cluster.name)}</h1></header>
        <Show when=move || !submit.is_sent() fallback=|| view! {
            <p class="loading">"Sent. Opening its operation…"</p>
        }>
            <div class="with-plan">
            <form class="form card" on:submit=on_submit novalidate=true node_ref=submit.form>
                <Refusal refused=server_error refused_before=submit.refused_before fields=&["name", "autoscaling", "tags"] button="Save" />
                {move || in_flight.get().map(|t| view! {
                    <p class="alert alert-warning">
                        {format!("An operation is in flight on this cluster ({} {}). Saving is disabled until it ends.", t.op.op_type.as_str(), t.op.status.as_str())}
                    </p>
                })}
                <h2>"Editable"</h2>
                <Field id="cluster-name" label="Name" error=Signal::derive(move || message("name", name_error.get()))>
                    <input id="cluster-name" aria-describedby=described_by("cluster-name") prop:value=name on:input=move |ev| name.set(event_target_value(&ev)) />
                </Field>
                <fieldset class="field">
                    <legend>"Autoscaling"</legend>
                    <p class="field-hint">"A cluster-wide switch for every pool."</p>
                    <label class="choice"><input type="radio" name="autoscaling" prop:checked=move || autoscaling.get() on:change=move |_| autoscaling.set(true) /> "On"</label>
                    <label class="choice"><input type="radio" name="autoscaling" prop:checked=move || !autoscaling.get() on:change=move |_| autoscaling.set(false) /> "Off"</label>
                    {move || (autoscaling.get() != was_on).then(|| if autoscaling.get() {
                        "Turning autoscaling on lets the platform add nodes to your pools for pending pods and remove idle ones after draining them; node counts will then change on their own."
                    } else {
                        "Turning autoscaling off freezes node counts where they are: pools at 0 nodes (scale-from-zero) stay empty, and nothing is added for pending pods."
                    }).map(|text| view! { <p class="alert alert-info">{text}</p> })}
                </fieldset>
                <Field id="cluster-tags" label="Tags" hint="Comma-separated." error=Signal::derive(move || message("tags", tags_error.get()))>
                    <input id="cluster-tags" aria-describedby=described_by("cluster-tags") prop:value=tags on:input=move |ev| tags.set(event_target_value(&ev)) />
                </Field>
                <FixedFields cluster=locked.get_value() />
                <div class="form-actions">
                    <button class="btn btn-primary" type="submit" disabled=move || !can_save()>
                        {move || if submit.pending() { "Saving…" } else { "Save" }}
                    </button>
                    {move || body.with(|b| b.as_ref().is_some_and(ClusterUpdate::is_empty)).then(|| view! { <span class="muted">"Nothing changed yet."</span> })}
                </div>
            </form>
            <PlanPanel request=plan_request region=Signal::stored(String::new()) need=Signal::stored(QuotaNeed::default()) disruption gate now
                problems=Signal::derive(move || [name_error.get(), tags_error.get()].into_iter().flatten().collect::<Vec<_>>()) />
            </div>
        </Show>
    }
}

/// What cannot change after creation, shown locked with the reason said once;
/// the project and VPC by name, with the id beside.
#[component]
fn FixedFields(cluster: Cluster) -> impl IntoView {
    let locked = StoredValue::new(cluster.clone());
    let projects = expect_context::<Projects>();
    let vpc = {
        let (client, vpc_id) = (expect_context::<Client>(), cluster.vpc_id.clone());
        LocalResource::new(move || {
            let (client, vpc_id) = (client.clone(), vpc_id.clone());
            async move { client.vpc(&vpc_id).await }
        })
    };
    view! {
        <h2>"Fixed at creation"</h2>
        // Said once for the section; each locked control points at it.
        <p class="muted" id="cluster-locked-why">{FIXED_AT_CREATION}</p>
        <Field id="cluster-project" label="Project" hint=locked.with_value(|c| format!("ID {}", c.project_id))>
            <input id="cluster-project" disabled=true aria-describedby="cluster-locked-why cluster-project-hint"
                prop:value=move || locked.with_value(|c| projects.name(&c.project_id).unwrap_or_else(|| c.project_id.clone())) />
        </Field>
        <Field id="cluster-region" label="Region">
            <input id="cluster-region" disabled=true aria-describedby="cluster-locked-why" prop:value=locked.with_value(|c| c.region.clone()) />
        </Field>
        <Field id="cluster-vpc" label="VPC" hint=Signal::derive(move || locked.with_value(|c| match vpc.get() {
            Some(Err(e)) => format!("ID {}. Its name could not be read: {}", c.vpc_id, e.explain()),
            _ => format!("ID {}", c.vpc_id),
        }))>
            <input id="cluster-vpc" disabled=true aria-describedby="cluster-locked-why cluster-vpc-hint"
                prop:value=move || match vpc.get() {
                    Some(Ok(v)) => match &v.subnet {
                        Some(subnet) => format!("{} ({})", v.name, subnet.cidr),
                        None => v.name.clone(),
                    },
                    _ => locked.with_value(|c| c.vpc_id.clone()),
                } />
        </Field>
        <Field id="cluster-version" label="Kubernetes version" hint="Upgrades are not possible through this API: create a new cluster.">
            <input id="cluster-version" disabled=true aria-describedby="cluster-locked-why cluster-version-hint" prop:value=locked.with_value(|c| c.kubernetes_version.clone()) />
        </Field>
    }
}
