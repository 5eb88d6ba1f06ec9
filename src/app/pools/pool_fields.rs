//! A new pool's fields, as "Create pool" shows them and as "Create cluster" shows
//! them for the cluster's first pool: one set of controls, one set of checks
//! (`rules::forms::pool_create`), whichever form they sit in.

use leptos::prelude::*;

use super::pool_inputs::{field_has_text, PoolInputs};
use super::pool_taints::PoolTaints;
use crate::api::types::{InstanceType, PoolCreate};
use crate::app::components::{described_by, ErrorView, Field};
use crate::rules::forms::{message_for_entries, FieldErrors};
use crate::rules::gate::Gate;
use crate::rules::outcome::ApiError;

/// The request fields the pool's fields show beside a control; a rejection
/// naming any other is told above the form.
pub(crate) const POOL_FIELDS: [&str; 8] = [
    "name",
    "node_config.instance_type",
    "node_config.boot_volume.size",
    "node_config.boot_volume.type",
    "node_config.labels",
    "node_config.taints",
    "node_count",
    "tags",
];

/// A new pool's controls, each with its local check as the person types and,
/// else, what the API said about it (`rejected`, or the plan's `gate`).
#[component]
pub(crate) fn PoolFields(
    inputs: PoolInputs,
    checked: Memo<Result<PoolCreate, FieldErrors>>,
    /// The pool create's rejection.
    rejected: RwSignal<Option<ApiError>>,
    /// The plan's verdict on the pool.
    #[prop(into)]
    gate: Signal<Gate>,
    /// A submit was tried: every problem shows, typed into or not.
    touched: RwSignal<bool>,
    instance_types: LocalResource<Result<Vec<InstanceType>, ApiError>>,
    /// The cluster's autoscaling, when known (for a pool of 0 nodes).
    #[prop(into)]
    autoscaling: Signal<Option<bool>>,
    /// "Name" in Create pool; "Pool name" beside a cluster's own name.
    name_label: &'static str,
    /// "Tags" in Create pool; "Pool tags" beside a cluster's own tags.
    tags_label: &'static str,
) -> impl IntoView {
    let PoolInputs {
        name,
        instance_type,
        boot_size,
        boot_type,
        labels,
        node_count,
        tags,
        ..
    } = inputs;
    let entry = move |field: &str, index: usize| inputs.entry(field, index);
    let error_for = move |field: &'static str| {
        Signal::derive(move || {
            let local = checked.with(|c| {
                c.as_ref()
                    .err()
                    .and_then(|e: &FieldErrors| e.get(field).cloned())
            });
            let local = local.filter(|_| touched.get() || field_has_text(field, &inputs.form()));
            rejected.with(|rejected| {
                gate.with(|g| message_for_entries(field, local, rejected.as_ref(), g, &entry))
            })
        })
    };
    let zero_hint = move || {
        (node_count.with(|n| n.trim() == "0")).then(|| {
            let mut text = String::from("Node count 0 makes a scale-from-zero pool: it stays empty until a pod that tolerates its taints is pending, and only cluster autoscaling grows it. Pair it with a NoSchedule taint so only opted-in workloads land there.");
            if autoscaling.get() == Some(false) {
                text.push_str(" This cluster has autoscaling off, so the pool would stay at 0 nodes.");
            }
            text
        })
    };
    view! {
        <Field id="pool-name" label=name_label hint="Lowercase letters, digits and '-'. Node names start with it." error=error_for("name")>
            <input id="pool-name" aria-describedby=described_by("pool-name") prop:value=name
                on:input=move |ev| name.set(event_target_value(&ev)) />
        </Field>
        <Field id="pool-instance-type" label="Instance type" error=error_for("node_config.instance_type")>
            <select id="pool-instance-type" aria-describedby=described_by("pool-instance-type")
                on:change=move |ev| instance_type.set(event_target_value(&ev))
                prop:value=instance_type>
                <option value="">"Choose an instance type"</option>
                {move || match instance_types.get() {
                    None => view! { <option value="" disabled=true>"Loading…"</option> }.into_any(),
                    Some(Err(_)) => view! { <option value="" disabled=true>"Instance types unavailable"</option> }.into_any(),
                    Some(Ok(list)) => list.into_iter().map(|t| {
                        let label = format!("{} — {} vCPU, {} GB memory", t.name, t.vcpu, t.memory_gb);
                        let selected = instance_type.get_untracked() == t.name;
                        view! { <option value=t.name selected=selected>{label}</option> }
                    }).collect_view().into_any(),
                }}
            </select>
        </Field>
        {move || instance_types.get().and_then(|r| r.err()).map(|error| view! { <ErrorView error retry=move |_| instance_types.refetch() /> })}
        <div class="field-row">
            <Field id="pool-boot-size" label="Boot volume size (GB)" hint="64 to 512 GB." error=error_for("node_config.boot_volume.size")>
                <input id="pool-boot-size" type="number" min="64" max="512" inputmode="numeric"
                    aria-describedby=described_by("pool-boot-size") prop:value=boot_size
                    on:input=move |ev| boot_size.set(event_target_value(&ev)) />
            </Field>
            <Field id="pool-boot-type" label="Boot volume type" error=error_for("node_config.boot_volume.type")>
                <select id="pool-boot-type" aria-describedby=described_by("pool-boot-type") prop:value=boot_type
                    on:change=move |ev| boot_type.set(event_target_value(&ev))>
                    <option value="abs" selected=move || boot_type.get() == "abs">"abs (Accelerated Block Storage)"</option>
                    <option value="nvme" selected=move || boot_type.get() == "nvme">"nvme (local NVMe)"</option>
                </select>
            </Field>
        </div>
        <Field id="pool-labels" label="Labels" hint="One key=value per line. Keys under kubernetes.io, k8s.io and nirvanalabs.io are reserved." error=error_for("node_config.labels")>
            <textarea id="pool-labels" rows="3" aria-describedby=described_by("pool-labels") prop:value=labels
                on:input=move |ev| labels.set(event_target_value(&ev))></textarea>
        </Field>
        <PoolTaints inputs rejected gate />
        <Field id="pool-node-count" label="Node count" hint="0 to 100." error=error_for("node_count")>
            <input id="pool-node-count" type="number" min="0" max="100" inputmode="numeric"
                aria-describedby=described_by("pool-node-count") prop:value=node_count
                on:input=move |ev| node_count.set(event_target_value(&ev)) />
        </Field>
        {move || zero_hint().map(|text| view! { <p class="alert alert-info">{text}</p> })}
        <Field id="pool-tags" label=tags_label hint="Comma-separated." error=error_for("tags")>
            <input id="pool-tags" aria-describedby=described_by("pool-tags") prop:value=tags
                on:input=move |ev| tags.set(event_target_value(&ev)) />
        </Field>
    }
}
