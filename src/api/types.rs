//! Wire types, named exactly as the API names them (`node_count`, `resource_id`).
//!
//! Tolerance rules (digest §3.0): unknown fields are ignored, missing fields take
//! their default, and every enum has a fallback variant, because the API's enums
//! have already grown (operation kinds) and a console that fails to decode a new
//! value shows the user nothing at all.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceStatus {
    Pending,
    Creating,
    Updating,
    Ready,
    Deleting,
    Deleted,
    Error,
    #[default]
    #[serde(other)]
    Unknown,
}

impl ResourceStatus {
    pub fn as_str(&self) -> &'static str {
        match self {
            ResourceStatus::Pending => "pending",
            ResourceStatus::Creating => "creating",
            ResourceStatus::Updating => "updating",
            ResourceStatus::Ready => "ready",
            ResourceStatus::Deleting => "deleting",
            ResourceStatus::Deleted => "deleted",
            ResourceStatus::Error => "error",
            ResourceStatus::Unknown => "unknown",
        }
    }

    /// A change is under way on the resource.
    pub fn is_busy(&self) -> bool {
        matches!(
            self,
            ResourceStatus::Pending
                | ResourceStatus::Creating
                | ResourceStatus::Updating
                | ResourceStatus::Deleting
        )
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OperationStatus {
    Pending,
    Running,
    Done,
    Failed,
    /// Both the API's own `unknown` and any value this console does not know yet.
    #[default]
    #[serde(other)]
    Unknown,
}

impl OperationStatus {
    pub fn as_str(&self) -> &'static str {
        match self {
            OperationStatus::Pending => "pending",
            OperationStatus::Running => "running",
            OperationStatus::Done => "done",
            OperationStatus::Failed => "failed",
            OperationStatus::Unknown => "unknown",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OperationKind {
    Vm,
    Volume,
    Vpc,
    FirewallRule,
    ConnectConnection,
    NksCluster,
    NksNodePool,
    NksLoadBalancer,
    NksNode,
    #[default]
    #[serde(other)]
    Other,
}

impl OperationKind {
    pub fn as_str(&self) -> &'static str {
        match self {
            OperationKind::Vm => "vm",
            OperationKind::Volume => "volume",
            OperationKind::Vpc => "vpc",
            OperationKind::FirewallRule => "firewall_rule",
            OperationKind::ConnectConnection => "connect_connection",
            OperationKind::NksCluster => "nks_cluster",
            OperationKind::NksNodePool => "nks_node_pool",
            OperationKind::NksLoadBalancer => "nks_load_balancer",
            OperationKind::NksNode => "nks_node",
            OperationKind::Other => "other",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OperationType {
    Create,
    Update,
    Delete,
    Restart,
    #[default]
    #[serde(other)]
    Other,
}

impl OperationType {
    pub fn as_str(&self) -> &'static str {
        match self {
            OperationType::Create => "create",
            OperationType::Update => "update",
            OperationType::Delete => "delete",
            OperationType::Restart => "restart",
            OperationType::Other => "other",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VolumeType {
    Nvme,
    #[default]
    Abs,
    #[serde(other)]
    Unknown,
}

impl VolumeType {
    pub fn as_str(&self) -> &'static str {
        match self {
            VolumeType::Nvme => "nvme",
            VolumeType::Abs => "abs",
            VolumeType::Unknown => "unknown",
        }
    }
}

/// The list envelope every list endpoint answers with (digest §3.17).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Page<T> {
    #[serde(default = "Vec::new")]
    pub items: Vec<T>,
    /// The SDK pagers cope with a missing or null `pagination`; so do we.
    #[serde(default)]
    pub pagination: Option<Pagination>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Pagination {
    pub next_cursor: Option<String>,
    pub previous_cursor: Option<String>,
    pub total_count: u64,
}

impl<T> Page<T> {
    /// The cursor of the next page, when there is one. An empty page also ends the
    /// walk, as in the SDK pagers, so a server that keeps handing out cursors with
    /// no items cannot loop the console forever.
    pub fn next_cursor(&self) -> Option<&str> {
        if self.items.is_empty() {
            return None;
        }
        self.pagination
            .as_ref()?
            .next_cursor
            .as_deref()
            .filter(|c| !c.is_empty())
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct User {
    pub id: String,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Project {
    pub id: String,
    pub name: String,
    pub tags: Vec<String>,
    pub resources: Option<ProjectResources>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProjectResources {
    pub cloud: Option<CloudResources>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CloudResources {
    pub nks_clusters: u64,
    pub nks_node_pools: u64,
    pub vms: u64,
    pub volumes: u64,
    pub vpcs: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Vpc {
    pub id: String,
    pub name: String,
    pub project_id: String,
    pub region: String,
    pub status: ResourceStatus,
    pub subnet: Option<Subnet>,
    pub firewall_rule_ids: Vec<String>,
    pub tags: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Subnet {
    pub id: String,
    pub name: String,
    pub cidr: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Region {
    pub name: String,
    pub availability: String,
    pub nks: Option<RegionNks>,
    pub storage: Option<RegionStorage>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RegionNks {
    pub clusters: bool,
    pub autoscaling: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RegionStorage {
    pub abs: bool,
    pub local_nvme: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InstanceType {
    pub name: String,
    pub region: String,
    pub vcpu: u32,
    pub memory_gb: u32,
    pub network_bandwidth_gbps: f64,
    pub series: String,
    pub family: String,
    pub chipset: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct KubernetesVersion {
    pub name: String,
    pub display_name: String,
    pub created_at: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cluster {
    pub id: String,
    pub name: String,
    pub project_id: String,
    pub region: String,
    pub vpc_id: String,
    pub kubernetes_version: String,
    pub autoscaling: bool,
    pub pool_ids: Vec<String>,
    pub private_ip: Option<String>,
    pub public_ip: Option<String>,
    pub status: ResourceStatus,
    pub tags: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Pool {
    pub id: String,
    pub cluster_id: String,
    pub name: String,
    pub node_count: u32,
    pub node_config: NodeConfig,
    pub status: ResourceStatus,
    pub tags: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NodeConfig {
    pub instance_type: String,
    pub boot_volume: BootVolume,
    pub labels: Vec<String>,
    pub taints: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BootVolume {
    pub size: u32,
    #[serde(rename = "type")]
    pub volume_type: VolumeType,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Node {
    pub id: String,
    pub name: String,
    pub private_ip: Option<String>,
    pub status: ResourceStatus,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Operation {
    pub id: String,
    pub kind: OperationKind,
    #[serde(rename = "type")]
    pub op_type: OperationType,
    pub status: OperationStatus,
    pub resource_id: String,
    pub project_id: String,
    pub details: Option<OperationDetails>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OperationDetails {
    pub changes: BTreeMap<String, Change>,
}

/// One field's diff; `from`/`to` are a string, number, boolean or list of strings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Change {
    pub from: serde_json::Value,
    pub to: serde_json::Value,
}

impl Operation {
    /// The changes this operation carries, empty when `details` is null or absent.
    pub fn changes(&self) -> impl Iterator<Item = (&String, &Change)> {
        self.details.iter().flat_map(|d| d.changes.iter())
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Kubeconfig {
    pub kubeconfig: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Quota {
    pub region: String,
    pub nks: Option<NksQuota>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct NksQuota {
    pub clusters: Option<QuotaLimit>,
    pub node_pool_vcpu: Option<QuotaLimit>,
    pub node_pool_memory_gb: Option<QuotaLimit>,
    pub public_ips: Option<QuotaLimit>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct QuotaLimit {
    pub limit: i64,
    pub used: i64,
    pub remaining: i64,
}

/// Money stays a string from the wire to the screen: never parsed into floats.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CostQuote {
    pub currency: String,
    pub monthly_total: String,
    pub priced_at: String,
    pub usage_dimensions: Vec<UsageDimension>,
    pub current_summary: Option<BillingSummary>,
    pub updated_summary: Option<BillingSummary>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct UsageDimension {
    pub dimension: String,
    pub dimension_display_name: String,
    pub quantity: i64,
    pub unit_price: String,
    pub monthly_amount: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CostQuoteUpdate {
    pub currency: String,
    pub priced_at: String,
    pub before: CostSide,
    pub after: CostSide,
    pub diff: CostDiff,
    pub current_summary: Option<BillingSummary>,
    pub updated_summary: Option<BillingSummary>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CostSide {
    pub monthly_total: String,
    pub usage_dimensions: Vec<UsageDimension>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CostDiff {
    pub monthly_total_delta: String,
    pub usage_dimensions: Vec<DimensionDelta>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DimensionDelta {
    pub dimension: String,
    pub dimension_display_name: String,
    pub monthly_amount_delta: String,
    pub before: DimensionSide,
    pub after: DimensionSide,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DimensionSide {
    pub quantity: i64,
    pub unit_price: String,
    pub monthly_amount: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BillingSummary {
    pub daily_cost: String,
    pub monthly_cost: String,
    pub effective_balance: String,
    pub recharge_threshold_days: String,
    pub runway_months: Option<String>,
    pub estimated_next_charge_at: Option<String>,
}

/// Body of `POST /v1/nks/clusters` (and its availability and cost checks).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClusterCreate {
    pub name: String,
    pub project_id: String,
    pub region: String,
    pub vpc_id: String,
    pub kubernetes_version: String,
    pub autoscaling: bool,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub tags: Vec<String>,
}

/// Body of `PATCH /v1/nks/clusters/{id}`: only the mutable fields, each omitted
/// when unchanged (PATCH semantics).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClusterUpdate {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autoscaling: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// Body of `POST /v1/nks/clusters/{id}/pools` (and its checks).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PoolCreate {
    pub name: String,
    pub node_count: u32,
    pub node_config: NodeConfig,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub tags: Vec<String>,
}

/// Body of `PATCH /v1/nks/clusters/{cid}/pools/{pid}`: name, node_count, tags only.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PoolUpdate {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_count: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// The error body's shape is unconfirmed; the SDKs read `message` when it is a
/// string, and so do we. The text to show for an error body: `message` if it is a string, else the
/// whole JSON pretty-printed, else nothing (the caller falls back to the status).
pub fn error_message(body: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(body) {
        Ok(serde_json::Value::Object(map)) => match map.get("message") {
            Some(serde_json::Value::String(s)) => s.clone(),
            _ => serde_json::to_string(&map).unwrap_or_default(),
        },
        Ok(other) => other.to_string(),
        Err(_) => body.trim().chars().take(300).collect(),
    }
}
