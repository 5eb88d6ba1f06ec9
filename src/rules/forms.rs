//! What the create forms send, built from exactly what the person typed.
//!
//! Each builder returns the request body, or every field's problem keyed by the
//! API's own field path (`node_config.boot_volume.size`), so a rejection from the
//! server and a check made here land next to the same field.

use std::collections::BTreeMap;

use super::validation as v;
use crate::api::types::{BootVolume, ClusterCreate, NodeConfig, PoolCreate, VolumeType};
use crate::rules::outcome::ApiError;
use crate::rules::plan::Gate;

/// Problems by API field path.
pub type FieldErrors = BTreeMap<&'static str, String>;

/// The create-pool form as typed.
#[derive(Clone, Debug, Default, PartialEq)]
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
#[derive(Clone, Debug, Default, PartialEq)]
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
        v::labels(&v::split_lines(&form.labels)),
    );
    let taints = check(
        &mut errors,
        "node_config.taints",
        form.taints
            .iter()
            .filter(|(k, val, _)| !(k.trim().is_empty() && val.trim().is_empty()))
            .map(|(k, val, e)| v::taint(k, val, e))
            .collect::<Result<Vec<_>, _>>(),
    );
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

/// The message to show beside a form field: the local check first (as the person
/// types), else a rejection of the submit that names this field, else an
/// availability refusal that names it.
pub fn message_for(
    field: &str,
    local: Option<String>,
    rejected: Option<&ApiError>,
    gate: &Gate,
) -> Option<String> {
    local
        .or_else(|| {
            rejected
                .filter(|e| e.field().map(form_field) == Some(field))
                .and_then(|e| e.server_message().map(str::to_string))
        })
        .or_else(|| match gate {
            Gate::Refused {
                reason,
                field: Some(f),
            } if form_field(f) == field => Some(reason.clone()),
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
            message: "name: already used in this cluster".into(),
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
            Some("name: already used in this cluster")
        );
        assert_eq!(
            message_for("node_count", None, Some(&rejected), &refused).as_deref(),
            Some("node_count: exceeds quota")
        );
        assert_eq!(message_for("tags", None, Some(&rejected), &refused), None);
    }

    #[test]
    fn server_field_paths_map_to_form_fields() {
        assert_eq!(form_field("node_config.labels[2]"), "node_config.labels");
        assert_eq!(form_field("node_count"), "node_count");
    }
}
