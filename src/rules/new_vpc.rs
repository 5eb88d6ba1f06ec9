//! Creating a cluster where no VPC is free: only one cluster fits in a VPC, so the
//! create-cluster form can make a new VPC first ("New VPC…"), follow its operation
//! to the end, and only then send the cluster, with the new VPC's id.
//!
//! Everything here is pure: which VPCs are offered, what the VPC part of the form
//! sends, what a followed VPC operation means for the flow, and the words for each
//! way the flow can end.

use crate::api::types::{Cluster, ClusterCreate, ResourceStatus, Vpc, VpcCreate};
use crate::rules::forms::{message_for, FieldErrors};
use crate::rules::gate::Gate;
use crate::rules::outcome::ApiError;
use crate::rules::tracking::tracker::Tracked;
use crate::rules::validation::named;

/// The VPC select's value for "New VPC…". VPC ids are UUIDs, so it cannot clash.
pub const NEW_VPC: &str = "new-vpc";

/// Where the plan's availability refusal of the VPC part puts its field:
/// `vpc.name`, so it lands beside the VPC name, never beside the cluster's.
pub const VPC_FIELD_PREFIX: &str = "vpc.";

/// One VPC in the select: its id, what the person reads, and why it cannot take
/// a cluster (shown, and the option disabled) when it cannot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VpcChoice {
    pub id: String,
    pub name: String,
    pub label: String,
    pub unavailable: Option<String>,
}

impl VpcChoice {
    pub fn is_free(&self) -> bool {
        self.unavailable.is_none()
    }
}

/// The project's VPCs in the cluster's region (all of them while no region is
/// chosen), each free or with the reason it is not: it already hosts a cluster
/// (one cluster per VPC), or it is not ready (still being created, failed).
pub fn vpc_choices(vpcs: &[Vpc], clusters: &[Cluster], region: &str) -> Vec<VpcChoice> {
    vpcs.iter()
        .filter(|v| region.is_empty() || v.region.is_empty() || v.region == region)
        .map(|v| {
            let cidr = v
                .subnet
                .as_ref()
                .map(|s| s.cidr.clone())
                .unwrap_or_default();
            let host = clusters.iter().find(|c| c.vpc_id == v.id);
            let unavailable = match (&v.status, host) {
                (_, Some(c)) => Some(format!(
                    "already hosts cluster {}; one cluster per VPC",
                    c.name
                )),
                (
                    ResourceStatus::Ready | ResourceStatus::Updating | ResourceStatus::Unknown,
                    None,
                ) => None,
                (ResourceStatus::Creating | ResourceStatus::Pending, None) => {
                    Some("still being created; offered once it is ready".to_string())
                }
                (status, None) => Some(format!("{}, cannot take a cluster", status.as_str())),
            };
            let label = match &unavailable {
                Some(why) => format!("{} ({cidr}) — {why}", v.name),
                None => format!("{} ({cidr})", v.name),
            };
            VpcChoice {
                id: v.id.clone(),
                name: v.name.clone(),
                label,
                unavailable,
            }
        })
        .collect()
}

/// What the select starts on: the one free VPC's absence makes "New VPC…" the
/// evident path, so it is preselected; otherwise the person chooses.
pub fn initial_choice(choices: &[VpcChoice]) -> &'static str {
    if choices.iter().any(VpcChoice::is_free) {
        ""
    } else {
        NEW_VPC
    }
}

/// The VPC part of the form as typed. Region and project are the cluster's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VpcForm {
    pub name: String,
    pub subnet_name: String,
    pub project_id: String,
    pub region: String,
}

