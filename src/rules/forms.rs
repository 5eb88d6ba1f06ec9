//! What the create forms send, built from exactly what the person typed.
//!
//! Each builder returns the request body, or every field's problem keyed by the
//! API's own field path (`node_config.boot_volume.size`), so a rejection from the
//! server and a check made here land next to the same field.

use std::collections::BTreeMap;

use super::validation as v;
use crate::api::types::{BootVolume, ClusterCreate, NodeConfig, PoolCreate, VolumeType};
use crate::rules::gate::Gate;
use crate::rules::outcome::ApiError;

/// Problems by API field path.
pub type FieldErrors = BTreeMap<&'static str, String>;

/// What is wrong with a checked form, in words (none when it checks).
pub fn problems<T>(checked: &Result<T, FieldErrors>) -> Vec<String> {
    match checked {
        Ok(_) => Vec::new(),
        Err(errors) => errors.values().cloned().collect(),
    }
}

/// The create-pool form as typed.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PoolForm {
    pub name: String,
    pub instance_type: String,
    pub boot_size: String,
    pub boot_type: String,
    /// One `key=value` per line.
    pub labels: String,
    /// `(key, value, effect)` rows.
    pub taints: Vec<(String, String, String)>,
    pub node_count: String,
    /// Comma-separated.
    pub tags: String,
}

/// The create-cluster form as typed. `autoscaling` is `None` until the person
/// chooses: it is required by the API and has no safe default.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClusterForm {
    pub name: String,
    pub project_id: String,
    pub region: String,
    pub vpc_id: String,
    pub kubernetes_version: String,
    pub autoscaling: Option<bool>,
    pub tags: String,
}

fn check<T>(errors: &mut FieldErrors, field: &'static str, result: Result<T, String>) -> Option<T> {
    result.map_err(|e| errors.insert(field, e)).ok()
}

pub fn pool_create(form: &PoolForm) -> Result<PoolCreate, FieldErrors> {
    let mut errors = FieldErrors::new();
    let name = check(&mut errors, "name", v::dns_label(&form.name, "Name"));
    let instance_type = check(
        &mut errors,
        "node_config.instance_type",
        if form.instance_type.trim().is_empty() {
            Err("Choose an instance type.".into())
        } else {
            Ok(form.instance_type.trim().to_string())
        },
    );
    let size = check(
        &mut errors,
        "node_config.boot_volume.size",
        v::boot_volume_size(&form.boot_size),
    );
    let volume_type = check(
        &mut errors,
        "node_config.boot_volume.type",
        v::boot_volume_type(&form.boot_type),
    );
    let labels = check(
        &mut errors,
        "node_config.labels",
        v::labels_by_line(&form.labels),
    );
    let taints = check(&mut errors, "node_config.taints", taints(&form.taints));
    let node_count = check(&mut errors, "node_count", v::node_count(&form.node_count));
    let tags = check(&mut errors, "tags", v::tags(&v::split_list(&form.tags)));
    match (
        name,
        instance_type,
        size,
        volume_type,
        labels,
        taints,
        node_count,
        tags,
    ) {
        (
            Some(name),
            Some(instance_type),
            Some(size),
            Some(volume_type),
            Some(labels),
            Some(taints),
            Some(node_count),
            Some(tags),
        ) if errors.is_empty() => {
            let volume_type = if volume_type == "nvme" {
                VolumeType::Nvme
            } else {
                VolumeType::Abs
            };
            Ok(PoolCreate {
                name,
                node_count,
                node_config: NodeConfig {
                    instance_type,
                    boot_volume: BootVolume { size, volume_type },
                    labels,
                    taints,
                },
                tags,
            })
        }
        _ => Err(errors),
    }
}

