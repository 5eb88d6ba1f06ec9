//! The simulated cloud: every record, the in-flight operations and the rules that move them.
//!
//! Time is evaluated lazily. Each operation stores the instants of its transitions when it is
//! created; `advance(now)` replays every transition due by `now`, stamping records with the
//! transition's own instant (not the instant someone looked). Requests call it first and a
//! light periodic tick calls it for the autoscaler, so there are no per-operation background
//! tasks to race with the request handlers.

mod autoscaler;
mod checks;
mod lifecycle;
mod mutations;
pub mod network;
mod networking;
mod parts;

use std::collections::HashMap;

use crate::error::{ApiError, ApiResult};
use crate::ids::IdGen;
use crate::model::*;

pub use lifecycle::{NextOutcome, Outcome, DEFAULT_UNKNOWN_MS};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seed {
    Demo,
    Empty,
    Large,
}

impl Seed {
    pub fn parse(s: &str) -> Option<Seed> {
        match s {
            "demo" => Some(Seed::Demo),
            "empty" => Some(Seed::Empty),
            "large" => Some(Seed::Large),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Seed::Demo => "demo",
            Seed::Empty => "empty",
            Seed::Large => "large",
        }
    }
}

/// Default operation durations at `--time-scale 1`, in milliseconds.
pub mod durations {
    pub const CLUSTER_CREATE: i64 = 20 * 60_000;
    pub const CLUSTER_UPDATE: i64 = 60_000;
    pub const CLUSTER_DELETE: i64 = 5 * 60_000;
    pub const POOL_CREATE: i64 = 8 * 60_000;
    pub const POOL_UPDATE: i64 = 2 * 60_000;
    pub const POOL_DELETE: i64 = 3 * 60_000;
    pub const NODE_DELETE: i64 = 2 * 60_000;
    pub const VPC_CREATE: i64 = 60_000;
    pub const VPC_UPDATE: i64 = 30_000;
    pub const VPC_DELETE: i64 = 60_000;
    pub const FIREWALL_RULE: i64 = 30_000;
    pub const LOAD_BALANCER_UPDATE: i64 = 30_000;
    /// Share of an operation spent `pending` before it turns `running`.
    pub const PENDING_SHARE: f64 = 0.05;
    /// How often the autoscaler considers acting, before scaling.
    pub const AUTOSCALER_PERIOD: i64 = 60_000;
}

#[derive(Debug)]
pub struct World {
    pub ids: IdGen,
    seq: u64,
    pub user: User,
    pub projects: HashMap<String, Project>,
    pub vpcs: HashMap<String, Vpc>,
    pub subnets: HashMap<String, network::Subnet>,
    pub firewall_rules: HashMap<String, FirewallRule>,
    pub regions: Vec<Region>,
    pub instance_types: Vec<InstanceType>,
    pub versions: Vec<KubernetesVersion>,
    pub quota_limits: QuotaLimits,
    pub clusters: HashMap<String, Cluster>,
    pub pools: HashMap<String, Pool>,
    /// Nodes keyed by pool id, oldest first; a pool's nodes never outlive it.
    pub nodes: HashMap<String, Vec<Node>>,
    /// Controllers keyed by cluster id, three per cluster.
    pub controllers: HashMap<String, Vec<Controller>>,
    pub load_balancers: HashMap<String, LoadBalancer>,
    pub pvcs: HashMap<String, PersistentVolumeClaim>,
    pub ops: HashMap<String, Operation>,
    in_flight: HashMap<String, lifecycle::Plan>,
    /// Resource id → the in-flight operation that holds it (409 for anyone else).
    locks: HashMap<String, String>,
    pub time_scale: f64,
    pub next_outcomes: Vec<NextOutcome>,
    pub autoscaler: autoscaler::AutoscalerState,
    public_ips_handed_out: u32,
}

impl World {
    pub fn new(salt: u64) -> Self {
        World {
            ids: IdGen::new(salt),
            seq: 0,
            user: User {
                id: String::new(),
                email: String::new(),
                first_name: None,
                last_name: None,
            },
            projects: HashMap::new(),
            vpcs: HashMap::new(),
            subnets: HashMap::new(),
            firewall_rules: HashMap::new(),
            regions: Vec::new(),
            instance_types: Vec::new(),
            versions: Vec::new(),
            quota_limits: QuotaLimits {
                clusters: 0,
                node_pool_vcpu: 0,
                node_pool_memory_gb: 0,
                public_ips: 0,
            },
            clusters: HashMap::new(),
            pools: HashMap::new(),
            nodes: HashMap::new(),
            controllers: HashMap::new(),
            load_balancers: HashMap::new(),
            pvcs: HashMap::new(),
            ops: HashMap::new(),
            in_flight: HashMap::new(),
            locks: HashMap::new(),
            time_scale: 1.0,
            next_outcomes: Vec::new(),
            autoscaler: autoscaler::AutoscalerState::default(),
            public_ips_handed_out: 0,
        }
    }

    pub fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    /// Public addresses come from the documentation ranges so nothing real is ever named.
    pub fn next_public_ip(&mut self) -> String {
        let n = self.public_ips_handed_out;
        self.public_ips_handed_out += 1;
        match n {
            0..=229 => format!("203.0.113.{}", 40 + n % 200),
            _ => format!("198.51.100.{}", 10 + (n - 230) % 240),
        }
    }

    // ---- lookups (404s) -------------------------------------------------------------

    pub fn project(&self, id: &str) -> ApiResult<&Project> {
        self.projects
            .get(id)
            .ok_or_else(|| ApiError::not_found("project"))
    }

