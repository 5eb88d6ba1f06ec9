//! Operations over time: pending → running (or unknown) → done | failed, and what each
//! finished operation does to the resource it acted on.

use serde_json::Value;

use super::{durations, World};
use crate::model::*;
use crate::timefmt::Millis;

/// What finishing an operation does to the world.
#[derive(Debug, Clone)]
pub enum Effect {
    ClusterCreate { cluster_id: String },
    ClusterUpdate { cluster_id: String },
    ClusterDelete { cluster_id: String },
    PoolCreate { pool_id: String },
    PoolUpdate { pool_id: String },
    PoolDelete { pool_id: String },
    NodeDelete { pool_id: String, node_id: String },
    VpcCreate { vpc_id: String },
    VpcUpdate { vpc_id: String },
    VpcDelete { vpc_id: String },
    RuleSettle { rule_id: String },
    RuleDelete { rule_id: String },
    LoadBalancerUpdate { lb_id: String },
}

#[derive(Debug, Clone)]
pub struct Plan {
    running_at: Millis,
    finish_at: Millis,
    /// `running`, or `unknown` when a test asked for an operation that loses track of itself.
    middle: OpStatus,
    end: OpStatus,
    effect: Effect,
    locks: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Failed,
    Unknown,
}

/// A test's request that the next operation (of a kind) ends differently.
#[derive(Debug, Clone, serde::Serialize)]
pub struct NextOutcome {
    pub outcome: Outcome,
    pub kind: Option<OpKind>,
    /// Time spent `unknown` before finishing `done` (real milliseconds, not time-scaled).
    pub unknown_ms: i64,
}

pub const DEFAULT_UNKNOWN_MS: i64 = 30_000;

pub struct NewOp {
    pub kind: OpKind,
    pub op_type: OpType,
    pub resource_id: String,
    pub project_id: String,
    pub details: Option<Value>,
    pub base_duration_ms: i64,
    pub effect: Effect,
    pub locks: Vec<String>,
}

impl World {
    fn scaled(&self, ms: i64) -> i64 {
        let scaled = ms as f64 * self.time_scale;
        if scaled.is_finite() {
            scaled.clamp(0.0, 1e15) as i64
        } else {
            0
        }
    }

    /// Registers an operation in `pending`, schedules its transitions and takes its locks.
    pub(super) fn start_op(&mut self, new: NewOp, now: Millis) -> Operation {
        let duration = self.scaled(new.base_duration_ms);
        let running_at = now + (duration as f64 * durations::PENDING_SHARE) as i64;
        let override_idx = self
            .next_outcomes
            .iter()
            .position(|o| o.kind.is_none_or(|k| k == new.kind));
        let (middle, end, finish_at) = match override_idx.map(|i| self.next_outcomes.remove(i)) {
            Some(NextOutcome {
                outcome: Outcome::Unknown,
                unknown_ms,
                ..
            }) => (
                OpStatus::Unknown,
                OpStatus::Done,
                running_at + unknown_ms.max(0),
            ),
            Some(NextOutcome {
                outcome: Outcome::Failed,
                ..
            }) => (OpStatus::Running, OpStatus::Failed, now + duration),
            None => (OpStatus::Running, OpStatus::Done, now + duration),
        };
        let id = self.ids.uuid();
        let seq = self.next_seq();
        let op = Operation {
            id: id.clone(),
            kind: new.kind,
            op_type: new.op_type,
            status: OpStatus::Pending,
            resource_id: new.resource_id,
            project_id: new.project_id,
            details: new.details,
            created_at: now,
            updated_at: now,
            seq,
        };
        for lock in &new.locks {
            self.locks.insert(lock.clone(), id.clone());
        }
        self.in_flight.insert(
            id.clone(),
            Plan {
                running_at,
                finish_at,
                middle,
                end,
                effect: new.effect,
                locks: new.locks,
            },
        );
        self.ops.insert(id, op.clone());
        op
    }

    /// Replays every transition due by `now`, in the order they were due.
    pub fn advance(&mut self, now: Millis) {
        let mut due: Vec<(Millis, u64, String)> = Vec::new();
        for (id, plan) in &self.in_flight {
            if plan.running_at <= now {
                if let Some(op) = self.ops.get_mut(id) {
                    if op.status == OpStatus::Pending {
                        op.status = plan.middle;
                        op.updated_at = plan.running_at;
                    }
                }
            }
            if plan.finish_at <= now {
                let seq = self.ops.get(id).map_or(0, |o| o.seq);
                due.push((plan.finish_at, seq, id.clone()));
            }
        }
        due.sort();
        for (at, _, id) in due {
            self.finish(&id, at);
        }
        self.autoscale(now);
    }

