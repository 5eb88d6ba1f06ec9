//! Scaling rules: what a node-count change means for running workloads.
//!
//! Lowering `node_count` by hand makes the platform terminate nodes without cordon,
//! drain, PodDisruptionBudgets or volume detach; the autoscaler, by contrast, drains
//! gracefully. And the cluster needs one baseline worker (to finish provisioning and
//! to run CoreDNS), so no change may leave every pool at zero.

use crate::api::types::{Node, Pool};

/// What a node-count edit does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScaleChange {
    Same,
    /// Safe: new nodes join; nothing running is touched.
    Up {
        from: u32,
        to: u32,
    },
    /// Disruptive: `from - to` nodes are terminated without drain.
    Down {
        from: u32,
        to: u32,
    },
}

impl ScaleChange {
    pub fn of(from: u32, to: u32) -> Self {
        match to.cmp(&from) {
            std::cmp::Ordering::Equal => ScaleChange::Same,
            std::cmp::Ordering::Greater => ScaleChange::Up { from, to },
            std::cmp::Ordering::Less => ScaleChange::Down { from, to },
        }
    }

    /// Nodes that will be terminated.
    pub fn terminated(self) -> u32 {
        match self {
            ScaleChange::Down { from, to } => from - to,
            _ => 0,
        }
    }
}

/// Why a change is refused when it would leave the cluster with no worker at all.
pub const BASELINE_REASON: &str = "Every pool of this cluster would have 0 nodes. Keep one baseline pool at 1 node or more: the cluster needs a worker to finish provisioning and to run CoreDNS.";

/// Whether setting pool `pool_id` to `new_count` (`None`: deleting it) would leave
/// every pool of the cluster at zero nodes.
pub fn leaves_no_baseline(pools: &[Pool], pool_id: &str, new_count: Option<u32>) -> bool {
    let total: u64 = pools
        .iter()
        .map(|p| {
            if p.id == pool_id {
                new_count.unwrap_or(0)
            } else {
                p.node_count
            }
        })
        .map(u64::from)
        .sum();
    total == 0
}

/// The nodes most likely to go in a scale-down of `count` nodes. The platform picks
/// which; the newest are shown first because that is what it has been seen to take,
/// and every node listed gets its drain commands either way.
pub fn nodes_at_risk(nodes: &[Node], count: u32) -> Vec<Node> {
    let mut sorted: Vec<Node> = nodes.to_vec();
    sorted.sort_by(|a, b| {
        b.created_at
            .cmp(&a.created_at)
            .then_with(|| b.name.cmp(&a.name))
    });
    sorted.truncate(count as usize);
    sorted
}

/// The commands that move workloads off a node gracefully before it goes.
pub fn drain_commands(node_name: &str) -> [String; 2] {
    [
        format!("kubectl cordon {node_name}"),
        format!("kubectl drain {node_name} --ignore-daemonsets --delete-emptydir-data"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(id: &str, n: u32) -> Pool {
        Pool {
            id: id.into(),
            node_count: n,
            ..Pool::default()
        }
    }

    fn node(name: &str, at: &str) -> Node {
        Node {
            name: name.into(),
            created_at: at.into(),
            ..Node::default()
        }
    }

    #[test]
    fn scaling_up_is_safe_and_scaling_down_terminates_the_difference() {
        assert_eq!(ScaleChange::of(3, 3), ScaleChange::Same);
        assert_eq!(ScaleChange::of(3, 5).terminated(), 0);
        assert_eq!(ScaleChange::of(5, 2), ScaleChange::Down { from: 5, to: 2 });
        assert_eq!(ScaleChange::of(5, 2).terminated(), 3);
    }

    #[test]
    fn scale_down_below_baseline_is_refused() {
        let pools = [pool("base", 1), pool("zero", 0)];
        assert!(leaves_no_baseline(&pools, "base", Some(0)));
        assert!(!leaves_no_baseline(&pools, "base", Some(1)));
        assert!(!leaves_no_baseline(&pools, "zero", Some(0)));
    }

    #[test]
    fn deleting_the_only_pool_with_nodes_is_refused() {
        let pools = [pool("base", 3), pool("zero", 0)];
        assert!(leaves_no_baseline(&pools, "base", None));
        assert!(!leaves_no_baseline(&pools, "zero", None));
        assert!(!leaves_no_baseline(
            &[pool("a", 2), pool("b", 1)],
            "a",
            None
        ));
    }

    #[test]
    fn the_newest_nodes_are_listed_at_risk_first() {
        let nodes = [
            node("a", "2026-01-01T00:00:00Z"),
            node("c", "2026-03-01T00:00:00Z"),
            node("b", "2026-02-01T00:00:00Z"),
        ];
        let names: Vec<_> = nodes_at_risk(&nodes, 2)
            .into_iter()
            .map(|n| n.name)
            .collect();
        assert_eq!(names, ["c", "b"]);
        assert!(nodes_at_risk(&nodes, 0).is_empty());
        assert_eq!(nodes_at_risk(&nodes, 9).len(), 3);
    }

    #[test]
    fn drain_commands_name_the_real_node() {
        let [cordon, drain] = drain_commands("baseline-7xk2p");
        assert_eq!(cordon, "kubectl cordon baseline-7xk2p");
        assert!(drain.starts_with("kubectl drain baseline-7xk2p "));
    }
}