/// The body of the VPC create, or each field's problem keyed by the API's field
/// name (`name`, `subnet_name`, `region`). `taken` are the names of the project's
/// VPCs: a second VPC of the same name is refused here, which also keeps a create
/// that ran out of time (its VPC is listed, creating) from being sent again.
pub fn vpc_create(form: &VpcForm, taken: &[String]) -> Result<VpcCreate, FieldErrors> {
    let mut errors = FieldErrors::new();
    let name = match named(&form.name, "VPC name") {
        Ok(n) if taken.iter().any(|t| t == &n) => {
            errors.insert(
                "name",
                format!("A VPC named {n} already exists in this project; choose another name."),
            );
            None
        }
        Ok(n) => Some(n),
        Err(e) => {
            errors.insert("name", e);
            None
        }
    };
    let subnet_name = named(&form.subnet_name, "Subnet name")
        .map_err(|e| errors.insert("subnet_name", e))
        .ok();
    if form.region.trim().is_empty() {
        errors.insert(
            "region",
            "Choose the cluster's region first: the VPC is made in it.".into(),
        );
    }
    if form.project_id.trim().is_empty() {
        errors.insert("project_id", "Choose a project.".into());
    }
    match (name, subnet_name) {
        (Some(name), Some(subnet_name)) if errors.is_empty() => Ok(VpcCreate {
            name,
            project_id: form.project_id.trim().to_string(),
            region: form.region.trim().to_string(),
            subnet_name,
            tags: Vec::new(),
        }),
        _ => Err(errors),
    }
}

/// The cluster body to send once the VPC exists: the form's, with the new VPC's id.
pub fn in_new_vpc(body: &ClusterCreate, vpc_id: &str) -> ClusterCreate {
    ClusterCreate {
        vpc_id: vpc_id.to_string(),
        ..body.clone()
    }
}

/// The message beside a VPC field (`name`, `subnet_name`): the local check, else
/// the VPC create's rejection naming it, else the plan's refusal naming `vpc.<field>`.
pub fn vpc_message_for(
    field: &str,
    local: Option<String>,
    rejected: Option<&ApiError>,
    gate: &Gate,
) -> Option<String> {
    message_for(field, local, rejected, &Gate::Idle).or_else(|| match gate {
        Gate::Refused {
            reason,
            field: Some(f),
        } if f.strip_prefix(VPC_FIELD_PREFIX) == Some(field) => Some(crate::rules::forms::said(
            reason,
            &crate::rules::forms::by_position,
        )),
        _ => None,
    })
}

/// Where a followed create's operation stands, read from the tracker: the
/// VPC's, then the cluster's, in Create cluster's flow.
#[derive(Clone, Debug, PartialEq)]
pub enum Ended {
    /// Not ended yet (pending, running, or `unknown`, which is not an end).
    Waiting,
    /// Done: the id of what it made (the new VPC's, for the cluster create;
    /// the cluster's, for its first pool).
    Ready {
        resource_id: String,
    },
    /// Done, but the operation named no resource: there is no id to create the
    /// cluster with.
    ReadyWithoutId,
    Failed,
    /// The deadline passed; it may still be running. Nothing is sent again.
    OutOfTime {
        waited_secs: u64,
    },
    /// The API no longer knows the operation (404).
    Lost,
}

impl Ended {
    pub fn of(tracked: Option<&Tracked>) -> Ended {
        use crate::api::types::OperationStatus as S;
        let Some(t) = tracked else {
            return Ended::Waiting;
        };
        if t.lost {
            return Ended::Lost;
        }
        match &t.op.status {
            S::Done if t.op.resource_id.is_empty() => Ended::ReadyWithoutId,
            S::Done => Ended::Ready {
                resource_id: t.op.resource_id.clone(),
            },
            S::Failed => Ended::Failed,
            _ if t.expired => Ended::OutOfTime {
                waited_secs: ((t.deadline_ms - t.since_ms).max(0.0) / 1000.0) as u64,
            },
            _ => Ended::Waiting,
        }
    }
}

/// How the two-step create ended, when it did not end with a cluster being made.
#[derive(Clone, Debug, PartialEq)]
pub enum FlowEnd {
    /// The VPC create was answered with an error; nothing ran, or (5xx, no
    /// answer) it may have.
    VpcNotSent(ApiError),
    /// The VPC's operation ended: failed, out of time, lost, or done with no id.
    VpcEnded { operation_id: String, step: Ended },
    /// The VPC was made; the cluster create was then refused (or may not have
    /// gone through): the VPC exists and is now offered as a free VPC.
    ClusterNotMade { vpc_id: String },
}

