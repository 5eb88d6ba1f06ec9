//! Filtering, sorting and paging of the lists (clusters, a cluster's pools), and
//! the keys of their rows, kept pure so they are tested on the host.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Deref;

use crate::api::types::{ClusterSummary, Pool};

/// What the person asked the list to show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterQuery {
    /// Case-insensitive substring of the name.
    pub name: String,
    /// Exact status, or empty for any.
    pub status: String,
    /// Exact tag, or empty for any.
    pub tag: String,
    /// `name`, `status` or `created` (newest first), `-` before it for the other
    /// direction (`-created`: oldest first); anything else keeps the API's order.
    pub sort: String,
}

impl ClusterQuery {
    /// Whether anything but the order narrows the list.
    pub fn filters(&self) -> bool {
        !(self.name.trim().is_empty() && self.status.is_empty() && self.tag.is_empty())
    }
}

/// The columns of the cluster list a click can sort by.
pub const SORTABLE: [&str; 3] = ["name", "status", "created"];

/// Whether a column's first sort runs from the largest: creation (newest
/// first) and node counts; text sorts A to Z first.
fn first_descending(column: &str) -> bool {
    matches!(column, "created" | "nodes")
}

/// A sortable column's state for `aria-sort` under the `sort` in force:
/// `ascending`, `descending` or `none`.
pub fn aria_sort(sort: &str, column: &str) -> &'static str {
    let (key, flipped) = split_sort(sort);
    if key != column {
        return "none";
    }
    match first_descending(column) != flipped {
        true => "descending",
        false => "ascending",
    }
}

/// The sort a click on `column`'s header asks for: that column in its first
/// direction, or the other direction when it already sorts the list.
pub fn sort_on_click(sort: &str, column: &str) -> String {
    match split_sort(sort) {
        (key, false) if key == column => format!("-{column}"),
        _ => column.to_string(),
    }
}

/// A sort's column and whether it runs the other way.
fn split_sort(sort: &str) -> (&str, bool) {
    match sort.strip_prefix('-') {
        Some(key) => (key, true),
        None => (sort, false),
    }
}

/// Names are `[A-Za-z0-9._-]` (see `validation`), so ASCII case folding is all the
/// filter and the sort need; full Unicode lowercasing would bring its tables into
/// the first page for nothing.
/// The list's items are anything that reads as a cluster summary (a
/// `ClusterSummary`, or a `Sourced<ClusterSummary>` that keeps its text to key its row).
pub fn filter_and_sort<C>(clusters: &[C], q: &ClusterQuery) -> Vec<C>
where
    C: Deref<Target = ClusterSummary> + Clone,
{
    let needle = q.name.trim().to_ascii_lowercase();
    let matching: Vec<&C> = clusters
        .iter()
        .filter(|c| needle.is_empty() || c.name.to_ascii_lowercase().contains(&needle))
        .filter(|c| q.status.is_empty() || c.status.as_str() == q.status)
        .filter(|c| q.tag.is_empty() || c.tags.iter().any(|t| t == &q.tag))
        .collect();
    let (sort, flipped) = split_sort(&q.sort);
    if !SORTABLE.contains(&sort) {
        return matching.into_iter().cloned().collect();
    }
    let order = stable_order(matching.len(), &|i, j| {
        let (a, b) = (matching[i], matching[j]);
        let ordering = match sort {
            "name" => a
                .name
                .to_ascii_lowercase()
                .cmp(&b.name.to_ascii_lowercase()),
            "status" => a
                .status
                .as_str()
                .cmp(b.status.as_str())
                .then_with(|| a.name.cmp(&b.name)),
            _ => b.created_at.cmp(&a.created_at),
        };
        // The other direction; equal ones keep the API's order either way.
        let ordering = if flipped {
            ordering.reverse()
        } else {
            ordering
        };
        ordering == Ordering::Less
    });
    order.into_iter().map(|i| matching[i].clone()).collect()
}

