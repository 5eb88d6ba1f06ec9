//! The operations page at scale: a project can hold thousands of operations and
//! their resources, so the page reads them from the API a page at a time
//! ([`CursorTrail`]), and the resource filter is a search over the names the
//! console knows ([`suggest`]), not a select of a thousand options.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use crate::api::types::{Operation, OperationKind};
use crate::rules::display;
use crate::rules::listing::stable_order;
use crate::rules::times::parse_rfc3339_ms;

/// Operations a page asks the API for (its `limit` is 10 to 100).
pub const PER_PAGE: usize = 50;

/// Where the reader is in the list: the cursor of every page from the second to
/// the one shown (the first page has none). The API's cursors are opaque and it
/// offers no page number, so the way back is the way there: Previous drops the
/// last cursor. The trail lives in the URL (`?prev=…&cursor=…`), which is what
/// lets Back and Forward, a reload and a shared link land on the same page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CursorTrail {
    cursors: Vec<String>,
}

impl CursorTrail {
    /// The trail from the URL: `prev` in order, then `cursor`. Empty values are
    /// dropped (a hand-edited address cannot ask for an empty cursor).
    pub fn from_query(prev: Vec<String>, cursor: Option<String>) -> Self {
        let cursors = prev
            .into_iter()
            .chain(cursor)
            .filter(|c| !c.is_empty())
            .collect();
        CursorTrail { cursors }
    }

    /// 1-based, as the person counts.
    pub fn number(&self) -> usize {
        self.cursors.len() + 1
    }

    /// The cursor to read the page shown with; none for the first page.
    pub fn cursor(&self) -> Option<&str> {
        self.cursors.last().map(String::as_str)
    }

    /// The page after this one, given the `next_cursor` its read returned. None
    /// when there is no next page, or when the API handed back a cursor already on
    /// the trail (a server that loops would otherwise page forever).
    pub fn next(&self, next_cursor: Option<&str>) -> Option<Self> {
        let next = next_cursor.filter(|c| !c.is_empty())?;
        if self.cursors.iter().any(|c| c == next) {
            return None;
        }
        let mut cursors = self.cursors.clone();
        cursors.push(next.to_string());
        Some(CursorTrail { cursors })
    }

    /// The page before this one; none on the first.
    pub fn previous(&self) -> Option<Self> {
        let (_, earlier) = self.cursors.split_last()?;
        Some(CursorTrail {
            cursors: earlier.to_vec(),
        })
    }

    /// The URL query that holds the trail (nothing for the first page).
    pub fn query(&self) -> Vec<(&'static str, String)> {
        let Some((current, earlier)) = self.cursors.split_last() else {
            return Vec::new();
        };
        earlier
            .iter()
            .map(|c| ("prev", c.clone()))
            .chain([("cursor", current.clone())])
            .collect()
    }
}

/// Which operations a page shows: `51–100 of 2,079`. The start comes from the
/// page's number, so it is exact while every page holds [`PER_PAGE`].
pub fn rows_shown(number: usize, shown: usize, total: usize) -> String {
    if shown == 0 {
        return format!("none of {}", display::count(total));
    }
    let start = (number.max(1) - 1) * PER_PAGE;
    display::range_of(start + 1, start + shown, total.max(start + shown))
}

/// The pager's words for page `number` holding `shown` of `total` operations:
/// `51–100 of 2,079 · page 2 of 42`; `no operations` when there are none (not
/// "none of 0 · page 1 of 1"); a page left empty behind the others (its
/// operations gone meanwhile) says so with the total.
pub fn pager_line(number: usize, shown: usize, total: usize) -> String {
    let total = total.max((number.max(1) - 1) * PER_PAGE + shown);
    match (shown, total) {
        (0, 0) => "no operations".to_string(),
        (0, _) => format!(
            "none on page {} \u{b7} {}",
            display::count(number),
            display::counted(total, "operation", "operations")
        ),
        _ => format!(
            "{} \u{b7} page {} of {}",
            rows_shown(number, shown, total),
            display::count(number),
            display::count(page_count(total))
        ),
    }
}

/// How many pages `total` operations make.
pub fn page_count(total: usize) -> usize {
    total.div_ceil(PER_PAGE).max(1)
}

/// A resource the resource filter can find.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Known {
    pub id: String,
    /// Its name, or, for a resource that no longer exists, the last name the
    /// console saw for it; none when only its id is known.
    pub name: Option<String>,
    /// The project's clusters and pools were read and it is not among them.
    pub gone: bool,
}

impl Known {
    /// What the person reads: the name, else the id.
    pub fn label(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.id)
    }
}

