//! The mutating verbs. Each one validates against the world, applies what is visible at once
//! (new desired values, `creating`/`updating`/`deleting` statuses) and registers an operation
//! whose completion settles the rest.
//!
//! Desired values (`name`, `tags`, `autoscaling`, `node_count`) are applied when the request is
//! accepted, so a GET during the operation shows the target with status `updating`; the
//! operation's `details.changes` keeps the `from` side.

use serde_json::{json, Map, Value};

use super::lifecycle::{Effect, NewOp};
use super::{durations, World};
use crate::cost::{Summaries, Usage};
use crate::error::{ApiError, ApiResult};
use crate::model::*;
use crate::timefmt::Millis;
use crate::validate::{ClusterCreate, ClusterUpdate, PoolCreate, PoolUpdate};

fn change(changes: &mut Map<String, Value>, field: &str, from: Value, to: Value) {
    if from != to {
        changes.insert(field.to_string(), json!({"from": from, "to": to}));
    }
}

fn details(changes: Map<String, Value>) -> Option<Value> {
    Some(json!({ "changes": changes }))
}

impl World {
    pub fn create_cluster(&mut self, req: ClusterCreate, now: Millis) -> ApiResult<Operation> {
        self.check_cluster_create(&req)?;
        let id = self.ids.uuid();
        let vip = self
            .subnets
            .get(&req.vpc_id)
            .map(|s| s.api_vip())
            .ok_or_else(|| ApiError::field("vpc_id", "VPC has no usable subnet"))?;
        let public = self.next_public_ip();
        let seq = self.next_seq();
        self.clusters.insert(
            id.clone(),
            Cluster {
                id: id.clone(),
                name: req.name,
                project_id: req.project_id.clone(),
                region: req.region,
                vpc_id: req.vpc_id,
                kubernetes_version: req.kubernetes_version,
                autoscaling: req.autoscaling,
                pool_ids: Vec::new(),
                private_ip: String::new(),
                public_ip: String::new(),
                status: ResourceStatus::Creating,
                tags: req.tags,
                created_at: now,
                updated_at: now,
                seq,
                planned_ips: (vip, public),
            },
        );
        self.add_controllers(&id, ResourceStatus::Creating, now);
        Ok(self.start_op(
            NewOp {
                kind: OpKind::NksCluster,
                op_type: OpType::Create,
                resource_id: id.clone(),
                project_id: req.project_id,
                details: None,
                base_duration_ms: durations::CLUSTER_CREATE,
                effect: Effect::ClusterCreate {
                    cluster_id: id.clone(),
                },
                locks: vec![id],
            },
            now,
        ))
    }

    pub fn update_cluster(
        &mut self,
        id: &str,
        req: ClusterUpdate,
        now: Millis,
    ) -> ApiResult<Operation> {
        self.cluster(id)?;
        self.ensure_idle(&[id])?;
        let Some(c) = self.clusters.get_mut(id) else {
            return Err(ApiError::not_found("cluster"));
        };
        let mut changes = Map::new();
        if let Some(name) = req.name {
            change(&mut changes, "name", json!(c.name), json!(name));
            c.name = name;
        }
        if let Some(autoscaling) = req.autoscaling {
            change(
                &mut changes,
                "autoscaling",
                json!(c.autoscaling),
                json!(autoscaling),
            );
            c.autoscaling = autoscaling;
        }
        if let Some(tags) = req.tags {
            change(&mut changes, "tags", json!(c.tags), json!(tags));
            c.tags = tags;
        }
        c.status = ResourceStatus::Updating;
        c.updated_at = now;
        let project_id = c.project_id.clone();
        Ok(self.start_op(
            NewOp {
                kind: OpKind::NksCluster,
                op_type: OpType::Update,
                resource_id: id.to_string(),
                project_id,
                details: details(changes),
                base_duration_ms: durations::CLUSTER_UPDATE,
                effect: Effect::ClusterUpdate {
                    cluster_id: id.to_string(),
                },
                locks: vec![id.to_string()],
            },
            now,
        ))
    }

