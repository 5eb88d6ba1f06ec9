//! Wire types, named exactly as the API names them (`node_count`, `resource_id`),
//! read and written by serde.
//!
//! Tolerance rules (digest §3.0), because the API's shapes and enums have already
//! grown (operation kinds) and a console that fails to decode a new value shows
//! the user nothing at all:
//! - an unknown field is ignored (serde's default);
//! - a missing or null field takes its default: every read struct applies
//!   [`nullable`] to all its fields (`serde_with::apply`);
//! - an enum value the console does not know is kept as `Other(text)` and shown
//!   as that text, never an error.
//!
//! Request bodies carry only what they should: PATCH bodies leave out each field
//! that is `None` (unchanged), create bodies leave out an empty tag list.

use std::collections::BTreeMap;

use std::fmt;

use serde::de::{self, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// A field's value, or its default when the field is `null` (a missing field
/// takes its default through `#[serde(default)]`, which goes with this).
pub fn nullable<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// The API's enums: each known value a variant, `Unknown` when the field is
/// missing, and any other text kept in `Other` (see the module's tolerance rules).
/// `as_str` gives the text as the API wrote it.
///
/// Read through [`WireValue`], written by serde's derive (`Other` untagged). The
/// reading is the derive's, to the letter (`tests/fixtures.rs`), without the
/// derive's buffering of the value for its untagged variant: the benchmark's
/// first-load budget needs it (README, Benchmark).
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
        pub enum $name {
            $(#[serde(rename = $text)] $variant,)*
            /// The field was missing or null.
            #[default]
            #[serde(rename = "unknown")]
            Unknown,
            /// A value this console does not know yet, as the API wrote it.
            #[serde(untagged)]
            Other(String),
        }

        impl $name {
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $text,)*
                    $name::Unknown => "unknown",
                    $name::Other(text) => text,
                }
            }

            /// The value a text names: its variant, or `Other` (how the API's
            /// text is written into this type, e.g. by the simulator).
            pub fn of(text: &str) -> Self {
                $name::known(text).unwrap_or_else(|| $name::Other(text.to_string()))
            }

            /// The variant a text names, if the console knows it.
            fn known(text: &str) -> Option<Self> {
                match text {
                    $($text => Some($name::$variant),)*
                    "unknown" => Some($name::Unknown),
                    _ => None,
                }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let read = match deserializer.deserialize_any(WireValueVisitor)? {
                    WireValue::Text(text) => Some($name::known(&text).unwrap_or($name::Other(text))),
                    WireValue::Tagged(tag) => $name::known(&tag),
                    WireValue::Neither => None,
                };
                read.ok_or_else(|| {
                    D::Error::custom(concat!(
                        "data did not match any variant of untagged enum ",
                        stringify!($name)
                    ))
                })
            }
        }
    };
}

/// How a wire enum's value was written: a text (`"ready"`), or a one-member
/// object whose member is null (`{"ready": null}`), the form serde's derive
/// reads a unit variant from, or something else. The whole value is read (a
/// refusal comes after it, where the derive's did).
enum WireValue {
    Text(String),
    Tagged(String),
    Neither,
}

struct WireValueVisitor;