/// The last name each resource had in these operations' own data: a `name`
/// change's new value (its old one for a change to nothing, as a delete may
/// record), from the latest such operation. Operations outlive their resources,
/// so this is how a deleted resource keeps a name instead of a bare id.
pub fn last_known_names<'a>(
    ops: impl IntoIterator<Item = &'a Operation>,
) -> BTreeMap<String, String> {
    let mut latest: BTreeMap<String, (f64, String)> = BTreeMap::new();
    for op in ops {
        let Some(change) = op.details.as_ref().and_then(|d| d.changes.get("name")) else {
            continue;
        };
        let text = |v: &serde_json::Value| {
            v.as_str()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string)
        };
        let Some(name) = text(&change.to).or_else(|| text(&change.from)) else {
            continue;
        };
        let at = parse_rfc3339_ms(&op.updated_at)
            .or_else(|| parse_rfc3339_ms(&op.created_at))
            .unwrap_or(0.0);
        match latest.get(&op.resource_id) {
            Some((seen, _)) if *seen > at => {}
            _ => {
                latest.insert(op.resource_id.clone(), (at, name));
            }
        }
    }
    latest
        .into_iter()
        .map(|(id, (_, name))| (id, name))
        .collect()
}

/// Every resource the filter can offer, ordered by id (so a resource's label is
/// found by binary search): the clusters and pools that exist
/// (`existing`, id → name, when they could be read), and every other resource
/// the operations seen name, by its last known name (`remembered` from earlier
/// reads of this visit, else the operations' own data) or its id.
pub fn known_resources<'a>(
    existing: Option<&BTreeMap<String, String>>,
    remembered: &BTreeMap<String, String>,
    seen: impl IntoIterator<Item = &'a Operation> + Clone,
) -> Vec<Known> {
    let from_ops = last_known_names(seen.clone());
    let mut known: BTreeMap<String, Known> = BTreeMap::new();
    if let Some(existing) = existing {
        for (id, name) in existing {
            known.insert(
                id.clone(),
                Known {
                    id: id.clone(),
                    name: Some(name.clone()),
                    gone: false,
                },
            );
        }
    }
    for op in seen {
        if known.contains_key(&op.resource_id) || op.resource_id.is_empty() {
            continue;
        }
        let name = remembered
            .get(&op.resource_id)
            .or_else(|| from_ops.get(&op.resource_id))
            .cloned();
        // Only clusters and pools are read, so only they can be known gone.
        let listed_kind = matches!(
            op.kind,
            OperationKind::NksCluster | OperationKind::NksNodePool
        );
        known.insert(
            op.resource_id.clone(),
            Known {
                id: op.resource_id.clone(),
                name,
                gone: existing.is_some() && listed_kind,
            },
        );
    }
    known.into_values().collect()
}

/// What the search box offers for `typed`: at most `limit` resources, best
/// first, and how many more match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Suggestions {
    pub shown: Vec<Known>,
    pub more: usize,
}

/// How well a resource matches: lower is better, none for no match. A name
/// that is the text, then one that starts with it, then one with a word that
/// does (`big / pool-0042` for `pool-0042`), then one that holds it, then an id
/// that starts with it or holds it. Case is ignored (names are ASCII).
fn rank(known: &Known, needle: &str) -> Option<u8> {
    if needle.is_empty() {
        return Some(0);
    }
    let id = known.id.to_ascii_lowercase();
    if let Some(name) = &known.name {
        let name = name.to_ascii_lowercase();
        if name == needle || id == needle {
            return Some(0);
        }
        if name.starts_with(needle) {
            return Some(1);
        }
        let word_start = name
            .match_indices(needle)
            .any(|(at, _)| name[..at].ends_with([' ', '/', '-', '_', '.']));
        if word_start {
            return Some(2);
        }
        if name.contains(needle) {
            return Some(3);
        }
    } else if id == needle {
        return Some(0);
    }
    if id.starts_with(needle) {
        return Some(4);
    }
    id.contains(needle).then_some(5)
}

/// Orders names as a person does: digits by their value (`large-2` before
/// `large-10`), letters without regard to case.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let run = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
                let (na, nb) = (run(a), run(b));
                let trim = |s: &'_ [u8]| -> usize { s.iter().take_while(|c| **c == b'0').count() };
                let (da, db) = (
                    &a[trim(&a[..na]).min(na)..na],
                    &b[trim(&b[..nb]).min(nb)..nb],
                );
                let by_value = da.len().cmp(&db.len()).then_with(|| da.cmp(db));
                if by_value.is_ne() {
                    return by_value;
                }
                (a, b) = (&a[na..], &b[nb..]);
            }
            (Some(x), Some(y)) => {
                let ord = x.to_ascii_lowercase().cmp(&y.to_ascii_lowercase());
                if ord.is_ne() {
                    return ord;
                }
                (a, b) = (&a[1..], &b[1..]);
            }
        }
    }
}

