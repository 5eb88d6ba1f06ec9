//! What an operation's page tells beside its status: the statuses it was seen
//! in, with their times, and how long operations like it usually take in the
//! project, measured on the ones that ended.

use crate::api::types::{Operation, OperationKind, OperationStatus, OperationType};
use crate::rules::display;
use crate::rules::operation::is_terminal;
use crate::rules::times::parse_rfc3339_ms;

/// One status an operation was seen in, and since when (ms since the epoch;
/// `None` when the API's time for it is unreadable, or not kept at all).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub status: String,
    pub at_ms: Option<f64>,
    /// Not seen here: `running` before an end, when it was not caught running.
    /// The API keeps no time for it, so none is claimed.
    pub unseen: bool,
}

impl Step {
    fn seen(status: &str, at_ms: Option<f64>) -> Step {
        Step {
            status: status.to_string(),
            at_ms,
            unseen: false,
        }
    }
}

/// The statuses an operation was seen in, in order: the same steps however it
/// was watched, live or opened after its end.
///
/// It starts `pending` at its `created_at`. The status it has when first seen is
/// dated by its `updated_at` (its last change); every change seen afterwards by
/// the moment it was seen, except an end, which is dated by `updated_at`. A
/// `done` not seen after `running` has a `running` step before it, marked unseen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    pub steps: Vec<Step>,
}

/// The step a lost operation ends on: the API no longer knows it (404).
pub const LOST: &str = "no longer known";

impl Timeline {
    /// Takes the operation as it is now, seen at `now_ms`.
    pub fn observe(&mut self, op: &Operation, now_ms: f64) {
        let status = op.status.as_str();
        let updated = parse_rfc3339_ms(&op.updated_at);
        let first = self.steps.is_empty();
        if first {
            self.steps.push(Step::seen(
                OperationStatus::Pending.as_str(),
                parse_rfc3339_ms(&op.created_at),
            ));
        }
        if self.steps.last().is_some_and(|s| s.status == status) {
            return;
        }
        let running = OperationStatus::Running.as_str();
        // Only a `done` one surely ran; a failed one may have failed while pending.
        if op.status == OperationStatus::Done && !self.steps.iter().any(|s| s.status == running) {
            self.steps.push(Step {
                status: running.to_string(),
                at_ms: None,
                unseen: true,
            });
        }
        let at_ms = match (first, is_terminal(&op.status)) {
            (true, _) => updated,
            (false, true) => updated.or(Some(now_ms)),
            (false, false) => Some(now_ms),
        };
        self.steps.push(Step::seen(status, at_ms));
    }

    /// The API answered 404 for it, seen at `now_ms`.
    pub fn lost(&mut self, now_ms: f64) {
        if self.steps.last().is_some_and(|s| s.status == LOST) {
            return;
        }
        self.steps.push(Step::seen(LOST, Some(now_ms)));
    }
}

/// How long operations of one kind and type took in a project: the median of
/// those that ended, and how many there were.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Usual {
    pub secs: u64,
    pub sample: usize,
}

/// The median time, `updated_at − created_at`, of the operations in `past` of
/// `like`'s kind and type that ended (`done` or `failed`), `like` itself left out.
/// Operations whose times do not read are not counted. `None` without any.
pub fn usual_duration(past: &[Operation], like: &Operation) -> Option<Usual> {
    let mut secs: Vec<u64> = past
        .iter()
        .filter(|p| p.id != like.id && p.kind == like.kind && p.op_type == like.op_type)
        .filter(|p| is_terminal(&p.status))
        .filter_map(|p| {
            let start = parse_rfc3339_ms(&p.created_at)?;
            let end = parse_rfc3339_ms(&p.updated_at)?;
            (end >= start).then(|| ((end - start) / 1000.0) as u64)
        })
        .collect();
    if secs.is_empty() {
        return None;
    }
    secs.sort_unstable();
    let n = secs.len();
    let median = if n % 2 == 1 {
        secs[n / 2]
    } else {
        (secs[n / 2 - 1] + secs[n / 2]) / 2
    };
    Some(Usual {
        secs: median,
        sample: n,
    })
}

/// A duration as a rough figure: `about 40 s`, `about 7 min`, `about 1 h 20 min`.
pub fn about(secs: u64) -> String {
    match secs {
        0..=89 => format!("about {secs} s"),
        90..=3569 => format!("about {} min", (secs + 30) / 60),
        _ => {
            let minutes = (secs + 30) / 60;
            match minutes % 60 {
                0 => format!("about {} h", minutes / 60),
                m => format!("about {} h {m} min", minutes / 60),
            }
        }
    }
}

/// What a person calls operations of a kind and type, counted: "pool create",
/// "cluster updates".
pub fn kind_of(kind: &OperationKind, op_type: &OperationType, many: bool) -> String {
    let noun = match kind {
        OperationKind::NksCluster => "cluster",
        OperationKind::NksNodePool => "pool",
        OperationKind::NksNode => "node",
        OperationKind::NksLoadBalancer => "load balancer",
        OperationKind::Vpc => "VPC",
        OperationKind::FirewallRule => "firewall rule",
        other => other.as_str(),
    };
    let plural = if many { "s" } else { "" };
    format!("{noun} {}{plural}", op_type.as_str())
}

