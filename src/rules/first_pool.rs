//! A cluster created with its first pool: the pool's checks, its default shape,
//! and how the two-step flow is told when it stops before the pool's own
//! operation.
//!
//! A new cluster without a pool never finishes provisioning: it needs at least one
//! worker node to finish and to run CoreDNS (the digest's "baseline pool",
//! §7 and §8; the worker-autoscaling guide). So "Create cluster" offers a first
//! pool, on by default. The API takes a pool only inside an existing cluster:
//! the cluster is created first, its operation followed to `done`, and only then
//! is the pool sent, once, into it.

use crate::api::types::{ClusterCreate, InstanceType, PoolCreate};
use crate::rules::forms::{pool_create, FieldErrors, PoolForm};
use crate::rules::new_vpc::Ended;
use crate::rules::outcome::ApiError;

/// The first pool's name when the person has not typed one: the digest's word
/// for the pool that keeps a cluster alive.
pub const DEFAULT_NAME: &str = "baseline";

/// The first pool as typed, checked as Create pool checks a pool, and one more
/// rule: it needs a node, or the cluster it is for never finishes provisioning.
pub fn first_pool_create(form: &PoolForm) -> Result<PoolCreate, FieldErrors> {
    let zero = crate::rules::validation::node_count(&form.node_count) == Ok(0);
    match pool_create(form) {
        Ok(_) if zero => {
            let mut errors = FieldErrors::new();
            errors.insert("node_count", ZERO_NODES.to_string());
            Err(errors)
        }
        Err(mut errors) if zero => {
            errors.insert("node_count", ZERO_NODES.to_string());
            Err(errors)
        }
        answer => answer,
    }
}

const ZERO_NODES: &str = "The first pool needs at least 1 node: without a worker the cluster never finishes provisioning. Add a scale-from-zero pool later, beside this one.";

/// The instance type a first pool starts with: the smallest (fewest vCPU, then
/// least memory, then by name), enough for CoreDNS and the platform's agents.
pub fn default_instance_type(types: &[InstanceType]) -> Option<&str> {
    types
        .iter()
        .min_by(|a, b| (a.vcpu, a.memory_gb, &a.name).cmp(&(b.vcpu, b.memory_gb, &b.name)))
        .map(|t| t.name.as_str())
}

/// Where a cluster's Create pool form lives (the retry path of a pool that was
/// not made: its draft is put there).
pub fn create_pool_address(project_id: &str, cluster_id: &str) -> String {
    format!("/projects/{project_id}/clusters/{cluster_id}/pools/new")
}

/// The sessionStorage item holding a first pool between Apply and its send.
pub const PENDING_ITEM: &str = "nks-console.first-pool";

/// A first pool waiting for its cluster, kept in this tab's storage from Apply
/// until its create is answered, so that a reload (or a reconnect after a 401)
/// during the cluster's operation still sends it, and one during its own send
/// never sends it twice. The tab's storage dies with the tab, as a draft does.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PendingPool {
    pub project_id: String,
    /// The cluster create's operation.
    pub operation_id: String,
    pub cluster_name: String,
    /// The cluster's other fields as sent, so that a reload puts them back in
    /// the form should the flow stop short of the pool.
    #[serde(default)]
    pub cluster: Option<KeptCluster>,
    pub pool: PoolForm,
    /// Set just before the pool's create goes out: the cluster it was sent into.
    /// From then on the page never sends it again.
    pub sent_to: Option<String>,
}

/// A cluster's create as the form holds it, but its name.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KeptCluster {
    pub kubernetes_version: String,
    pub region: String,
    pub vpc_id: String,
    pub autoscaling: bool,
    pub tags: Vec<String>,
}

impl KeptCluster {
    pub fn of(body: &ClusterCreate) -> Self {
        KeptCluster {
            kubernetes_version: body.kubernetes_version.clone(),
            region: body.region.clone(),
            vpc_id: body.vpc_id.clone(),
            autoscaling: body.autoscaling,
            tags: body.tags.clone(),
        }
    }
}

impl PendingPool {
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The kept pool, if the text holds one (anything else reads as none).
    pub fn from_text(text: &str) -> Option<PendingPool> {
        serde_json::from_str(text).ok()
    }

    /// Whether this pool still waits to be sent into the cluster named so in
    /// the project (cluster names are unique in a project). One already sent
    /// waits for nothing: it is never sent again.
    pub fn waits_for(&self, project_id: &str, cluster_name: &str) -> bool {
        self.sent_to.is_none() && self.project_id == project_id && self.cluster_name == cluster_name
    }
}

