//! A pool's size history: its `node_count` over time, rebuilt from the
//! operations the API keeps, and laid out as a step chart.
//!
//! What the API says and what it does not:
//! - the pool's own operations (`resource_id` = the pool) are its create and its
//!   updates; an update that changed `node_count` carries `{from, to}`. A person's
//!   PATCH and the autoscaler's scale-up are both such updates and cannot be told
//!   apart, so a rise is a "scale-up". A fall by an update is a manual scale-down:
//!   the platform terminates those nodes without cordon or drain.
//! - a node delete (`nks_node`/`delete`) names the node, not its pool. It carries
//!   `node_count {from, to}`, and `drained {from: false, to: true}` when the
//!   autoscaler drained the node first. It is counted here only when the node is
//!   known to have been this pool's (`known_nodes`).
//! - where the chain of counts breaks (one change's `from` is not the count the
//!   previous one left, or the last one's `to` is not the pool's count now), the
//!   count changed by something not attributed to this pool: that is a step of its
//!   own, [`Cause::Unattributed`], dated only "between" the two changes around it.
//!
//! A failed operation is not a step: it is kept aside, "failed, no change" —
//! unless the pool reads its `to` afterwards (the API keeps a failed update's
//! count as the pool's desired count): then it is a step, marked failed, since
//! that is the count the API reports from then on. A node delete
//! still running has not lowered the count yet (the API lowers it at the end): it
//! is kept aside too. A pool update in flight has: the pool already reads its `to`.
//!
//! The chart's positions are whole units: x in thousandths of the width (drawn as
//! a percentage, so shapes keep their proportions at any width), y in pixels.

use crate::api::types::{Operation, OperationKind, OperationStatus, OperationType};
use crate::rules::times::parse_rfc3339_ms;

/// What changed the count at a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The pool's create: where the history starts.
    Create,
    /// A pool update that raised `node_count` (a person or the autoscaler).
    ScaleUp,
    /// A pool update that lowered `node_count`: nodes terminated without drain.
    ManualScaleDown,
    /// One of this pool's nodes deleted without drain (`DELETE …/nodes/{id}`).
    NodeDelete,
    /// One of this pool's nodes deleted after a drain (the autoscaler).
    AutoscalerDrain,
    /// The count changed with no operation of this pool to show for it.
    Unattributed,
}

impl Cause {
    /// The words for it, as the legend and the list say them.
    pub fn label(self) -> &'static str {
        match self {
            Cause::Create => "created",
            Cause::ScaleUp => "scale-up",
            Cause::ManualScaleDown => "manual scale-down: no drain",
            Cause::NodeDelete => "node deleted: no drain",
            Cause::AutoscalerDrain => "autoscaler drain",
            Cause::Unattributed => "unattributed change",
        }
    }

    /// The words at the start of a sentence.
    pub fn title(self) -> &'static str {
        match self {
            Cause::Create => "Created",
            Cause::ScaleUp => "Scale-up",
            Cause::ManualScaleDown => "Manual scale-down: no drain",
            Cause::NodeDelete => "Node deleted: no drain",
            Cause::AutoscalerDrain => "Autoscaler drain",
            Cause::Unattributed => "Unattributed change",
        }
    }

    /// The class its marker is drawn with; a node deleted without drain is drawn
    /// as a manual scale-down (what matters on the chart is the missing drain).
    pub fn slug(self) -> &'static str {
        match self {
            Cause::Create => "create",
            Cause::ScaleUp => "up",
            Cause::ManualScaleDown | Cause::NodeDelete => "manual",
            Cause::AutoscalerDrain => "drain",
            Cause::Unattributed => "gap",
        }
    }
}

