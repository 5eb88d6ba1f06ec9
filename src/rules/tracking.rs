//! The operations tracker's state machine, free of timers and HTTP so every rule
//! is tested on the host. The browser half (`crate::ops`) owns the one timer and
//! the calls; it feeds poll results in here and acts on the events that come out.

use std::collections::BTreeMap;

use super::operation::{default_deadline_secs, is_terminal, poll_interval_ms};
use super::outcome::ApiError;
use serde::{Deserialize, Serialize};

use crate::api::decode::from_json;
use crate::api::types::{Operation, OperationKind, OperationStatus, OperationType};

/// How long to follow an operation before saying "ran out of time", in seconds.
/// Read from `config.json` (`operation_deadline_secs`) and, for tests and operators,
/// from the `localStorage` item `nks-console.deadline-secs`.
/// Missing keys keep their default (not zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Deadlines {
    /// A cluster create routinely takes more than 10 minutes (Terraform waits 30).
    pub cluster_create: u64,
    /// Everything else: the SDK waiter's 10 minutes.
    pub default: u64,
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            cluster_create: default_deadline_secs(
                &OperationKind::NksCluster,
                &OperationType::Create,
            ),
            default: default_deadline_secs(&OperationKind::NksNodePool, &OperationType::Update),
        }
    }
}

impl Deadlines {
    pub fn for_op(&self, kind: &OperationKind, op_type: &OperationType) -> u64 {
        match (kind, op_type) {
            (OperationKind::NksCluster, OperationType::Create) => self.cluster_create,
            _ => self.default,
        }
    }

    /// An override as written by hand: a bare number of seconds for every kind, or
    /// `{"cluster_create": 1800, "default": 600}` (missing keys keep their default).
    /// Zero or garbage is ignored: a deadline that passes at once would only confuse.
    pub fn parse_override(text: &str) -> Option<Deadlines> {
        let text = text.trim();
        if let Ok(secs) = text.parse::<u64>() {
            return (secs > 0).then_some(Deadlines {
                cluster_create: secs,
                default: secs,
            });
        }
        let parsed: Deadlines = from_json(text).ok()?;
        (parsed.cluster_create > 0 && parsed.default > 0).then_some(parsed)
    }
}

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
}

