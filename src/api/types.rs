//! Wire types, named exactly as the API names them (`node_count`, `resource_id`).
//!
//! Tolerance rules (digest §3.0): unknown fields are ignored, missing fields take
//! their default, and every enum has a fallback variant, because the API's enums
//! have already grown (operation kinds) and a console that fails to decode a new
//! value shows the user nothing at all.

use std::collections::BTreeMap;

use super::json::{object, Fields, FromJson, Json, JsonError, ToJson};
use crate::{from_json_struct, json_enum, json_struct, to_json_struct};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum ResourceStatus {
    Pending,
    Creating,
    Updating,
    Ready,
    Deleting,
    Deleted,
    Error,
    #[default]
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

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum OperationStatus {
    Pending,
    Running,
    Done,
    Failed,
    /// Both the API's own `unknown` and any value this console does not know yet.
    #[default]
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

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
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

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum OperationType {
    Create,
    Update,
    Delete,
    Restart,
    #[default]
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

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum VolumeType {
    Nvme,
    #[default]
    Abs,
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
#[derive(Clone, Debug, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    /// The SDK pagers cope with a missing or null `pagination`; so do we.
    pub pagination: Option<Pagination>,
}

#[derive(Clone, Debug, Default, PartialEq)]
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

#[derive(Clone, Debug, Default, PartialEq)]
pub struct User {
    pub id: String,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Project {
    pub id: String,
    pub name: String,
    pub tags: Vec<String>,
    pub resources: Option<ProjectResources>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProjectResources {
    pub cloud: Option<CloudResources>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CloudResources {
    pub nks_clusters: u64,
    pub nks_node_pools: u64,
    pub vms: u64,
    pub volumes: u64,
    pub vpcs: u64,
}

#[derive(Clone, Debug, Default, PartialEq)]
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

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Subnet {
    pub id: String,
    pub name: String,
    pub cidr: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Region {
    pub name: String,
    pub availability: String,
    pub nks: Option<RegionNks>,
    pub storage: Option<RegionStorage>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RegionNks {
    pub clusters: bool,
    pub autoscaling: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RegionStorage {
    pub abs: bool,
    pub local_nvme: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
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

#[derive(Clone, Debug, Default, PartialEq)]
pub struct KubernetesVersion {
    pub name: String,
    pub display_name: String,
    pub created_at: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
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

#[derive(Clone, Debug, Default, PartialEq)]
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

#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeConfig {
    pub instance_type: String,
    pub boot_volume: BootVolume,
    pub labels: Vec<String>,
    pub taints: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct BootVolume {
    pub size: u32,
    pub volume_type: VolumeType,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Node {
    pub id: String,
    pub name: String,
    pub private_ip: Option<String>,
    pub status: ResourceStatus,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Operation {
    pub id: String,
    pub kind: OperationKind,
    pub op_type: OperationType,
    pub status: OperationStatus,
    pub resource_id: String,
    pub project_id: String,
    pub details: Option<OperationDetails>,
    pub created_at: String,
    pub updated_at: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct OperationDetails {
    pub changes: BTreeMap<String, Change>,
}

/// One field's diff; `from`/`to` are a string, number, boolean or list of strings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Change {
    pub from: Json,
    pub to: Json,
}

impl Operation {
    /// The changes this operation carries, empty when `details` is null or absent.
    pub fn changes(&self) -> impl Iterator<Item = (&String, &Change)> {
        self.details.iter().flat_map(|d| d.changes.iter())
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kubeconfig {
    pub kubeconfig: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Quota {
    pub region: String,
    pub nks: Option<NksQuota>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct NksQuota {
    pub clusters: Option<QuotaLimit>,
    pub node_pool_vcpu: Option<QuotaLimit>,
    pub node_pool_memory_gb: Option<QuotaLimit>,
    pub public_ips: Option<QuotaLimit>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct QuotaLimit {
    pub limit: i64,
    pub used: i64,
    pub remaining: i64,
}

/// Money stays a string from the wire to the screen: never parsed into floats.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CostQuote {
    pub currency: String,
    pub monthly_total: String,
    pub priced_at: String,
    pub usage_dimensions: Vec<UsageDimension>,
    pub current_summary: Option<BillingSummary>,
    pub updated_summary: Option<BillingSummary>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct UsageDimension {
    pub dimension: String,
    pub dimension_display_name: String,
    pub quantity: i64,
    pub unit_price: String,
    pub monthly_amount: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CostQuoteUpdate {
    pub currency: String,
    pub priced_at: String,
    pub before: CostSide,
    pub after: CostSide,
    pub diff: CostDiff,
    pub current_summary: Option<BillingSummary>,
    pub updated_summary: Option<BillingSummary>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CostSide {
    pub monthly_total: String,
    pub usage_dimensions: Vec<UsageDimension>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CostDiff {
    pub monthly_total_delta: String,
    pub usage_dimensions: Vec<DimensionDelta>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct DimensionDelta {
    pub dimension: String,
    pub dimension_display_name: String,
    pub monthly_amount_delta: String,
    pub before: DimensionSide,
    pub after: DimensionSide,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct DimensionSide {
    pub quantity: i64,
    pub unit_price: String,
    pub monthly_amount: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct BillingSummary {
    pub daily_cost: String,
    pub monthly_cost: String,
    pub effective_balance: String,
    pub recharge_threshold_days: String,
    pub runway_months: Option<String>,
    pub estimated_next_charge_at: Option<String>,
}

/// Body of `POST /v1/nks/clusters` (and its availability and cost checks).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusterCreate {
    pub name: String,
    pub project_id: String,
    pub region: String,
    pub vpc_id: String,
    pub kubernetes_version: String,
    pub autoscaling: bool,
    pub tags: Vec<String>,
}

/// Body of `PATCH /v1/nks/clusters/{id}`: only the mutable fields, each omitted
/// when unchanged (PATCH semantics).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusterUpdate {
    pub name: Option<String>,
    pub autoscaling: Option<bool>,
    pub tags: Option<Vec<String>>,
}

/// Body of `POST /v1/nks/clusters/{id}/pools` (and its checks).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PoolCreate {
    pub name: String,
    pub node_count: u32,
    pub node_config: NodeConfig,
    pub tags: Vec<String>,
}

/// Body of `PATCH /v1/nks/clusters/{cid}/pools/{pid}`: name, node_count, tags only.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PoolUpdate {
    pub name: Option<String>,
    pub node_count: Option<u32>,
    pub tags: Option<Vec<String>>,
}

/// The error body's shape is unconfirmed; the SDKs read `message` when it is a
/// string, and so do we. The text to show for an error body: `message` if it is a string, else the
/// whole JSON pretty-printed, else nothing (the caller falls back to the status).
pub fn error_message(body: &str) -> String {
    match super::json::parse(body) {
        Ok(Json::Object(members)) => match members.iter().find(|(k, _)| k == "message") {
            Some((_, Json::String(s))) => s.clone(),
            _ => Json::Object(members).to_string(),
        },
        Ok(other) => other.to_string(),
        Err(_) => body.trim().chars().take(300).collect(),
    }
}

// Reading from the wire (see `json`): every field by name, missing or null
// taking its default, unknown enum values their fallback variant.

json_enum!(ResourceStatus { Pending, Creating, Updating, Ready, Deleting, Deleted, Error } else Unknown);
json_enum!(OperationStatus { Pending, Running, Done, Failed } else Unknown);
json_enum!(OperationKind {
    Vm, Volume, Vpc, FirewallRule, ConnectConnection, NksCluster, NksNodePool, NksLoadBalancer, NksNode
} else Other);
json_enum!(OperationType { Create, Update, Delete, Restart } else Other);
json_enum!(VolumeType { Nvme, Abs } else Unknown);

impl<T: FromJson> FromJson for Page<T> {
    fn from_json(value: Json) -> Result<Self, JsonError> {
        let mut fields = Fields::of(value)?;
        Ok(Page {
            items: fields.take("items")?,
            pagination: fields.take("pagination")?,
        })
    }
}

from_json_struct!(Pagination {
    next_cursor,
    previous_cursor,
    total_count
});
from_json_struct!(User {
    id,
    email,
    first_name,
    last_name
});
from_json_struct!(Project {
    id,
    name,
    tags,
    resources,
    created_at,
    updated_at
});
from_json_struct!(ProjectResources { cloud });
from_json_struct!(CloudResources {
    nks_clusters,
    nks_node_pools,
    vms,
    volumes,
    vpcs
});
from_json_struct!(Vpc {
    id,
    name,
    project_id,
    region,
    status,
    subnet,
    firewall_rule_ids,
    tags,
    created_at,
    updated_at
});
from_json_struct!(Subnet { id, name, cidr });
from_json_struct!(Region {
    name,
    availability,
    nks,
    storage
});
from_json_struct!(RegionNks {
    clusters,
    autoscaling
});
from_json_struct!(RegionStorage { abs, local_nvme });
from_json_struct!(InstanceType {
    name,
    region,
    vcpu,
    memory_gb,
    network_bandwidth_gbps,
    series,
    family,
    chipset
});
from_json_struct!(KubernetesVersion {
    name,
    display_name,
    created_at
});
json_struct!(Cluster {
    id,
    name,
    project_id,
    region,
    vpc_id,
    kubernetes_version,
    autoscaling,
    pool_ids,
    private_ip,
    public_ip,
    status,
    tags,
    created_at,
    updated_at
});
json_struct!(Pool {
    id,
    cluster_id,
    name,
    node_count,
    node_config,
    status,
    tags,
    created_at,
    updated_at
});
json_struct!(NodeConfig {
    instance_type,
    boot_volume,
    labels,
    taints
});
json_struct!(BootVolume { size, volume_type = "type" });
from_json_struct!(Node {
    id,
    name,
    private_ip,
    status,
    created_at,
    updated_at
});
json_struct!(Operation {
    id, kind, op_type = "type", status, resource_id, project_id, details, created_at, updated_at
});
json_struct!(OperationDetails { changes });
json_struct!(Change { from, to });
from_json_struct!(Kubeconfig { kubeconfig });
from_json_struct!(Quota { region, nks });
from_json_struct!(NksQuota {
    clusters,
    node_pool_vcpu,
    node_pool_memory_gb,
    public_ips
});
from_json_struct!(QuotaLimit {
    limit,
    used,
    remaining
});
from_json_struct!(CostQuote {
    currency,
    monthly_total,
    priced_at,
    usage_dimensions,
    current_summary,
    updated_summary
});
from_json_struct!(UsageDimension {
    dimension,
    dimension_display_name,
    quantity,
    unit_price,
    monthly_amount
});
from_json_struct!(CostQuoteUpdate {
    currency,
    priced_at,
    before,
    after,
    diff,
    current_summary,
    updated_summary
});
from_json_struct!(CostSide {
    monthly_total,
    usage_dimensions
});
from_json_struct!(CostDiff {
    monthly_total_delta,
    usage_dimensions
});
from_json_struct!(DimensionDelta {
    dimension,
    dimension_display_name,
    monthly_amount_delta,
    before,
    after
});
from_json_struct!(DimensionSide {
    quantity,
    unit_price,
    monthly_amount
});
from_json_struct!(BillingSummary {
    daily_cost,
    monthly_cost,
    effective_balance,
    recharge_threshold_days,
    runway_months,
    estimated_next_charge_at
});

// Writing to the wire: the request bodies, and operations as tabs share them.

/// A list sent only when it has entries (`tags` on create).
fn unless_empty(list: &[String]) -> Json {
    if list.is_empty() {
        Json::Null
    } else {
        list.to_vec().to_json()
    }
}

impl ToJson for ClusterCreate {
    fn to_json(&self) -> Json {
        object(vec![
            ("name", self.name.to_json()),
            ("project_id", self.project_id.to_json()),
            ("region", self.region.to_json()),
            ("vpc_id", self.vpc_id.to_json()),
            ("kubernetes_version", self.kubernetes_version.to_json()),
            ("autoscaling", self.autoscaling.to_json()),
            ("tags", unless_empty(&self.tags)),
        ])
    }
}

impl ToJson for PoolCreate {
    fn to_json(&self) -> Json {
        object(vec![
            ("name", self.name.to_json()),
            ("node_count", self.node_count.to_json()),
            ("node_config", self.node_config.to_json()),
            ("tags", unless_empty(&self.tags)),
        ])
    }
}

// PATCH bodies: a field left `None` is left out (unchanged).
to_json_struct!(ClusterUpdate {
    name,
    autoscaling,
    tags
});
to_json_struct!(PoolUpdate {
    name,
    node_count,
    tags
});