/// One change of the count (or the create, where `from` = `to`).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub cause: Cause,
    /// When the count changed, as the API wrote it; for an unattributed change
    /// the latest it can have happened (`None`: by the time the pool was read).
    pub at: Option<String>,
    /// An unattributed change: the earliest it can have happened.
    pub since: Option<String>,
    pub from: i64,
    pub to: i64,
    /// The operation that made it (none for an unattributed change).
    pub operation_id: Option<String>,
    /// The node a node delete removed.
    pub node_id: Option<String>,
    /// The operation has not ended yet.
    pub in_flight: bool,
    /// The operation failed, yet the pool reads its `to` from then on.
    pub failed: bool,
}

/// An operation about the count that is not a step: it failed (no change), or
/// it is a node delete not yet done (no change yet).
#[derive(Clone, Debug, PartialEq)]
pub struct Aside {
    pub cause: Cause,
    pub at: String,
    pub from: i64,
    pub to: i64,
    pub operation_id: String,
    pub failed: bool,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    /// In time order; the first is the create.
    pub steps: Vec<Step>,
    pub aside: Vec<Aside>,
    /// Operations about the count whose time cannot be read: left out.
    pub unreadable: usize,
}

impl History {
    /// The pool has not changed size since its create.
    pub fn unchanged(&self) -> bool {
        self.steps.iter().all(|s| s.cause == Cause::Create)
    }
}

fn node_count_change(op: &Operation) -> Option<(i64, i64)> {
    op.changes()
        .find(|(field, _)| field.as_str() == "node_count")
        .and_then(|(_, c)| Some((c.from.as_i64()?, c.to.as_i64()?)))
}

fn drained(op: &Operation) -> bool {
    op.changes()
        .any(|(field, c)| field.as_str() == "drained" && c.to.as_bool() == Some(true))
}

fn ended(status: &OperationStatus) -> bool {
    matches!(status, OperationStatus::Done | OperationStatus::Failed)
}

