//! The node deletes this browser sent, each with the pool its node was in.
//!
//! A node delete's operation names the node, not its pool; the console sent it
//! from the pool's path, so it knows. Kept in `localStorage`, so the pool's size
//! history attributes the delete after a reload, once the node is gone.

use serde::{Deserialize, Serialize};

/// How many deletes are kept; the oldest goes first.
pub const KEPT: usize = 200;

/// One delete: the node and the pool it was in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeDelete {
    pub node_id: String,
    pub pool_id: String,
}

/// The kept deletes, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeDeletes(Vec<NodeDelete>);

impl NodeDeletes {
    /// What was kept; anything unreadable reads as nothing kept.
    pub fn parse(text: &str) -> Self {
        serde_json::from_str(text).unwrap_or_default()
    }

    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// With one more delete, once, and at most [`KEPT`].
    pub fn with(mut self, node_id: &str, pool_id: &str) -> Self {
        self.0.retain(|d| d.node_id != node_id);
        self.0.push(NodeDelete {
            node_id: node_id.to_string(),
            pool_id: pool_id.to_string(),
        });
        let over = self.0.len().saturating_sub(KEPT);
        self.0.drain(..over);
        self
    }

    /// The nodes deleted from `pool_id`.
    pub fn nodes_of<'a>(&'a self, pool_id: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.0
            .iter()
            .filter(move |d| d.pool_id == pool_id)
            .map(|d| d.node_id.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_delete_is_found_by_its_pool_after_a_round_trip() {
        let kept = NodeDeletes::default().with("n1", "p1").with("n2", "p2");
        let read = NodeDeletes::parse(&kept.to_text());
        assert_eq!(read.nodes_of("p1").collect::<Vec<_>>(), ["n1"]);
        assert_eq!(read.nodes_of("p2").collect::<Vec<_>>(), ["n2"]);
        assert_eq!(read.nodes_of("p3").count(), 0);
    }

    #[test]
    fn unreadable_text_keeps_nothing() {
        for text in ["", "null", "{", "[1]", r#"[{"node_id": 1}]"#] {
            assert_eq!(NodeDeletes::parse(text), NodeDeletes::default(), "{text}");
        }
    }

    #[test]
    fn a_node_is_kept_once_and_the_oldest_go_first() {
        let mut kept = NodeDeletes::default().with("n0", "p");
        kept = kept.with("n0", "q");
        assert_eq!(kept.nodes_of("q").collect::<Vec<_>>(), ["n0"]);
        assert_eq!(kept.nodes_of("p").count(), 0);
        for i in 1..=KEPT {
            kept = kept.with(&format!("n{i}"), "p");
        }
        assert_eq!(kept.0.len(), KEPT);
        assert_eq!(kept.nodes_of("q").count(), 0, "the oldest went first");
        assert_eq!(kept.nodes_of("p").next(), Some("n1"));
    }
}