impl FlowEnd {
    /// The outcome in the guide's words, when it is one of the five.
    pub fn error(&self, vpc_name: &str) -> Option<ApiError> {
        match self {
            FlowEnd::VpcNotSent(e) => Some(e.clone()),
            FlowEnd::VpcEnded {
                operation_id,
                step: Ended::Failed,
            } => Some(ApiError::OperationFailed {
                operation_id: operation_id.clone(),
                what: format!("Create VPC {vpc_name}"),
            }),
            FlowEnd::VpcEnded {
                operation_id,
                step: Ended::OutOfTime { waited_secs },
            } => Some(ApiError::DeadlineExceeded {
                operation_id: operation_id.clone(),
                waited_secs: *waited_secs,
            }),
            _ => None,
        }
    }

    /// What happened to the rest of the flow, and what to do next.
    pub fn follow_up(&self, vpc_name: &str) -> String {
        const NOTHING_ELSE: &str = "Nothing else was sent: the cluster was not created.";
        match self {
            FlowEnd::VpcNotSent(e) if e.may_have_acted() => format!(
                "{NOTHING_ELSE} The VPC create may have gone through anyway, so it is not sent again: \
                 the project's VPCs were read again, and a VPC named {vpc_name} that appears is offered below once it is ready."
            ),
            FlowEnd::VpcNotSent(_) => format!("{NOTHING_ELSE} Everything you typed is kept below."),
            FlowEnd::VpcEnded {
                step: Ended::Failed,
                ..
            } => format!(
                "{NOTHING_ELSE} The API gives no reason for a failed operation; VPC {vpc_name} may be listed with status error. \
                 Everything you typed is kept below."
            ),
            FlowEnd::VpcEnded {
                step: Ended::OutOfTime { .. },
                ..
            } => format!(
                "{NOTHING_ELSE} The VPC create will not be sent again: VPC {vpc_name} is offered below as a free VPC once it is ready."
            ),
            FlowEnd::VpcEnded {
                operation_id,
                step: Ended::Lost,
            } => format!(
                "The VPC's operation {operation_id} is no longer known to the API (it answered 404). {NOTHING_ELSE} \
                 Nothing was sent again: the project's VPCs were read again; check whether VPC {vpc_name} exists before trying again."
            ),
            FlowEnd::VpcEnded { operation_id, .. } => format!(
                "The VPC's operation {operation_id} ended without naming the VPC. {NOTHING_ELSE} \
                 The project's VPCs were read again: choose VPC {vpc_name} below if it is listed."
            ),
            FlowEnd::ClusterNotMade { .. } => format!(
                "VPC {vpc_name} was created and exists now. It is chosen below as a free VPC, \
                 so trying again creates only the cluster, not another VPC."
            ),
        }
    }
}