    pub fn vpc(&self, id: &str) -> ApiResult<&Vpc> {
        self.vpcs.get(id).ok_or_else(|| ApiError::not_found("VPC"))
    }

    /// A rule is only found under its own VPC.
    pub fn firewall_rule(&self, vpc_id: &str, rule_id: &str) -> ApiResult<&FirewallRule> {
        self.vpc(vpc_id)?;
        self.firewall_rules
            .get(rule_id)
            .filter(|r| r.vpc_id == vpc_id)
            .ok_or_else(|| ApiError::not_found("firewall rule"))
    }

    pub fn cluster(&self, id: &str) -> ApiResult<&Cluster> {
        self.clusters
            .get(id)
            .ok_or_else(|| ApiError::not_found("cluster"))
    }

    /// A pool is only found under its own cluster: `/clusters/A/pools/<pool of B>` is a 404.
    pub fn pool(&self, cluster_id: &str, pool_id: &str) -> ApiResult<&Pool> {
        self.cluster(cluster_id)?;
        self.pools
            .get(pool_id)
            .filter(|p| p.cluster_id == cluster_id)
            .ok_or_else(|| ApiError::not_found("node pool"))
    }

    pub fn node(&self, cluster_id: &str, pool_id: &str, node_id: &str) -> ApiResult<&Node> {
        self.pool(cluster_id, pool_id)?;
        self.pool_nodes(pool_id)
            .iter()
            .find(|n| n.id == node_id)
            .ok_or_else(|| ApiError::not_found("node"))
    }

    pub fn pool_nodes(&self, pool_id: &str) -> &[Node] {
        self.nodes.get(pool_id).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn operation(&self, id: &str) -> ApiResult<&Operation> {
        self.ops
            .get(id)
            .ok_or_else(|| ApiError::not_found("operation"))
    }

    pub fn instance_type(&self, region: &str, name: &str) -> Option<&InstanceType> {
        self.instance_types
            .iter()
            .find(|t| t.region == region && t.name == name)
    }

    pub fn cluster_pools(&self, cluster: &Cluster) -> Vec<&Pool> {
        cluster
            .pool_ids
            .iter()
            .filter_map(|id| self.pools.get(id))
            .collect()
    }

    pub fn project_view<'a>(&self, project: &'a Project) -> ProjectView<'a> {
        let clusters: Vec<&Cluster> = self
            .clusters
            .values()
            .filter(|c| c.project_id == project.id)
            .collect();
        let pools = clusters.iter().map(|c| c.pool_ids.len() as u64).sum();
        ProjectView {
            project,
            resources: ProjectResources {
                cloud: CloudResources {
                    nks_clusters: clusters.len() as u64,
                    nks_node_pools: pools,
                    vms: 0,
                    volumes: 0,
                    vpcs: self
                        .vpcs
                        .values()
                        .filter(|v| v.project_id == project.id)
                        .count() as u64,
                    connect_connections: 0,
                },
                blockchain: BlockchainResources {
                    rpc_nodes_dedicated: 0,
                    rpc_nodes_flex: 0,
                },
            },
        }
    }

    // ---- locks (409s) ---------------------------------------------------------------

    /// The in-flight operation holding any of `ids`, as a 409.
    pub fn ensure_idle(&self, ids: &[&str]) -> ApiResult<()> {
        match ids.iter().find_map(|id| self.locks.get(*id)) {
            Some(op) => Err(ApiError::busy(op)),
            None => Ok(()),
        }
    }

    pub fn is_locked(&self, id: &str) -> bool {
        self.locks.contains_key(id)
    }

    // ---- quota ------------------------------------------------------------------------

    pub fn node_pool_usage(&self) -> (i64, i64) {
        self.pools.values().fold((0, 0), |(cpu, mem), p| {
            match self.instance_type(REGION, &p.node_config.instance_type) {
                Some(t) => (
                    cpu + p.node_count * t.vcpu,
                    mem + p.node_count * t.memory_gb,
                ),
                None => (cpu, mem),
            }
        })
    }

    pub fn quota(&self) -> Quota {
        let (vcpu, mem) = self.node_pool_usage();
        let clusters = self.clusters.len() as i64;
        let l = self.quota_limits;
        let storage = |kind: VolumeType| {
            self.pools
                .values()
                .filter(|p| p.node_config.boot_volume.kind == kind)
                .map(|p| p.node_count * p.node_config.boot_volume.size)
                .sum::<i64>()
        };
        Quota {
            region: REGION.to_string(),
            compute: QuotaCompute {
                vcpu: QuotaDetail::new(128, 0),
                memory_gb: QuotaDetail::new(512, 0),
            },
            networking: QuotaNetworking {
                // The simulator has no Connect; the SDK's Quota still carries the group.
                connect_connections: QuotaDetail::new(10, 0),
                public_ips: QuotaDetail::new(l.public_ips, clusters),
                vpcs: QuotaDetail::new(20.max(self.vpcs.len() as i64 + 10), self.vpcs.len() as i64),
            },
            nks: QuotaNks {
                clusters: QuotaDetail::new(l.clusters, clusters),
                node_pool_vcpu: QuotaDetail::new(l.node_pool_vcpu, vcpu),
                node_pool_memory_gb: QuotaDetail::new(l.node_pool_memory_gb, mem),
                public_ips: QuotaDetail::new(l.public_ips, clusters),
            },
            storage: QuotaStorage {
                abs: QuotaDetail::new(1_000_000, storage(VolumeType::Abs)),
                local_nvme: QuotaDetail::new(1_000_000, storage(VolumeType::Nvme)),
            },
        }
    }
}
