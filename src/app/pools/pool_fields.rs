//! A new pool's fields, as "Create pool" shows them and as "Create cluster" shows
//! them for the cluster's first pool: one set of controls, one set of checks
//! (`rules::forms::pool_create`), whichever form they sit in.

use leptos::prelude::*;

use super::pool_taints::PoolTaints;
use crate::api::types::{InstanceType, Pool, PoolCreate};
use crate::app::components::{described_by, ErrorView, Field};
use crate::rules::forms::{
    label_line_of, message_for_entries, taint_row_of, FieldErrors, PoolForm,
};
use crate::rules::gate::Gate;
use crate::rules::outcome::ApiError;

#[derive(Clone, Copy)]
pub(crate) struct TaintRow {
    pub(super) id: usize,
    pub(super) key: RwSignal<String>,
    pub(super) value: RwSignal<String>,
    pub(super) effect: RwSignal<String>,
}

/// Everything typed into a new pool's fields: nothing is lost on a rejection.
#[derive(Clone, Copy)]
pub(crate) struct PoolInputs {
    pub name: RwSignal<String>,
    pub instance_type: RwSignal<String>,
    pub boot_size: RwSignal<String>,
    pub boot_type: RwSignal<String>,
    pub labels: RwSignal<String>,
    pub(super) taints: RwSignal<Vec<TaintRow>>,
    next_row: StoredValue<usize>,
    pub node_count: RwSignal<String>,
    pub tags: RwSignal<String>,
}

impl PoolInputs {
    /// An empty pool: a 128 GB ABS boot volume and one node.
    pub fn new() -> Self {
        PoolInputs {
            name: RwSignal::new(String::new()),
            instance_type: RwSignal::new(String::new()),
            boot_size: RwSignal::new("128".to_string()),
            boot_type: RwSignal::new("abs".to_string()),
            labels: RwSignal::new(String::new()),
            taints: RwSignal::new(Vec::new()),
            next_row: StoredValue::new(0),
            node_count: RwSignal::new("1".to_string()),
            tags: RwSignal::new(String::new()),
        }
    }

    pub fn add_taint(&self, key: &str, value: &str, effect: &str) {
        let id = self.next_row.get_value();
        self.next_row.set_value(id + 1);
        let row = TaintRow {
            id,
            key: RwSignal::new(key.to_string()),
            value: RwSignal::new(value.to_string()),
            effect: RwSignal::new(effect.to_string()),
        };
        self.taints.update(|rows| rows.push(row));
    }

    /// The fields as typed (tracked).
    pub fn form(&self) -> PoolForm {
        PoolForm {
            name: self.name.get(),
            instance_type: self.instance_type.get(),
            boot_size: self.boot_size.get(),
            boot_type: self.boot_type.get(),
            labels: self.labels.get(),
            taints: self
                .taints
                .get()
                .iter()
                .map(|r| (r.key.get(), r.value.get(), r.effect.get()))
                .collect(),
            node_count: self.node_count.get(),
            tags: self.tags.get(),
        }
    }

    /// Puts back what was typed (a draft).
    pub fn restore(&self, typed: &PoolForm) {
        self.name.set(typed.name.clone());
        self.instance_type.set(typed.instance_type.clone());
        self.boot_size.set(typed.boot_size.clone());
        self.boot_type.set(typed.boot_type.clone());
        self.labels.set(typed.labels.clone());
        self.taints.set(Vec::new());
        for (key, value, effect) in &typed.taints {
            self.add_taint(key, value, effect);
        }
        self.node_count.set(typed.node_count.clone());
        self.tags.set(typed.tags.clone());
    }

    /// An existing pool's shape, to be changed into its replacement.
    pub fn prefill(&self, pool: &Pool) {
        self.name.set(format!("{}-v2", pool.name));
        self.instance_type
            .set(pool.node_config.instance_type.clone());
        self.boot_size
            .set(pool.node_config.boot_volume.size.to_string());
        self.boot_type.set(
            pool.node_config
                .boot_volume
                .volume_type
                .as_str()
                .to_string(),
        );
        self.labels.set(pool.node_config.labels.join("\n"));
        self.node_count.set(pool.node_count.to_string());
        self.tags.set(pool.tags.join(", "));
        for t in &pool.node_config.taints {
            if let Ok((k, v, e)) = crate::rules::validation::parse_taint(t) {
                self.add_taint(&k, &v, &e);
            }
        }
    }

    /// The form row (0-based) the body's `index`-th taint came from.
    fn taint_row_at(&self, index: usize) -> usize {
        self.taints.with_untracked(|rows| {
            let typed: Vec<(String, String, String)> = rows
                .iter()
                .map(|r| {
                    (
                        r.key.get_untracked(),
                        r.value.get_untracked(),
                        r.effect.get_untracked(),
                    )
                })
                .collect();
            taint_row_of(&typed, index).unwrap_or(index)
        })
    }

    /// An entry of the body as a person reads it: the labels' lines and the taint
    /// rows as the form shows them (the API counts only what was sent).
    pub(super) fn entry(&self, field: &str, index: usize) -> String {
        match field {
            "node_config.labels" => format!(
                "Line {}",
                self.labels
                    .with_untracked(|text| label_line_of(text, index).unwrap_or(index + 1))
            ),
            "node_config.taints" => format!("Taint {}", self.taint_row_at(index) + 1),
            _ => crate::rules::forms::by_position(field, index),
        }
    }

    /// The fields whose problem is on screen, named as the form labels them.
    pub fn unsent_labels(
        &self,
        checked: Memo<Result<PoolCreate, FieldErrors>>,
        touched: bool,
        name_label: &'static str,
    ) -> Vec<&'static str> {
        let form = self.form();
        checked.with(|c| match c {
            Ok(_) => Vec::new(),
            Err(errors) => errors
                .keys()
                .filter(|f| touched || field_has_text(f, &form))
                .map(|f| match *f {
                    "name" => name_label,
                    other => field_label(other),
                })
                .collect(),
        })
    }
}

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

/// A field shows its local problem once the person has typed into it.
pub(crate) fn field_has_text(field: &str, form: &PoolForm) -> bool {
    match field {
        "name" => !form.name.is_empty(),
        "node_config.boot_volume.size" => !form.boot_size.is_empty(),
        "node_config.labels" => !form.labels.is_empty(),
        "node_config.taints" => form
            .taints
            .iter()
            .any(|(k, v, _)| !k.is_empty() || !v.is_empty()),
        "node_count" => true,
        "tags" => !form.tags.is_empty(),
        _ => false,
    }
}

/// The label a person sees for a field the form checks.
fn field_label(field: &str) -> &'static str {
    match field {
        "name" => "Name",
        "node_config.instance_type" => "Instance type",
        "node_config.boot_volume.size" => "Boot volume size",
        "node_config.boot_volume.type" => "Boot volume type",
        "node_config.labels" => "Labels",
        "node_config.taints" => "Taints",
        "node_count" => "Node count",
        "tags" => "Tags",
        _ => "a field",
    }
}