/// The positions `0..len` in stable sorted order by `less` (a bottom-up merge
/// sort). The first page's sorts go through this one function: the standard
/// library's sort is compiled again for every element type and comparator.
pub fn stable_order(len: usize, less: &dyn Fn(usize, usize) -> bool) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut merged = Vec::with_capacity(len);
    let mut width = 1;
    while width < len {
        merged.clear();
        for start in (0..len).step_by(2 * width) {
            let mid = (start + width).min(len);
            let end = (start + 2 * width).min(len);
            let (mut i, mut j) = (start, mid);
            while i < mid && j < end {
                // Take from the right run only when strictly less: equal items keep their order.
                if less(order[j], order[i]) {
                    merged.push(order[j]);
                    j += 1;
                } else {
                    merged.push(order[i]);
                    i += 1;
                }
            }
            merged.extend_from_slice(&order[i..mid]);
            merged.extend_from_slice(&order[j..end]);
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// Every tag used by any cluster, sorted, for the filter's choices.
pub fn all_tags<C: Deref<Target = ClusterSummary>>(clusters: &[C]) -> Vec<String> {
    let tags: Vec<&str> = clusters
        .iter()
        .flat_map(|c| c.tags.iter().map(String::as_str))
        .collect();
    let mut sorted: Vec<String> = Vec::new();
    for i in stable_order(tags.len(), &|i, j| tags[i] < tags[j]) {
        if sorted.last().map(String::as_str) != Some(tags[i]) {
            sorted.push(tags[i].to_string());
        }
    }
    sorted
}

/// Whether `pool` is one the pool filter asks for: `needle` (already trimmed
/// and lowercased) is part of its name, its instance type or one of its labels.
/// ASCII case folding, as for clusters: names, instance types and Kubernetes
/// labels are ASCII.
pub fn pool_matches(pool: &Pool, needle: &str) -> bool {
    let has = |text: &str| text.to_ascii_lowercase().contains(needle);
    needle.is_empty()
        || has(&pool.name)
        || has(&pool.node_config.instance_type)
        || pool.node_config.labels.iter().any(|l| has(l))
}

/// The columns of a cluster's pools a click can sort by.
pub const POOL_SORTABLE: [&str; 4] = ["name", "instance", "nodes", "status"];

/// The order of `pools` under `sort` (a [`POOL_SORTABLE`] column, `-` before
/// it for the other way), as positions; `None` keeps the API's order. Names
/// and instance types A to Z, node counts largest first; ties keep the API's
/// order.
pub fn pool_order(pools: &[&Pool], sort: &str) -> Option<Vec<usize>> {
    let (column, flipped) = split_sort(sort);
    if !POOL_SORTABLE.contains(&column) {
        return None;
    }
    Some(stable_order(pools.len(), &|i, j| {
        let (a, b) = (&*pools[i], &*pools[j]);
        let ordering = match column {
            "name" => a
                .name
                .to_ascii_lowercase()
                .cmp(&b.name.to_ascii_lowercase()),
            "instance" => a
                .node_config
                .instance_type
                .cmp(&b.node_config.instance_type),
            "nodes" => b.node_count.cmp(&a.node_count),
            _ => a.status.as_str().cmp(b.status.as_str()),
        };
        let ordering = if flipped {
            ordering.reverse()
        } else {
            ordering
        };
        ordering == Ordering::Less
    }))
}

/// Rows shown at a time on a list that can be long (a cluster's pools).
pub const PER_PAGE: usize = 50;

/// One page of a list: which items it shows, out of how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageOf {
    /// 1-based, as the URL and the person count.
    pub number: usize,
    pub pages: usize,
    /// The items shown are `start..end` of the list.
    pub start: usize,
    pub end: usize,
    pub total: usize,
}

impl PageOf {
    /// The page `asked` (1-based, from the URL; anything unreadable is 1) of a
    /// list of `total` items, `per_page` at a time. A page past the end is the
    /// last one: a list that shrank between reads keeps showing rows, never an
    /// empty page.
    pub fn of(total: usize, asked: usize, per_page: usize) -> Self {
        let per_page = per_page.max(1);
        let pages = total.div_ceil(per_page).max(1);
        let number = asked.clamp(1, pages);
        let start = (number - 1) * per_page;
        PageOf {
            number,
            pages,
            start,
            end: (start + per_page).min(total),
            total,
        }
    }

    pub fn has_previous(&self) -> bool {
        self.number > 1
    }

    pub fn has_next(&self) -> bool {
        self.number < self.pages
    }
}

/// Each item paired with how many equal items came before it: the key of its
/// row. An item the API repeats (a list that moved between two of its pages)
/// still gets a row of its own, where a keyed list would otherwise merge them.
pub fn keyed<K: Eq + Hash + Clone>(items: &[K]) -> Vec<(K, usize)> {
    let mut seen: HashMap<&K, usize> = HashMap::with_capacity(items.len());
    items
        .iter()
        .map(|item| {
            let n = seen.entry(item).or_insert(0);
            *n += 1;
            (item.clone(), *n - 1)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::{NodeConfig, ResourceStatus};
    use std::rc::Rc;

    /// Every sequence of up to 7 keys from a 3-letter alphabet, tagged with its
    /// position: the order must equal the standard library's stable sort, equal
    /// keys included.
    #[test]
    fn stable_order_matches_a_stable_sort_on_every_small_input() {
        for len in 0..=7_u32 {
            for code in 0..3_u32.pow(len) {
                let keys: Vec<u32> = (0..len).map(|p| code / 3_u32.pow(p) % 3).collect();
                let mut expected: Vec<usize> = (0..keys.len()).collect();
                expected.sort_by_key(|&i| keys[i]);
                let order = stable_order(keys.len(), &|i, j| keys[i] < keys[j]);
                assert_eq!(order, expected, "keys {keys:?}");
            }
        }
    }

    #[test]
    fn stable_order_sorts_a_long_reversed_input() {
        let keys: Vec<u32> = (0..1000).rev().map(|k| k / 3).collect();
        let order = stable_order(keys.len(), &|i, j| keys[i] < keys[j]);
        let sorted: Vec<u32> = order.iter().map(|&i| keys[i]).collect();
        assert!(sorted.windows(2).all(|w| w[0] <= w[1]));
        // Equal keys (runs of three) stay in their original order.
        assert!(order
            .windows(2)
            .all(|w| keys[w[0]] != keys[w[1]] || w[0] < w[1]));
    }

    fn c(name: &str, status: ResourceStatus, tags: &[&str], at: &str) -> ClusterSummary {
        ClusterSummary {
            name: name.into(),
            status,
            tags: tags.iter().map(|t| t.to_string()).collect(),
            created_at: at.into(),
            ..ClusterSummary::default()
        }
    }

    fn sample() -> Vec<Rc<ClusterSummary>> {
        [
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
        .into_iter()
        .map(Rc::new)
        .collect()
    }

    fn names(list: Vec<Rc<ClusterSummary>>) -> Vec<String> {
        list.iter().map(|c| c.name.clone()).collect()
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
        assert_eq!(by("-name"), ["edge-prod", "Batch", "analytics"]);
        assert_eq!(by("-status"), ["edge-prod", "analytics", "Batch"]);
        assert_eq!(by("-created"), ["edge-prod", "analytics", "Batch"]);
        assert_eq!(by("-other"), ["edge-prod", "Batch", "analytics"]);
    }

    #[test]
    fn a_header_click_sorts_by_its_column_then_turns_it_round() {
        assert_eq!(sort_on_click("", "name"), "name");
        assert_eq!(sort_on_click("name", "name"), "-name");
        assert_eq!(sort_on_click("-name", "name"), "name");
        assert_eq!(sort_on_click("-name", "created"), "created");
        assert_eq!(aria_sort("", "name"), "none");
        assert_eq!(aria_sort("name", "name"), "ascending");
        assert_eq!(aria_sort("-name", "name"), "descending");
        assert_eq!(aria_sort("name", "status"), "none");
        // Newest first is descending by time; its other way ascending.
        assert_eq!(aria_sort("created", "created"), "descending");
        assert_eq!(aria_sort("-created", "created"), "ascending");
    }

    #[test]
    fn pools_sort_by_name_instance_type_nodes_or_status_either_way() {
        let pool = |name: &str, instance: &str, nodes: u32, status: ResourceStatus| Pool {
            name: name.into(),
            node_count: nodes as _,
            status,
            node_config: NodeConfig {
                instance_type: instance.into(),
                ..NodeConfig::default()
            },
            ..Pool::default()
        };
        let pools = [
            pool("web", "n1-standard-8", 3, ResourceStatus::Ready),
            pool("Batch", "n1-standard-4", 10, ResourceStatus::Updating),
            pool("api", "n1-standard-8", 3, ResourceStatus::Ready),
        ];
        let refs: Vec<&Pool> = pools.iter().collect();
        let by = |sort: &str| {
            pool_order(&refs, sort).map(|o| {
                o.iter()
                    .map(|&i| pools[i].name.as_str())
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(by("name").unwrap(), ["api", "Batch", "web"]);
        assert_eq!(by("-name").unwrap(), ["web", "Batch", "api"]);
        // Ties keep the API's order, either way round.
        assert_eq!(by("instance").unwrap(), ["Batch", "web", "api"]);
        assert_eq!(by("nodes").unwrap(), ["Batch", "web", "api"]);
        assert_eq!(by("-nodes").unwrap(), ["web", "api", "Batch"]);
        assert_eq!(by("status").unwrap(), ["web", "api", "Batch"]);
        assert_eq!(by(""), None);
        assert_eq!(by("tags"), None);
        assert_eq!(aria_sort("nodes", "nodes"), "descending");
        assert_eq!(aria_sort("-nodes", "nodes"), "ascending");
        assert_eq!(aria_sort("instance", "instance"), "ascending");
    }

    #[test]
    fn only_name_status_or_tag_filter_the_list() {
        let q = |name: &str, status: &str, tag: &str, sort: &str| ClusterQuery {
            name: name.into(),
            status: status.into(),
            tag: tag.into(),
            sort: sort.into(),
        };
        assert!(!q("", "", "", "name").filters());
        assert!(!q("  ", "", "", "").filters());
        assert!(q("edge", "", "", "").filters());
        assert!(q("", "ready", "", "").filters());
        assert!(q("", "", "prod", "").filters());
    }

    #[test]
    fn tag_choices_are_unique_and_sorted() {
        assert_eq!(all_tags(&sample()), ["data", "dev", "prod"]);
    }

    fn pool(name: &str, instance_type: &str, labels: &[&str]) -> Pool {
        Pool {
            name: name.into(),
            node_config: NodeConfig {
                instance_type: instance_type.into(),
                labels: labels.iter().map(|l| l.to_string()).collect(),
                ..NodeConfig::default()
            },
            ..Pool::default()
        }
    }

    #[test]
    fn the_pool_filter_matches_a_name_an_instance_type_or_a_label() {
        let web = pool("Web-frontend", "n1-standard-8", &["tier=web"]);
        let gpu = pool("train", "g2-gpu-4", &["accel=nvidia", "tier=batch"]);
        let matching = |needle: &str| {
            [&web, &gpu]
                .iter()
                .filter(|p| pool_matches(p, needle))
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
        };
        assert_eq!(matching(""), ["Web-frontend", "train"]);
        assert_eq!(matching("web"), ["Web-frontend"], "name, any case");
        assert_eq!(matching("gpu"), ["train"], "instance type");
        assert_eq!(matching("tier=batch"), ["train"], "label");
        assert_eq!(matching("tier="), ["Web-frontend", "train"]);
        assert!(matching("none-such").is_empty());
    }

    #[test]
    fn pages_cover_the_list_and_a_page_past_the_end_is_the_last() {
        let page = PageOf::of(1000, 2, 50);
        assert_eq!((page.start, page.end, page.pages), (50, 100, 20));
        assert!(page.has_previous() && page.has_next());
        let last = PageOf::of(1000, 20, 50);
        assert_eq!((last.start, last.end), (950, 1000));
        assert!(!last.has_next());
        // The list shrank under a person on page 20: they see its new last page.
        assert_eq!(PageOf::of(120, 20, 50).number, 3);
        assert_eq!(
            PageOf::of(120, 20, 50).start..PageOf::of(120, 20, 50).end,
            100..120
        );
        // Page 0 (unreadable) is the first; an empty list has one, empty, page.
        assert_eq!(PageOf::of(10, 0, 50).number, 1);
        let empty = PageOf::of(0, 3, 50);
        assert_eq!(
            (empty.number, empty.pages, empty.start, empty.end),
            (1, 1, 0, 0)
        );
        assert!(!empty.has_previous() && !empty.has_next());
    }

    #[test]
    fn repeated_items_get_keys_of_their_own() {
        assert_eq!(
            keyed(&["a", "b", "a", "a"]),
            [("a", 0), ("b", 0), ("a", 1), ("a", 2)]
        );
        assert!(keyed::<&str>(&[]).is_empty());
    }
}
