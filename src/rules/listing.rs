//! Sorting and filtering of the cluster list, and the rows of long tables that
//! are read again and again, kept pure so they are tested on the host.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

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

/// Names are `[A-Za-z0-9._-]` (see `validation`), so ASCII case folding is all the
/// filter and the sort need; full Unicode lowercasing would bring its tables (about
/// 11 KB) into the first page for nothing.
pub fn filter_and_sort(clusters: &[Cluster], q: &ClusterQuery) -> Vec<Cluster> {
    let needle = q.name.trim().to_ascii_lowercase();
    let matching: Vec<&Cluster> = clusters
        .iter()
        .filter(|c| needle.is_empty() || c.name.to_ascii_lowercase().contains(&needle))
        .filter(|c| q.status.is_empty() || c.status.as_str() == q.status)
        .filter(|c| q.tag.is_empty() || c.tags.iter().any(|t| t == &q.tag))
        .collect();
    let sort = q.sort.as_str();
    if !matches!(sort, "name" | "status" | "created") {
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
        ordering == Ordering::Less
    });
    order.into_iter().map(|i| matching[i].clone()).collect()
}

/// The positions `0..len` in stable sorted order by `less` (a bottom-up merge
/// sort). The first page's sorts go through this one function: the standard
/// library's sort is compiled again for every element type and comparator,
/// about 3 KB of wasm apiece.
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
pub fn all_tags(clusters: &[Cluster]) -> Vec<String> {
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

/// One row of a table that follows a list read again every few seconds: the item,
/// shared, and a key that changes exactly when the item does. A keyed list
/// rebuilds the rows whose key it has not seen and leaves the others alone.
#[derive(Debug, PartialEq)]
pub struct Row<T> {
    pub key: u64,
    pub item: Arc<T>,
}

impl<T> Clone for Row<T> {
    fn clone(&self) -> Self {
        Row {
            key: self.key,
            item: Arc::clone(&self.item),
        }
    }
}

/// The rows for a fresh read of a list: an item equal to the one shown under the
/// same id keeps its row (same key, the shown item shared); a changed or new item
/// gets a row with a new key from `next_key`, and keys never come back. `None`
/// when nothing at all changed (same items, same order), so the table is not
/// touched. One pass: an unchanged item in its place costs one comparison (equal
/// items have the same id, so ids are compared only for the changed ones), and
/// ids are looked up by hash only when the order changed.
pub fn refresh_rows<T: PartialEq>(
    rows: &[Row<T>],
    fresh: &[Arc<T>],
    id: impl Fn(&T) -> &str,
    next_key: &mut u64,
) -> Option<Vec<Row<T>>> {
    let same = |row: &Row<T>, item: &Arc<T>| Arc::ptr_eq(&row.item, item) || *row.item == **item;
    let mut changed = rows.len() != fresh.len();
    let mut by_id: Option<HashMap<&str, &Row<T>>> = None;
    let refreshed: Vec<Row<T>> = fresh
        .iter()
        .enumerate()
        .map(|(i, item)| {
            match rows.get(i) {
                Some(row) if same(row, item) => return row.clone(),
                // Changed where it stands.
                Some(row) if id(&row.item) == id(item) => {}
                // Added, removed or moved: the order changed.
                _ => {
                    changed = true;
                    let shown = by_id
                        .get_or_insert_with(|| {
                            rows.iter().map(|row| (id(&row.item), row)).collect()
                        })
                        .get(id(item));
                    if let Some(row) = shown.filter(|row| same(row, item)) {
                        return (*row).clone();
                    }
                }
            }
            changed = true;
            *next_key += 1;
            Row {
                key: *next_key,
                item: Arc::clone(item),
            }
        })
        .collect();
    changed.then_some(refreshed)
}

/// How a table body that shows rows keyed `shown` comes to show `wanted`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyPatch {
    /// Same rows in the same places but for these positions, whose rows are new:
    /// each replaces the one shown there (an item changed in place).
    InPlace(Vec<usize>),
    /// Rows were added, removed or moved: for each wanted row, the position of the
    /// shown row to reuse, or `None` to build it. Shown rows not named go away.
    Reorder(Vec<Option<usize>>),
}