impl<'de> Visitor<'de> for WireValueVisitor {
    type Value = WireValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a text")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<WireValue, E> {
        Ok(WireValue::Text(text.to_owned()))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<WireValue, E> {
        Ok(WireValue::Text(text))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<WireValue, E> {
        Ok(WireValue::Neither)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<WireValue, E> {
        Ok(WireValue::Neither)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<WireValue, E> {
        Ok(WireValue::Neither)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<WireValue, E> {
        Ok(WireValue::Neither)
    }

    fn visit_unit<E: de::Error>(self) -> Result<WireValue, E> {
        Ok(WireValue::Neither)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<WireValue, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(WireValue::Neither)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WireValue, A::Error> {
        let mut members = 0;
        let mut tag = None;
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value::<Option<IgnoredAny>>()?;
            members += 1;
            tag = value.is_none().then_some(key);
        }
        Ok(match tag {
            Some(tag) if members == 1 => WireValue::Tagged(tag),
            _ => WireValue::Neither,
        })
    }
}

wire_enum!(ResourceStatus {
    Pending = "pending",
    Creating = "creating",
    Updating = "updating",
    Ready = "ready",
    Deleting = "deleting",
    Deleted = "deleted",
    Error = "error",
});

impl ResourceStatus {
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

wire_enum!(
    /// `unknown` is the API's own value too: the platform has not reported. Neither
    /// it nor a value the console does not know is an end (`rules::operation`).
    OperationStatus {
        Pending = "pending",
        Running = "running",
        Done = "done",
        Failed = "failed",
    }
);

wire_enum!(OperationKind {
    Vm = "vm",
    Volume = "volume",
    Vpc = "vpc",
    FirewallRule = "firewall_rule",
    ConnectConnection = "connect_connection",
    NksCluster = "nks_cluster",
    NksNodePool = "nks_node_pool",
    NksLoadBalancer = "nks_load_balancer",
    NksNode = "nks_node",
});

wire_enum!(OperationType {
    Create = "create",
    Update = "update",
    Delete = "delete",
    Restart = "restart",
});

wire_enum!(VolumeType {
    Nvme = "nvme",
    Abs = "abs",
});

wire_enum!(VolumeKind {
    Boot = "boot",
    Data = "data",
});

/// The list envelope every list endpoint answers with (digest §3.17).
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "T: Deserialize<'de>"))]
pub struct Page<T> {
    pub items: Vec<T>,
    /// The SDK pagers cope with a missing or null `pagination`; so do we.
    pub pagination: Option<Pagination>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct User {
    pub id: String,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Project {
    pub id: String,
    pub name: String,
    pub tags: Vec<String>,
    pub resources: Option<ProjectResources>,
    pub created_at: String,
    pub updated_at: String,
}

/// A project as the shell reads it, for the project switcher and the home
/// redirect: the same wire object, only the two fields they use (serde skips the
/// rest). The first-load budget needs it (README, Benchmark).
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct ProjectSummary {
    pub id: String,
    pub name: String,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProjectResources {
    pub cloud: Option<CloudResources>,
    pub blockchain: Option<BlockchainResources>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CloudResources {
    pub nks_clusters: u64,
    pub nks_node_pools: u64,
    pub vms: u64,
    pub volumes: u64,
    pub vpcs: u64,
    pub connect_connections: u64,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BlockchainResources {
    pub rpc_nodes_dedicated: u64,
    pub rpc_nodes_flex: u64,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Subnet {
    pub id: String,
    pub name: String,
    pub cidr: String,
    pub created_at: String,
    pub updated_at: String,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Region {
    pub name: String,
    pub availability: String,
    pub compute: Option<RegionCompute>,
    pub networking: Option<RegionNetworking>,
    pub nks: Option<RegionNks>,
    pub storage: Option<RegionStorage>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RegionCompute {
    pub vms: bool,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RegionNetworking {
    pub vpcs: bool,
    pub connect: bool,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RegionNks {
    pub clusters: bool,
    pub autoscaling: bool,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RegionStorage {
    pub abs: bool,
    pub local_nvme: bool,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct InstanceType {
    pub name: String,
    pub region: String,
    pub vcpu: u32,
    pub memory_gb: u32,
    pub network_bandwidth_gbps: f64,
    pub series: String,
    pub family: String,
    pub chipset: String,
    pub created_at: String,
    pub updated_at: String,
}

/// An instance type as the capacity figures read it: the same wire object, only
/// its name, region and size (serde skips the rest). The clusters list shows
/// these figures, and decoding all of [`InstanceType`] there (its float among
/// them) would add to the first page's code.
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct InstanceSize {
    pub name: String,
    pub region: String,
    pub vcpu: u32,
    pub memory_gb: u32,
}

/// A pool as the clusters list's figures read it: its size only.
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct PoolSize {
    pub node_count: u32,
    pub node_config: PoolSizeConfig,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct PoolSizeConfig {
    pub instance_type: String,
}

/// What a resource costs now: the `before` of the quote of an unchanged
/// resource (a `CostQuoteUpdate` read for its total alone).
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct PriceNow {
    pub currency: String,
    pub before: PriceTotal,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct PriceTotal {
    pub monthly_total: String,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KubernetesVersion {
    pub name: String,
    pub display_name: String,
    pub created_at: String,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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

/// A cluster as the cluster list reads it: the same wire object, only the fields
/// the list shows (serde skips the rest). The first-load budget needs it
/// (README, Benchmark).
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct ClusterSummary {
    pub id: String,
    pub name: String,
    pub region: String,
    pub kubernetes_version: String,
    pub autoscaling: bool,
    pub pool_ids: Vec<String>,
    pub status: ResourceStatus,
    pub tags: Vec<String>,
    pub created_at: String,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NodeConfig {
    pub instance_type: String,
    pub boot_volume: BootVolume,
    pub labels: Vec<String>,
    pub taints: Vec<String>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BootVolume {
    pub size: u32,
    #[serde(rename = "type")]
    pub volume_type: VolumeType,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Node {
    pub id: String,
    pub name: String,
    pub private_ip: Option<String>,
    pub status: ResourceStatus,
    pub created_at: String,
    pub updated_at: String,
}

/// NKSController: one of the three platform-managed control-plane machines.
/// `private_ip` is `null` until the control plane is provisioned (TS SDK), and
/// may be `""` (Go SDK): both read as "not yet assigned".
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Controller {
    pub id: String,
    pub name: String,
    pub instance_type: String,
    pub private_ip: Option<String>,
    pub status: ResourceStatus,
    pub created_at: String,
    pub updated_at: String,
}

/// A controller's or a node's volume (NKSControllerVolume, NKSNodeVolume): the
/// same shape but `node_id`, which a controller's volume does not have.
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Volume {
    pub id: String,
    /// A controller's volume has none, and its wire object no such member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_id: Option<String>,
    pub name: String,
    pub kind: VolumeKind,
    #[serde(rename = "type")]
    pub volume_type: VolumeType,
    pub size: u32,
    pub status: ResourceStatus,
    pub created_at: String,
    pub updated_at: String,
}

/// NKSLoadBalancer: made by a Service of type LoadBalancer inside the cluster;
/// only `public_ip_enabled` can be changed from outside. `public_ip` is `null`
/// while it is off (and may be `""`); `private_ip` likewise until assigned.
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LoadBalancer {
    pub id: String,
    pub cluster_id: String,
    pub namespace: String,
    pub service_name: String,
    pub private_ip: Option<String>,
    pub public_ip: Option<String>,
    pub public_ip_enabled: bool,
    pub status: ResourceStatus,
    pub created_at: String,
    pub updated_at: String,
}

/// PersistentVolumeClaim (the SDK gives it no namespace).
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PersistentVolumeClaim {
    pub id: String,
    pub cluster_id: String,
    pub name: String,
    pub size: u32,
    #[serde(rename = "type")]
    pub volume_type: VolumeType,
    pub status: ResourceStatus,
    pub created_at: String,
    pub updated_at: String,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OperationDetails {
    pub changes: BTreeMap<String, Change>,
}

/// One field's diff; `from`/`to` are a string, number, boolean or list of strings.
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Change {
    pub from: Value,
    pub to: Value,
}

impl Operation {
    /// The changes this operation carries, empty when `details` is null or absent.
    pub fn changes(&self) -> impl Iterator<Item = (&String, &Change)> {
        self.details.iter().flat_map(|d| d.changes.iter())
    }
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Kubeconfig {
    pub kubeconfig: String,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Quota {
    pub region: String,
    pub compute: Option<ComputeQuota>,
    pub networking: Option<NetworkingQuota>,
    pub nks: Option<NksQuota>,
    pub storage: Option<StorageQuota>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ComputeQuota {
    pub vcpu: Option<QuotaLimit>,
    pub memory_gb: Option<QuotaLimit>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NetworkingQuota {
    pub connect_connections: Option<QuotaLimit>,
    pub public_ips: Option<QuotaLimit>,
    pub vpcs: Option<QuotaLimit>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NksQuota {
    pub clusters: Option<QuotaLimit>,
    pub node_pool_vcpu: Option<QuotaLimit>,
    pub node_pool_memory_gb: Option<QuotaLimit>,
    pub public_ips: Option<QuotaLimit>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QuotaLimit {
    pub limit: i64,
    pub used: i64,
    pub remaining: i64,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StorageQuota {
    pub abs: Option<QuotaLimit>,
    pub local_nvme: Option<QuotaLimit>,
}

/// Money stays a string from the wire to the screen: never parsed into floats.
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CostQuote {
    pub currency: String,
    pub monthly_total: String,
    pub priced_at: String,
    pub usage_dimensions: Vec<UsageDimension>,
    pub current_summary: Option<BillingSummary>,
    pub updated_summary: Option<BillingSummary>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UsageDimension {
    pub dimension: String,
    pub dimension_display_name: String,
    pub quantity: i64,
    pub unit_price: String,
    pub monthly_amount: String,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CostQuoteUpdate {
    pub currency: String,
    pub priced_at: String,
    pub before: CostSide,
    pub after: CostSide,
    pub diff: CostDiff,
    pub current_summary: Option<BillingSummary>,
    pub updated_summary: Option<BillingSummary>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CostSide {
    pub monthly_total: String,
    pub usage_dimensions: Vec<UsageDimension>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CostDiff {
    pub monthly_total_delta: String,
    pub usage_dimensions: Vec<DimensionDelta>,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DimensionDelta {
    pub dimension: String,
    pub dimension_display_name: String,
    pub monthly_amount_delta: String,
    pub before: DimensionSide,
    pub after: DimensionSide,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DimensionSide {
    pub quantity: i64,
    pub unit_price: String,
    pub monthly_amount: String,
}

#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BillingSummary {
    pub daily_cost: String,
    pub monthly_cost: String,
    pub effective_balance: String,
    pub recharge_threshold_days: String,
    pub runway_months: Option<String>,
    pub estimated_next_charge_at: Option<String>,
}

/// Body of `POST /v1/nks/clusters` (and its availability and cost checks).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClusterCreate {
    pub name: String,
    pub project_id: String,
    pub region: String,
    pub vpc_id: String,
    pub kubernetes_version: String,
    pub autoscaling: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// Body of `PATCH /v1/nks/clusters/{id}`: only the mutable fields, each omitted
/// when unchanged (PATCH semantics).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClusterUpdate {
    pub name: Option<String>,
    pub autoscaling: Option<bool>,
    pub tags: Option<Vec<String>>,
}

impl ClusterUpdate {
    /// Nothing changes: no PATCH to send.
    pub fn is_empty(&self) -> bool {
        self.name.is_none() && self.autoscaling.is_none() && self.tags.is_none()
    }
}

/// Body of `POST /v1/nks/clusters/{id}/pools` (and its checks).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PoolCreate {
    pub name: String,
    pub node_count: u32,
    pub node_config: NodeConfig,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// Body of `PATCH /v1/nks/clusters/{cid}/pools/{pid}`: name, node_count, tags only.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PoolUpdate {
    pub name: Option<String>,
    pub node_count: Option<u32>,
    pub tags: Option<Vec<String>>,
}

impl PoolUpdate {
    /// Nothing changes: no PATCH to send.
    pub fn is_empty(&self) -> bool {
        self.name.is_none() && self.node_count.is_none() && self.tags.is_none()
    }
}

/// Body of `PATCH /v1/nks/clusters/{cid}/load_balancers/{id}`: the SDK's one
/// field, required.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LoadBalancerUpdate {
    pub public_ip_enabled: bool,
}

/// The error body's shape is unconfirmed; the SDKs read `message` when it is a
/// string, and so do we. The text to show for an error body: `message` if it is
/// a string, else the whole JSON, else the text itself (cut short), else nothing
/// (the caller falls back to the status).
pub fn error_message(body: &str) -> String {
    match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(members)) => match members.get("message") {
            Some(Value::String(s)) => s.clone(),
            _ => Value::Object(members).to_string(),
        },
        Ok(other) => other.to_string(),
        Err(_) => error_text(body),
    }
}

/// An error body that is not JSON, shown as its text: trimmed, cut short.
pub fn error_text(body: &str) -> String {
    body.trim().chars().take(300).collect()
}

// ----- new VPC from the create-cluster form -----

/// Body of `POST /v1/networking/vpcs` (and its availability and cost checks).
/// The platform picks the subnet's range: there is no CIDR field (SDK VPCCreate).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct VpcCreate {
    pub name: String,
    pub project_id: String,
    pub region: String,
    pub subnet_name: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

// ----- networking: firewall rules (SDK `networking/firewallrule.go`) -----

wire_enum!(Protocol {
    Tcp = "tcp",
    Udp = "udp",
});

/// A VPC's firewall rule: traffic of `protocol` from `source_address` to
/// `destination_address` (inside the VPC) on `destination_ports` is allowed.
/// The platform denies what no rule allows, except intra-cluster traffic and ICMP.
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FirewallRule {
    pub id: String,
    pub vpc_id: String,
    pub name: String,
    pub protocol: Protocol,
    pub source_address: String,
    pub destination_address: String,
    /// Each a port (`"443"`) or an inclusive range (`"8000-8080"`).
    pub destination_ports: Vec<String>,
    pub status: ResourceStatus,
    pub tags: Vec<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// Body of `POST /v1/networking/vpcs/{vpc_id}/firewall_rules`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FirewallRuleCreate {
    pub name: String,
    pub protocol: Protocol,
    pub source_address: String,
    pub destination_address: String,
    pub destination_ports: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// Body of `PATCH …/firewall_rules/{id}`: every field may change (the SDK's
/// update body has them all), each left out when unchanged.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FirewallRuleUpdate {
    pub name: Option<String>,
    pub protocol: Option<Protocol>,
    pub source_address: Option<String>,
    pub destination_address: Option<String>,
    pub destination_ports: Option<Vec<String>>,
    pub tags: Option<Vec<String>>,
}

impl FirewallRuleUpdate {
    pub fn is_empty(&self) -> bool {
        *self == FirewallRuleUpdate::default()
    }
}
