//! What is typed into a new pool's fields, kept as signals so nothing is lost on
//! a rejection, and how the fields' checks name and place their problems.

use leptos::prelude::*;

use crate::api::types::{Pool, PoolCreate};
use crate::rules::forms::{label_line_of, taint_row_of, FieldErrors, PoolForm};

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
