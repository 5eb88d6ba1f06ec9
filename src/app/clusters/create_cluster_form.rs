//! "Create cluster": every choice comes from the API (versions, VPCs, regions),
//! and autoscaling is an explicit choice with no silent default.

use crate::app::paths::A;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map};

use crate::api::client::Client;
use crate::api::types::{Cluster, ClusterCreate, KubernetesVersion, OperationStatus, Region, Vpc};
use crate::app::components::{
    described_by, finished, follow_submission, CreateCheck, ErrorView, Field, SubmissionProgress,
    UncertainCreate,
};
use crate::app::plan::PlanPanel;
use crate::rules::forms::{cluster_create, message_for, ClusterForm, FieldErrors};
use crate::rules::outcome::ApiError;
use crate::rules::plan::{Gate, PlanRequest, QuotaNeed};

type Choices = (Vec<KubernetesVersion>, Vec<Vpc>, Vec<Region>, Vec<Cluster>);

#[component]
pub fn CreateClusterPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let params = use_params_map();
    let project_id = move || params.read().get("project_id").unwrap_or_default();
    let choices = LocalResource::new(move || {
        let client = client.clone();
        let project = project_id();
        async move {
            let versions = client.kubernetes_versions().await?;
            let vpcs = client.vpcs(&project).await?;
            let regions = client.regions().await?;
            let clusters = client.clusters::<Cluster>(&project).await?;
            Ok::<Choices, ApiError>((versions, vpcs, regions, clusters))
        }
    });
    let list_href = move || format!("/projects/{}/clusters", project_id());
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

