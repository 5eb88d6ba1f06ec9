//! The cluster's own fields on Create cluster, and a new VPC's.

use leptos::prelude::*;

use super::state::State;
use crate::api::types::{KubernetesVersion, Region};
use crate::app::components::{described_by, Field};
use crate::rules::new_vpc::{initial_choice, VpcChoice, NEW_VPC};

#[component]
pub fn ClusterFields(
    state: State,
    versions: Vec<KubernetesVersion>,
    /// The regions that take clusters.
    regions: Vec<Region>,
    /// The project's VPCs in the cluster's region, each free or not (and why).
    vpc_options: Memo<Vec<VpcChoice>>,
) -> impl IntoView {
    let inputs = state.inputs;
    let (name, version, region, vpc, autoscaling, tags) = (
        inputs.name,
        inputs.version,
        inputs.region,
        inputs.vpc,
        inputs.autoscaling,
        inputs.tags,
    );
    let vpc_hint = Signal::derive(move || {
        if vpc_options.with(|c| initial_choice(c) == NEW_VPC) {
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
    let autoscaling_error = state.error_for("autoscaling");
    view! {
        <Field id="cluster-name" label="Name" hint="Lowercase letters, digits and '-'." error=state.error_for("name")>
            <input id="cluster-name" aria-describedby=described_by("cluster-name") prop:value=name
                on:input=move |ev| name.set(event_target_value(&ev)) />
        </Field>
        <Field id="cluster-version" label="Kubernetes version" hint="Fixed at creation: there is no upgrade through this API." error=state.error_for("kubernetes_version")>
            <select id="cluster-version" aria-describedby=described_by("cluster-version") on:change=move |ev| version.set(event_target_value(&ev))>
                <option value="" prop:selected=move || version.with(String::is_empty)>"Choose a version"</option>
                {versions.into_iter().map(|k| {
                    // The version's name (`v1.34.4`), as everywhere else: the API's
                    // display name ("Kubernetes 1.34.4") only repeats it.
                    let label = k.name.clone();
                    let value = k.name.clone();
                    view! { <option value=k.name prop:selected=move || version.with(|v| v == &value)>{label}</option> }
                }).collect_view()}
            </select>
        </Field>
        <Field id="cluster-region" label="Region" hint="Fixed at creation." error=state.error_for("region")>
            <select id="cluster-region" aria-describedby=described_by("cluster-region") prop:value=region on:change=move |ev| region.set(event_target_value(&ev))>
                <option value="">"Choose a region"</option>
                {regions.into_iter().map(|r| {
                    let selected = region.get_untracked() == r.name;
                    view! { <option value=r.name.clone() selected=selected>{r.name.clone()}</option> }
                }).collect_view()}
            </select>
        </Field>
        <Field id="cluster-vpc" label="VPC" hint=vpc_hint error=state.error_for("vpc_id")>
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
                <option value=NEW_VPC prop:selected=move || inputs.new_vpc()>"New VPC…"</option>
            </select>
        </Field>
        <Show when=move || inputs.new_vpc()>
            <NewVpcFields state />
        </Show>
        <fieldset class="field" aria-describedby="cluster-autoscaling-hint" class:field-invalid=move || autoscaling_error.with(Option::is_some)>
            <legend>"Autoscaling"</legend>
            <p class="field-hint" id="cluster-autoscaling-hint">
                "A cluster-wide switch: when on, the platform's autoscaler adds nodes to your pools for pending pods and drains and removes idle ones. There is no per-pool setting."
            </p>
            <label class="choice"><input type="radio" name="autoscaling" value="on"
                prop:checked=move || autoscaling.get() == Some(true) on:change=move |_| autoscaling.set(Some(true)) /> "On"</label>
            <label class="choice"><input type="radio" name="autoscaling" value="off"
                prop:checked=move || autoscaling.get() == Some(false) on:change=move |_| autoscaling.set(Some(false)) /> "Off"</label>
            {move || autoscaling_error.get().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
        </fieldset>
        <Field id="cluster-tags" label="Tags" hint="Comma-separated." error=state.error_for("tags")>
            <input id="cluster-tags" aria-describedby=described_by("cluster-tags") prop:value=tags
                on:input=move |ev| tags.set(event_target_value(&ev)) />
        </Field>
    }
}

/// A VPC made first, in the cluster's region.
#[component]
fn NewVpcFields(state: State) -> impl IntoView {
    let (vpc_name, subnet_name, region) = (
        state.inputs.vpc_name,
        state.inputs.subnet_name,
        state.inputs.region,
    );
    view! {
        <fieldset class="field new-vpc" aria-describedby="new-vpc-hint">
            <legend>"New VPC"</legend>
            <p class="field-hint" id="new-vpc-hint">
                "Created first; the cluster is sent once the VPC is ready. The platform picks its address range."
            </p>
            <Field id="new-vpc-name" label="VPC name" error=state.vpc_error_for("name")>
                <input id="new-vpc-name" aria-describedby=described_by("new-vpc-name") autocomplete="off" prop:value=vpc_name
                    on:input=move |ev| vpc_name.set(event_target_value(&ev)) />
            </Field>
            <Field id="new-vpc-subnet" label="Subnet name" error=state.vpc_error_for("subnet_name")>
                <input id="new-vpc-subnet" aria-describedby=described_by("new-vpc-subnet") autocomplete="off" prop:value=subnet_name
                    on:input=move |ev| subnet_name.set(event_target_value(&ev)) />
            </Field>
            <p class="new-vpc-region">
                "Region: "
                {move || {
                    let r = region.get();
                    if r.is_empty() {
                        let error = state.vpc_error_for("region");
                        view! { <span class="field-error" role="alert">{move || error.get()}</span> }.into_any()
                    } else {
                        view! { <strong>{r}</strong> " — the cluster's region, chosen above" }.into_any()
                    }
                }}
            </p>
        </fieldset>
    }
}