    /// Deleting a cluster deletes its pools and nodes; it waits for their operations first.
    pub fn delete_cluster(&mut self, id: &str, now: Millis) -> ApiResult<Operation> {
        let cluster = self.cluster(id)?;
        let mut held: Vec<&str> = vec![id];
        held.extend(cluster.pool_ids.iter().map(String::as_str));
        self.ensure_idle(&held)?;
        let pool_ids = cluster.pool_ids.clone();
        let project_id = cluster.project_id.clone();
        for pid in &pool_ids {
            if let Some(p) = self.pools.get_mut(pid) {
                p.status = ResourceStatus::Deleting;
                p.updated_at = now;
            }
            for n in self.nodes.get_mut(pid).into_iter().flatten() {
                n.status = ResourceStatus::Deleting;
                n.updated_at = now;
            }
        }
        if let Some(c) = self.clusters.get_mut(id) {
            c.status = ResourceStatus::Deleting;
            c.updated_at = now;
        }
        self.set_controllers_status(id, ResourceStatus::Deleting, now);
        let mut locks = vec![id.to_string()];
        locks.extend(pool_ids);
        Ok(self.start_op(
            NewOp {
                kind: OpKind::NksCluster,
                op_type: OpType::Delete,
                resource_id: id.to_string(),
                project_id,
                details: None,
                base_duration_ms: durations::CLUSTER_DELETE,
                effect: Effect::ClusterDelete {
                    cluster_id: id.to_string(),
                },
                locks,
            },
            now,
        ))
    }

    /// Adds `count` nodes in `creating`, each with an address reserved in the VPC subnet.
    fn add_nodes(
        &mut self,
        pool_id: &str,
        pool_name: &str,
        vpc_id: &str,
        count: i64,
        status: ResourceStatus,
        now: Millis,
    ) {
        for _ in 0..count.max(0) {
            let Some(address) = self.subnets.get_mut(vpc_id).and_then(|s| s.allocate()) else {
                return;
            };
            let id = self.ids.uuid();
            let name = format!("{pool_name}-{}", self.ids.node_suffix());
            let boot_volume_id = self.ids.uuid();
            let ready = status == ResourceStatus::Ready;
            self.nodes
                .entry(pool_id.to_string())
                .or_default()
                .push(Node {
                    id,
                    name,
                    private_ip: ready.then(|| super::network::format_ip(address)),
                    status,
                    created_at: now,
                    updated_at: now,
                    address,
                    boot_volume_id,
                });
        }
    }

    pub(super) fn insert_pool(
        &mut self,
        cluster_id: &str,
        req: PoolCreate,
        status: ResourceStatus,
        now: Millis,
    ) -> String {
        let id = self.ids.uuid();
        let vpc_id = self
            .clusters
            .get(cluster_id)
            .map(|c| c.vpc_id.clone())
            .unwrap_or_default();
        let node_status = if status == ResourceStatus::Ready {
            ResourceStatus::Ready
        } else {
            ResourceStatus::Creating
        };
        self.add_nodes(&id, &req.name, &vpc_id, req.node_count, node_status, now);
        self.pools.insert(
            id.clone(),
            Pool {
                id: id.clone(),
                cluster_id: cluster_id.to_string(),
                name: req.name,
                node_count: req.node_count,
                node_config: req.node_config,
                status,
                tags: req.tags,
                created_at: now,
                updated_at: now,
            },
        );
        if let Some(c) = self.clusters.get_mut(cluster_id) {
            c.pool_ids.push(id.clone());
        }
        id
    }

    pub fn create_pool(
        &mut self,
        cluster_id: &str,
        req: PoolCreate,
        now: Millis,
    ) -> ApiResult<Operation> {
        let cluster = self.cluster(cluster_id)?;
        self.ensure_idle(&[cluster_id])?;
        self.check_pool_create(cluster, &req)?;
        let project_id = cluster.project_id.clone();
        let id = self.insert_pool(cluster_id, req, ResourceStatus::Creating, now);
        Ok(self.start_op(
            NewOp {
                kind: OpKind::NksNodePool,
                op_type: OpType::Create,
                resource_id: id.clone(),
                project_id,
                details: None,
                base_duration_ms: durations::POOL_CREATE,
                effect: Effect::PoolCreate {
                    pool_id: id.clone(),
                },
                locks: vec![id],
            },
            now,
        ))
    }