/// The line that says, in words, where the two-step create is.
pub fn progress_line(vpc_name: &str, cluster_name: &str, cluster_sent: bool) -> String {
    if cluster_sent {
        format!("VPC {vpc_name} is ready. Creating the cluster {cluster_name}…")
    } else {
        format!("Creating VPC {vpc_name}… then the cluster {cluster_name}.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::{Operation, OperationStatus, Subnet};

    fn vpc(id: &str, name: &str, status: ResourceStatus) -> Vpc {
        Vpc {
            id: id.into(),
            name: name.into(),
            region: "us-sva-2".into(),
            status,
            subnet: Some(Subnet {
                cidr: format!("10.{}.0.0/24", id.len()),
                ..Subnet::default()
            }),
            ..Vpc::default()
        }
    }

    fn cluster(name: &str, vpc_id: &str) -> Cluster {
        Cluster {
            name: name.into(),
            vpc_id: vpc_id.into(),
            ..Cluster::default()
        }
    }

    #[test]
    fn only_ready_vpcs_without_a_cluster_are_free() {
        let vpcs = [
            vpc("a", "prod-vpc", ResourceStatus::Ready),
            vpc("bb", "spare", ResourceStatus::Ready),
            vpc("ccc", "young", ResourceStatus::Creating),
            vpc("dddd", "broken", ResourceStatus::Error),
        ];
        let choices = vpc_choices(&vpcs, &[cluster("edge-prod", "a")], "us-sva-2");
        let free: Vec<_> = choices
            .iter()
            .filter(|c| c.is_free())
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(free, ["spare"]);
        assert_eq!(
            choices[0].label,
            "prod-vpc (10.1.0.0/24) — already hosts cluster edge-prod; one cluster per VPC"
        );
        assert_eq!(choices[1].label, "spare (10.2.0.0/24)");
        assert!(choices[2].label.contains("still being created"));
        assert!(choices[3].label.contains("error, cannot take a cluster"));
        assert_eq!(initial_choice(&choices), "");
    }

    #[test]
    fn vpcs_of_another_region_are_not_offered() {
        let mut other = vpc("x", "elsewhere", ResourceStatus::Ready);
        other.region = "eu-1".into();
        let choices = vpc_choices(&[other.clone()], &[], "us-sva-2");
        assert!(choices.is_empty());
        assert_eq!(initial_choice(&choices), NEW_VPC, "nothing free: New VPC…");
        assert_eq!(
            vpc_choices(&[other], &[], "").len(),
            1,
            "no region yet: all"
        );
    }

    #[test]
    fn with_no_free_vpc_new_vpc_is_preselected() {
        let vpcs = [vpc("a", "prod-vpc", ResourceStatus::Ready)];
        let choices = vpc_choices(&vpcs, &[cluster("c", "a")], "us-sva-2");
        assert_eq!(initial_choice(&choices), NEW_VPC);
    }

    fn form(name: &str, subnet: &str) -> VpcForm {
        VpcForm {
            name: name.into(),
            subnet_name: subnet.into(),
            project_id: "p".into(),
            region: "us-sva-2".into(),
        }
    }

    #[test]
    fn a_valid_vpc_form_builds_the_sdk_body() {
        let body = vpc_create(&form(" web-vpc ", "web-subnet"), &[]).unwrap();
        assert_eq!(
            body,
            VpcCreate {
                name: "web-vpc".into(),
                project_id: "p".into(),
                region: "us-sva-2".into(),
                subnet_name: "web-subnet".into(),
                tags: vec![],
            }
        );
        let json = serde_json::to_value(&body).unwrap();
        assert!(json.get("tags").is_none(), "no empty tag list sent");
        assert!(json.get("cidr").is_none(), "the platform picks the range");
    }

    #[test]
    fn bad_vpc_fields_are_each_reported_by_api_name() {
        let errors = vpc_create(&form("", &"s".repeat(64)), &[]).unwrap_err();
        assert_eq!(errors["name"], "VPC name is required.");
        assert_eq!(
            errors["subnet_name"],
            "Subnet name must be at most 63 characters."
        );
        let errors = vpc_create(&form("a\u{7}b", "ok"), &[]).unwrap_err();
        assert_eq!(
            errors["name"],
            "VPC name must not contain control characters."
        );
        let no_region = VpcForm {
            region: String::new(),
            ..form("a", "b")
        };
        assert!(vpc_create(&no_region, &[])
            .unwrap_err()
            .contains_key("region"));
        // Markup is a name like any other: shown as text, never refused or run.
        assert!(vpc_create(&form("<script>x</script>", "s"), &[]).is_ok());
    }

    #[test]
    fn a_name_already_used_by_a_vpc_of_the_project_is_refused() {
        let errors = vpc_create(&form("prod-vpc", "s"), &["prod-vpc".into()]).unwrap_err();
        assert!(errors["name"].contains("already exists"), "{errors:?}");
    }

    #[test]
    fn the_cluster_goes_into_the_new_vpc() {
        let body = ClusterCreate {
            name: "web".into(),
            vpc_id: String::new(),
            ..ClusterCreate::default()
        };
        assert_eq!(in_new_vpc(&body, "v-1").vpc_id, "v-1");
        assert_eq!(in_new_vpc(&body, "v-1").name, "web");
    }

    #[test]
    fn vpc_messages_take_the_local_check_the_rejection_then_the_refusal() {
        let rejected = ApiError::Status {
            call: "Create VPC".into(),
            status: 422,
            message: "subnet_name: must not be empty".into(),
            retry_after_ms: None,
        };
        let refused = Gate::Refused {
            reason: "name: is taken".into(),
            field: Some("vpc.name".into()),
        };
        let cluster_refusal = Gate::Refused {
            reason: "name: taken".into(),
            field: Some("name".into()),
        };
        assert_eq!(
            vpc_message_for("name", Some("VPC name is required.".into()), None, &refused)
                .as_deref(),
            Some("VPC name is required.")
        );
        assert_eq!(
            vpc_message_for("subnet_name", None, Some(&rejected), &refused).as_deref(),
            Some("Subnet name must not be empty.")
        );
        assert_eq!(
            vpc_message_for("name", None, None, &refused).as_deref(),
            Some("Name is taken.")
        );
        assert_eq!(
            vpc_message_for("name", None, None, &cluster_refusal),
            None,
            "the cluster's name refusal is not the VPC's"
        );
    }

    fn tracked(status: OperationStatus, resource_id: &str) -> Tracked {
        Tracked {
            op: Operation {
                id: "op-v".into(),
                status,
                resource_id: resource_id.into(),
                ..Operation::default()
            },
            since_ms: 1_000.0,
            deadline_ms: 601_000.0,
            expired: false,
            lost: false,
        }
    }

    #[test]
    fn only_a_done_vpc_operation_lets_the_cluster_go() {
        assert_eq!(Ended::of(None), Ended::Waiting);
        for s in [
            OperationStatus::Pending,
            OperationStatus::Running,
            OperationStatus::Unknown,
            OperationStatus::Other("paused".into()),
        ] {
            assert_eq!(Ended::of(Some(&tracked(s, "v"))), Ended::Waiting);
        }
        assert_eq!(
            Ended::of(Some(&tracked(OperationStatus::Done, "v-9"))),
            Ended::Ready {
                resource_id: "v-9".into()
            }
        );
        assert_eq!(
            Ended::of(Some(&tracked(OperationStatus::Done, ""))),
            Ended::ReadyWithoutId
        );
        assert_eq!(
            Ended::of(Some(&tracked(OperationStatus::Failed, "v"))),
            Ended::Failed
        );
    }

    #[test]
    fn unknown_past_its_deadline_and_lost_end_the_flow_without_a_cluster() {
        let mut late = tracked(OperationStatus::Unknown, "v");
        late.expired = true;
        assert_eq!(
            Ended::of(Some(&late)),
            Ended::OutOfTime { waited_secs: 600 }
        );
        let mut lost = tracked(OperationStatus::Running, "v");
        lost.lost = true;
        assert_eq!(Ended::of(Some(&lost)), Ended::Lost);
    }

    #[test]
    fn each_end_says_nothing_else_was_sent_in_the_guides_words() {
        let failed = FlowEnd::VpcEnded {
            operation_id: "op-v".into(),
            step: Ended::Failed,
        };
        let e = failed.error("web-vpc").unwrap();
        assert!(e
            .explain()
            .starts_with("The platform ran the operation and it failed."));
        assert!(e.explain().contains("Create VPC web-vpc"));
        assert!(failed
            .follow_up("web-vpc")
            .contains("Nothing else was sent"));

        let late = FlowEnd::VpcEnded {
            operation_id: "op-v".into(),
            step: Ended::OutOfTime { waited_secs: 600 },
        };
        assert!(late
            .error("w")
            .unwrap()
            .explain()
            .starts_with("Ran out of time"));
        assert!(late.follow_up("w").contains("will not be sent again"));

        let lost = FlowEnd::VpcEnded {
            operation_id: "op-v".into(),
            step: Ended::Lost,
        };
        assert_eq!(lost.error("w"), None);
        assert!(lost.follow_up("w").contains("no longer known"));

        let dropped = FlowEnd::VpcNotSent(ApiError::Unreachable {
            call: "Create VPC".into(),
            detail: "no response".into(),
        });
        assert!(dropped.follow_up("w").contains("not sent again"));

        let made = FlowEnd::ClusterNotMade { vpc_id: "v".into() };
        assert!(made
            .follow_up("web-vpc")
            .contains("VPC web-vpc was created"));
        assert!(made.follow_up("web-vpc").contains("free VPC"));
    }

    #[test]
    fn progress_is_said_in_words() {
        assert_eq!(
            progress_line("web-vpc", "web", false),
            "Creating VPC web-vpc… then the cluster web."
        );
        assert_eq!(
            progress_line("web-vpc", "web", true),
            "VPC web-vpc is ready. Creating the cluster web…"
        );
    }
}
