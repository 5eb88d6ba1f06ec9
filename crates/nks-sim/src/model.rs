//! The world's records, field names exactly as on the wire (digest §3).
//!
//! They are the simulator's storage. Every record answers as `nks-api`'s wire
//! type (`wire.rs`, whose test holds the two to the same JSON): what leaves the
//! simulator is what the console reads. Fields the wire must not show are
//! `#[serde(skip)]`, and instants are kept as epoch milliseconds and rendered as
//! RFC 3339 on the way out.

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::timefmt::{self, Millis};

pub const REGION: &str = "us-sva-2";

fn ts<S: Serializer>(ms: &Millis, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&timefmt::format(*ms))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
// The whole wire enum, though the simulator never shows `pending` or `deleted` (a deleted
// resource answers 404 at once).
#[allow(dead_code)]
pub enum ResourceStatus {
    Pending,
    Creating,
    Updating,
    Ready,
    Deleting,
    Deleted,
    Error,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OpStatus {
    Pending,
    Running,
    Done,
    Failed,
    Unknown,
}

impl OpStatus {
    pub const ALL: [&'static str; 5] = ["pending", "running", "done", "failed", "unknown"];

    pub fn as_str(self) -> &'static str {
        match self {
            OpStatus::Pending => "pending",
            OpStatus::Running => "running",
            OpStatus::Done => "done",
            OpStatus::Failed => "failed",
            OpStatus::Unknown => "unknown",
        }
    }
}

/// Operation kinds the simulator produces. `nks_node` (node deletes) and `nks_load_balancer`
/// (load balancer updates) are **unconfirmed**: the SDKs' response enum lacks them (`vm,
/// volume, vpc, firewall_rule, nks_cluster, nks_node_pool`) while the Go SDK's list filter
/// accepts them; clients must show kinds they do not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
// Variants mirror the wire values (`nks_cluster`, …), prefix included.
#[allow(clippy::enum_variant_names)]
pub enum OpKind {
    Vpc,
    FirewallRule,
    NksCluster,
    NksNodePool,
    NksNode,
    NksLoadBalancer,
}

impl OpKind {
    /// Every kind the list filter accepts (digest §2.2), including ones the simulator never
    /// produces, so a filter on `vm` is an empty list rather than a 400.
    pub const FILTERABLE: [&'static str; 9] = [
        "vm",
        "volume",
        "vpc",
        "firewall_rule",
        "connect_connection",
        "nks_cluster",
        "nks_node_pool",
        "nks_load_balancer",
        "nks_node",
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            OpKind::Vpc => "vpc",
            OpKind::FirewallRule => "firewall_rule",
            OpKind::NksCluster => "nks_cluster",
            OpKind::NksNodePool => "nks_node_pool",
            OpKind::NksNode => "nks_node",
            OpKind::NksLoadBalancer => "nks_load_balancer",
        }
    }