/// Rebuilds the history of pool `pool_id`, created at `pool_created_at`, whose
/// count is `current` as read when the pool was last changed at `read_at` (its
/// `updated_at`; empty: unknown), from `ops`: the pool's own operations and
/// node deletes (only those of `known_nodes` count; the rest are ignored).
///
/// A count that differs from where the operations leave the pool is a change
/// made outside them, unless the read is older than the last of those changes:
/// a read answered after an operation ended but taken before it (an answer in
/// flight across the end) tells nothing new, and no step is drawn from it.
pub fn rebuild(
    pool_id: &str,
    pool_created_at: &str,
    current: i64,
    read_at: &str,
    ops: &[Operation],
    known_nodes: &[String],
) -> History {
    let mut history = History::default();
    let mut created_at = None::<(f64, String, String)>;
    // (when, order among equal times, step)
    let mut changes: Vec<(f64, usize, Step)> = Vec::new();
    let mut seen: Vec<&str> = Vec::with_capacity(ops.len());
    for (order, op) in ops.iter().enumerate() {
        if seen.contains(&op.id.as_str()) {
            continue; // the same operation on two pages of a list that moved
        }
        seen.push(&op.id);
        let own = op.resource_id == pool_id && op.kind == OperationKind::NksNodePool;
        let node = op.kind == OperationKind::NksNode
            && op.op_type == OperationType::Delete
            && known_nodes.contains(&op.resource_id);
        if own && op.op_type == OperationType::Create {
            if let Some(ms) = parse_rfc3339_ms(&op.created_at) {
                created_at = Some((ms, op.created_at.clone(), op.id.clone()));
            }
            continue;
        }
        let Some((from, to)) = node_count_change(op).filter(|(f, t)| f != t) else {
            continue;
        };
        let cause = if own && op.op_type == OperationType::Update {
            if to > from {
                Cause::ScaleUp
            } else {
                Cause::ManualScaleDown
            }
        } else if node {
            if drained(op) {
                Cause::AutoscalerDrain
            } else {
                Cause::NodeDelete
            }
        } else {
            continue;
        };
        let failed = op.status == OperationStatus::Failed;
        // A node delete lowers the count when it ends; an update when it is asked.
        let (at, waits) = if node {
            (&op.updated_at, !ended(&op.status))
        } else {
            (&op.created_at, false)
        };
        if waits {
            history.aside.push(Aside {
                cause,
                at: op.created_at.clone(),
                from,
                to,
                operation_id: op.id.clone(),
                failed,
            });
            continue;
        }
        let Some(ms) = parse_rfc3339_ms(at) else {
            history.unreadable += 1;
            continue;
        };
        changes.push((
            ms,
            order,
            Step {
                cause,
                at: Some(at.clone()),
                since: None,
                from,
                to,
                operation_id: Some(op.id.clone()),
                node_id: node.then(|| op.resource_id.clone()),
                in_flight: !ended(&op.status),
                failed,
            },
        ));
    }
    // The list is newest first; equal times keep the older (later listed) first.
    changes.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
    let (create_at, create_op) = match created_at {
        Some((_, at, id)) => (at, Some(id)),
        None => (pool_created_at.to_string(), None),
    };
    history.steps.push(Step {
        cause: Cause::Create,
        at: Some(create_at),
        since: None,
        from: current,
        to: current,
        operation_id: create_op,
        node_id: None,
        in_flight: false,
        failed: false,
    });
    // A failed change counts only when what follows starts from its `to`.
    let mut kept: Vec<Step> = Vec::with_capacity(changes.len());
    for i in 0..changes.len() {
        let step = &changes[i].2;
        if step.failed {
            let next = changes[i + 1..]
                .iter()
                .find(|c| !c.2.failed)
                .map_or(current, |c| c.2.from);
            if next != step.to {
                history.aside.push(Aside {
                    cause: step.cause,
                    at: step.at.clone().unwrap_or_default(),
                    from: step.from,
                    to: step.to,
                    operation_id: step.operation_id.clone().unwrap_or_default(),
                    failed: true,
                });
                continue;
            }
        }
        kept.push(step.clone());
    }
    history.aside.sort_by(|a, b| a.at.cmp(&b.at));
    let start = kept.first().map_or(current, |c| c.from);
    // The create records no count: the history starts where the first change did.
    history.steps[0].from = start;
    history.steps[0].to = start;
    let mut level = start;
    for step in kept {
        if step.from != level {
            history
                .steps
                .push(gap(&history.steps, level, step.from, step.at.clone()));
        }
        level = step.to;
        history.steps.push(step);
    }
    // The changes, after the create (the first step).
    let last_change = history.steps[1..]
        .iter()
        .filter_map(|s| parse_rfc3339_ms(s.at.as_deref()?))
        .fold(f64::MIN, f64::max);
    let read_before_it = parse_rfc3339_ms(read_at).is_some_and(|read| read < last_change);
    if level != current && !read_before_it {
        history
            .steps
            .push(gap(&history.steps, level, current, None));
    }
    history
}

fn gap(before: &[Step], from: i64, to: i64, until: Option<String>) -> Step {
    Step {
        cause: Cause::Unattributed,
        at: until,
        since: before.last().and_then(|s| s.at.clone()),
        from,
        to,
        operation_id: None,
        node_id: None,
        in_flight: false,
        failed: false,
    }
}

/// The chart's width in units (thousandths of the drawn width).
pub const WIDTH: u32 = 1000;
/// The chart's height in pixels, and the room kept above the highest level
/// (for its count) and below zero.
pub const HEIGHT: u32 = 120;
const TOP: u32 = 22;
const BOTTOM: u32 = 10;
/// The room a change gets at least, so changes minutes apart in a history of
/// months stay apart on the chart.
const MIN_ROOM: u32 = 110;
/// The room kept right of the last change, up to now.
const TAIL: u32 = 60;

/// A line of the chart, from (x1, y1) to (x2, y2).
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    pub x1: u32,
    pub y1: u32,
    pub x2: u32,
    pub y2: u32,
    /// An unattributed change: somewhere along this stretch.
    pub dashed: bool,
}

