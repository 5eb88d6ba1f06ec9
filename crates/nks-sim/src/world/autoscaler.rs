//! A stand-in for the platform's Karpenter-based autoscaler (digest §8.1), so the console can
//! be seen coping with pools that change without user action.
//!
//! When enabled, every `AUTOSCALER_PERIOD × time-scale` it picks one autoscaling cluster
//! (round-robin) and one idle pool in it (a deterministic die), and moves that pool by one
//! node through a real operation, the way the real provider drives the API:
//! - scale-up: a pool update (`nks_node_pool`/`update`, `details.changes.node_count`);
//! - scale-down: a node delete (`nks_node`/`delete` on the newest node) that drains first,
//!   recorded as `details.changes.drained: {from: false, to: true}`.
//!
//! It never leaves a cluster with zero nodes in total, never exceeds quota or 100 nodes, and
//! only touches `ready` clusters and pools that no operation holds.

use super::{durations, World};
use crate::model::*;
use crate::timefmt::Millis;
use crate::validate::PoolUpdate;

#[derive(Debug, Clone, Default)]
pub struct AutoscalerState {
    pub on: bool,
    /// When it may act next; 0 = one period after it is switched on.
    pub next_at: Millis,
    turn: usize,
}

impl AutoscalerState {
    pub fn set(&mut self, on: bool) {
        self.on = on;
        self.next_at = 0;
    }
}

impl World {
    pub fn autoscaler_period_ms(&self) -> i64 {
        let scaled = durations::AUTOSCALER_PERIOD as f64 * self.time_scale;
        if scaled.is_finite() {
            scaled.clamp(10.0, 1e12) as i64
        } else {
            durations::AUTOSCALER_PERIOD
        }
    }

    pub(super) fn autoscale(&mut self, now: Millis) {
        if !self.autoscaler.on {
            return;
        }
        if self.autoscaler.next_at == 0 {
            self.autoscaler.next_at = now + self.autoscaler_period_ms();
            return;
        }
        if now < self.autoscaler.next_at {
            return;
        }
        self.autoscaler.next_at = now + self.autoscaler_period_ms();
        let mut clusters: Vec<(u64, String)> = self
            .clusters
            .values()
            .filter(|c| {
                c.autoscaling && c.status == ResourceStatus::Ready && !self.is_locked(&c.id)
            })
            .map(|c| (c.seq, c.id.clone()))
            .collect();
        if clusters.is_empty() {
            return;
        }
        clusters.sort();
        let start = self.autoscaler.turn % clusters.len();
        self.autoscaler.turn = self.autoscaler.turn.wrapping_add(1);
        for i in 0..clusters.len() {
            let cluster_id = clusters[(start + i) % clusters.len()].1.clone();
            if self.autoscale_cluster(&cluster_id, now) {
                return;
            }
        }
    }

    /// Tries one ±1 move in one idle pool of the cluster; true when an operation started.
    fn autoscale_cluster(&mut self, cluster_id: &str, now: Millis) -> bool {
        let Some(cluster) = self.clusters.get(cluster_id) else {
            return false;
        };
        let pools: Vec<(String, i64)> = self
            .cluster_pools(cluster)
            .into_iter()
            .filter(|p| p.status == ResourceStatus::Ready && !self.is_locked(&p.id))
            .map(|p| (p.id.clone(), p.node_count))
            .collect();
        let total: i64 = self
            .cluster_pools(cluster)
            .iter()
            .map(|p| p.node_count)
            .sum();
        if pools.is_empty() {
            return false;
        }
        let first = self.ids.roll(pools.len() as u64) as usize;
        let up_first = self.ids.roll(2) == 0;
        for i in 0..pools.len() {
            let (pool_id, count) = pools[(first + i) % pools.len()].clone();
            for up in [up_first, !up_first] {
                let started = if up {
                    count < crate::validate::NODE_COUNT_MAX
                        && self
                            .update_pool(
                                cluster_id,
                                &pool_id,
                                PoolUpdate {
                                    node_count: Some(count + 1),
                                    ..PoolUpdate::default()
                                },
                                now,
                            )
                            .is_ok()
                } else {
                    total > 1 && count > 0 && self.drain_newest(cluster_id, &pool_id, now)
                };
                if started {
                    return true;
                }
            }
        }
        false
    }

    fn drain_newest(&mut self, cluster_id: &str, pool_id: &str, now: Millis) -> bool {
        let newest = self
            .pool_nodes(pool_id)
            .iter()
            .rev()
            .find(|n| n.status == ResourceStatus::Ready)
            .map(|n| n.id.clone());
        match newest {
            Some(node_id) => self
                .delete_node(cluster_id, pool_id, &node_id, true, now)
                .is_ok(),
            None => false,
        }
    }
}