/// How the flow stopped short of the pool's own operation.
#[derive(Clone, Debug, PartialEq)]
pub enum PoolFlowEnd {
    /// The cluster's operation ended without a cluster to put the pool in.
    ClusterEnded { operation_id: String, step: Ended },
    /// The cluster is made; the pool's create was refused or not answered.
    PoolNotMade { cluster_id: String, error: ApiError },
    /// The pool's create went out before the page was reloaded (or the key
    /// refused); its answer was not seen here, so it is not sent again.
    PoolAnswerUnseen { cluster_id: String },
}

impl PoolFlowEnd {
    /// The error to show, when there is one.
    pub fn error(&self, cluster_name: &str) -> Option<ApiError> {
        match self {
            PoolFlowEnd::ClusterEnded {
                operation_id,
                step: Ended::Failed,
            } => Some(ApiError::OperationFailed {
                operation_id: operation_id.clone(),
                what: format!("Create cluster {cluster_name}"),
            }),
            PoolFlowEnd::ClusterEnded {
                operation_id,
                step: Ended::OutOfTime { waited_secs },
            } => Some(ApiError::DeadlineExceeded {
                operation_id: operation_id.clone(),
                waited_secs: *waited_secs,
            }),
            PoolFlowEnd::ClusterEnded { .. } => None,
            PoolFlowEnd::PoolNotMade { error, .. } => Some(error.clone()),
            PoolFlowEnd::PoolAnswerUnseen { .. } => None,
        }
    }

    /// What happened and what to do next, in a sentence or two.
    pub fn follow_up(&self, cluster_name: &str, pool_name: &str) -> String {
        match self {
            PoolFlowEnd::ClusterEnded {
                step: Ended::Failed,
                ..
            } => format!(
                "Pool {pool_name} was not sent: cluster {cluster_name} was not made. \
                 The API gives no reason for a failed operation; the cluster may be listed with status error. \
                 Everything you typed is kept below."
            ),
            PoolFlowEnd::ClusterEnded {
                step: Ended::OutOfTime { .. },
                ..
            } => format!(
                "Pool {pool_name} was not sent: cluster {cluster_name} was not ready in time. \
                 Its operation is still followed in the header; once the cluster is ready, create the pool from the cluster's page. \
                 Everything you typed is kept below."
            ),
            PoolFlowEnd::ClusterEnded {
                operation_id,
                step: Ended::Lost,
            } => format!(
                "Pool {pool_name} was not sent: the cluster's operation {operation_id} is no longer known to the API. \
                 Check whether cluster {cluster_name} exists before trying again. Everything you typed is kept below."
            ),
            PoolFlowEnd::ClusterEnded { .. } => format!(
                "Pool {pool_name} was not sent: the cluster's operation ended without naming the cluster. \
                 Find cluster {cluster_name} in the list, then create its pool there. Everything you typed is kept below."
            ),
            PoolFlowEnd::PoolNotMade { error, .. } if error.may_have_acted() => format!(
                "Cluster {cluster_name} is made. Its pool create got no clear answer and may have gone through, \
                 so it is not sent again: look at the cluster's pools first. If pool {pool_name} is not there, \
                 create it from the form below the link, which holds what you typed."
            ),
            PoolFlowEnd::PoolNotMade { .. } => format!(
                "Cluster {cluster_name} is made, but pool {pool_name} was not. Only the pool is left to create: \
                 the Create pool form for {cluster_name} holds what you typed."
            ),
            PoolFlowEnd::PoolAnswerUnseen { .. } => format!(
                "Cluster {cluster_name} is made. Pool {pool_name}'s create was sent before this page was reloaded, \
                 and its answer was not seen here, so it is not sent again: the operations feed shows it if it arrived. \
                 If pool {pool_name} is not in {cluster_name}, create it with the form linked here, which holds what you typed."
            ),
        }
    }

    /// Whether this end is the last word, so the pool kept in the tab can go. Not
    /// for an answer that may not be (none, a 5xx, a call cut short by a reload,
    /// a refused key): a reload then tells the pool as sent and unseen.
    pub fn is_final(&self) -> bool {
        match self {
            PoolFlowEnd::PoolNotMade {
                error: ApiError::Status { status, .. },
                ..
            } => *status < 500 && *status != 401,
            PoolFlowEnd::PoolNotMade { .. } => false,
            _ => true,
        }
    }