/// Where a step's marker sits.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// Its place in [`History::steps`].
    pub index: usize,
    pub x: u32,
    pub y: u32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chart {
    pub segments: Vec<Segment>,
    pub markers: Vec<Marker>,
    /// Each level's count and where its label goes.
    pub levels: Vec<(i64, u32, u32)>,
    pub top: i64,
}

/// Lays the steps out from the create (x = 0) to now (x = [`WIDTH`]). Time
/// runs left to right, but each change gets at least a little room, so the
/// axis is only roughly to scale; the list under the chart has the times.
pub fn chart(history: &History, now_ms: f64) -> Chart {
    let steps = &history.steps;
    if steps.is_empty() {
        return Chart::default();
    }
    // Each step's time; an unattributed change is placed at its latest (now when open).
    let times: Vec<f64> = steps
        .iter()
        .map(|s| s.at.as_deref().and_then(parse_rfc3339_ms).unwrap_or(now_ms))
        .collect();
    let first = times[0].min(now_ms);
    let span = (now_ms - first).max(1.0);
    let room = (WIDTH - TAIL) / (steps.len() as u32).max(1);
    let min_room = MIN_ROOM.min(room);
    // Proportional places, pushed right so that each is at least `min_room`
    // past the one before.
    let mut xs: Vec<u32> = Vec::with_capacity(steps.len());
    for (i, &t) in times.iter().enumerate() {
        let share = ((t.max(first).min(now_ms) - first) / span * f64::from(WIDTH - TAIL)).round();
        let mut x = share as u32;
        if i > 0 {
            x = x.max(xs[i - 1] + min_room);
        }
        xs.push(x);
    }
    // Then pulled back left from the end where that pushed past the width.
    let mut bound = WIDTH - TAIL;
    for x in xs.iter_mut().rev() {
        *x = (*x).min(bound);
        bound = x.saturating_sub(min_room);
    }
    let top = steps
        .iter()
        .flat_map(|s| [s.from, s.to])
        .max()
        .unwrap_or(0)
        .max(1);
    let y = |count: i64| {
        let count = count.clamp(0, top) as u64;
        let usable = u64::from(HEIGHT - TOP - BOTTOM);
        TOP + (usable - count * usable / top as u64) as u32
    };
    let mut chart = Chart {
        top,
        ..Chart::default()
    };
    let mut level_x = xs[0];
    let mut level = steps[0].to;
    for (index, step) in steps.iter().enumerate() {
        let x = xs[index];
        if step.cause == Cause::Unattributed {
            // It happened somewhere between the change before and this place.
            chart.segments.push(Segment {
                x1: level_x,
                y1: y(step.from),
                x2: x,
                y2: y(step.to),
                dashed: true,
            });
            chart.markers.push(Marker {
                index,
                x: (level_x + x) / 2,
                y: (y(step.from) + y(step.to)) / 2,
            });
        } else {
            if index > 0 {
                chart.segments.push(Segment {
                    x1: level_x,
                    y1: y(level),
                    x2: x,
                    y2: y(level),
                    dashed: false,
                });
                chart.segments.push(Segment {
                    x1: x,
                    y1: y(step.from),
                    x2: x,
                    y2: y(step.to),
                    dashed: false,
                });
            }
            chart.markers.push(Marker {
                index,
                x,
                y: y(step.to),
            });
            chart.levels.push((step.to, x, y(step.to)));
        }
        level_x = x;
        level = step.to;
    }
    if level_x < WIDTH {
        chart.segments.push(Segment {
            x1: level_x,
            y1: y(level),
            x2: WIDTH,
            y2: y(level),
            dashed: false,
        });
    }
    chart
}

/// A place in thousandths as a percentage for an SVG attribute: 123 → "12.3%",
/// with no float formatted.
pub fn percent(units: u32) -> String {
    let units = units.min(WIDTH);
    if units.is_multiple_of(10) {
        format!("{}%", units / 10)
    } else {
        format!("{}.{}%", units / 10, units % 10)
    }
}

