//! Scaling rules: what a node-count change means for running workloads.
//!
//! Lowering `node_count` by hand makes the platform terminate nodes without cordon,
//! drain, PodDisruptionBudgets or volume detach; the autoscaler, by contrast, drains
//! gracefully. And the cluster needs one baseline worker (to finish provisioning and
//! to run CoreDNS), so no change may leave every pool at zero.

use crate::api::types::{Node, Pool};
use crate::rules::times::parse_rfc3339_ms;

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

/// Which nodes a scale-down of `count` nodes takes, as far as it can be known.
/// The platform terminates the newest nodes; when creation times tie at the
/// edge, or a time is missing, the order is not known and the platform chooses
/// among the candidates. A guess is never presented as the answer.
#[derive(Clone, Debug, PartialEq)]
pub enum AtRisk {
    /// Exactly these nodes go (newest first).
    Known(Vec<Node>),
    /// `count` of `candidates` go: `certain` of them for sure (strictly newer
    /// than the rest), the others chosen by the platform among equals.
    Among { count: u32, candidates: Vec<Node> },
}

impl AtRisk {
    /// Every node that could go, each to be drained first.
    pub fn nodes(&self) -> &[Node] {
        match self {
            AtRisk::Known(nodes) => nodes,
            AtRisk::Among { candidates, .. } => candidates,
        }
    }
}

pub fn nodes_at_risk(nodes: &[Node], count: u32) -> AtRisk {
    let count = count as usize;
    if count == 0 {
        return AtRisk::Known(Vec::new());
    }
    let timed: Option<Vec<(f64, &Node)>> = nodes
        .iter()
        .map(|n| parse_rfc3339_ms(&n.created_at).map(|t| (t, n)))
        .collect();
    let Some(mut timed) = timed else {
        // A node without a readable creation time could be anywhere in the order.
        return if count >= nodes.len() {
            AtRisk::Known(nodes.to_vec())
        } else {
            AtRisk::Among {
                count: count as u32,
                candidates: nodes.to_vec(),
            }
        };
    };
    timed.sort_by(|a, b| b.0.total_cmp(&a.0));
    if count >= timed.len() {
        return AtRisk::Known(timed.into_iter().map(|(_, n)| n.clone()).collect());
    }
    let edge = timed[count - 1].0;
    if timed[count].0 < edge {
        return AtRisk::Known(timed[..count].iter().map(|(_, n)| (*n).clone()).collect());
    }
    // Ties at the edge: the sure ones, then every node as new as the edge.
    AtRisk::Among {
        count: count as u32,
        candidates: timed
            .into_iter()
            .filter(|(t, _)| *t >= edge)
            .map(|(_, n)| n.clone())
            .collect(),
    }
}

/// The commands that move workloads off a node gracefully before it goes. The
/// node's name comes from the API and may hold anything: it is quoted as one
/// argument (see `shell::quote`), and a name starting with `-` goes last, after
/// `--`, so it can never be read as an option.
pub fn drain_commands(node_name: &str) -> [String; 2] {
    let node = super::shell::operand(node_name);
    let flags = "--ignore-daemonsets --delete-emptydir-data";
    let drain = if node_name.starts_with('-') {
        format!("kubectl drain {flags} {node}")
    } else {
        format!("kubectl drain {node} {flags}")
    };
    [format!("kubectl cordon {node}"), drain]
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
        let names = |risk: AtRisk| {
            risk.nodes()
                .iter()
                .map(|n| n.name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            nodes_at_risk(&nodes, 2),
            AtRisk::Known(vec![nodes[1].clone(), nodes[2].clone()])
        );
        assert_eq!(names(nodes_at_risk(&nodes, 0)), Vec::<String>::new());
        assert_eq!(names(nodes_at_risk(&nodes, 9)).len(), 3);
    }

    #[test]
    fn tied_creation_times_list_every_node_that_could_go_and_name_no_guess() {
        let same = "2026-01-01T00:00:00Z";
        let nodes = [
            node("a", same),
            node("b", same),
            node("c", same),
            node("d", same),
            node("e", same),
        ];
        match nodes_at_risk(&nodes, 4) {
            AtRisk::Among { count, candidates } => {
                assert_eq!(count, 4);
                assert_eq!(candidates.len(), 5, "all five could go");
            }
            known => panic!("a tie was presented as known: {known:?}"),
        }
        // A newer node goes for sure; the tie below it is the platform's choice.
        let nodes = [
            node("old-1", "2026-01-01T00:00:00Z"),
            node("old-2", "2026-01-01T00:00:00Z"),
            node("old-3", "2026-01-01T00:00:00Z"),
            node("new", "2026-02-01T00:00:00Z"),
        ];
        assert_eq!(
            nodes_at_risk(&nodes, 1),
            AtRisk::Known(vec![nodes[3].clone()])
        );
        let AtRisk::Among { count, candidates } = nodes_at_risk(&nodes, 2) else {
            panic!("old-1..3 tie for the second place");
        };
        assert_eq!((count, candidates.len()), (2, 4));
        assert_eq!(candidates[0].name, "new");
    }

    #[test]
    fn a_missing_creation_time_makes_every_node_a_candidate() {
        let nodes = [
            node("a", "2026-01-01T00:00:00Z"),
            node("b", ""),
            node("c", "2026-03-01T00:00:00Z"),
        ];
        assert_eq!(
            nodes_at_risk(&nodes, 1),
            AtRisk::Among {
                count: 1,
                candidates: nodes.to_vec()
            }
        );
        assert_eq!(nodes_at_risk(&nodes, 3), AtRisk::Known(nodes.to_vec()));
    }

    #[test]
    fn drain_commands_name_the_real_node() {
        let [cordon, drain] = drain_commands("baseline-7xk2p");
        assert_eq!(cordon, "kubectl cordon baseline-7xk2p");
        assert!(drain.starts_with("kubectl drain baseline-7xk2p "));
    }

    #[test]
    fn drain_commands_quote_whatever_the_name_holds() {
        let [cordon, drain] = drain_commands("Bad Pool!-x1;reboot");
        assert_eq!(cordon, "kubectl cordon 'Bad Pool!-x1;reboot'");
        assert_eq!(
            drain,
            "kubectl drain 'Bad Pool!-x1;reboot' --ignore-daemonsets --delete-emptydir-data"
        );
        let [cordon, drain] = drain_commands("x'$(id)\nrm");
        assert_eq!(cordon, r"kubectl cordon $'x\'$(id)\nrm'");
        assert!(drain.starts_with(r"kubectl drain $'x\'$(id)\nrm' "));
        let [cordon, drain] = drain_commands("--all");
        assert_eq!(cordon, "kubectl cordon -- --all");
        assert_eq!(
            drain,
            "kubectl drain --ignore-daemonsets --delete-emptydir-data -- --all"
        );
    }
}