    /// A lower `node_count` terminates the newest nodes without draining them, as the real
    /// platform does (guide: "terminates it without cordon, drain …"); the operation records
    /// which nodes under `details.changes.terminated_nodes` (`from`: their names, `to`: `[]`).
    pub fn update_pool(
        &mut self,
        cluster_id: &str,
        pool_id: &str,
        req: PoolUpdate,
        now: Millis,
    ) -> ApiResult<Operation> {
        let pool = self.pool(cluster_id, pool_id)?;
        self.ensure_idle(&[cluster_id, pool_id])?;
        let cluster = self.cluster(cluster_id)?;
        self.check_pool_update(cluster, pool, &req)?;
        let project_id = cluster.project_id.clone();
        let vpc_id = cluster.vpc_id.clone();
        let mut changes = Map::new();
        let Some(p) = self.pools.get_mut(pool_id) else {
            return Err(ApiError::not_found("node pool"));
        };
        if let Some(name) = req.name {
            change(&mut changes, "name", json!(p.name), json!(name));
            p.name = name;
        }
        if let Some(tags) = req.tags {
            change(&mut changes, "tags", json!(p.tags), json!(tags));
            p.tags = tags;
        }
        let old_count = p.node_count;
        let pool_name = p.name.clone();
        p.status = ResourceStatus::Updating;
        p.updated_at = now;
        if let Some(count) = req.node_count.filter(|c| *c != old_count) {
            p.node_count = count;
            change(&mut changes, "node_count", json!(old_count), json!(count));
            if count > old_count {
                self.add_nodes(
                    pool_id,
                    &pool_name,
                    &vpc_id,
                    count - old_count,
                    ResourceStatus::Creating,
                    now,
                );
            } else {
                let terminated = self.mark_newest_for_removal(pool_id, old_count - count, now);
                changes.insert(
                    "terminated_nodes".into(),
                    json!({"from": terminated, "to": []}),
                );
            }
        }
        Ok(self.start_op(
            NewOp {
                kind: OpKind::NksNodePool,
                op_type: OpType::Update,
                resource_id: pool_id.to_string(),
                project_id,
                details: details(changes),
                base_duration_ms: durations::POOL_UPDATE,
                effect: Effect::PoolUpdate {
                    pool_id: pool_id.to_string(),
                },
                locks: vec![pool_id.to_string()],
            },
            now,
        ))
    }

    fn mark_newest_for_removal(
        &mut self,
        pool_id: &str,
        how_many: i64,
        now: Millis,
    ) -> Vec<String> {
        let mut names = Vec::new();
        let Some(nodes) = self.nodes.get_mut(pool_id) else {
            return names;
        };
        for n in nodes
            .iter_mut()
            .rev()
            .filter(|n| n.status != ResourceStatus::Deleting)
            .take(how_many.max(0) as usize)
        {
            n.status = ResourceStatus::Deleting;
            n.updated_at = now;
            names.push(n.name.clone());
        }
        names
    }

    pub fn delete_pool(
        &mut self,
        cluster_id: &str,
        pool_id: &str,
        now: Millis,
    ) -> ApiResult<Operation> {
        self.pool(cluster_id, pool_id)?;
        self.ensure_idle(&[cluster_id, pool_id])?;
        let project_id = self.cluster(cluster_id)?.project_id.clone();
        if let Some(p) = self.pools.get_mut(pool_id) {
            p.status = ResourceStatus::Deleting;
            p.updated_at = now;
        }
        for n in self.nodes.get_mut(pool_id).into_iter().flatten() {
            n.status = ResourceStatus::Deleting;
            n.updated_at = now;
        }
        Ok(self.start_op(
            NewOp {
                kind: OpKind::NksNodePool,
                op_type: OpType::Delete,
                resource_id: pool_id.to_string(),
                project_id,
                details: None,
                base_duration_ms: durations::POOL_DELETE,
                effect: Effect::PoolDelete {
                    pool_id: pool_id.to_string(),
                },
                locks: vec![pool_id.to_string()],
            },
            now,
        ))
    }

