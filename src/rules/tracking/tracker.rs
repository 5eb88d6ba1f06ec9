//! The operations tracker's state machine, free of timers and HTTP so every rule
//! is tested on the host. The browser half (`crate::ops`) owns the one timer and
//! the calls; it feeds poll results in here and acts on the events that come out.

use std::collections::BTreeMap;

use super::deadlines::Deadlines;
use crate::api::types::{Operation, OperationStatus};
use crate::rules::operation::{is_terminal, poll_interval_ms};
use crate::rules::times::parse_rfc3339_ms;

/// One operation being followed.
#[derive(Clone, Debug, PartialEq)]
pub struct Tracked {
    pub op: Operation,
    /// When following started or was last extended ("keep watching"), in ms since the epoch.
    pub since_ms: f64,
    /// After this instant the console stops waiting and says so.
    pub deadline_ms: f64,
    /// The deadline passed: no more polling until the person chooses to keep watching.
    pub expired: bool,
    /// The API answered 404 for it (a restart, a purge): an end of its own, since
    /// nothing more can be learnt by asking again.
    pub lost: bool,
}

impl Tracked {
    pub fn is_active(&self) -> bool {
        !self.expired && !self.lost && !is_terminal(&self.op.status)
    }
}

/// What happened to a tracked operation on this tick.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// It ended `done`: re-read the resource by `resource_id`, refresh its lists.
    Done(Operation),
    /// It ended `failed`: show it, re-read the resource (likely `error`), never retry.
    Failed(Operation),
    /// The deadline passed while it was still pending/running/unknown.
    Expired(Operation),
    /// The API no longer knows it (404): stop asking; whether its resource exists
    /// is for the person to check.
    Lost(Operation),
}

/// How to ask about the active operations on the next tick.
#[derive(Clone, Debug, PartialEq)]
pub enum PollPlan {
    /// Nothing to follow.
    Idle,
    /// One operation: a single `GET /v1/operations/{id}` is cheapest.
    Single(String),
    /// Several in one project: one `GET /v1/operations?project_id=…&created_at_min=…`
    /// returns them all (and any started elsewhere), so the request rate does not grow
    /// with the number of operations.
    Batch {
        project_id: String,
        created_at_min: String,
    },
}

/// Every tracked operation, by id, plus the poll cadence.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tracker {
    pub ops: BTreeMap<String, Tracked>,
    /// Polls since the last wake-up (a new mutation, the tab shown again): drives the
    /// interval from 1 s up to 10 s.
    pub polls_since_wake: u32,
    /// Consecutive failed polls (retryable status or no response): polling goes on,
    /// slower, and the indicator says why.
    pub failed_polls: u32,
    /// Ticks so far, to take projects in turn when operations span several.
    pub ticks: usize,
    pub deadlines: Deadlines,
    /// A test's steady interval in place of the growing one (`nks-console.poll-ms`),
    /// so a test that moves the simulator's clock sees the result at once. Failures
    /// still back off.
    pub steady_poll_ms: Option<u64>,
}

impl Tracker {
    /// Follows `op` from now. `deadline_secs` overrides the default for its kind.
    pub fn track(&mut self, op: Operation, now_ms: f64, deadline_secs: Option<u64>) {
        let secs = deadline_secs.unwrap_or_else(|| self.deadlines.for_op(&op.kind, &op.op_type));
        let since_ms = parse_rfc3339_ms(&op.created_at)
            .map(|t| t.min(now_ms))
            .unwrap_or(now_ms);
        let tracked = Tracked {
            since_ms,
            deadline_ms: since_ms + secs as f64 * 1000.0,
            expired: false,
            lost: false,
            op,
        };
        self.ops.insert(tracked.op.id.clone(), tracked);
        self.wake();
    }

    /// A new mutation or the tab coming back: poll soon, then back off again.
    pub fn wake(&mut self) {
        self.polls_since_wake = 0;
    }

    /// The person chose to keep watching an operation that ran out of time.
    pub fn keep_watching(&mut self, id: &str, now_ms: f64) {
        if let Some(t) = self.ops.get_mut(id) {
            let secs = self.deadlines.for_op(&t.op.kind, &t.op.op_type);
            t.expired = false;
            t.since_ms = now_ms;
            t.deadline_ms = now_ms + secs as f64 * 1000.0;
            self.polls_since_wake = 0;
        }
    }

