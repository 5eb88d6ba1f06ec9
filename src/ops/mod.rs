//! The operations tracker: the only poller in the app.
//!
//! Every mutation answers with an Operation that must be followed to `done` or
//! `failed`. One tracker follows all of them on one browser timer, asks about many
//! operations with one list call per tick, backs off for long ones, pauses while the
//! tab is hidden, survives transient failures, and keeps the ids (never the key) in
//! `localStorage` so a reload resumes. Views read its signals; none of them polls.

use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::api::client::Client;
use crate::api::types::{Operation, OperationStatus};
use crate::rules::outcome::ApiError;
use crate::rules::tracking::{Event, PollPlan, Tracked, Tracker};

const STORAGE_ITEM: &str = "nks-console.operations";

/// A finished (or timed-out) operation the person should hear about.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub op: Operation,
    pub kind: NoticeKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    Done,
    Failed,
    OutOfTime,
}

/// The tracker's handle, shared through context. Cheap to copy.
#[derive(Clone, Copy)]
pub struct Ops {
    state: RwSignal<Tracker>,
    /// Bumped whenever an operation ends: resources that depend on it refetch.
    pub revision: RwSignal<u64>,
    /// Why the last poll failed, while polling is riding out a transient fault.
    pub condition: RwSignal<Option<ApiError>>,
    pub notices: RwSignal<Vec<Notice>>,
    timer: StoredValue<Option<TimeoutHandle>>,
    busy: StoredValue<bool>,
    again: StoredValue<bool>,
    client: StoredValue<Client>,
}

impl Ops {
    /// Starts the tracker for the current session and provides it as context.
    /// Its timer and listeners are released when the owning view goes away.
    pub fn provide(client: Client) -> Ops {
        let ops = Ops {
            state: RwSignal::new(Tracker::default()),
            revision: RwSignal::new(0),
            condition: RwSignal::new(None),
            notices: RwSignal::new(Vec::new()),
            timer: StoredValue::new(None),
            busy: StoredValue::new(false),
            again: StoredValue::new(false),
            client: StoredValue::new(client),
        };
        provide_context(ops);

        let visibility = window_event_listener_untyped("visibilitychange", move |_| {
            if is_visible() {
                ops.wake();
            } else {
                ops.clear_timer();
            }
        });
        let online = window_event_listener_untyped("online", move |_| ops.wake());
        on_cleanup(move || {
            visibility.remove();
            online.remove();
            ops.clear_timer();
        });

        ops.resume_saved();
        ops
    }

    /// Follows a freshly returned operation, and polls soon.
    pub fn track(&self, op: Operation) {
        self.state.update(|t| t.track(op, now(), None));
        self.save();
        self.wake();
    }

    /// Follows operations already in flight in a project, started elsewhere (another
    /// tab, another tool, the autoscaler).
    pub fn adopt_in_flight(&self, project_id: String) {
        let ops = *self;
        spawn_local(async move {
            let client = ops.client.get_value();
            let mut found = Vec::new();
            for status in ["pending", "running", "unknown"] {
                if let Ok(list) = client
                    .operations(&project_id, &[("status", status.to_string())])
                    .await
                {
                    found.extend(list);
                }
            }
            if found.is_empty() {
                return;
            }
            ops.state.update(|t| t.adopt(&found, now()));
            ops.save();
            ops.wake();
        });
    }

    /// The person chose to keep watching an operation that ran out of time.
    pub fn keep_watching(&self, id: &str) {
        self.state.update(|t| t.keep_watching(id, now()));
        self.notices.update(|n| n.retain(|x| x.op.id != id));
        self.save();
        self.wake();
    }

    pub fn dismiss(&self, id: &str) {
        self.notices.update(|n| n.retain(|x| x.op.id != id));
    }

    /// How many operations are being followed right now.
    pub fn active_count(&self) -> usize {
        self.state.with(Tracker::active_count)
    }

    /// The operation in flight on a resource, if any (to disable conflicting actions).
    pub fn in_flight_on(&self, resource_id: &str) -> Option<Tracked> {
        self.state.with(|t| t.in_flight_on(resource_id).cloned())
    }

    /// The latest known state of one tracked operation.
    pub fn get(&self, id: &str) -> Option<Tracked> {
        self.state.with(|t| t.ops.get(id).cloned())
    }

    /// Whether a timer is scheduled (for tests: no timer outlives its purpose).
    pub fn timer_scheduled(&self) -> bool {
        self.timer.try_with_value(Option::is_some).unwrap_or(false)
    }

    fn clear_timer(&self) {
        if let Some(Some(handle)) = self.timer.try_update_value(Option::take) {
            handle.clear();
        }
    }

    /// Polls soon: after a new mutation, when the tab is shown again, when online.
    fn wake(&self) {
        self.state.update(Tracker::wake);
        self.schedule(0);
    }