pub fn cluster_create(form: &ClusterForm) -> Result<ClusterCreate, FieldErrors> {
    let mut errors = FieldErrors::new();
    let required = |value: &str, message: &str| -> Result<String, String> {
        if value.trim().is_empty() {
            Err(message.to_string())
        } else {
            Ok(value.trim().to_string())
        }
    };
    let name = check(&mut errors, "name", v::dns_label(&form.name, "Name"));
    let project_id = check(
        &mut errors,
        "project_id",
        required(&form.project_id, "Choose a project."),
    );
    let region = check(
        &mut errors,
        "region",
        required(&form.region, "Choose a region."),
    );
    let vpc_id = check(
        &mut errors,
        "vpc_id",
        required(&form.vpc_id, "Choose a VPC."),
    );
    let kubernetes_version = check(
        &mut errors,
        "kubernetes_version",
        required(&form.kubernetes_version, "Choose a Kubernetes version."),
    );
    let autoscaling = check(
        &mut errors,
        "autoscaling",
        form.autoscaling
            .ok_or_else(|| "Choose whether cluster autoscaling is on or off.".to_string()),
    );
    let tags = check(&mut errors, "tags", v::tags(&v::split_list(&form.tags)));
    match (
        name,
        project_id,
        region,
        vpc_id,
        kubernetes_version,
        autoscaling,
        tags,
    ) {
        (
            Some(name),
            Some(project_id),
            Some(region),
            Some(vpc_id),
            Some(kubernetes_version),
            Some(autoscaling),
            Some(tags),
        ) => Ok(ClusterCreate {
            name,
            project_id,
            region,
            vpc_id,
            kubernetes_version,
            autoscaling,
            tags,
        }),
        _ => Err(errors),
    }
}

/// Whether a taint row is blank (left out of the body, not an error).
fn blank_row((key, value, _): &(String, String, String)) -> bool {
    key.trim().is_empty() && value.trim().is_empty()
}

/// Each taint row's problem, if any, naming the row as the form numbers it
/// ("Taint 2: …"); blank rows have none.
pub fn taint_row_errors(rows: &[(String, String, String)]) -> Vec<Option<String>> {
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            if blank_row(row) {
                return None;
            }
            let (key, value, effect) = row;
            v::taint(key, value, effect)
                .err()
                .map(|e| format!("Taint {}: {e}", i + 1))
        })
        .collect()
}

/// The taints to send: every non-blank row, or the first row's problem.
fn taints(rows: &[(String, String, String)]) -> Result<Vec<String>, String> {
    if let Some(e) = taint_row_errors(rows).into_iter().flatten().next() {
        return Err(e);
    }
    rows.iter()
        .filter(|row| !blank_row(row))
        .map(|(k, val, e)| v::taint(k, val, e))
        .collect()
}

/// The form's taint row (0-based) that the body's `index`-th taint came from:
/// blank rows are not sent, so the API's index skips them.
pub fn taint_row_of(rows: &[(String, String, String)], index: usize) -> Option<usize> {
    rows.iter()
        .enumerate()
        .filter(|(_, row)| !blank_row(row))
        .nth(index)
        .map(|(i, _)| i)
}

/// The 1-based line of the labels text that the body's `index`-th label came
/// from: blank lines are not sent, so the API's index skips them.
pub fn label_line_of(text: &str, index: usize) -> Option<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .nth(index)
        .map(|(i, _)| i + 1)
}

/// How a form names an entry of a list field for a person: `(field, index)` →
/// "Line 3", "Taint 2". The default, [`by_position`], counts what was sent from 1.
pub type EntryName<'a> = &'a dyn Fn(&str, usize) -> String;

/// Entries named by their place in the body: "Label 2", "Taint 1", "Tag 3".
pub fn by_position(field: &str, index: usize) -> String {
    let what = match field {
        "node_config.labels" => "Label",
        "node_config.taints" => "Taint",
        "tags" => "Tag",
        "destination_ports" => "Port",
        _ => "Entry",
    };
    format!("{what} {}", index + 1)
}