#[component]
fn CreateClusterForm(choices: Choices) -> impl IntoView {
    let (versions, vpcs, regions, clusters) = choices;
    let client = expect_context::<Client>();
    let params = use_params_map();
    let project_id = move || params.read().get("project_id").unwrap_or_default();

    let nks_regions: Vec<Region> = regions
        .into_iter()
        .filter(|r| r.nks.as_ref().is_none_or(|n| n.clusters))
        .collect();
    let name = RwSignal::new(String::new());
    let version = RwSignal::new(String::new());
    let vpc = RwSignal::new(String::new());
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

    let form = move || ClusterForm {
        name: name.get(),
        project_id: project_id(),
        region: region.get(),
        vpc_id: vpc.get(),
        kubernetes_version: version.get(),
        autoscaling: autoscaling.get(),
        tags: tags.get(),
    };
    let checked = Memo::new(move |_| cluster_create(&form()));
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
    let plan_request = Signal::derive(move || checked.get().ok().map(PlanRequest::CreateCluster));
    let disruption = Signal::derive(move || {
        match autoscaling.get() {
        Some(true) => vec!["Autoscaling on: the platform will change node counts on its own, adding nodes for pending pods and draining idle ones.".to_string()],
        Some(false) => vec!["Autoscaling off: node counts change only when you change them; scale-from-zero pools stay empty.".to_string()],
        None => Vec::new(),
    }
    });
    // One cluster per VPC: a VPC already hosting one is shown, disabled, with the reason.
    let hosted: Vec<(String, String)> = clusters
        .iter()
        .map(|c| (c.vpc_id.clone(), c.name.clone()))
        .collect();
    let vpc_options: Vec<(String, String, bool)> = vpcs
        .into_iter()
        .map(|v| {
            let host = hosted
                .iter()
                .find(|(id, _)| id == &v.id)
                .map(|(_, n)| n.clone());
            let cidr = v
                .subnet
                .as_ref()
                .map(|s| s.cidr.clone())
                .unwrap_or_default();
            let label = match &host {
                Some(cluster) => format!(
                    "{} ({cidr}) — already hosts cluster {cluster}; one cluster per VPC",
                    v.name
                ),
                None => format!("{} ({cidr})", v.name),
            };
            (v.id, label, host.is_some())
        })
        .collect();
    let vpc_options = StoredValue::new(vpc_options);
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

    let create = Action::new_local(move |body: &ClusterCreate| {
        let client = client.clone();
        let body = body.clone();
        async move { client.create_cluster(&body).await }
    });
    let submitted = follow_submission(move || create.value().get(), server_error);
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        touched.set(true);
        if create.pending().get_untracked()
            || submitted.get_untracked().is_some()
            || resend_blocked()
        {
            return; // no double submit, and no blind re-send of a create that may have happened
        }
        if !gate.with_untracked(Gate::allows_apply) {
            return;
        }
        if let Ok(body) = checked.get_untracked() {
            attempted_name.set(body.name.clone());
            server_error.set(None);
            create.dispatch(body);
        }
    };
    let retry = Callback::new(move |_| {
        if let Ok(body) = checked.get_untracked() {
            attempted_name.set(body.name.clone());
            server_error.set(None);
            create.dispatch(body);
        }
    });
    let navigate = use_navigate();
    let finished = finished(submitted);
    Effect::new(move |_| {
        if let Some(op) = finished
            .get()
            .filter(|op| op.status == OperationStatus::Done)
        {
            navigate(
                &format!("/projects/{}/clusters/{}", project_id(), op.resource_id),
                Default::default(),
            );
        }
    });

    view! {
        <Show when=move || submitted.with(Option::is_none) fallback=move || view! {
            <SubmissionProgress submitted finished title="Create cluster" />
            <p class="muted">"A cluster usually takes about 20 minutes. You can leave this page: the operation is followed in the header."</p>
        }>
            <div class="with-plan">
            <form class="form card" on:submit=on_submit novalidate=true>
                {move || server_error.get().filter(|e| e.field().is_none()).map(|error| view! { <ErrorView error /> })}
                <Show when=move || check.uncertain.get()>
                    <UncertainCreate what="cluster" name=attempted_name.get_untracked() found=check.found
                        href=Callback::new(move |id: String| format!("/projects/{}/clusters/{id}", project_id()))
                        on_retry=retry />
                </Show>
                <Field id="cluster-name" label="Name" error=error_for("name")>
                    <input id="cluster-name" aria-describedby=described_by("cluster-name") prop:value=name
                        on:input=move |ev| name.set(event_target_value(&ev)) />
                </Field>
                <Field id="cluster-version" label="Kubernetes version" hint="Fixed at creation: there is no upgrade through this API." error=error_for("kubernetes_version")>
                    <select id="cluster-version" aria-describedby=described_by("cluster-version") on:change=move |ev| version.set(event_target_value(&ev))>
                        <option value="">"Choose a version"</option>
                        {versions.get_value().into_iter().map(|k| {
                            let label = if k.display_name.is_empty() { k.name.clone() } else { format!("{} ({})", k.display_name, k.name) };
                            view! { <option value=k.name>{label}</option> }
                        }).collect_view()}
                    </select>
                </Field>
                <Field id="cluster-vpc" label="VPC" hint="Fixed at creation. Only one cluster per VPC." error=error_for("vpc_id")>
                    <select id="cluster-vpc" aria-describedby=described_by("cluster-vpc") on:change=move |ev| vpc.set(event_target_value(&ev))>
                        <option value="">"Choose a VPC"</option>
                        {vpc_options.get_value().into_iter().map(|(id, label, hosted)| view! {
                            <option value=id disabled=hosted>{label}</option>
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
                <fieldset class="field" aria-describedby="cluster-autoscaling-hint">
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
                <p class="muted">"After the cluster is ready, add at least one pool with 1 node or more: the cluster needs a worker to finish provisioning and to run CoreDNS."</p>
                <div class="form-actions">
                    <button class="btn btn-primary" type="submit" disabled=move || create.pending().get() || !gate.with(Gate::allows_apply) || resend_blocked()>
                        {move || if create.pending().get() { "Creating…" } else { "Create cluster" }}
                    </button>
                </div>
            </form>
            <PlanPanel request=plan_request region=Signal::stored(String::new()) need=Signal::stored(QuotaNeed::default()) disruption gate />
            </div>
        </Show>
    }
}
