//! Sorting and filtering of the cluster list, kept pure so it is tested on the host.

use crate::api::types::Cluster;

/// What the person asked the list to show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterQuery {
    /// Case-insensitive substring of the name.
    pub name: String,
    /// Exact status, or empty for any.
    pub status: String,
    /// Exact tag, or empty for any.
    pub tag: String,
    /// `name`, `status` or `created` (newest first); anything else keeps the API's order.
    pub sort: String,
}

pub fn filter_and_sort(clusters: &[Cluster], q: &ClusterQuery) -> Vec<Cluster> {
    let needle = q.name.trim().to_lowercase();
    let mut out: Vec<Cluster> = clusters
        .iter()
        .filter(|c| needle.is_empty() || c.name.to_lowercase().contains(&needle))
        .filter(|c| q.status.is_empty() || c.status.as_str() == q.status)
        .filter(|c| q.tag.is_empty() || c.tags.iter().any(|t| t == &q.tag))
        .cloned()
        .collect();
    match q.sort.as_str() {
        "name" => out.sort_by_key(|c| c.name.to_lowercase()),
        "status" => out.sort_by(|a, b| {
            a.status
                .as_str()
                .cmp(b.status.as_str())
                .then_with(|| a.name.cmp(&b.name))
        }),
        "created" => out.sort_by(|a, b| b.created_at.cmp(&a.created_at)),
        _ => {}
    }
    out
}

/// Every tag used by any cluster, sorted, for the filter's choices.
pub fn all_tags(clusters: &[Cluster]) -> Vec<String> {
    let mut tags: Vec<String> = clusters
        .iter()
        .flat_map(|c| c.tags.iter().cloned())
        .collect();
    tags.sort();
    tags.dedup();
    tags
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::ResourceStatus;

    fn c(name: &str, status: ResourceStatus, tags: &[&str], at: &str) -> Cluster {
        Cluster {
            name: name.into(),
            status,
            tags: tags.iter().map(|t| t.to_string()).collect(),
            created_at: at.into(),
            ..Cluster::default()
        }
    }

    fn sample() -> Vec<Cluster> {
        vec![
            c(
                "edge-prod",
                ResourceStatus::Ready,
                &["prod"],
                "2026-01-02T00:00:00Z",
            ),
            c(
                "Batch",
                ResourceStatus::Creating,
                &["dev"],
                "2026-03-01T00:00:00Z",
            ),
            c(
                "analytics",
                ResourceStatus::Ready,
                &["prod", "data"],
                "2026-02-01T00:00:00Z",
            ),
        ]
    }

    fn names(list: Vec<Cluster>) -> Vec<String> {
        list.into_iter().map(|c| c.name).collect()
    }

    #[test]
    fn filters_by_name_status_and_tag_together() {
        let q = ClusterQuery {
            name: "A".into(),
            ..Default::default()
        };
        assert_eq!(
            names(filter_and_sort(&sample(), &q)),
            ["Batch", "analytics"]
        );
        let q = ClusterQuery {
            status: "ready".into(),
            tag: "prod".into(),
            ..Default::default()
        };
        assert_eq!(
            names(filter_and_sort(&sample(), &q)),
            ["edge-prod", "analytics"]
        );
        let q = ClusterQuery {
            tag: "none-such".into(),
            ..Default::default()
        };
        assert!(filter_and_sort(&sample(), &q).is_empty());
    }

    #[test]
    fn sorts_by_name_status_or_newest() {
        let by = |sort: &str| {
            names(filter_and_sort(
                &sample(),
                &ClusterQuery {
                    sort: sort.into(),
                    ..Default::default()
                },
            ))
        };
        assert_eq!(by("name"), ["analytics", "Batch", "edge-prod"]);
        assert_eq!(by("status"), ["Batch", "analytics", "edge-prod"]);
        assert_eq!(by("created"), ["Batch", "analytics", "edge-prod"]);
        assert_eq!(by(""), ["edge-prod", "Batch", "analytics"]);
    }

    #[test]
    fn tag_choices_are_unique_and_sorted() {
        assert_eq!(all_tags(&sample()), ["data", "dev", "prod"]);
    }
}