/// A person's name for a request field, as its form labels it.
fn field_label(field: &str) -> Option<&'static str> {
    Some(match field {
        "name" => "Name",
        "node_count" => "Node count",
        "node_config.instance_type" => "Instance type",
        "node_config.boot_volume.size" => "Boot volume size",
        "node_config.boot_volume.type" => "Boot volume type",
        "project_id" => "Project",
        "region" => "Region",
        "vpc_id" => "VPC",
        "kubernetes_version" => "Kubernetes version",
        "autoscaling" => "Autoscaling",
        "subnet_name" => "Subnet name",
        "protocol" => "Protocol",
        "source_address" => "Source address",
        "destination_address" => "Destination address",
        "public_ip_enabled" => "Public IP",
        _ => return None,
    })
}

/// `must be …`, `is required`: a reason that reads as the end of a sentence
/// whose subject is the field.
fn is_predicate(reason: &str) -> bool {
    ["must ", "is ", "are ", "exceeds "]
        .iter()
        .any(|p| reason.starts_with(p))
}

fn sentence(text: &str) -> String {
    let mut chars = text.trim().chars();
    let mut out: String = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => return String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

/// What a person reads for an API message: `"field: reason"` becomes a
/// sentence about the field as the form names it, with known messages put in
/// plain words; entries of a list say which one (`entry` numbers them); a
/// message without a field path is returned as it is.
///
/// `name: a node pool named baseline already exists in this cluster` →
/// `A pool named baseline already exists in this cluster.`
pub fn said(message: &str, entry: EntryName) -> String {
    let Some(path) = crate::rules::outcome::field_of_message(message) else {
        return message.to_string();
    };
    let reason = message[path.len() + 2..].trim();
    let field = form_field(path);
    let index = entry_index(path);
    // Known messages, in plain words.
    if let Some(rest) = reason.strip_prefix("a node pool named ") {
        return sentence(&format!("A pool named {rest}"));
    }
    if let Some(rest) = reason.strip_prefix("exceeds the nks.node_pool_vcpu quota") {
        return sentence(&format!("This exceeds the node pool vCPU quota{rest}"));
    }
    if let Some(rest) = reason.strip_prefix("exceeds the nks.node_pool_memory_gb quota") {
        return sentence(&format!("This exceeds the node pool memory quota{rest}"));
    }
    match index {
        Some(i) => {
            let what = match field {
                "node_config.labels" => "this label",
                "node_config.taints" => "this taint",
                "tags" => "this tag",
                _ => "this entry",
            };
            let reason = if is_predicate(reason) {
                format!("{what} {reason}")
            } else {
                reason.to_string()
            };
            sentence(&format!("{}: {reason}", entry(field, i)))
        }
        None => match field_label(field) {
            Some(label) if is_predicate(reason) => sentence(&format!("{label} {reason}")),
            _ => sentence(reason),
        },
    }
}

/// The message to show beside a form field: the local check first (as the person
/// types), else a rejection of the submit that names this field, else an
/// availability refusal that names it, each as a person reads it.
pub fn message_for(
    field: &str,
    local: Option<String>,
    rejected: Option<&ApiError>,
    gate: &Gate,
) -> Option<String> {
    message_for_entries(field, local, rejected, gate, &by_position)
}

/// [`message_for`] for a form whose list entries are numbered its own way
/// (labels by textarea line, taints by row).
pub fn message_for_entries(
    field: &str,
    local: Option<String>,
    rejected: Option<&ApiError>,
    gate: &Gate,
    entry: EntryName,
) -> Option<String> {
    local.or_else(|| api_message_about(field, rejected, gate).map(|(m, _)| said(m, entry)))
}

/// The API's own message about a form field, as it came (path and all), and the
/// list entry it names: a rejection of the submit first, else the plan's refusal.
pub fn api_message_about<'a>(
    field: &str,
    rejected: Option<&'a ApiError>,
    gate: &'a Gate,
) -> Option<(&'a str, Option<usize>)> {
    rejected
        .and_then(|e| {
            let path = e.field()?;
            (form_field(path) == field)
                .then(|| e.server_message().map(|m| (m, entry_index(path))))
                .flatten()
        })
        .or_else(|| match gate {
            Gate::Refused {
                reason,
                field: Some(f),
            } if form_field(f) == field => Some((reason.as_str(), entry_index(f))),
            _ => None,
        })
}