/// The usual time in words: "Usually about 7 min, from 12 past pool creates.",
/// or that there is nothing to go by.
pub fn usual_text(usual: Option<Usual>, kind: &OperationKind, op_type: &OperationType) -> String {
    match usual {
        Some(u) => format!(
            "Usually {}, from {} past {}.",
            about(u.secs),
            display::count(u.sample),
            kind_of(kind, op_type, u.sample != 1)
        ),
        None => format!(
            "No usual time: no past {} in this project ended yet.",
            kind_of(kind, op_type, true)
        ),
    }
}

/// Where an operation in flight stands against the usual time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Within it: the share of it gone, in percent (0 to 100).
    Within(u8),
    /// Past it, by this many seconds.
    Past(u64),
}

pub fn pace(elapsed_secs: u64, usual: Usual) -> Pace {
    if usual.secs == 0 || elapsed_secs > usual.secs {
        return Pace::Past(elapsed_secs.saturating_sub(usual.secs));
    }
    Pace::Within((elapsed_secs * 100 / usual.secs) as u8)
}

/// The words for an operation in flight that runs past the usual time: slower
/// than usual, which is not a failure.
pub fn past_usual_text(over_secs: u64, usual: Usual) -> String {
    format!(
        "Running past the usual time ({}) by {}. That alone does not mean it failed: it is still followed, and it ends done or failed as the platform reports.",
        about(usual.secs),
        display::elapsed(over_secs)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(
        id: &str,
        kind: OperationKind,
        op_type: OperationType,
        status: OperationStatus,
        took: u64,
    ) -> Operation {
        let end = 10 + took;
        Operation {
            id: id.into(),
            kind,
            op_type,
            status,
            created_at: "2026-01-01T00:00:10Z".into(),
            updated_at: format!(
                "2026-01-01T{:02}:{:02}:{:02}Z",
                end / 3600,
                (end % 3600) / 60,
                end % 60
            ),
            ..Operation::default()
        }
    }

    fn pool_create(id: &str, status: OperationStatus, took: u64) -> Operation {
        op(
            id,
            OperationKind::NksNodePool,
            OperationType::Create,
            status,
            took,
        )
    }

    #[test]
    fn the_usual_time_is_the_median_of_ended_operations_of_the_same_kind_and_type() {
        use OperationStatus::*;
        let past = vec![
            pool_create("a", Done, 300),
            pool_create("b", Done, 480),
            pool_create("c", Failed, 420),
            // Not ended, another type, another kind, or the operation itself: left out.
            pool_create("d", Running, 9000),
            op(
                "e",
                OperationKind::NksNodePool,
                OperationType::Update,
                Done,
                60,
            ),
            op(
                "f",
                OperationKind::NksCluster,
                OperationType::Create,
                Done,
                1200,
            ),
            pool_create("me", Done, 5000),
        ];
        let me = pool_create("me", Running, 0);
        assert_eq!(
            usual_duration(&past, &me),
            Some(Usual {
                secs: 420,
                sample: 3
            })
        );
        // An even sample takes the middle of the two middle ones.
        let mut four = past.clone();
        four.push(pool_create("g", Done, 600));
        assert_eq!(
            usual_duration(&four, &me),
            Some(Usual {
                secs: 450,
                sample: 4
            })
        );
    }

    #[test]
    fn no_ended_operation_of_the_kind_means_no_usual_time() {
        let me = pool_create("me", OperationStatus::Running, 0);
        assert_eq!(usual_duration(&[], &me), None);
        let unreadable = Operation {
            updated_at: "soon".into(),
            ..pool_create("x", OperationStatus::Done, 10)
        };
        let running = pool_create("y", OperationStatus::Running, 10);
        assert_eq!(usual_duration(&[unreadable, running], &me), None);
        assert_eq!(
            usual_text(None, &OperationKind::NksNodePool, &OperationType::Create),
            "No usual time: no past pool creates in this project ended yet."
        );
    }

    #[test]
    fn the_usual_time_reads_as_a_rough_figure_with_its_sample() {
        let kind = OperationKind::NksNodePool;
        let create = OperationType::Create;
        assert_eq!(
            usual_text(
                Some(Usual {
                    secs: 430,
                    sample: 12
                }),
                &kind,
                &create
            ),
            "Usually about 7 min, from 12 past pool creates."
        );
        assert_eq!(
            usual_text(
                Some(Usual { secs: 5, sample: 1 }),
                &OperationKind::NksCluster,
                &OperationType::Update
            ),
            "Usually about 5 s, from 1 past cluster update."
        );
        assert_eq!(about(89), "about 89 s");
        assert_eq!(about(90), "about 2 min");
        assert_eq!(about(3600), "about 1 h");
        assert_eq!(about(4800), "about 1 h 20 min");
        assert_eq!(
            kind_of(&OperationKind::Other("vm_disk".into()), &create, true),
            "vm_disk creates"
        );
    }

    #[test]
    fn past_the_usual_time_is_said_without_calling_it_failed() {
        let usual = Usual {
            secs: 400,
            sample: 3,
        };
        assert_eq!(pace(0, usual), Pace::Within(0));
        assert_eq!(pace(100, usual), Pace::Within(25));
        assert_eq!(pace(400, usual), Pace::Within(100));
        assert_eq!(pace(460, usual), Pace::Past(60));
        assert_eq!(pace(3, Usual { secs: 0, sample: 1 }), Pace::Past(3));
        let text = past_usual_text(60, usual);
        assert!(
            text.starts_with("Running past the usual time (about 7 min) by 1 min 00 s."),
            "{text}"
        );
        assert!(text.contains("does not mean it failed"));
    }

    #[test]
    fn the_timeline_starts_pending_at_creation_and_dates_each_change() {
        let created = parse_rfc3339_ms("2026-01-01T00:00:10Z").unwrap();
        let mut seen = pool_create("p", OperationStatus::Pending, 0);
        let mut timeline = Timeline::default();
        timeline.observe(&seen, created + 1_000.0);
        assert_eq!(timeline.steps, vec![Step::seen("pending", Some(created))]);
        // Seen again unchanged: nothing new.
        timeline.observe(&seen, created + 2_000.0);
        assert_eq!(timeline.steps.len(), 1);
        seen.status = OperationStatus::Running;
        timeline.observe(&seen, created + 3_000.0);
        seen.status = OperationStatus::Unknown;
        timeline.observe(&seen, created + 4_000.0);
        let done = pool_create("p", OperationStatus::Done, 6);
        timeline.observe(&done, created + 9_000.0);
        let statuses: Vec<&str> = timeline.steps.iter().map(|s| s.status.as_str()).collect();
        assert_eq!(statuses, ["pending", "running", "unknown", "done"]);
        assert_eq!(timeline.steps[1].at_ms, Some(created + 3_000.0));
        assert_eq!(timeline.steps[2].at_ms, Some(created + 4_000.0));
        // The end is the API's own time for it.
        assert_eq!(timeline.steps[3].at_ms, Some(created + 6_000.0));
    }

    #[test]
    fn first_seen_after_it_moved_the_timeline_dates_its_status_by_its_last_update() {
        let created = parse_rfc3339_ms("2026-01-01T00:00:10Z").unwrap();
        let mut timeline = Timeline::default();
        timeline.observe(
            &pool_create("p", OperationStatus::Failed, 42),
            created + 99_000.0,
        );
        // A failure may have come while pending: no running step is made up for it.
        assert_eq!(
            timeline.steps,
            vec![
                Step::seen("pending", Some(created)),
                Step::seen("failed", Some(created + 42_000.0)),
            ]
        );
        timeline.lost(created + 100_000.0);
        timeline.lost(created + 101_000.0);
        assert_eq!(timeline.steps.len(), 3);
        assert_eq!(
            timeline.steps[2],
            Step::seen(LOST, Some(created + 100_000.0))
        );
    }

    #[test]
    fn watched_live_or_opened_after_its_end_an_operation_has_the_same_steps() {
        let created = parse_rfc3339_ms("2026-01-01T00:00:10Z").unwrap();
        let statuses =
            |t: &Timeline| -> Vec<String> { t.steps.iter().map(|s| s.status.clone()).collect() };
        // Live, caught running.
        let mut live = Timeline::default();
        live.observe(&pool_create("p", OperationStatus::Pending, 0), created);
        live.observe(
            &pool_create("p", OperationStatus::Running, 0),
            created + 2_000.0,
        );
        live.observe(
            &pool_create("p", OperationStatus::Done, 5),
            created + 6_000.0,
        );
        // Live, polled before and after it ran.
        let mut missed = Timeline::default();
        missed.observe(&pool_create("p", OperationStatus::Pending, 0), created);
        missed.observe(
            &pool_create("p", OperationStatus::Done, 5),
            created + 6_000.0,
        );
        // Opened after its end.
        let mut reopened = Timeline::default();
        reopened.observe(
            &pool_create("p", OperationStatus::Done, 5),
            created + 60_000.0,
        );
        assert_eq!(statuses(&live), ["pending", "running", "done"]);
        assert_eq!(statuses(&missed), statuses(&live));
        assert_eq!(statuses(&reopened), statuses(&live));
        assert!(!live.steps[1].unseen && live.steps[1].at_ms.is_some());
        for t in [&missed, &reopened] {
            assert!(
                t.steps[1].unseen && t.steps[1].at_ms.is_none(),
                "no time is claimed for it"
            );
            assert_eq!(
                t.steps[2].at_ms,
                Some(created + 5_000.0),
                "the end is the API's own time"
            );
        }
    }
}
