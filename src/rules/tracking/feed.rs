//! The operations page's feed: what the list returned, overlaid with the
//! tracker's newer states, filtered and sorted.

use super::tracker::Tracker;
use crate::api::types::Operation;
use crate::rules::times::parse_rfc3339_ms;

/// The operations page's filters, kept in the URL query (`status`, `kind`,
/// `resource`) so they survive a reload; an empty value means "any".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeedFilter {
    pub status: String,
    pub kind: String,
    pub resource: String,
}

impl FeedFilter {
    pub fn matches(&self, op: &Operation) -> bool {
        (self.status.is_empty() || op.status.as_str() == self.status)
            && (self.kind.is_empty() || op.kind.as_str() == self.kind)
            && (self.resource.is_empty() || op.resource_id == self.resource)
    }

    /// The feed as shown: `listed` overlaid with what the tracker knows newer
    /// (a live status without a refetch), filtered, newest first.
    pub fn apply(&self, listed: &[Operation], live: &Tracker) -> Vec<Operation> {
        let mut feed: Vec<Operation> = listed
            .iter()
            .map(|op| match live.ops.get(&op.id) {
                Some(t) if t.op.updated_at >= op.updated_at => t.op.clone(),
                _ => op.clone(),
            })
            .filter(|op| self.matches(op))
            .collect();
        feed.sort_by(|a, b| {
            let (ta, tb) = (
                parse_rfc3339_ms(&a.created_at).unwrap_or(0.0),
                parse_rfc3339_ms(&b.created_at).unwrap_or(0.0),
            );
            tb.total_cmp(&ta).then_with(|| b.id.cmp(&a.id))
        });
        feed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::{OperationKind, OperationStatus};
    use crate::rules::tracking::test_ops::{op, T0};

    #[test]
    fn the_feed_is_filtered_newest_first_with_the_live_status_on_top() {
        let at = |id: &str, status, created: &str, kind| {
            let mut o = op(id, status);
            o.created_at = created.into();
            o.updated_at = created.into();
            o.kind = kind;
            o
        };
        let listed = vec![
            at(
                "old",
                OperationStatus::Done,
                "2026-05-04T09:00:00Z",
                OperationKind::NksCluster,
            ),
            at(
                "new",
                OperationStatus::Running,
                "2026-05-04T09:30:00Z",
                OperationKind::NksNodePool,
            ),
            at(
                "mid",
                OperationStatus::Failed,
                "2026-05-04T09:10:00Z",
                OperationKind::NksNodePool,
            ),
        ];
        let mut live = Tracker::default();
        live.track(listed[1].clone(), T0, None);
        let mut fresher = listed[1].clone();
        fresher.status = OperationStatus::Done;
        fresher.updated_at = "2026-05-04T09:31:00Z".into();
        live.apply(&[fresher], T0);

        let all = FeedFilter::default().apply(&listed, &live);
        let ids: Vec<&str> = all.iter().map(|o| o.id.as_str()).collect();
        assert_eq!(ids, ["new", "mid", "old"]);
        assert_eq!(
            all[0].status,
            OperationStatus::Done,
            "the tracker's newer state wins"
        );

        let done = FeedFilter {
            status: "done".into(),
            ..FeedFilter::default()
        };
        assert_eq!(done.apply(&listed, &live).len(), 2);
        let pools = FeedFilter {
            kind: "nks_node_pool".into(),
            resource: "res-mid".into(),
            ..FeedFilter::default()
        };
        let only: Vec<String> = pools
            .apply(&listed, &live)
            .into_iter()
            .map(|o| o.id)
            .collect();
        assert_eq!(only, ["mid"]);
    }
}