/// A signed difference in words: +2, −1 (a real minus sign).
pub fn signed(from: i64, to: i64) -> String {
    let d = to - from;
    if d < 0 {
        format!("\u{2212}{}", -d)
    } else {
        format!("+{d}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::{Change, OperationDetails};
    use serde_json::json;

    const POOL: &str = "pool-1";

    fn op(
        id: &str,
        kind: OperationKind,
        op_type: OperationType,
        resource: &str,
        at: &str,
        changes: &[(&str, serde_json::Value, serde_json::Value)],
    ) -> Operation {
        Operation {
            id: id.into(),
            kind,
            op_type,
            status: OperationStatus::Done,
            resource_id: resource.into(),
            details: (!changes.is_empty()).then(|| OperationDetails {
                changes: changes
                    .iter()
                    .map(|(f, from, to)| {
                        (
                            f.to_string(),
                            Change {
                                from: from.clone(),
                                to: to.clone(),
                            },
                        )
                    })
                    .collect(),
            }),
            created_at: at.into(),
            updated_at: at.into(),
            ..Operation::default()
        }
    }

    fn create(at: &str) -> Operation {
        op(
            "op-create",
            OperationKind::NksNodePool,
            OperationType::Create,
            POOL,
            at,
            &[],
        )
    }

    fn update(id: &str, at: &str, from: i64, to: i64) -> Operation {
        op(
            id,
            OperationKind::NksNodePool,
            OperationType::Update,
            POOL,
            at,
            &[("node_count", json!(from), json!(to))],
        )
    }

    fn node_delete(id: &str, node: &str, at: &str, from: i64, drained: bool) -> Operation {
        let mut changes = vec![("node_count", json!(from), json!(from - 1))];
        if drained {
            changes.push(("drained", json!(false), json!(true)));
        }
        op(
            id,
            OperationKind::NksNode,
            OperationType::Delete,
            node,
            at,
            &changes,
        )
    }

    fn known(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    fn causes(h: &History) -> Vec<(Cause, i64, i64)> {
        h.steps.iter().map(|s| (s.cause, s.from, s.to)).collect()
    }

    const CREATED: &str = "2026-05-01T10:00:00Z";

    #[test]
    fn a_read_taken_before_the_last_change_draws_no_step_from_its_count() {
        // A node delete took the pool from 2 to 1, ending at 10:05; the pool was
        // read at 10:04 (still 2), its answer arriving after the end.
        let ops = [
            node_delete("op-d", "node-a", "2026-05-01T10:05:00Z", 2, false),
            create(CREATED),
        ];
        let nodes = known(&["node-a"]);
        let stale = rebuild(POOL, CREATED, 2, "2026-05-01T10:04:00Z", &ops, &nodes);
        assert_eq!(
            causes(&stale),
            [(Cause::Create, 2, 2), (Cause::NodeDelete, 2, 1)]
        );
        // Read after it, the same count is a change made outside the operations.
        let later = rebuild(POOL, CREATED, 2, "2026-05-01T10:06:00Z", &ops, &nodes);
        assert_eq!(
            causes(&later),
            [
                (Cause::Create, 2, 2),
                (Cause::NodeDelete, 2, 1),
                (Cause::Unattributed, 1, 2)
            ]
        );
        // When the read's time is unknown, the count read is taken as it is.
        assert_eq!(
            causes(&rebuild(POOL, CREATED, 2, "", &ops, &nodes)),
            causes(&later)
        );
    }

    #[test]
    fn only_a_create_is_one_flat_step_at_the_current_count() {
        let h = rebuild(POOL, CREATED, 3, "", &[create(CREATED)], &known(&[]));
        assert_eq!(causes(&h), [(Cause::Create, 3, 3)]);
        assert!(h.unchanged());
        assert_eq!(h.steps[0].operation_id.as_deref(), Some("op-create"));
        let c = chart(&h, parse_rfc3339_ms("2026-05-02T10:00:00Z").unwrap());
        assert_eq!(c.markers.len(), 1);
        assert_eq!(
            c.segments,
            [Segment {
                x1: 0,
                y1: TOP,
                x2: WIDTH,
                y2: TOP,
                dashed: false
            }]
        );
    }

    #[test]
    fn updates_and_known_node_deletes_are_classified_newest_first_list_in_time_order() {
        // Newest first, as the API lists them.
        let ops = [
            node_delete("op-4", "node-b", "2026-05-01T10:30:00Z", 4, true),
            node_delete("op-3", "node-a", "2026-05-01T10:20:00Z", 5, false),
            update("op-2", "2026-05-01T10:10:00Z", 6, 5),
            update("op-1", "2026-05-01T10:05:00Z", 3, 6),
            create(CREATED),
        ];
        let h = rebuild(POOL, CREATED, 3, "", &ops, &known(&["node-a", "node-b"]));
        assert_eq!(
            causes(&h),
            [
                (Cause::Create, 3, 3),
                (Cause::ScaleUp, 3, 6),
                (Cause::ManualScaleDown, 6, 5),
                (Cause::NodeDelete, 5, 4),
                (Cause::AutoscalerDrain, 4, 3),
            ]
        );
        assert!(!h.unchanged());
        assert_eq!(h.steps[4].node_id.as_deref(), Some("node-b"));
        assert!(h.aside.is_empty());
    }

    #[test]
    fn a_delete_of_a_node_not_known_to_be_the_pools_leaves_a_gap_dated_between_its_neighbours() {
        let ops = [
            update("op-2", "2026-05-01T10:15:00Z", 4, 6),
            node_delete("op-x", "node-elsewhere", "2026-05-01T10:10:00Z", 5, true),
            update("op-1", "2026-05-01T10:02:00Z", 3, 5),
            create(CREATED),
        ];
        let h = rebuild(POOL, CREATED, 6, "", &ops, &known(&["node-a"]));
        assert_eq!(
            causes(&h),
            [
                (Cause::Create, 3, 3),
                (Cause::ScaleUp, 3, 5),
                (Cause::Unattributed, 5, 4),
                (Cause::ScaleUp, 4, 6),
            ]
        );
        let gap = &h.steps[2];
        assert_eq!(gap.since.as_deref(), Some("2026-05-01T10:02:00Z"));
        assert_eq!(gap.at.as_deref(), Some("2026-05-01T10:15:00Z"));
        assert_eq!(gap.operation_id, None);
        assert_eq!(signed(gap.from, gap.to), "\u{2212}1");
    }

    #[test]
    fn a_current_count_unlike_the_last_change_is_a_gap_up_to_now() {
        let ops = [
            update("op-1", "2026-05-01T10:02:00Z", 3, 5),
            create(CREATED),
        ];
        let h = rebuild(POOL, CREATED, 3, "", &ops, &known(&[]));
        let last = h.steps.last().unwrap();
        assert_eq!(
            (last.cause, last.from, last.to),
            (Cause::Unattributed, 5, 3)
        );
        assert_eq!(last.at, None);
        assert_eq!(last.since.as_deref(), Some("2026-05-01T10:02:00Z"));
        let c = chart(&h, parse_rfc3339_ms("2026-05-01T11:00:00Z").unwrap());
        let dashed: Vec<&Segment> = c.segments.iter().filter(|s| s.dashed).collect();
        assert_eq!(dashed.len(), 1);
        assert!(dashed[0].y2 > dashed[0].y1, "it goes down: {dashed:?}");
    }

    #[test]
    fn failed_operations_and_running_node_deletes_are_not_steps() {
        let mut failed = update("op-f", "2026-05-01T10:05:00Z", 3, 8);
        failed.status = OperationStatus::Failed;
        let mut running = node_delete("op-r", "node-a", "2026-05-01T10:06:00Z", 3, true);
        running.status = OperationStatus::Running;
        let mut pending_update = update("op-p", "2026-05-01T10:07:00Z", 3, 4);
        pending_update.status = OperationStatus::Pending;
        let ops = [pending_update, running, failed, create(CREATED)];
        let h = rebuild(POOL, CREATED, 4, "", &ops, &known(&["node-a"]));
        assert!(!h.steps[1].failed);
        // The update in flight is a step: the pool already reads its count.
        assert_eq!(causes(&h), [(Cause::Create, 3, 3), (Cause::ScaleUp, 3, 4)]);
        assert!(h.steps[1].in_flight);
        let aside: Vec<(&str, bool)> = h
            .aside
            .iter()
            .map(|a| (a.operation_id.as_str(), a.failed))
            .collect();
        assert_eq!(aside, [("op-f", true), ("op-r", false)]);
    }

    #[test]
    fn a_failed_update_whose_count_the_pool_keeps_is_a_step_marked_failed() {
        let mut failed = update("op-f", "2026-05-01T10:05:00Z", 3, 4);
        failed.status = OperationStatus::Failed;
        let h = rebuild(
            POOL,
            CREATED,
            4,
            "",
            &[failed, create(CREATED)],
            &known(&[]),
        );
        assert_eq!(causes(&h), [(Cause::Create, 3, 3), (Cause::ScaleUp, 3, 4)]);
        assert!(h.steps[1].failed);
        assert!(h.aside.is_empty());
    }

    #[test]
    fn other_pools_operations_and_changes_without_a_count_are_ignored() {
        let mut other = update("op-o", "2026-05-01T10:05:00Z", 1, 9);
        other.resource_id = "pool-2".into();
        let rename = op(
            "op-n",
            OperationKind::NksNodePool,
            OperationType::Update,
            POOL,
            "2026-05-01T10:06:00Z",
            &[("name", json!("a"), json!("b"))],
        );
        let h = rebuild(
            POOL,
            CREATED,
            2,
            "",
            &[rename, other, create(CREATED)],
            &known(&[]),
        );
        assert_eq!(causes(&h), [(Cause::Create, 2, 2)]);
    }

    #[test]
    fn without_its_create_operation_the_history_starts_at_the_pools_created_time() {
        let h = rebuild(POOL, CREATED, 2, "", &[], &known(&[]));
        assert_eq!(h.steps[0].at.as_deref(), Some(CREATED));
        assert_eq!(h.steps[0].operation_id, None);
    }

    #[test]
    fn changes_close_together_in_a_long_history_get_room_and_stay_in_order() {
        let ops = [
            update("op-3", "2026-07-01T10:00:02Z", 4, 2),
            update("op-2", "2026-07-01T10:00:01Z", 5, 4),
            update("op-1", "2026-07-01T10:00:00Z", 3, 5),
            create(CREATED),
        ];
        let h = rebuild(POOL, CREATED, 2, "", &ops, &known(&[]));
        let c = chart(&h, parse_rfc3339_ms("2026-07-01T10:00:10Z").unwrap());
        let xs: Vec<u32> = c.markers.iter().map(|m| m.x).collect();
        assert_eq!(xs.len(), 4);
        for pair in xs.windows(2) {
            assert!(pair[1] >= pair[0] + MIN_ROOM - 1, "{xs:?}");
        }
        assert!(*xs.last().unwrap() <= WIDTH - TAIL);
        // The highest count is at the top, zero at the bottom.
        assert_eq!(c.top, 5);
        let y5 = c.markers[1].y;
        assert_eq!(y5, TOP);
        assert!(c.markers[3].y > c.markers[2].y);
        // Steps: a level then a riser per change, and the last level to now.
        assert_eq!(c.segments.len(), 3 * 2 + 1);
        assert_eq!(c.segments.last().unwrap().x2, WIDTH);
    }

    #[test]
    fn percentages_and_differences_are_written_without_floats() {
        assert_eq!(percent(0), "0%");
        assert_eq!(percent(123), "12.3%");
        assert_eq!(percent(1000), "100%");
        assert_eq!(percent(5000), "100%");
        assert_eq!(signed(3, 5), "+2");
        assert_eq!(signed(5, 3), "\u{2212}2");
    }
}