    /// Stops following (the person dismissed a finished or expired operation).
    pub fn forget(&mut self, id: &str) {
        self.ops.remove(id);
    }

    /// The API answered 404 for a followed operation: it ends as lost, once.
    pub fn lose(&mut self, id: &str) -> Option<Event> {
        let t = self.ops.get_mut(id).filter(|t| t.is_active())?;
        t.lost = true;
        Some(Event::Lost(t.op.clone()))
    }

    /// The ids of operations the API no longer knows, for the follower tabs.
    pub fn lost_ids(&self) -> Vec<String> {
        self.ops
            .values()
            .filter(|t| t.lost)
            .map(|t| t.op.id.clone())
            .collect()
    }

    pub fn active(&self) -> impl Iterator<Item = &Tracked> {
        self.ops.values().filter(|t| t.is_active())
    }

    pub fn active_count(&self) -> usize {
        self.active().count()
    }

    /// The operation in flight on a resource, if any.
    pub fn in_flight_on(&self, resource_id: &str) -> Option<&Tracked> {
        self.active().find(|t| t.op.resource_id == resource_id)
    }

    /// What to request on the next tick.
    pub fn plan(&self) -> PollPlan {
        let active: Vec<&Tracked> = self.active().collect();
        match active.as_slice() {
            [] => PollPlan::Idle,
            [one] => PollPlan::Single(one.op.id.clone()),
            many => {
                // Projects take turns, one list call per tick, so operations in a
                // project the person is not looking at are still followed.
                let mut projects: Vec<&str> =
                    many.iter().map(|t| t.op.project_id.as_str()).collect();
                projects.sort_unstable();
                projects.dedup();
                let project = projects[self.ticks % projects.len()].to_string();
                let oldest = many
                    .iter()
                    .filter(|t| t.op.project_id == project)
                    .map(|t| t.op.created_at.as_str())
                    .min()
                    .unwrap_or_default()
                    .to_string();
                PollPlan::Batch {
                    project_id: project,
                    created_at_min: oldest,
                }
            }
        }
    }

    /// Delay before the next poll. Failures stretch it further (with the server's
    /// `Retry-After` when it gave one), but polling never stops on a transient fault.
    pub fn next_delay_ms(&self, server_hint_ms: Option<u64>) -> u64 {
        let base = self
            .steady_poll_ms
            .unwrap_or_else(|| poll_interval_ms(self.polls_since_wake));
        let backoff = if self.failed_polls == 0 {
            base
        } else {
            let grown = 1_000u64.saturating_mul(1 << self.failed_polls.min(5));
            base.max(grown).min(30_000)
        };
        backoff.max(server_hint_ms.unwrap_or(0))
    }

    /// Feeds fresh operations (from a single GET or a batch list) in; returns what ended.
    /// Operations not already tracked are ignored here: adoption is a separate choice.
    pub fn apply(&mut self, fresh: &[Operation], now_ms: f64) -> Vec<Event> {
        self.failed_polls = 0;
        self.ticks = self.ticks.wrapping_add(1);
        self.polls_since_wake = self.polls_since_wake.saturating_add(1);
        let mut events: Vec<Event> = fresh.iter().filter_map(|op| self.refresh(op)).collect();
        events.extend(self.expire(now_ms));
        events
    }

    /// Takes one followed operation's fresh state; says if that ended it.
    pub fn refresh(&mut self, op: &Operation) -> Option<Event> {
        let t = self.ops.get_mut(&op.id).filter(|t| t.is_active())?;
        t.op = op.clone();
        match op.status {
            OperationStatus::Done => Some(Event::Done(op.clone())),
            OperationStatus::Failed => Some(Event::Failed(op.clone())),
            // pending, running and unknown all mean "not yet".
            _ => None,
        }
    }

    /// A poll failed transiently: keep everything, slow down, check deadlines.
    pub fn poll_failed(&mut self, now_ms: f64) -> Vec<Event> {
        self.failed_polls = self.failed_polls.saturating_add(1);
        self.ticks = self.ticks.wrapping_add(1);
        self.expire(now_ms)
    }

    /// Marks operations whose deadline passed.
    pub fn expire(&mut self, now_ms: f64) -> Vec<Event> {
        let mut events = Vec::new();
        for t in self.ops.values_mut() {
            if t.is_active() && now_ms >= t.deadline_ms {
                t.expired = true;
                events.push(Event::Expired(t.op.clone()));
            }
        }
        events
    }