/// Why pressing Create sent nothing: the fields whose problem is shown, by their
/// labels, so the button can say it (as its description) beside itself.
pub fn unsent_reason(labels: &[&str]) -> Option<String> {
    match labels {
        [] => None,
        [one] => Some(format!("Nothing is sent until {one} is fixed.")),
        [rest @ .., last] => Some(format!(
            "Nothing is sent until {} and {last} are fixed.",
            rest.join(", ")
        )),
    }
}

/// The entry index in a field path: `node_config.taints[1]` → `Some(1)`.
pub fn entry_index(api_path: &str) -> Option<usize> {
    let field = form_field(api_path);
    api_path[field.len()..]
        .strip_prefix('[')?
        .strip_suffix(']')?
        .parse()
        .ok()
}

/// A rejection that names a field the form does not show (`project_id` on a
/// form without it): it is told above the form instead, as a person reads it.
pub fn unplaced(error: &ApiError, fields: &[&str]) -> Option<String> {
    let path = error.field()?;
    (!fields.contains(&form_field(path)))
        .then(|| error.server_message().map(|m| said(m, &by_position)))
        .flatten()
}

/// The form field a server message names: `node_config.labels[2]` → `node_config.labels`.
pub fn form_field(api_path: &str) -> &str {
    let end = api_path.find('[').unwrap_or(api_path.len());
    &api_path[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unsent_reason_names_every_field_in_the_way() {
        assert_eq!(unsent_reason(&[]), None);
        assert_eq!(
            unsent_reason(&["Name"]),
            Some("Nothing is sent until Name is fixed.".into())
        );
        assert_eq!(
            unsent_reason(&["Name", "Labels", "Tags"]),
            Some("Nothing is sent until Name, Labels and Tags are fixed.".into())
        );
    }

    #[test]
    fn create_forms_refuse_names_kubernetes_would_not_accept() {
        let form = PoolForm {
            name: "Web Pool".into(),
            ..PoolForm::default()
        };
        let errors = pool_create(&form).unwrap_err();
        assert!(errors["name"].starts_with("Name has capital letters (W, P) and has spaces."));
        let form = ClusterForm {
            name: "edge_prod".into(),
            ..ClusterForm::default()
        };
        let errors = cluster_create(&form).unwrap_err();
        assert!(errors["name"].contains(v::DNS_LABEL_RULE));
    }

    fn valid_pool() -> PoolForm {
        PoolForm {
            name: "workers".into(),
            instance_type: "n1-standard-8".into(),
            boot_size: "128".into(),
            boot_type: "abs".into(),
            labels: "tier=web\n\nteam=payments\n".into(),
            taints: vec![
                ("dedicated".into(), "batch".into(), "NoSchedule".into()),
                (String::new(), String::new(), "NoSchedule".into()),
            ],
            node_count: "2".into(),
            tags: "staging".into(),
        }
    }

    #[test]
    fn a_valid_pool_form_builds_the_digest_body() {
        let body = pool_create(&valid_pool()).unwrap();
        assert_eq!(body.node_config.labels, ["tier=web", "team=payments"]);
        assert_eq!(
            body.node_config.taints,
            ["dedicated=batch:NoSchedule"],
            "blank rows are dropped"
        );
        assert_eq!(body.node_config.boot_volume.size, 128);
        assert_eq!(body.node_count, 2);
    }

    #[test]
    fn every_bad_pool_field_is_reported_at_once_by_its_api_path() {
        let form = PoolForm {
            name: String::new(),
            instance_type: String::new(),
            boot_size: "32".into(),
            boot_type: "ssd".into(),
            labels: "kubernetes.io/role=x".into(),
            taints: vec![("gpu".into(), String::new(), "Maybe".into())],
            node_count: "101".into(),
            tags: "a,a".into(),
        };
        let errors = pool_create(&form).unwrap_err();
        let fields: Vec<_> = errors.keys().copied().collect();
        assert_eq!(
            fields,
            [
                "name",
                "node_config.boot_volume.size",
                "node_config.boot_volume.type",
                "node_config.instance_type",
                "node_config.labels",
                "node_config.taints",
                "node_count",
                "tags"
            ]
        );
    }

    #[test]
    fn autoscaling_has_no_silent_default() {
        let form = ClusterForm {
            name: "c".into(),
            project_id: "p".into(),
            region: "us-sva-2".into(),
            vpc_id: "v".into(),
            kubernetes_version: "v1.34.4".into(),
            autoscaling: None,
            tags: String::new(),
        };
        assert!(cluster_create(&form)
            .unwrap_err()
            .contains_key("autoscaling"));
        let on = ClusterForm {
            autoscaling: Some(true),
            ..form
        };
        assert!(cluster_create(&on).unwrap().autoscaling);
    }

    #[test]
    fn a_field_shows_the_local_check_then_the_rejection_then_the_refusal() {
        let rejected = ApiError::Status {
            call: "Create pool".into(),
            status: 422,
            message: "name: a node pool named baseline already exists in this cluster".into(),
            retry_after_ms: None,
        };
        let refused = Gate::Refused {
            reason: "node_count: exceeds quota".into(),
            field: Some("node_count".into()),
        };
        assert_eq!(
            message_for(
                "name",
                Some("Name is required.".into()),
                Some(&rejected),
                &refused
            )
            .as_deref(),
            Some("Name is required.")
        );
        assert_eq!(
            message_for("name", None, Some(&rejected), &refused).as_deref(),
            Some("A pool named baseline already exists in this cluster.")
        );
        assert_eq!(
            message_for("node_count", None, Some(&rejected), &refused).as_deref(),
            Some("Node count exceeds quota.")
        );
        assert_eq!(message_for("tags", None, Some(&rejected), &refused), None);
    }

    fn say(message: &str) -> String {
        said(message, &by_position)
    }

    #[test]
    fn known_api_messages_read_as_sentences_without_the_field_path() {
        assert_eq!(
            say("name: a node pool named baseline already exists in this cluster"),
            "A pool named baseline already exists in this cluster."
        );
        assert_eq!(
            say("node_count: exceeds the nks.node_pool_vcpu quota: 3 more n1-standard-8 node(s) need 24 vCPU but only 8 of 256 remain in us-sva-2"),
            "This exceeds the node pool vCPU quota: 3 more n1-standard-8 node(s) need 24 vCPU but only 8 of 256 remain in us-sva-2."
        );
        assert_eq!(
            say("node_count: exceeds the nks.node_pool_memory_gb quota: 1 more x node(s) need 64 GB but only 0 of 512 remain in us-sva-2"),
            "This exceeds the node pool memory quota: 1 more x node(s) need 64 GB but only 0 of 512 remain in us-sva-2."
        );
    }

    #[test]
    fn a_reason_about_a_field_names_the_field_as_the_form_labels_it() {
        assert_eq!(
            say("node_config.boot_volume.size: must be between 64 and 512"),
            "Boot volume size must be between 64 and 512."
        );
        assert_eq!(say("name: must not be empty"), "Name must not be empty.");
        assert_eq!(
            say("kubernetes_version: must be one of v1.34.4, v1.33.8"),
            "Kubernetes version must be one of v1.34.4, v1.33.8."
        );
        assert_eq!(
            say("vpc_id: VPC not found"),
            "VPC not found.",
            "a reason that is already a sentence keeps its words"
        );
        assert_eq!(
            say("node_count: the VPC subnet has only 2 free addresses for new nodes"),
            "The VPC subnet has only 2 free addresses for new nodes."
        );
    }

    #[test]
    fn an_unknown_field_falls_back_to_the_reason_without_its_path() {
        assert_eq!(say("widget_size: must be even"), "Must be even.");
        assert_eq!(
            say("quota exceeded: nks.clusters allows 2"),
            "quota exceeded: nks.clusters allows 2",
            "no field path: as it is"
        );
    }

    #[test]
    fn list_entries_are_named_by_the_form() {
        assert_eq!(
            say("node_config.labels[1]: label keys under example.io are reserved"),
            "Label 2: label keys under example.io are reserved."
        );
        assert_eq!(
            say("node_config.taints[0]: must be key=value:Effect"),
            "Taint 1: this taint must be key=value:Effect."
        );
        assert_eq!(
            say("tags[2]: must not be empty"),
            "Tag 3: this tag must not be empty."
        );
        // The create-pool form counts the lines of its labels text and its taint rows.
        let text = "tier=web\n\nexample.io/role=x";
        let rows = vec![
            (String::new(), String::new(), "NoSchedule".to_string()),
            ("gpu".to_string(), String::new(), "NoSchedule".to_string()),
        ];
        let entry = |field: &str, i: usize| match field {
            "node_config.labels" => format!("Line {}", label_line_of(text, i).unwrap_or(i + 1)),
            _ => format!("Taint {}", taint_row_of(&rows, i).map_or(i + 1, |r| r + 1)),
        };
        assert_eq!(
            said(
                "node_config.labels[1]: label keys under example.io are reserved",
                &entry
            ),
            "Line 3: label keys under example.io are reserved."
        );
        assert_eq!(
            said(
                "node_config.taints[0]: effect must be one of NoSchedule",
                &entry
            ),
            "Taint 2: effect must be one of NoSchedule."
        );
    }

    #[test]
    fn the_labels_line_and_the_taint_row_skip_what_was_not_sent() {
        assert_eq!(label_line_of("a=1\n\n  \nb=2", 1), Some(4));
        assert_eq!(label_line_of("a=1", 1), None);
        let rows = vec![
            ("a".to_string(), String::new(), "NoSchedule".to_string()),
            (String::new(), String::new(), "NoSchedule".to_string()),
            ("b".to_string(), String::new(), "NoSchedule".to_string()),
        ];
        assert_eq!(taint_row_of(&rows, 1), Some(2));
        assert_eq!(entry_index("node_config.taints[12]"), Some(12));
        assert_eq!(entry_index("node_count"), None);
    }

    #[test]
    fn a_taint_problem_names_its_row() {
        let rows = vec![
            (
                "dedicated".to_string(),
                "batch".to_string(),
                "NoSchedule".to_string(),
            ),
            (String::new(), String::new(), "NoSchedule".to_string()),
            (
                "bad key!".to_string(),
                String::new(),
                "NoSchedule".to_string(),
            ),
        ];
        let errors = taint_row_errors(&rows);
        assert_eq!(errors[0], None);
        assert_eq!(errors[1], None, "a blank row is left out, not an error");
        assert!(errors[2]
            .as_deref()
            .unwrap()
            .starts_with("Taint 3: Key \"bad key!\""));
        let form = PoolForm {
            taints: rows,
            ..valid_pool()
        };
        assert!(pool_create(&form).unwrap_err()["node_config.taints"].starts_with("Taint 3: "));
    }

    #[test]
    fn a_label_problem_names_its_line() {
        let form = PoolForm {
            labels: "tier=web\n\nkubernetes.io/role=x".into(),
            ..valid_pool()
        };
        assert!(pool_create(&form).unwrap_err()["node_config.labels"].starts_with("Line 3: "));
    }

    #[test]
    fn a_rejection_naming_a_field_the_form_lacks_is_told_above_it() {
        let rejected = ApiError::Status {
            call: "Create cluster".into(),
            status: 422,
            message: "project_id: project not found".into(),
            retry_after_ms: None,
        };
        assert_eq!(
            unplaced(&rejected, &["name", "vpc_id"]).as_deref(),
            Some("Project not found.")
        );
        assert_eq!(unplaced(&rejected, &["project_id"]), None);
    }

    #[test]
    fn server_field_paths_map_to_form_fields() {
        assert_eq!(form_field("node_config.labels[2]"), "node_config.labels");
        assert_eq!(form_field("node_count"), "node_count");
    }
}