/// The resources matching `typed` (name or id), best match first, then by name
/// as a person orders names; resources that still exist before those gone.
pub fn suggest(known: &[Known], typed: &str, limit: usize) -> Suggestions {
    let needle = typed.trim().to_ascii_lowercase();
    let matching: Vec<(u8, &Known)> = known
        .iter()
        .filter_map(|k| rank(k, &needle).map(|r| (r, k)))
        .collect();
    let order = stable_order(matching.len(), &|i, j| {
        let ((ra, a), (rb, b)) = (matching[i], matching[j]);
        ra.cmp(&rb)
            .then_with(|| a.gone.cmp(&b.gone))
            .then_with(|| natural_cmp(a.label(), b.label()))
            .then_with(|| a.id.cmp(&b.id))
            == Ordering::Less
    });
    let shown = order
        .iter()
        .take(limit)
        .map(|&i| matching[i].1.clone())
        .collect();
    Suggestions {
        shown,
        more: matching.len().saturating_sub(limit),
    }
}

/// How many operations a cluster's page lists as recent.
pub const RECENT: usize = 10;

/// A cluster's recent operations, newest first, each once: its own (read by its
/// id, however old) and, among the project's newest, those on one of its parts
/// (`parts`: a pool's, a node's or a load balancer's id → what to call it), with
/// that name. The API's operations carry no parent, so a part is known by its
/// id only while it is listed (a deleted node's operation is then not told).
pub fn of_cluster(
    own: Vec<Operation>,
    newest: Vec<Operation>,
    parts: &BTreeMap<String, String>,
) -> Vec<(Operation, Option<String>)> {
    let mut all = own;
    for op in newest {
        if parts.contains_key(&op.resource_id) && !all.iter().any(|o| o.id == op.id) {
            all.push(op);
        }
    }
    let at = |o: &Operation| parse_rfc3339_ms(&o.created_at).unwrap_or(f64::MIN);
    all.sort_by(|a, b| at(b).partial_cmp(&at(a)).unwrap_or(Ordering::Equal));
    all.truncate(RECENT);
    all.into_iter()
        .map(|op| {
            let name = parts.get(&op.resource_id).cloned();
            (op, name)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::{Change, OperationDetails};
    use serde_json::json;

    fn trail(cursors: &[&str]) -> CursorTrail {
        CursorTrail::from_query(Vec::new(), None)
            .next(cursors.first().copied())
            .map(|mut t| {
                for c in &cursors[1..] {
                    t = t.next(Some(c)).expect("new cursor");
                }
                t
            })
            .unwrap_or_default()
    }

    #[test]
    fn the_trail_walks_forward_and_back_through_the_url() {
        let first = CursorTrail::default();
        assert_eq!(first.number(), 1);
        assert_eq!(first.cursor(), None);
        assert!(first.previous().is_none());
        assert!(first.query().is_empty());

        let third = first
            .next(Some("c2"))
            .and_then(|t| t.next(Some("c3")))
            .expect("pages");
        assert_eq!(third.number(), 3);
        assert_eq!(third.cursor(), Some("c3"));
        assert_eq!(
            third.query(),
            vec![("prev", "c2".to_string()), ("cursor", "c3".to_string())]
        );
        // The URL gives the same trail back: a reload lands on the same page.
        let reloaded = CursorTrail::from_query(vec!["c2".into()], Some("c3".into()));
        assert_eq!(reloaded, third);
        assert_eq!(third.previous(), Some(trail(&["c2"])));
        assert_eq!(trail(&["c2"]).previous(), Some(first));
    }

    #[test]
    fn the_trail_ends_where_the_api_hands_no_new_cursor() {
        let second = trail(&["c2"]);
        assert_eq!(second.next(None), None);
        assert_eq!(second.next(Some("")), None);
        assert_eq!(
            second.next(Some("c2")),
            None,
            "a cursor already walked is a loop"
        );
        // A hand-edited address with empty values reads as the first page.
        assert_eq!(
            CursorTrail::from_query(vec![String::new()], Some(String::new())),
            CursorTrail::default()
        );
        // A link holding only a cursor is a second page whose Previous is the first.
        let linked = CursorTrail::from_query(Vec::new(), Some("c7".into()));
        assert_eq!(linked.number(), 2);
        assert_eq!(linked.previous(), Some(CursorTrail::default()));
    }

    #[test]
    fn rows_shown_counts_from_the_page_number() {
        assert_eq!(rows_shown(1, 50, 2079), "1\u{2013}50 of 2,079");
        assert_eq!(rows_shown(2, 50, 2079), "51\u{2013}100 of 2,079");
        assert_eq!(rows_shown(42, 29, 2079), "2,051\u{2013}2,079 of 2,079");
        assert_eq!(rows_shown(1, 0, 0), "none of 0");
        // A total that lags behind what was shown never reads as fewer than shown.
        assert_eq!(rows_shown(1, 3, 0), "1\u{2013}3 of 3");
        assert_eq!(
            pager_line(2, 50, 2079),
            "51\u{2013}100 of 2,079 \u{b7} page 2 of 42"
        );
        assert_eq!(pager_line(1, 0, 0), "no operations");
        assert_eq!(
            pager_line(3, 0, 101),
            "none on page 3 \u{b7} 101 operations"
        );
        assert_eq!(pager_line(1, 3, 0), "1\u{2013}3 of 3 \u{b7} page 1 of 1");
        assert_eq!(page_count(2079), 42);
        assert_eq!(page_count(0), 1);
    }

    #[test]
    fn a_clusters_recent_operations_are_its_own_and_its_parts_newest_first() {
        let own = vec![
            op(
                "c2",
                OperationKind::NksCluster,
                "cl",
                "2026-05-01T00:00:00Z",
            ),
            op(
                "c1",
                OperationKind::NksCluster,
                "cl",
                "2025-01-01T00:00:00Z",
            ),
        ];
        let newest = vec![
            op(
                "n1",
                OperationKind::NksNode,
                "node-1",
                "2026-06-03T00:00:00Z",
            ),
            op(
                "x",
                OperationKind::NksNodePool,
                "other-pool",
                "2026-06-02T00:00:00Z",
            ),
            op(
                "p1",
                OperationKind::NksNodePool,
                "pool-1",
                "2026-06-01T00:00:00Z",
            ),
            // Its own, also among the project's newest: once.
            op(
                "c2",
                OperationKind::NksCluster,
                "cl",
                "2026-05-01T00:00:00Z",
            ),
        ];
        let parts = BTreeMap::from([
            ("pool-1".to_string(), "pool baseline".to_string()),
            ("node-1".to_string(), "node baseline-a".to_string()),
        ]);
        let recent = of_cluster(own, newest, &parts);
        let shown: Vec<(&str, Option<&str>)> = recent
            .iter()
            .map(|(o, name)| (o.id.as_str(), name.as_deref()))
            .collect();
        assert_eq!(
            shown,
            vec![
                ("n1", Some("node baseline-a")),
                ("p1", Some("pool baseline")),
                ("c2", None),
                ("c1", None),
            ]
        );
        let many: Vec<Operation> = (0..15)
            .map(|i| {
                op(
                    &format!("o{i}"),
                    OperationKind::NksCluster,
                    "cl",
                    &format!("2026-01-{:02}T00:00:00Z", i + 1),
                )
            })
            .collect();
        let recent = of_cluster(many, vec![], &parts);
        assert_eq!(recent.len(), RECENT);
        assert_eq!(recent[0].0.id, "o14");
    }

    fn op(id: &str, kind: OperationKind, resource: &str, at: &str) -> Operation {
        Operation {
            id: id.into(),
            kind,
            resource_id: resource.into(),
            created_at: at.into(),
            updated_at: at.into(),
            ..Operation::default()
        }
    }

    fn renamed(mut o: Operation, from: serde_json::Value, to: serde_json::Value) -> Operation {
        let mut details = OperationDetails::default();
        details.changes.insert("name".into(), Change { from, to });
        o.details = Some(details);
        o
    }

    #[test]
    fn a_resource_keeps_the_last_name_its_operations_gave_it() {
        let pool = OperationKind::NksNodePool;
        let ops = vec![
            renamed(
                op("1", pool.clone(), "p1", "2026-05-01T10:00:00Z"),
                json!("a"),
                json!("b"),
            ),
            renamed(
                op("2", pool.clone(), "p1", "2026-05-01T12:00:00Z"),
                json!("b"),
                json!("c"),
            ),
            // Older, listed later: the latest rename still wins.
            renamed(
                op("3", pool.clone(), "p1", "2026-05-01T09:00:00Z"),
                json!(null),
                json!("a"),
            ),
            // A change to nothing keeps the name it had.
            renamed(
                op("4", pool.clone(), "p2", "2026-05-01T09:00:00Z"),
                json!("old"),
                json!(null),
            ),
            op("5", pool, "p3", "2026-05-01T09:00:00Z"),
        ];
        let names = last_known_names(&ops);
        assert_eq!(names.get("p1").map(String::as_str), Some("c"));
        assert_eq!(names.get("p2").map(String::as_str), Some("old"));
        assert_eq!(names.get("p3"), None);
    }

    #[test]
    fn deleted_resources_are_known_by_their_last_name_else_their_id() {
        let existing: BTreeMap<String, String> = [("c1".to_string(), "edge".to_string())].into();
        let remembered: BTreeMap<String, String> =
            [("p9".to_string(), "edge / old-pool".to_string())].into();
        let ops = vec![
            op("1", OperationKind::NksCluster, "c1", "2026-05-01T10:00:00Z"),
            op(
                "2",
                OperationKind::NksNodePool,
                "p9",
                "2026-05-01T10:00:00Z",
            ),
            renamed(
                op(
                    "3",
                    OperationKind::NksNodePool,
                    "p8",
                    "2026-05-01T10:00:00Z",
                ),
                json!("x"),
                json!("renamed"),
            ),
            op(
                "4",
                OperationKind::NksNodePool,
                "p7",
                "2026-05-01T10:00:00Z",
            ),
            op("5", OperationKind::NksNode, "n1", "2026-05-01T10:00:00Z"),
        ];
        let known = known_resources(Some(&existing), &remembered, &ops);
        let by_id = |id: &str| known.iter().find(|k| k.id == id).cloned().expect(id);
        assert_eq!(by_id("c1").label(), "edge");
        assert!(!by_id("c1").gone);
        assert_eq!(by_id("p9").label(), "edge / old-pool");
        assert!(by_id("p9").gone);
        assert_eq!(by_id("p8").label(), "renamed");
        assert_eq!(by_id("p7").label(), "p7");
        assert!(!by_id("n1").gone, "nodes are not read, so not known gone");
        // Without the names read, nothing is said to be gone.
        let unread = known_resources(None, &BTreeMap::new(), &ops);
        assert!(unread.iter().all(|k| !k.gone));
        assert_eq!(unread.len(), 5);
    }

    fn named(id: &str, name: &str) -> Known {
        Known {
            id: id.into(),
            name: Some(name.into()),
            gone: false,
        }
    }

    #[test]
    fn suggestions_put_the_best_match_first_then_names_in_a_persons_order() {
        let mut known = vec![
            named("id-big", "big"),
            named("id-p10", "big / pool-0010"),
            named("id-p2", "big / pool-0002"),
            named("id-l10", "large-10"),
            named("id-l2", "large-2"),
            named("id-x", "Bigger"),
            named("id-sub", "mybig"),
        ];
        known.push(Known {
            id: "id-gone".into(),
            name: Some("big-old".into()),
            gone: true,
        });
        let labels = |s: &Suggestions| {
            s.shown
                .iter()
                .map(|k| k.label().to_string())
                .collect::<Vec<_>>()
        };

        let big = suggest(&known, " BIG ", 10);
        assert_eq!(
            labels(&big),
            [
                "big",
                "big / pool-0002",
                "big / pool-0010",
                "Bigger",
                "big-old",
                "mybig"
            ]
        );
        let pool = suggest(&known, "pool-00", 10);
        assert_eq!(labels(&pool), ["big / pool-0002", "big / pool-0010"]);
        assert_eq!(
            labels(&suggest(&known, "large", 10)),
            ["large-2", "large-10"],
            "numbers by value"
        );
        // By id too, and a limit with the count of the rest.
        assert_eq!(
            labels(&suggest(&known, "id-l", 10)),
            ["large-2", "large-10"]
        );
        let few = suggest(&known, "", 3);
        assert_eq!(labels(&few), ["big", "big / pool-0002", "big / pool-0010"]);
        assert_eq!(few.more, 5);
        assert_eq!(suggest(&known, "nothing", 10), Suggestions::default());
    }

    #[test]
    fn natural_order_reads_digits_by_value_and_ignores_case() {
        assert_eq!(natural_cmp("large-2", "large-10"), Ordering::Less);
        assert_eq!(natural_cmp("pool-0002", "pool-10"), Ordering::Less);
        assert_eq!(natural_cmp("pool-007", "pool-7"), Ordering::Equal);
        assert_eq!(natural_cmp("Alpha", "beta"), Ordering::Less);
        assert_eq!(natural_cmp("a", "a1"), Ordering::Less);
        assert_eq!(natural_cmp("", ""), Ordering::Equal);
    }
}