    pub fn parse(s: &str) -> Option<OpKind> {
        match s {
            "vpc" => Some(OpKind::Vpc),
            "firewall_rule" => Some(OpKind::FirewallRule),
            "nks_cluster" => Some(OpKind::NksCluster),
            "nks_node_pool" => Some(OpKind::NksNodePool),
            "nks_node" => Some(OpKind::NksNode),
            "nks_load_balancer" => Some(OpKind::NksLoadBalancer),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OpType {
    Create,
    Update,
    Delete,
}

impl OpType {
    pub const FILTERABLE: [&'static str; 4] = ["create", "update", "delete", "restart"];

    pub fn as_str(self) -> &'static str {
        match self {
            OpType::Create => "create",
            OpType::Update => "update",
            OpType::Delete => "delete",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VolumeType {
    Nvme,
    Abs,
}

#[derive(Debug, Clone, Serialize)]
pub struct User {
    pub id: String,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Project {
    pub id: String,
    pub name: String,
    pub tags: Vec<String>,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
    #[serde(skip)]
    pub seq: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct CloudResources {
    pub nks_clusters: u64,
    pub nks_node_pools: u64,
    pub vms: u64,
    pub volumes: u64,
    pub vpcs: u64,
    pub connect_connections: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct BlockchainResources {
    pub rpc_nodes_dedicated: u64,
    pub rpc_nodes_flex: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProjectResources {
    pub cloud: CloudResources,
    pub blockchain: BlockchainResources,
}

/// A project as served: the stored record plus counts derived from the current world.
#[derive(Debug, Serialize)]
pub struct ProjectView<'a> {
    #[serde(flatten)]
    pub project: &'a Project,
    pub resources: ProjectResources,
}

#[derive(Debug, Clone, Serialize)]
pub struct Subnet {
    pub id: String,
    pub name: String,
    pub cidr: String,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
}

#[derive(Debug, Clone, Serialize)]
pub struct Vpc {
    pub id: String,
    pub name: String,
    pub project_id: String,
    pub region: String,
    pub status: ResourceStatus,
    pub subnet: Subnet,
    pub firewall_rule_ids: Vec<String>,
    pub tags: Vec<String>,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
    #[serde(skip)]
    pub seq: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    Tcp,
    Udp,
}

impl Protocol {
    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::Tcp => "tcp",
            Protocol::Udp => "udp",
        }
    }
}

/// Firewall rule (Go SDK `networking/firewallrule.go`).
#[derive(Debug, Clone, Serialize)]
pub struct FirewallRule {
    pub id: String,
    pub vpc_id: String,
    pub name: String,
    pub protocol: Protocol,
    pub source_address: String,
    pub destination_address: String,
    pub destination_ports: Vec<String>,
    pub status: ResourceStatus,
    pub tags: Vec<String>,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
    #[serde(skip)]
    pub seq: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct RegionCompute {
    pub vms: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct RegionNetworking {
    pub vpcs: bool,
    pub connect: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct RegionNks {
    pub clusters: bool,
    pub autoscaling: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct RegionStorage {
    pub abs: bool,
    pub local_nvme: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Region {
    pub name: String,
    pub availability: String,
    pub compute: RegionCompute,
    pub networking: RegionNetworking,
    pub nks: RegionNks,
    pub storage: RegionStorage,
}

#[derive(Debug, Clone, Serialize)]
pub struct InstanceType {
    pub name: String,
    pub region: String,
    pub vcpu: i64,
    pub memory_gb: i64,
    pub network_bandwidth_gbps: f64,
    pub series: String,
    pub family: String,
    pub chipset: String,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
}

#[derive(Debug, Clone, Serialize)]
pub struct KubernetesVersion {
    pub name: String,
    pub display_name: String,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
}

#[derive(Debug, Clone, Serialize)]
pub struct Cluster {
    pub id: String,
    pub name: String,
    pub project_id: String,
    pub region: String,
    pub vpc_id: String,
    pub kubernetes_version: String,
    pub autoscaling: bool,
    pub pool_ids: Vec<String>,
    /// Plain strings in both SDKs' types, never `null`: `""` until the control plane exists
    /// (docs/sdk-differences.md).
    pub private_ip: String,
    pub public_ip: String,
    pub status: ResourceStatus,
    pub tags: Vec<String>,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
    #[serde(skip)]
    pub seq: u64,
    /// Addresses the control plane takes once provisioned; kept aside while `creating`.
    #[serde(skip)]
    pub planned_ips: (String, String),
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BootVolume {
    pub size: i64,
    #[serde(rename = "type")]
    pub kind: VolumeType,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeConfig {
    pub instance_type: String,
    pub boot_volume: BootVolume,
    pub labels: Vec<String>,
    pub taints: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Pool {
    pub id: String,
    pub cluster_id: String,
    pub name: String,
    pub node_count: i64,
    pub node_config: NodeConfig,
    pub status: ResourceStatus,
    pub tags: Vec<String>,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
}

#[derive(Debug, Clone, Serialize)]
pub struct Node {
    pub id: String,
    pub name: String,
    /// `null` while the node is being created (digest §3.4).
    pub private_ip: Option<String>,
    pub status: ResourceStatus,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
    /// The address reserved in the VPC subnet, shown once the node is ready.
    #[serde(skip)]
    pub address: u32,
    /// Id of the node's boot volume (`…/nodes/{node_id}/volumes`), which follows the node.
    #[serde(skip)]
    pub boot_volume_id: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VolumeKind {
    Boot,
    // The SDK enum; the simulator gives pools and controllers boot volumes only.
    #[allow(dead_code)]
    Data,
}

/// NKSNodeVolume (Go SDK `nks/clusterpoolnodevolume.go`); derived from its node.
#[derive(Debug, Clone, Serialize)]
pub struct NodeVolume {
    pub id: String,
    pub node_id: String,
    pub name: String,
    pub kind: VolumeKind,
    #[serde(rename = "type")]
    pub volume_type: VolumeType,
    pub size: i64,
    pub status: ResourceStatus,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
}

/// NKSControllerVolume (Go SDK `nks/clustercontrollervolume.go`): a node volume without
/// `node_id`.
#[derive(Debug, Clone, Serialize)]
pub struct ControllerVolume {
    pub id: String,
    pub name: String,
    pub kind: VolumeKind,
    #[serde(rename = "type")]
    pub volume_type: VolumeType,
    pub size: i64,
    pub status: ResourceStatus,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
}

/// NKSController (Go SDK `nks/clustercontroller.go`): the platform-managed control plane,
/// three per cluster, created and deleted with it.
#[derive(Debug, Clone, Serialize)]
pub struct Controller {
    pub id: String,
    pub name: String,
    pub instance_type: String,
    /// `null` until the control plane is provisioned (TS SDK: `string | null`).
    pub private_ip: Option<String>,
    pub status: ResourceStatus,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
    #[serde(skip)]
    pub address: String,
    #[serde(skip)]
    pub volumes: Vec<ControllerVolume>,
}

/// NKSLoadBalancer (Go SDK `nks/clusterloadbalancer.go`), discovered from a Service of type
/// LoadBalancer; only `public_ip_enabled` can change.
#[derive(Debug, Clone, Serialize)]
pub struct LoadBalancer {
    pub id: String,
    pub cluster_id: String,
    pub namespace: String,
    pub service_name: String,
    /// TS SDK: `string | null`.
    pub private_ip: Option<String>,
    /// `null` while `public_ip_enabled` is false (TS SDK: `string | null`).
    pub public_ip: Option<String>,
    pub public_ip_enabled: bool,
    pub status: ResourceStatus,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
    #[serde(skip)]
    pub seq: u64,
}

/// PersistentVolumeClaim (Go SDK `nks/clusterpersistentvolumeclaim.go`); no namespace field.
#[derive(Debug, Clone, Serialize)]
pub struct PersistentVolumeClaim {
    pub id: String,
    pub cluster_id: String,
    pub name: String,
    pub size: i64,
    #[serde(rename = "type")]
    pub volume_type: VolumeType,
    pub status: ResourceStatus,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
    #[serde(skip)]
    pub seq: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Operation {
    pub id: String,
    pub kind: OpKind,
    #[serde(rename = "type")]
    pub op_type: OpType,
    pub status: OpStatus,
    pub resource_id: String,
    pub project_id: String,
    pub details: Option<Value>,
    #[serde(serialize_with = "ts")]
    pub created_at: Millis,
    #[serde(serialize_with = "ts")]
    pub updated_at: Millis,
    #[serde(skip)]
    pub seq: u64,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct QuotaDetail {
    pub limit: i64,
    pub used: i64,
    pub remaining: i64,
}

impl QuotaDetail {
    pub fn new(limit: i64, used: i64) -> Self {
        Self {
            limit,
            used,
            remaining: (limit - used).max(0),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct QuotaCompute {
    pub vcpu: QuotaDetail,
    pub memory_gb: QuotaDetail,
}

#[derive(Debug, Clone, Serialize)]
pub struct QuotaNetworking {
    pub connect_connections: QuotaDetail,
    pub public_ips: QuotaDetail,
    pub vpcs: QuotaDetail,
}

#[derive(Debug, Clone, Serialize)]
pub struct QuotaNks {
    pub clusters: QuotaDetail,
    pub node_pool_vcpu: QuotaDetail,
    pub node_pool_memory_gb: QuotaDetail,
    pub public_ips: QuotaDetail,
}

#[derive(Debug, Clone, Serialize)]
pub struct QuotaStorage {
    pub abs: QuotaDetail,
    pub local_nvme: QuotaDetail,
}

#[derive(Debug, Clone, Serialize)]
pub struct Quota {
    pub region: String,
    pub compute: QuotaCompute,
    pub networking: QuotaNetworking,
    pub nks: QuotaNks,
    pub storage: QuotaStorage,
}

/// The limits a seed grants; `used` is always computed from the world.
#[derive(Debug, Clone, Copy)]
pub struct QuotaLimits {
    pub clusters: i64,
    pub node_pool_vcpu: i64,
    pub node_pool_memory_gb: i64,
    pub public_ips: i64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Pagination {
    pub next_cursor: Option<String>,
    pub previous_cursor: Option<String>,
    pub total_count: usize,
}

#[derive(Debug, Serialize)]
pub struct ListEnvelope<T: Serialize> {
    pub items: Vec<T>,
    pub pagination: Pagination,
}