    fn schedule(&self, delay_ms: u64) {
        self.clear_timer();
        if self.busy.try_get_value().unwrap_or(true) {
            // A poll is in flight; it reschedules itself when it returns.
            let _ = self.again.try_set_value(true);
            return;
        }
        let idle = self
            .state
            .try_with_untracked(|t| t.plan() == PollPlan::Idle)
            .unwrap_or(true);
        if idle || !is_visible() {
            return;
        }
        let ops = *self;
        if let Ok(handle) =
            set_timeout_with_handle(move || ops.tick(), Duration::from_millis(delay_ms))
        {
            let _ = self.timer.try_set_value(Some(handle));
        }
    }

    fn tick(self) {
        let _ = self.timer.try_set_value(None);
        let Some(plan) = self.state.try_with_untracked(Tracker::plan) else {
            return;
        };
        let _ = self.busy.try_set_value(true);
        let client = self.client.get_value();
        spawn_local(async move {
            let result: Result<Vec<Operation>, ApiError> = match &plan {
                PollPlan::Idle => Ok(Vec::new()),
                PollPlan::Single(id) => client.operation(id).await.map(|op| vec![op]),
                PollPlan::Batch {
                    project_id,
                    created_at_min,
                } => {
                    let filters: Vec<(&str, String)> = if created_at_min.is_empty() {
                        Vec::new()
                    } else {
                        vec![("created_at_min", created_at_min.clone())]
                    };
                    client.operations(project_id, &filters).await
                }
            };
            // The view that owned the tracker may be gone by now (logged out).
            if self.state.try_get_untracked().is_none() {
                return;
            }
            let mut hint = None;
            let events = match result {
                Ok(fresh) => {
                    self.condition.set(None);
                    let mut events = Vec::new();
                    self.state.update(|t| events = t.apply(&fresh, now()));
                    // A tracked operation the server no longer knows is gone for good.
                    if let PollPlan::Single(id) = &plan {
                        if fresh.is_empty() {
                            self.state.update(|t| t.forget(id));
                        }
                    }
                    events
                }
                Err(error) if error.is_not_found() => {
                    if let PollPlan::Single(id) = &plan {
                        self.state.update(|t| t.forget(id));
                    }
                    Vec::new()
                }
                Err(error) => {
                    hint = match &error {
                        ApiError::Status { retry_after_ms, .. } => *retry_after_ms,
                        _ => None,
                    };
                    self.condition.set(Some(error));
                    let mut events = Vec::new();
                    self.state.update(|t| events = t.poll_failed(now()));
                    events
                }
            };
            self.announce(events);
            self.save();
            let _ = self.busy.try_set_value(false);
            let again = self.again.try_update_value(std::mem::take).unwrap_or(false);
            let delay = if again {
                0
            } else {
                self.state.with_untracked(|t| t.next_delay_ms(hint))
            };
            self.schedule(delay);
        });
    }

    fn announce(&self, events: Vec<Event>) {
        if events.is_empty() {
            return;
        }
        let mut ended = false;
        self.notices.update(|notices| {
            for event in events {
                let (op, kind) = match event {
                    Event::Done(op) => (op, NoticeKind::Done),
                    Event::Failed(op) => (op, NoticeKind::Failed),
                    Event::Expired(op) => (op, NoticeKind::OutOfTime),
                };
                ended |= kind != NoticeKind::OutOfTime;
                notices.retain(|n| n.op.id != op.id);
                notices.push(Notice { op, kind });
            }
            // Keep the latest few; older ones stay on the operations page.
            let excess = notices.len().saturating_sub(5);
            notices.drain(..excess);
        });
        if ended {
            self.revision.update(|r| *r += 1);
        }
    }

    fn save(&self) {
        let Some(ids) = self.state.try_with_untracked(Tracker::persisted_ids) else {
            return;
        };
        if let Some(storage) = local_storage() {
            let _ = storage.set_item(
                STORAGE_ITEM,
                &serde_json::to_string(&ids).unwrap_or_default(),
            );
        }
    }

    /// Resumes following what an earlier page load (or another tab) was following.
    fn resume_saved(&self) {
        let ids: Vec<String> = local_storage()
            .and_then(|s| s.get_item(STORAGE_ITEM).ok().flatten())
            .and_then(|json| serde_json::from_str(&json).ok())
            .unwrap_or_default();
        if ids.is_empty() {
            return;
        }
        let ops = *self;
        spawn_local(async move {
            let client = ops.client.get_value();
            for id in ids {
                match client.operation(&id).await {
                    Ok(op)
                        if op.status != OperationStatus::Done
                            && op.status != OperationStatus::Failed =>
                    {
                        ops.state.update(|t| t.track(op, now(), None));
                    }
                    _ => {}
                }
            }
            ops.save();
            ops.wake();
        });
    }
}

fn now() -> f64 {
    js_sys::Date::now()
}

fn is_visible() -> bool {
    document().visibility_state() != web_sys::VisibilityState::Hidden
}

fn local_storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}