    /// Test control: every in-flight operation that `chosen` picks reaches its planned end
    /// (`done`, or `failed` when a test asked for that) at `now`, as if its time had passed.
    /// Returns the ids that ended, in the order they were created.
    pub fn finish_now(&mut self, now: Millis, chosen: impl Fn(&Operation) -> bool) -> Vec<String> {
        let mut ids: Vec<(u64, String)> = self
            .in_flight
            .keys()
            .filter_map(|id| self.ops.get(id))
            .filter(|op| chosen(op))
            .map(|op| (op.seq, op.id.clone()))
            .collect();
        ids.sort();
        for (_, id) in &ids {
            if let Some(plan) = self.in_flight.get_mut(id) {
                plan.running_at = plan.running_at.min(now);
                plan.finish_at = plan.finish_at.min(now);
            }
        }
        self.advance(now);
        ids.into_iter().map(|(_, id)| id).collect()
    }

    fn finish(&mut self, op_id: &str, at: Millis) {
        let Some(plan) = self.in_flight.remove(op_id) else {
            return;
        };
        for lock in &plan.locks {
            if self.locks.get(lock).is_some_and(|holder| holder == op_id) {
                self.locks.remove(lock);
            }
        }
        if let Some(op) = self.ops.get_mut(op_id) {
            op.status = plan.end;
            op.updated_at = at;
        }
        if plan.end == OpStatus::Done {
            self.succeed(plan.effect, at);
        } else {
            self.fail(plan.effect, at);
        }
    }

    fn succeed(&mut self, effect: Effect, at: Millis) {
        match effect {
            Effect::ClusterCreate { cluster_id } => {
                if let Some(c) = self.clusters.get_mut(&cluster_id) {
                    c.status = ResourceStatus::Ready;
                    c.private_ip = c.planned_ips.0.clone();
                    c.public_ip = c.planned_ips.1.clone();
                    c.updated_at = at;
                }
                self.set_controllers_status(&cluster_id, ResourceStatus::Ready, at);
            }
            Effect::ClusterUpdate { cluster_id } => {
                if let Some(c) = self.clusters.get_mut(&cluster_id) {
                    c.status = ResourceStatus::Ready;
                    c.updated_at = at;
                }
            }
            Effect::ClusterDelete { cluster_id } => self.remove_cluster(&cluster_id),
            Effect::PoolCreate { pool_id } | Effect::PoolUpdate { pool_id } => {
                self.settle_pool(&pool_id, at)
            }
            Effect::PoolDelete { pool_id } => self.remove_pool(&pool_id),
            Effect::VpcCreate { vpc_id } | Effect::VpcUpdate { vpc_id } => {
                if let Some(v) = self.vpcs.get_mut(&vpc_id) {
                    v.status = ResourceStatus::Ready;
                    v.updated_at = at;
                }
            }
            Effect::VpcDelete { vpc_id } => self.remove_vpc(&vpc_id),
            Effect::RuleSettle { rule_id } => {
                if let Some(r) = self.firewall_rules.get_mut(&rule_id) {
                    r.status = ResourceStatus::Ready;
                    r.updated_at = at;
                }
            }
            Effect::RuleDelete { rule_id } => self.remove_firewall_rule(&rule_id),
            Effect::LoadBalancerUpdate { lb_id } => self.settle_load_balancer(&lb_id, at),
            Effect::NodeDelete { pool_id, node_id } => {
                self.remove_nodes(&pool_id, |n| n.id == node_id);
                if let Some(p) = self.pools.get_mut(&pool_id) {
                    p.node_count = (p.node_count - 1).max(0);
                    p.status = ResourceStatus::Ready;
                    p.updated_at = at;
                }
            }
        }
    }