/// The least work for a keyed table body; keys are unique within each list.
pub fn body_patch(shown: &[u64], wanted: &[u64]) -> BodyPatch {
    if shown.len() == wanted.len() {
        let differ: Vec<usize> = (0..wanted.len())
            .filter(|&i| shown[i] != wanted[i])
            .collect();
        // A few changed rows are checked by scanning; many by the general path.
        let in_place = differ.len() <= 16
            && differ
                .iter()
                .all(|&i| !shown.contains(&wanted[i]) && !wanted.contains(&shown[i]));
        if in_place {
            return BodyPatch::InPlace(differ);
        }
    }
    let at: HashMap<u64, usize> = shown.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    BodyPatch::Reorder(wanted.iter().map(|k| at.get(k).copied()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::ResourceStatus;

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

    #[derive(Clone, Debug, PartialEq)]
    struct Item {
        id: &'static str,
        n: u32,
    }

    fn item(id: &'static str, n: u32) -> Item {
        Item { id, n }
    }

    fn refresh(rows: &[Row<Item>], fresh: &[Item], next: &mut u64) -> Option<Vec<Row<Item>>> {
        let fresh: Vec<Arc<Item>> = fresh.iter().cloned().map(Arc::new).collect();
        refresh_rows(rows, &fresh, |i| i.id, next)
    }

    fn keys(rows: &[Row<Item>]) -> Vec<u64> {
        rows.iter().map(|r| r.key).collect()
    }

    #[test]
    fn rows_get_new_keys_only_where_items_changed() {
        let mut next = 0;
        let first = refresh(&[], &[item("a", 1), item("b", 1), item("c", 1)], &mut next).unwrap();
        assert_eq!(keys(&first), [1, 2, 3]);
        // Nothing changed: the table is left alone.
        assert_eq!(
            refresh(
                &first,
                &[item("a", 1), item("b", 1), item("c", 1)],
                &mut next
            ),
            None
        );
        // One item changed: only its row is new, the others share the shown item.
        let second = refresh(
            &first,
            &[item("a", 1), item("b", 2), item("c", 1)],
            &mut next,
        )
        .unwrap();
        assert_eq!(keys(&second), [1, 4, 3]);
        assert!(Arc::ptr_eq(&first[0].item, &second[0].item));
        assert_eq!(second[1].item.n, 2);
    }

    #[test]
    fn ids_are_read_only_for_items_that_changed_in_place() {
        fn id_reader(f: impl Fn(&Item) -> &str) -> impl Fn(&Item) -> &str {
            f
        }
        let ids = std::cell::Cell::new(0);
        let counted = id_reader(|i| {
            ids.set(ids.get() + 1);
            i.id
        });
        let many = |changed: u32| -> Vec<Arc<Item>> {
            let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
            let n = |k: usize| if k == 5 { changed } else { 1 };
            (0..names.len())
                .map(|k| Arc::new(item(names[k], n(k))))
                .collect()
        };
        let mut next = 0;
        let first = refresh_rows(&[], &many(1), &counted, &mut next).unwrap();
        ids.set(0);
        assert_eq!(refresh_rows(&first, &many(1), &counted, &mut next), None);
        assert_eq!(ids.get(), 0, "unchanged items are not asked their id");
        let second = refresh_rows(&first, &many(2), &counted, &mut next).unwrap();
        assert_eq!(ids.get(), 2, "the changed item's id, and the shown one's");
        assert_eq!(keys(&second), [1, 2, 3, 4, 5, 9, 7, 8]);
    }

    #[test]
    fn moved_added_and_removed_items_are_found_by_id() {
        let mut next = 0;
        let first = refresh(&[], &[item("a", 1), item("b", 1), item("c", 1)], &mut next).unwrap();
        // "a" deleted, "d" added at the front, "c" changed: b keeps its key though it moved.
        let second = refresh(
            &first,
            &[item("d", 1), item("b", 1), item("c", 2)],
            &mut next,
        )
        .unwrap();
        assert_eq!(keys(&second), [4, 2, 5]);
        // Same items in another order is a change (the table's order follows the API).
        let third = refresh(
            &second,
            &[item("c", 2), item("b", 1), item("d", 1)],
            &mut next,
        )
        .unwrap();
        assert_eq!(keys(&third), [5, 2, 4]);
        assert_eq!(refresh(&third, &[], &mut next), Some(vec![]));
    }

    #[test]
    fn a_row_changed_in_place_is_replaced_where_it_stands() {
        assert_eq!(
            body_patch(&[1, 2, 3], &[1, 2, 3]),
            BodyPatch::InPlace(vec![])
        );
        assert_eq!(
            body_patch(&[1, 2, 3], &[1, 4, 3]),
            BodyPatch::InPlace(vec![1])
        );
        assert_eq!(
            body_patch(&[1, 2, 3], &[5, 2, 4]),
            BodyPatch::InPlace(vec![0, 2])
        );
    }

    #[test]
    fn added_removed_or_moved_rows_reuse_what_is_shown() {
        // Two rows swapped: same length, but each key is still shown elsewhere.
        assert_eq!(
            body_patch(&[1, 2, 3], &[2, 1, 3]),
            BodyPatch::Reorder(vec![Some(1), Some(0), Some(2)])
        );
        // First read, a row added, a row removed.
        assert_eq!(
            body_patch(&[], &[1, 2]),
            BodyPatch::Reorder(vec![None, None])
        );
        assert_eq!(
            body_patch(&[1, 2], &[1, 2, 3]),
            BodyPatch::Reorder(vec![Some(0), Some(1), None])
        );
        assert_eq!(
            body_patch(&[1, 2, 3], &[1, 3]),
            BodyPatch::Reorder(vec![Some(0), Some(2)])
        );
        assert_eq!(body_patch(&[1, 2], &[]), BodyPatch::Reorder(vec![]));
        // Many rows changed at once take the general path, still correct.
        let shown: Vec<u64> = (1..=40).collect();
        let wanted: Vec<u64> = (41..=80).collect();
        assert_eq!(
            body_patch(&shown, &wanted),
            BodyPatch::Reorder(vec![None; 40])
        );
    }

    #[test]
    fn applying_a_patch_gives_the_wanted_rows() {
        // A model of the table body: each row is (key, serial of the element).
        fn apply(shown: &[u64], wanted: &[u64]) -> Vec<u64> {
            match body_patch(shown, wanted) {
                BodyPatch::InPlace(at) => {
                    let mut out = shown.to_vec();
                    for i in at {
                        out[i] = wanted[i];
                    }
                    out
                }
                BodyPatch::Reorder(plan) => plan
                    .iter()
                    .zip(wanted)
                    .map(|(reuse, &k)| reuse.map_or(k, |i| shown[i]))
                    .collect(),
            }
        }
        let cases: [(&[u64], &[u64]); 6] = [
            (&[1, 2, 3], &[1, 4, 3]),
            (&[1, 2, 3], &[3, 2, 1]),
            (&[1, 2, 3], &[4, 1, 5, 3]),
            (&[], &[7, 8]),
            (&[1, 2, 3], &[]),
            (&[1, 2, 3, 4], &[2, 9, 4]),
        ];
        for (shown, wanted) in cases {
            assert_eq!(apply(shown, wanted), wanted, "{shown:?} -> {wanted:?}");
        }
    }
}