    /// Removes one node; the pool's `node_count` drops by one when the operation is done.
    /// `drained` is true only for the autoscaler, which cordons and evicts first; the
    /// operation then records `details.changes.drained: {from: false, to: true}`.
    pub fn delete_node(
        &mut self,
        cluster_id: &str,
        pool_id: &str,
        node_id: &str,
        drained: bool,
        now: Millis,
    ) -> ApiResult<Operation> {
        self.node(cluster_id, pool_id, node_id)?;
        self.ensure_idle(&[cluster_id, pool_id, node_id])?;
        let project_id = self.cluster(cluster_id)?.project_id.clone();
        let mut changes = Map::new();
        if let Some(p) = self.pools.get_mut(pool_id) {
            change(
                &mut changes,
                "node_count",
                json!(p.node_count),
                json!((p.node_count - 1).max(0)),
            );
            p.status = ResourceStatus::Updating;
            p.updated_at = now;
        }
        if drained {
            change(&mut changes, "drained", json!(false), json!(true));
        }
        if let Some(n) = self
            .nodes
            .get_mut(pool_id)
            .and_then(|ns| ns.iter_mut().find(|n| n.id == node_id))
        {
            n.status = ResourceStatus::Deleting;
            n.updated_at = now;
        }
        Ok(self.start_op(
            NewOp {
                kind: OpKind::NksNode,
                op_type: OpType::Delete,
                resource_id: node_id.to_string(),
                project_id,
                details: details(changes),
                base_duration_ms: durations::NODE_DELETE,
                effect: Effect::NodeDelete {
                    pool_id: pool_id.to_string(),
                    node_id: node_id.to_string(),
                },
                locks: vec![pool_id.to_string(), node_id.to_string()],
            },
            now,
        ))
    }

    // ---- money ----------------------------------------------------------------------------

    pub fn pool_usage_with(&self, config: &NodeConfig, node_count: i64) -> Usage {
        match self.instance_type(REGION, &config.instance_type) {
            Some(t) => Usage::for_pool(
                node_count,
                t.vcpu,
                t.memory_gb,
                config.boot_volume.kind,
                config.boot_volume.size,
            ),
            None => Usage::default(),
        }
    }

    pub fn cluster_usage(&self, cluster: &Cluster) -> Usage {
        let mut u = Usage::control_plane();
        for p in self.cluster_pools(cluster) {
            u.merge(&self.pool_usage_with(&p.node_config, p.node_count));
        }
        u
    }

    /// The organisation's exact monthly run-rate, in ten-thousandths of a dollar.
    pub fn org_monthly_e4(&self) -> i64 {
        self.clusters
            .values()
            .map(|c| self.cluster_usage(c).total_e4())
            .sum()
    }

    /// The run-rate now and after a change of `delta_e4` (exact).
    pub fn summaries(&self, delta_e4: i64) -> Summaries {
        let current = self.org_monthly_e4();
        Summaries {
            current_e4: current,
            updated_e4: current + delta_e4,
        }
    }

    // ---- kubeconfig ---------------------------------------------------------------------

    /// Only a provisioned control plane hands out credentials; earlier the real API fails too
    /// (digest §3.9), so this answers 409 while the cluster is not ready.
    pub fn kubeconfig(&self, id: &str) -> ApiResult<String> {
        let c = self.cluster(id)?;
        let server = match (&c.status, c.public_ip.as_str()) {
            (ResourceStatus::Ready | ResourceStatus::Updating, ip) if !ip.is_empty() => {
                ip.to_string()
            }
            _ => {
                return Err(ApiError::conflict(format!(
                "kubeconfig is not available: cluster {} is {} and its control plane is not ready",
                c.id,
                serde_json::to_value(c.status)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            )))
            }
        };
        use base64::Engine;
        let b64 = base64::engine::general_purpose::STANDARD;
        let ca = b64.encode(format!(
            "-----BEGIN CERTIFICATE-----\nnks-sim fake certificate authority for {}\n-----END CERTIFICATE-----\n",
            c.id
        ));
        let token = format!("nks-sim.{}", c.id.replace('-', ""));
        Ok(format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: {name}\n  cluster:\n    server: https://{server}:443\n    certificate-authority-data: {ca}\ncontexts:\n- name: {name}\n  context:\n    cluster: {name}\n    user: {admin}\ncurrent-context: {name}\npreferences: {{}}\nusers:\n- name: {admin}\n  user:\n    token: {token}\n",
            admin = serde_json::to_string(&format!("{}-admin", c.name)).unwrap_or_default(),
            // A JSON string is a valid YAML double-quoted scalar, so any cluster name is safe.
            name = serde_json::to_string(&c.name).unwrap_or_default(),
        ))
    }
}

impl World {
    /// Seeding only: a pool that already exists, with ready nodes and no operation.
    pub fn insert_ready_pool(&mut self, cluster_id: &str, req: PoolCreate, at: Millis) -> String {
        self.insert_pool(cluster_id, req, ResourceStatus::Ready, at)
    }
}