    /// A failed operation leaves its resource in `error`, and any node it was creating or
    /// removing in `error` too, so the console has something to show and delete.
    fn fail(&mut self, effect: Effect, at: Millis) {
        let mark_nodes = |nodes: &mut Vec<Node>| {
            for n in nodes.iter_mut() {
                if matches!(
                    n.status,
                    ResourceStatus::Creating | ResourceStatus::Deleting
                ) {
                    n.status = ResourceStatus::Error;
                    n.updated_at = at;
                }
            }
        };
        match effect {
            Effect::ClusterCreate { cluster_id }
            | Effect::ClusterUpdate { cluster_id }
            | Effect::ClusterDelete { cluster_id } => {
                self.set_controllers_status(&cluster_id, ResourceStatus::Error, at);
                let pool_ids = match self.clusters.get_mut(&cluster_id) {
                    Some(c) => {
                        c.status = ResourceStatus::Error;
                        c.updated_at = at;
                        c.pool_ids.clone()
                    }
                    None => Vec::new(),
                };
                for pid in pool_ids {
                    if let Some(p) = self.pools.get_mut(&pid) {
                        if p.status == ResourceStatus::Deleting {
                            p.status = ResourceStatus::Error;
                            p.updated_at = at;
                        }
                    }
                    if let Some(nodes) = self.nodes.get_mut(&pid) {
                        mark_nodes(nodes);
                    }
                }
            }
            Effect::PoolCreate { pool_id }
            | Effect::PoolUpdate { pool_id }
            | Effect::PoolDelete { pool_id } => {
                if let Some(p) = self.pools.get_mut(&pool_id) {
                    p.status = ResourceStatus::Error;
                    p.updated_at = at;
                }
                if let Some(nodes) = self.nodes.get_mut(&pool_id) {
                    mark_nodes(nodes);
                }
            }
            Effect::VpcCreate { vpc_id }
            | Effect::VpcUpdate { vpc_id }
            | Effect::VpcDelete { vpc_id } => {
                if let Some(v) = self.vpcs.get_mut(&vpc_id) {
                    v.status = ResourceStatus::Error;
                    v.updated_at = at;
                }
            }
            Effect::LoadBalancerUpdate { lb_id } => {
                if let Some(lb) = self.load_balancers.get_mut(&lb_id) {
                    lb.status = ResourceStatus::Error;
                    lb.updated_at = at;
                }
            }
            Effect::RuleSettle { rule_id } | Effect::RuleDelete { rule_id } => {
                if let Some(r) = self.firewall_rules.get_mut(&rule_id) {
                    r.status = ResourceStatus::Error;
                    r.updated_at = at;
                }
            }
            Effect::NodeDelete { pool_id, node_id } => {
                if let Some(n) = self
                    .nodes
                    .get_mut(&pool_id)
                    .and_then(|ns| ns.iter_mut().find(|n| n.id == node_id))
                {
                    n.status = ResourceStatus::Error;
                    n.updated_at = at;
                }
                if let Some(p) = self.pools.get_mut(&pool_id) {
                    p.status = ResourceStatus::Ready;
                    p.updated_at = at;
                }
            }
        }
    }

    /// End of a pool create/update: the pool is ready, new nodes get their addresses and
    /// nodes marked for removal are gone.
    fn settle_pool(&mut self, pool_id: &str, at: Millis) {
        self.remove_nodes(pool_id, |n| n.status == ResourceStatus::Deleting);
        if let Some(nodes) = self.nodes.get_mut(pool_id) {
            for n in nodes
                .iter_mut()
                .filter(|n| n.status == ResourceStatus::Creating)
            {
                n.status = ResourceStatus::Ready;
                n.private_ip = Some(super::network::format_ip(n.address));
                n.updated_at = at;
            }
        }
        if let Some(p) = self.pools.get_mut(pool_id) {
            p.status = ResourceStatus::Ready;
            p.updated_at = at;
        }
    }

    pub(super) fn remove_nodes(&mut self, pool_id: &str, doomed: impl Fn(&Node) -> bool) {
        let vpc_id = self
            .pools
            .get(pool_id)
            .and_then(|p| self.clusters.get(&p.cluster_id))
            .map(|c| c.vpc_id.clone());
        let Some(nodes) = self.nodes.get_mut(pool_id) else {
            return;
        };
        let (gone, kept): (Vec<Node>, Vec<Node>) = nodes.drain(..).partition(|n| doomed(n));
        *nodes = kept;
        if let Some(subnet) = vpc_id.and_then(|v| self.subnets.get_mut(&v)) {
            for n in gone {
                subnet.release(n.address);
            }
        }
    }

    fn remove_pool(&mut self, pool_id: &str) {
        self.remove_nodes(pool_id, |_| true);
        self.nodes.remove(pool_id);
        if let Some(pool) = self.pools.remove(pool_id) {
            if let Some(c) = self.clusters.get_mut(&pool.cluster_id) {
                c.pool_ids.retain(|id| id != pool_id);
            }
        }
    }

    fn remove_cluster(&mut self, cluster_id: &str) {
        let pool_ids = self
            .clusters
            .get(cluster_id)
            .map(|c| c.pool_ids.clone())
            .unwrap_or_default();
        for pid in pool_ids {
            self.remove_pool(&pid);
        }
        self.controllers.remove(cluster_id);
        self.load_balancers
            .retain(|_, lb| lb.cluster_id != cluster_id);
        self.pvcs.retain(|_, p| p.cluster_id != cluster_id);
        self.clusters.remove(cluster_id);
    }
}