    /// Adopts operations found in flight that this console did not start (another
    /// tab, another tool, the autoscaler), so they are followed too.
    pub fn adopt(&mut self, found: &[Operation], now_ms: f64) {
        for op in found {
            if !is_terminal(&op.status) && !self.ops.contains_key(&op.id) {
                self.track(op.clone(), now_ms, None);
            }
        }
    }

    /// A follower tab takes the leader's view: what it follows is followed here
    /// too, and what ended there ends here (so this tab shows the same notices),
    /// without this tab sending a single request.
    pub fn merge_shared(
        &mut self,
        shared: &[Operation],
        lost: &[String],
        now_ms: f64,
    ) -> Vec<Event> {
        self.adopt(shared, now_ms);
        let mut events = self.apply(shared, now_ms);
        events.extend(lost.iter().filter_map(|id| self.lose(id)));
        events
    }

    /// Every followed operation's latest state, as the leader shares it.
    pub fn snapshot(&self) -> Vec<Operation> {
        self.ops.values().map(|t| t.op.clone()).collect()
    }

    /// The ids worth keeping across a reload: everything still being followed.
    pub fn persisted_ids(&self) -> Vec<String> {
        self.active().map(|t| t.op.id.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::{OperationKind, OperationType};
    use crate::rules::tracking::test_ops::{op, T0};

    #[test]
    fn unknown_keeps_being_followed_and_only_done_or_failed_end_it() {
        let mut t = Tracker::default();
        t.track(op("a", OperationStatus::Pending), T0, None);
        for status in [
            OperationStatus::Running,
            OperationStatus::Unknown,
            OperationStatus::Pending,
        ] {
            assert!(t.apply(&[op("a", status)], T0 + 1000.0).is_empty());
            assert_eq!(t.active_count(), 1);
        }
        let events = t.apply(&[op("a", OperationStatus::Done)], T0 + 2000.0);
        assert_eq!(events, vec![Event::Done(op("a", OperationStatus::Done))]);
        assert_eq!(t.active_count(), 0);
    }

    #[test]
    fn a_failed_operation_is_reported_once_and_never_retried() {
        let mut t = Tracker::default();
        t.track(op("a", OperationStatus::Running), T0, None);
        let events = t.apply(&[op("a", OperationStatus::Failed)], T0);
        assert!(matches!(events.as_slice(), [Event::Failed(o)] if o.id == "a"));
        assert!(
            t.apply(&[op("a", OperationStatus::Failed)], T0).is_empty(),
            "reported once"
        );
        assert_eq!(t.plan(), PollPlan::Idle);
    }

    #[test]
    fn one_operation_is_polled_alone_and_many_in_one_batch() {
        let mut t = Tracker::default();
        assert_eq!(t.plan(), PollPlan::Idle);
        t.track(op("a", OperationStatus::Pending), T0, None);
        assert_eq!(t.plan(), PollPlan::Single("a".into()));
        for i in 0..50 {
            let mut o = op(&format!("b{i:02}"), OperationStatus::Running);
            o.created_at = format!("2026-05-04T09:{:02}:00Z", 10 + i % 40);
            t.track(o, T0, None);
        }
        match t.plan() {
            PollPlan::Batch {
                project_id,
                created_at_min,
            } => {
                assert_eq!(project_id, "p1");
                // "a" has no timestamp, so the oldest known one bounds the batch.
                assert_eq!(created_at_min, "");
            }
            other => panic!("expected a batch, got {other:?}"),
        }
    }

    #[test]
    fn the_batch_starts_at_the_oldest_operation_in_flight() {
        let mut t = Tracker::default();
        for (id, at) in [("x", "2026-05-04T09:20:00Z"), ("y", "2026-05-04T09:12:00Z")] {
            let mut o = op(id, OperationStatus::Running);
            o.created_at = at.into();
            t.track(o, T0, None);
        }
        assert_eq!(
            t.plan(),
            PollPlan::Batch {
                project_id: "p1".into(),
                created_at_min: "2026-05-04T09:12:00Z".into()
            }
        );
    }

    #[test]
    fn projects_take_turns_in_batches() {
        let mut t = Tracker::default();
        for (id, project) in [("a", "p1"), ("b", "p1"), ("c", "p2")] {
            let mut o = op(id, OperationStatus::Running);
            o.project_id = project.into();
            o.created_at = "2026-05-04T09:12:00Z".into();
            t.track(o, parse_rfc3339_ms("2026-05-04T09:12:30Z").unwrap(), None);
        }
        let project = |t: &Tracker| match t.plan() {
            PollPlan::Batch { project_id, .. } => project_id,
            other => panic!("{other:?}"),
        };
        let first = project(&t);
        let soon = parse_rfc3339_ms("2026-05-04T09:13:00Z").unwrap();
        t.apply(&[], soon);
        let second = project(&t);
        assert_ne!(first, second);
    }

    #[test]
    fn polling_starts_at_one_second_and_backs_off_to_ten() {
        let mut t = Tracker::default();
        t.track(op("a", OperationStatus::Pending), T0, None);
        assert_eq!(t.next_delay_ms(None), 1_000);
        for _ in 0..30 {
            t.apply(&[op("a", OperationStatus::Running)], T0);
        }
        assert_eq!(t.next_delay_ms(None), 10_000);
        // A new mutation wakes the poller up again.
        t.track(op("b", OperationStatus::Pending), T0, None);
        assert_eq!(t.next_delay_ms(None), 1_000);
    }

    #[test]
    fn transient_poll_failures_slow_down_but_never_stop_tracking() {
        let mut t = Tracker::default();
        t.track(op("a", OperationStatus::Running), T0, None);
        let mut last = 0;
        for _ in 0..8 {
            assert!(t.poll_failed(T0 + 1.0).is_empty());
            let d = t.next_delay_ms(None);
            assert!(d >= last);
            last = d;
        }
        assert_eq!(last, 30_000);
        assert_eq!(t.active_count(), 1);
        // A Retry-After longer than our own backoff is honoured.
        assert_eq!(t.next_delay_ms(Some(45_000)), 45_000);
        // A test's steady interval replaces the growing one, not the failure backoff.
        let steady = Tracker {
            steady_poll_ms: Some(100),
            polls_since_wake: 18,
            ..Tracker::default()
        };
        assert_eq!(steady.next_delay_ms(None), 100);
        let failing = Tracker {
            failed_polls: 2,
            ..steady.clone()
        };
        assert_eq!(failing.next_delay_ms(None), 4_000);
        // Recovery resets the failure backoff.
        t.apply(&[op("a", OperationStatus::Running)], T0 + 2.0);
        assert!(t.next_delay_ms(None) <= 10_000);
    }

    #[test]
    fn a_deadline_ends_in_out_of_time_and_keep_watching_resumes() {
        let mut t = Tracker::default();
        t.track(op("a", OperationStatus::Running), T0, Some(60));
        assert!(t
            .apply(&[op("a", OperationStatus::Running)], T0 + 59_000.0)
            .is_empty());
        let events = t.apply(&[op("a", OperationStatus::Running)], T0 + 60_000.0);
        assert!(matches!(events.as_slice(), [Event::Expired(o)] if o.id == "a"));
        assert_eq!(
            t.plan(),
            PollPlan::Idle,
            "no polling after the deadline until asked"
        );
        assert!(
            t.ops.contains_key("a"),
            "still listed, so the person can choose"
        );
        t.keep_watching("a", T0 + 70_000.0);
        assert_eq!(t.plan(), PollPlan::Single("a".into()));
    }

    #[test]
    fn a_deadline_also_passes_while_the_api_is_unreachable() {
        let mut t = Tracker::default();
        t.track(op("a", OperationStatus::Running), T0, Some(10));
        let events = t.poll_failed(T0 + 11_000.0);
        assert!(matches!(events.as_slice(), [Event::Expired(_)]));
    }

    #[test]
    fn cluster_creates_get_thirty_minutes_by_default() {
        let mut t = Tracker::default();
        let mut o = op("c", OperationStatus::Pending);
        o.kind = OperationKind::NksCluster;
        o.op_type = OperationType::Create;
        t.track(o, T0, None);
        assert_eq!(t.ops["c"].deadline_ms - t.ops["c"].since_ms, 1_800_000.0);
    }

    #[test]
    fn operations_found_in_flight_elsewhere_are_adopted_once() {
        let mut t = Tracker::default();
        t.adopt(
            &[
                op("a", OperationStatus::Running),
                op("b", OperationStatus::Done),
            ],
            T0,
        );
        assert_eq!(t.active_count(), 1);
        t.adopt(&[op("a", OperationStatus::Running)], T0);
        assert_eq!(t.ops.len(), 1);
        assert_eq!(t.in_flight_on("res-a").map(|x| x.op.id.as_str()), Some("a"));
        assert_eq!(t.persisted_ids(), ["a"]);
    }

    #[test]
    fn configured_deadlines_apply_to_new_operations_and_to_keep_watching() {
        let mut t = Tracker {
            deadlines: Deadlines {
                cluster_create: 120,
                default: 5,
            },
            ..Tracker::default()
        };
        t.track(op("a", OperationStatus::Running), T0, None);
        assert_eq!(t.ops["a"].deadline_ms, T0 + 5_000.0);
        let events = t.poll_failed(T0 + 5_000.0);
        assert!(matches!(events.as_slice(), [Event::Expired(_)]));
        t.keep_watching("a", T0 + 9_000.0);
        assert_eq!(t.ops["a"].deadline_ms, T0 + 14_000.0);
        let mut c = op("c", OperationStatus::Pending);
        c.kind = OperationKind::NksCluster;
        c.op_type = OperationType::Create;
        t.track(c, T0, None);
        assert_eq!(t.ops["c"].deadline_ms, T0 + 120_000.0);
    }

    #[test]
    fn the_deadline_counts_from_when_the_operation_started_not_when_it_was_seen() {
        let mut t = Tracker::default();
        let mut o = op("a", OperationStatus::Running);
        o.created_at = "2026-05-04T09:00:00Z".into();
        let seen = parse_rfc3339_ms("2026-05-04T09:08:00Z").unwrap();
        t.track(o, seen, None);
        assert_eq!(
            t.ops["a"].deadline_ms,
            parse_rfc3339_ms("2026-05-04T09:10:00Z").unwrap()
        );
    }

    #[test]
    fn a_follower_takes_the_leaders_state_and_hears_the_same_endings() {
        let mut leader = Tracker::default();
        leader.track(op("a", OperationStatus::Running), T0, None);
        leader.track(op("b", OperationStatus::Pending), T0, None);
        let mut follower = Tracker::default();
        assert!(follower
            .merge_shared(&leader.snapshot(), &[], T0)
            .is_empty());
        assert_eq!(follower.active_count(), 2);
        leader.apply(&[op("a", OperationStatus::Done)], T0 + 1.0);
        let events = follower.merge_shared(&leader.snapshot(), &[], T0 + 1.0);
        assert_eq!(events, vec![Event::Done(op("a", OperationStatus::Done))]);
        assert!(
            follower
                .merge_shared(&leader.snapshot(), &[], T0 + 2.0)
                .is_empty(),
            "an ending is heard once"
        );
        assert_eq!(follower.active_count(), 1);
    }

    #[test]
    fn a_follower_never_picks_up_an_operation_that_already_ended() {
        let mut follower = Tracker::default();
        assert!(follower
            .merge_shared(&[op("x", OperationStatus::Failed)], &[], T0)
            .is_empty());
        assert!(follower.ops.is_empty());
    }

    #[test]
    fn an_operation_the_api_no_longer_knows_ends_as_lost_once() {
        let mut t = Tracker::default();
        t.track(op("a", OperationStatus::Pending), T0, None);
        t.track(op("b", OperationStatus::Running), T0, None);
        assert_eq!(
            t.lose("a"),
            Some(Event::Lost(op("a", OperationStatus::Pending)))
        );
        assert_eq!(t.lose("a"), None, "announced once");
        assert_eq!(t.lose("nobody"), None);
        assert_eq!(t.active_count(), 1);
        assert_eq!(t.plan(), PollPlan::Single("b".into()));
        assert_eq!(t.persisted_ids(), vec!["b".to_string()]);
        assert_eq!(t.lost_ids(), vec!["a".to_string()]);
        // A poll that still lists it does not bring it back.
        assert!(t
            .apply(&[op("a", OperationStatus::Done)], T0 + 1.0)
            .is_empty());
    }

    #[test]
    fn a_follower_hears_that_an_operation_was_lost() {
        let mut follower = Tracker::default();
        let shared = [op("a", OperationStatus::Pending)];
        follower.merge_shared(&shared, &[], T0);
        let events = follower.merge_shared(&shared, &["a".to_string()], T0 + 1.0);
        assert_eq!(events, vec![Event::Lost(op("a", OperationStatus::Pending))]);
        assert_eq!(follower.active_count(), 0);
    }
}