impl Tracked {
    pub fn is_active(&self) -> bool {
        !self.expired && !is_terminal(&self.op.status)
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
        let base = poll_interval_ms(self.polls_since_wake);
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
        let mut events = Vec::new();
        for op in fresh {
            let Some(t) = self.ops.get_mut(&op.id) else {
                continue;
            };
            if !t.is_active() {
                continue;
            }
            t.op = op.clone();
            match op.status {
                OperationStatus::Done => events.push(Event::Done(op.clone())),
                OperationStatus::Failed => events.push(Event::Failed(op.clone())),
                // pending, running and unknown all mean "not yet".
                _ => {}
            }
        }
        events.extend(self.expire(now_ms));
        events
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
    pub fn merge_shared(&mut self, shared: &[Operation], now_ms: f64) -> Vec<Event> {
        self.adopt(shared, now_ms);
        self.apply(shared, now_ms)
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

/// How long a follower tab that said "I am visible" keeps the leader polling
/// while the leader's own tab is hidden. Followers say it on every update they
/// receive, so a closed or hidden follower stops counting within this window.
pub const PEER_VISIBLE_MS: f64 = 25_000.0;

/// Polling pauses when nobody can see its result: neither this tab nor, recently,
/// any follower tab.
pub fn anyone_watching(own_visible: bool, peer_visible_at_ms: f64, now_ms: f64) -> bool {
    own_visible || now_ms - peer_visible_at_ms < PEER_VISIBLE_MS
}

/// How long an adoption (three list calls) of a project counts as fresh: a second
/// tab opening on the same project must not repeat it.
pub const ADOPT_FRESH_MS: f64 = 60_000.0;

/// The projects whose in-flight operations were picked up recently.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Adoptions(BTreeMap<String, f64>);

impl Adoptions {
    /// Whether to look for `project`'s operations in flight now; records the look.
    pub fn claim(&mut self, project: &str, now_ms: f64) -> bool {
        match self.0.get(project) {
            Some(at) if now_ms - at < ADOPT_FRESH_MS => false,
            _ => {
                self.0.insert(project.to_string(), now_ms);
                true
            }
        }
    }
}

/// The polling condition as tabs share it (an [`ApiError`] is not serialisable).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SharedCondition {
    pub call: String,
    pub status: Option<u16>,
    pub message: String,
}

impl SharedCondition {
    pub fn from_error(error: &ApiError) -> SharedCondition {
        match error {
            ApiError::Status {
                call,
                status,
                message,
                ..
            } => SharedCondition {
                call: call.clone(),
                status: Some(*status),
                message: message.clone(),
            },
            other => SharedCondition {
                call: String::new(),
                status: None,
                message: other.detail(),
            },
        }
    }

    pub fn to_error(&self) -> ApiError {
        match self.status {
            Some(status) => ApiError::Status {
                call: self.call.clone(),
                status,
                message: self.message.clone(),
                retry_after_ms: None,
            },
            None => ApiError::Unreachable {
                call: self.call.clone(),
                detail: self.message.clone(),
            },
        }
    }
}

/// What tabs of the console say to each other on one `BroadcastChannel`. One tab
/// (the holder of a Web Lock) leads and polls; the others send it their requests
/// and show what it shares.
///
/// Written externally tagged: `{"track":{"op":…}}`, or `"wake"` for a message
/// without fields. Fields are required: a message missing one is not acted on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Message {
    /// Leader → all: every followed operation's latest state, after each poll.
    State {
        ops: Vec<Operation>,
        condition: Option<SharedCondition>,
    },
    /// Follower → leader: a mutation here returned this operation; follow it.
    Track { op: Operation },
    /// Follower → leader: the person chose to keep watching.
    KeepWatching { id: String },
    /// Follower → leader: pick up what is in flight in this project.
    Adopt { project_id: String },
    /// Follower → leader: shown again or back online; poll now.
    Wake,
    /// Follower → leader: this tab is visible (sent on each State it receives).
    Seen,
    /// A new follower: leader, share your state.
    Hello,
}

impl Message {
    pub fn to_json(&self) -> String {
        // Nothing in a message can fail to serialise (no maps with other keys
        // than strings), so the empty string is never sent.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Anything unreadable (another version of the console) is ignored.
    pub fn from_json(text: &str) -> Option<Message> {
        from_json(text).ok()
    }
}

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

/// RFC 3339 (`2026-05-04T09:12:00Z`, optional fraction, `Z` or `±hh:mm`) to ms since
/// the epoch; `None` for anything else.
pub fn parse_rfc3339_ms(ts: &str) -> Option<f64> {
    let (date, time) = ts.split_once('T').or_else(|| ts.split_once(' '))?;
    let mut d = date.split('-');
    let (y, m, day): (i64, i64, i64) = (
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
    );
    if d.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&day) {
        return None;
    }
    let (clock, offset_min) =
        if let Some(c) = time.strip_suffix('Z').or_else(|| time.strip_suffix('z')) {
            (c, 0i64)
        } else {
            let split = time.rfind(['+', '-'])?;
            let (c, off) = time.split_at(split);
            let sign = if off.starts_with('-') { -1 } else { 1 };
            let (oh, om) = off[1..].split_once(':')?;
            (
                c,
                sign * (oh.parse::<i64>().ok()? * 60 + om.parse::<i64>().ok()?),
            )
        };
    let mut parts = clock.split(':');
    let h: i64 = parts.next()?.parse().ok()?;
    let mi: i64 = parts.next()?.parse().ok()?;
    let (s, frac_ms) = seconds_and_ms(parts.next()?)?;
    if parts.next().is_some() || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let ym = if m <= 2 { y - 1 } else { y };
    let era = if ym >= 0 { ym } else { ym - 399 } / 400;
    let yoe = ym - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + day - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    let secs = days * 86_400 + h * 3600 + mi * 60 + s - offset_min * 60;
    Some((secs * 1000 + frac_ms) as f64)
}

/// `ss` or `ss.fff…` as whole seconds and milliseconds (digits past the third are
/// dropped). Integers only: parsing a float here put the float parser (about 4 KB,
/// with its tables) in the first page for this one field.
fn seconds_and_ms(text: &str) -> Option<(i64, i64)> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || !digits(whole)
        || !digits(fraction)
        || (text.contains('.') && fraction.is_empty())
    {
        return None;
    }
    let ms = fraction
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0, |n, b| n * 10 + i64::from(b - b'0'));
    Some((whole.parse().ok()?, ms))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::{OperationKind, OperationType};

    const T0: f64 = 1_780_000_000_000.0;

    fn op(id: &str, status: OperationStatus) -> Operation {
        Operation {
            id: id.into(),
            kind: OperationKind::NksNodePool,
            op_type: OperationType::Update,
            status,
            resource_id: format!("res-{id}"),
            project_id: "p1".into(),
            created_at: String::new(),
            ..Operation::default()
        }
    }

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
    fn a_deadline_override_is_a_number_or_an_object_and_garbage_is_ignored() {
        assert_eq!(
            Deadlines::parse_override(" 3 "),
            Some(Deadlines {
                cluster_create: 3,
                default: 3
            })
        );
        assert_eq!(
            Deadlines::parse_override(r#"{"default": 7}"#),
            Some(Deadlines {
                cluster_create: 1800,
                default: 7
            })
        );
        assert_eq!(Deadlines::parse_override("0"), None);
        assert_eq!(Deadlines::parse_override("soon"), None);
        assert_eq!(
            Deadlines::default().for_op(&OperationKind::NksNode, &OperationType::Delete),
            600
        );
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
        assert!(follower.merge_shared(&leader.snapshot(), T0).is_empty());
        assert_eq!(follower.active_count(), 2);
        leader.apply(&[op("a", OperationStatus::Done)], T0 + 1.0);
        let events = follower.merge_shared(&leader.snapshot(), T0 + 1.0);
        assert_eq!(events, vec![Event::Done(op("a", OperationStatus::Done))]);
        assert!(
            follower
                .merge_shared(&leader.snapshot(), T0 + 2.0)
                .is_empty(),
            "an ending is heard once"
        );
        assert_eq!(follower.active_count(), 1);
    }

    #[test]
    fn a_follower_never_picks_up_an_operation_that_already_ended() {
        let mut follower = Tracker::default();
        assert!(follower
            .merge_shared(&[op("x", OperationStatus::Failed)], T0)
            .is_empty());
        assert!(follower.ops.is_empty());
    }

    #[test]
    fn polling_pauses_only_when_no_tab_is_watching() {
        assert!(anyone_watching(true, f64::NEG_INFINITY, T0));
        assert!(!anyone_watching(false, f64::NEG_INFINITY, T0));
        assert!(anyone_watching(false, T0 - 1_000.0, T0));
        assert!(!anyone_watching(false, T0 - PEER_VISIBLE_MS, T0));
    }

    #[test]
    fn a_project_is_searched_for_operations_in_flight_once_a_minute_at_most() {
        let mut a = Adoptions::default();
        assert!(a.claim("p1", T0));
        assert!(
            !a.claim("p1", T0 + 5_000.0),
            "a second tab does not repeat it"
        );
        assert!(a.claim("p2", T0 + 5_000.0));
        assert!(a.claim("p1", T0 + ADOPT_FRESH_MS));
    }

    #[test]
    fn messages_between_tabs_round_trip_and_strangers_are_ignored() {
        let messages = [
            Message::State {
                ops: vec![op("a", OperationStatus::Running)],
                condition: Some(SharedCondition::from_error(&ApiError::Status {
                    call: "Get operation".into(),
                    status: 429,
                    message: "slow down".into(),
                    retry_after_ms: Some(1500),
                })),
            },
            Message::Track {
                op: op("b", OperationStatus::Pending),
            },
            Message::Track {
                op: Operation {
                    details: Some(crate::api::types::OperationDetails {
                        changes: BTreeMap::from([
                            (
                                "node_count".to_string(),
                                crate::api::types::Change {
                                    from: serde_json::json!(3),
                                    to: serde_json::json!(5),
                                },
                            ),
                            (
                                "tags".to_string(),
                                crate::api::types::Change {
                                    from: serde_json::json!(["a \"b\""]),
                                    to: serde_json::json!([]),
                                },
                            ),
                        ]),
                    }),
                    ..op("c", OperationStatus::Running)
                },
            },
            Message::KeepWatching { id: "a".into() },
            Message::Adopt {
                project_id: "p1".into(),
            },
            Message::Wake,
            Message::Seen,
            Message::Hello,
        ];
        for m in messages {
            assert_eq!(Message::from_json(&m.to_json()), Some(m));
        }
        assert_eq!(Message::from_json(r#"{"from_the_future":{}}"#), None);
        assert_eq!(
            Message::from_json(r#"{"track":{}}"#),
            None,
            "a message missing its field"
        );
        assert_eq!(Message::from_json(r#"{"wake":{},"seen":{}}"#), None);
        assert_eq!(Message::from_json(r#""from_the_future""#), None);
        assert_eq!(Message::from_json("not json"), None);
    }

    #[test]
    fn a_shared_condition_keeps_its_outcome() {
        let errors = [
            ApiError::Status {
                call: "List operations".into(),
                status: 503,
                message: "busy".into(),
                retry_after_ms: None,
            },
            ApiError::Unreachable {
                call: "Get operation".into(),
                detail: "no response".into(),
            },
        ];
        for e in errors {
            let back = SharedCondition::from_error(&e).to_error();
            assert_eq!(back.outcome(), e.outcome());
        }
    }

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
    fn rfc3339_times_parse_with_fraction_and_offset() {
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:00Z"), Some(0.0));
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:01.5Z"), Some(1500.0));
        assert_eq!(parse_rfc3339_ms("1970-01-01T01:00:00+01:00"), Some(0.0));
        assert_eq!(
            parse_rfc3339_ms("2015-10-21T07:28:00Z"),
            Some(1_445_412_480_000.0)
        );
        assert_eq!(
            parse_rfc3339_ms("1970-01-01T00:00:01.123456789Z"),
            Some(1123.0)
        );
        assert_eq!(
            parse_rfc3339_ms("1970-01-01T00:00:02.05-00:00"),
            Some(2050.0)
        );
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:60Z"), Some(60_000.0));
        for bad in [
            "1970-01-01T00:00:61Z",
            "1970-01-01T00:00:1.Z",
            "1970-01-01T00:00:.5Z",
            "1970-01-01T00:00:-1Z",
            "1970-01-01T00:00:1e1Z",
            "1970-01-01T24:00:00Z",
        ] {
            assert_eq!(parse_rfc3339_ms(bad), None, "{bad}");
        }
        assert_eq!(parse_rfc3339_ms("yesterday"), None);
        assert_eq!(parse_rfc3339_ms(""), None);
    }
}