    /// The cluster whose Create pool form is the way on, when the cluster is made.
    pub fn retry_in(&self) -> Option<&str> {
        match self {
            PoolFlowEnd::PoolNotMade { cluster_id, .. }
            | PoolFlowEnd::PoolAnswerUnseen { cluster_id } => Some(cluster_id),
            PoolFlowEnd::ClusterEnded { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(node_count: &str) -> PoolForm {
        PoolForm {
            name: "baseline".into(),
            instance_type: "n1-standard-2".into(),
            boot_size: "128".into(),
            boot_type: "abs".into(),
            labels: String::new(),
            taints: Vec::new(),
            node_count: node_count.into(),
            tags: String::new(),
        }
    }

    #[test]
    fn a_first_pool_needs_a_node() {
        assert!(first_pool_create(&form("1")).is_ok());
        let errors = first_pool_create(&form("0")).unwrap_err();
        assert!(errors
            .get("node_count")
            .unwrap()
            .contains("at least 1 node"));
        // The pool's own checks still apply, and the zero is said beside them.
        let mut bad = form("0");
        bad.name = "Bad_Name".into();
        let errors = first_pool_create(&bad).unwrap_err();
        assert!(errors.contains_key("name"));
        assert!(errors
            .get("node_count")
            .unwrap()
            .contains("at least 1 node"));
        // Out of range keeps Create pool's message.
        let errors = first_pool_create(&form("101")).unwrap_err();
        assert!(!errors
            .get("node_count")
            .unwrap()
            .contains("at least 1 node"));
    }

    #[test]
    fn the_default_instance_type_is_the_smallest() {
        let t = |name: &str, vcpu, memory_gb| InstanceType {
            name: name.into(),
            vcpu,
            memory_gb,
            ..Default::default()
        };
        let types = [
            t("n1-standard-8", 8, 32),
            t("n1-highcpu-2", 2, 2),
            t("n1-standard-2", 2, 8),
        ];
        assert_eq!(default_instance_type(&types), Some("n1-highcpu-2"));
        assert_eq!(default_instance_type(&[]), None);
    }

    #[test]
    fn a_pending_pool_reads_back_as_kept_and_nothing_else_reads_as_one() {
        let pending = PendingPool {
            project_id: "p".into(),
            operation_id: "op".into(),
            cluster_name: "web".into(),
            cluster: Some(KeptCluster {
                kubernetes_version: "v1.34.4".into(),
                region: "us-sva-2".into(),
                vpc_id: "v1".into(),
                autoscaling: true,
                tags: vec!["shop".into()],
            }),
            pool: form("2"),
            sent_to: Some("c1".into()),
        };
        assert_eq!(
            PendingPool::from_text(&pending.to_text()),
            Some(pending.clone())
        );
        // Kept by an earlier build, without the cluster's fields: still read.
        let mut older: serde_json::Value = serde_json::from_str(&pending.to_text()).unwrap();
        older.as_object_mut().unwrap().remove("cluster");
        let older = PendingPool::from_text(&older.to_string()).unwrap();
        assert_eq!(older.cluster, None);
        assert_eq!(older.pool, pending.pool);
        assert_eq!(PendingPool::from_text(""), None);
        // Sent (to c1): it waits for nothing; not yet sent: it waits for its own cluster only.
        assert!(!pending.waits_for("p", "web"));
        let unsent = PendingPool {
            sent_to: None,
            ..pending.clone()
        };
        assert!(unsent.waits_for("p", "web"));
        assert!(!unsent.waits_for("p", "shop"));
        assert!(!unsent.waits_for("other", "web"));
        assert_eq!(PendingPool::from_text("{\"project_id\": 1}"), None);
        let unseen = PoolFlowEnd::PoolAnswerUnseen {
            cluster_id: "c1".into(),
        };
        assert_eq!(unseen.retry_in(), Some("c1"));
        assert!(unseen
            .follow_up("web", "baseline")
            .contains("not sent again"));
    }

    #[test]
    fn a_pool_not_made_points_at_its_cluster_and_never_says_send_again() {
        let refused = PoolFlowEnd::PoolNotMade {
            cluster_id: "c1".into(),
            error: ApiError::Status {
                call: "Create pool".into(),
                status: 422,
                message: "quota".into(),
                retry_after_ms: None,
            },
        };
        assert_eq!(refused.retry_in(), Some("c1"));
        assert!(refused.is_final());
        assert!(refused
            .follow_up("edge", "baseline")
            .contains("Only the pool is left"));
        let unanswered = PoolFlowEnd::PoolNotMade {
            cluster_id: "c1".into(),
            error: ApiError::Unreachable {
                call: "Create pool".into(),
                detail: "down".into(),
            },
        };
        assert!(unanswered
            .follow_up("edge", "baseline")
            .contains("not sent again"));
        assert!(!unanswered.is_final());
        let cut_short = PoolFlowEnd::PoolNotMade {
            cluster_id: "c1".into(),
            error: ApiError::Cancelled {
                call: "Create pool".into(),
            },
        };
        assert!(!cut_short.is_final());
        let failed = PoolFlowEnd::ClusterEnded {
            operation_id: "op1".into(),
            step: Ended::Failed,
        };
        assert_eq!(failed.retry_in(), None);
        assert!(matches!(
            failed.error("edge"),
            Some(ApiError::OperationFailed { .. })
        ));
        assert!(failed
            .follow_up("edge", "baseline")
            .starts_with("Pool baseline was not sent"));
    }
}
