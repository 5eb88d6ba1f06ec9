//! The operations page's feed: what the list returned, overlaid with the
//! tracker's newer states, filtered and sorted.

use super::tracker::Tracker;
use crate::api::types::Operation;
use crate::rules::times::parse_rfc3339_ms;

/// The operations page's filters, kept in the URL query (`status`, `kind`,
/// `type`, `resource`) so they survive a reload; an empty value means "any".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FeedFilter {
    pub status: String,
    pub kind: String,
    pub op_type: String,
    /// A resource's id.
    pub resource: String,
}

/// The values the API takes for each filter (digest §2.2, the Go SDK's enums).
pub const STATUSES: [&str; 5] = ["pending", "running", "unknown", "done", "failed"];
pub const KINDS: [&str; 9] = [
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
pub const TYPES: [&str; 4] = ["create", "update", "delete", "restart"];

impl FeedFilter {
    /// The filters as the URL gives them; a value the API would refuse (a
    /// hand-edited address) is dropped, so it reads as "any" rather than as a
    /// page that cannot be read.
    pub fn from_query(status: String, kind: String, op_type: String, resource: String) -> Self {
        let known = |value: String, allowed: &[&str]| {
            if allowed.contains(&value.as_str()) {
                value
            } else {
                String::new()
            }
        };
        FeedFilter {
            status: known(status, &STATUSES),
            kind: known(kind, &KINDS),
            op_type: known(op_type, &TYPES),
            resource: resource.trim().to_string(),
        }
    }

    pub fn matches(&self, op: &Operation) -> bool {
        (self.status.is_empty() || op.status.as_str() == self.status)
            && (self.kind.is_empty() || op.kind.as_str() == self.kind)
            && (self.op_type.is_empty() || op.op_type.as_str() == self.op_type)
            && (self.resource.is_empty() || op.resource_id == self.resource)
    }

    /// The filters as the API's list takes them, newest first: every filter is
    /// applied by the API, so each page holds only matching operations and the
    /// pages count them all.
    pub fn api_query(&self) -> Vec<(&'static str, String)> {
        let mut query = vec![("sort", "created_at:desc".to_string())];
        for (key, value) in [
            ("status", &self.status),
            ("kind", &self.kind),
            ("type", &self.op_type),
            ("resource_id", &self.resource),
        ] {
            if !value.is_empty() {
                query.push((key, value.clone()));
            }
        }
        query
    }

    /// The filters as the page's URL holds them (its own keys: `resource`).
    pub fn url_query(&self) -> Vec<(&'static str, String)> {
        [
            ("status", &self.status),
            ("kind", &self.kind),
            ("type", &self.op_type),
            ("resource", &self.resource),
        ]
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| (k, v.clone()))
        .collect()
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

    #[test]
    fn the_filters_go_to_the_api_and_a_value_it_would_refuse_reads_as_any() {
        let filter = FeedFilter::from_query(
            "failed".into(),
            "nks_node_pool".into(),
            "bogus".into(),
            " pool-1 ".into(),
        );
        assert_eq!(filter.op_type, "");
        assert_eq!(
            filter.api_query(),
            vec![
                ("sort", "created_at:desc".to_string()),
                ("status", "failed".to_string()),
                ("kind", "nks_node_pool".to_string()),
                ("resource_id", "pool-1".to_string()),
            ]
        );
        assert_eq!(
            filter.url_query(),
            vec![
                ("status", "failed".to_string()),
                ("kind", "nks_node_pool".to_string()),
                ("resource", "pool-1".to_string()),
            ]
        );
        assert_eq!(
            FeedFilter::default().api_query(),
            vec![("sort", "created_at:desc".to_string())]
        );
        let mut deleted = op("d", OperationStatus::Done);
        deleted.op_type = crate::api::types::OperationType::Delete;
        let deletes =
            FeedFilter::from_query(String::new(), String::new(), "delete".into(), String::new());
        assert!(deletes.matches(&deleted));
        assert!(!deletes.matches(&op("u", OperationStatus::Done)));
    }
}
