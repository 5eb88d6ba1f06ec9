//! The tracker's engine: the poll loop, the notices, the messages between tabs,
//! and resuming what an earlier page load followed.
//!
//! A first page with nothing in flight needs none of it, so in the split build
//! (`--cfg nks_split`) this is a module of its own, fetched the first time the
//! tracker has something to do: an operation to follow, ids saved by an earlier
//! load, operations found in flight, or a message from another tab. Until then
//! [`Ops::engine`] queues the commands, in order. Without the cfg it is linked in
//! and runs at once.

use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::JsValue;

use super::{now, Notice, NoticeKind, Ops};
use serde_json::value::RawValue;

use crate::api::decode::from_json;
use crate::api::types::{Operation, OperationStatus};
use crate::rules::outcome::ApiError;
use crate::rules::tracking::tabs::{Message, SharedCondition};
use crate::rules::tracking::tracker::{Event, PollPlan, Tracker};

/// What the tracker asks of its engine.
pub(super) enum Cmd {
    /// This tab has just taken the lead.
    Lead,
    /// Another tab leads: say hello, and hand it the projects to adopt.
    Follow(Vec<String>),
    /// A mutation here returned this operation.
    Track(Operation),
    /// Operations found in flight in a project, as the list returned them.
    Adopt(Vec<Box<RawValue>>),
    /// Ask the leading tab to adopt what is in flight in this project.
    AskToAdopt(String),
    KeepWatching(String),
    /// Shown again, or back online: poll soon.
    Wake,
    /// A message from another tab, as posted.
    Receive(String),
}

/// Carries out one command. Loaded on first use (see the module comment).
pub(super) fn run(ops: Ops, cmd: Cmd) {
    match cmd {
        Cmd::Lead => {
            ops.resume_saved();
            ops.wake_now();
            ops.share();
        }
        Cmd::Follow(projects) => {
            ops.post(&Message::Hello);
            for project_id in projects {
                ops.post(&Message::Adopt { project_id });
            }
        }
        Cmd::Track(op) => {
            ops.state.update(|t| t.track(op.clone(), now(), None));
            if ops.is_leader() {
                ops.save();
                ops.wake_now();
                ops.share();
            } else {
                ops.post(&Message::Track { op });
            }
        }
        Cmd::Adopt(found) => {
            // An item that does not read as an Operation is left out, not fatal:
            // the next batch poll shows the project's operations again.
            let found: Vec<Operation> = found
                .into_iter()
                .filter_map(|item| from_json::<Operation>(item.get()).ok())
                .collect();
            if found.is_empty() {
                return;
            }
            ops.state.update(|t| t.adopt(&found, now()));
            ops.save();
            ops.wake_now();
            ops.share();
        }
        Cmd::AskToAdopt(project_id) => ops.post(&Message::Adopt { project_id }),
        Cmd::KeepWatching(id) => ops.keep_watching_now(&id),
        Cmd::Wake => ops.wake_now(),
        Cmd::Receive(text) => {
            if let Some(message) = Message::from_json(&text) {
                ops.receive(message);
            }
        }
    }
}

impl Ops {
    fn keep_watching_now(&self, id: &str) {
        self.state.update(|t| t.keep_watching(id, now()));
        self.notices.update(|n| n.retain(|x| x.op.id != id));
        if self.is_leader() {
            self.save();
            self.wake_now();
            self.share();
        } else {
            self.post(&Message::KeepWatching { id: id.to_string() });
        }
    }

    /// Polls soon: after a new mutation, when the tab is shown again, when online.
    fn wake_now(&self) {
        if self.leader.try_get_untracked().unwrap_or(false) {
            let _ = self.state.try_update(Tracker::wake);
            self.schedule(0);
        } else if self.is_visible() {
            self.post(&Message::Wake);
        }
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
        let leads = self.leader.try_get_untracked().unwrap_or(false);
        if idle || !leads || !self.watched() {
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
        let Some(plan) = self.state.try_with_untracked(|t| t.plan()) else {
            return;
        };
        let _ = self.busy.try_set_value(true);
        let client = self.client.get_value();
        self.spawn(async move {
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
            let mut hint = None;
            let events = match result {
                Ok(fresh) => {
                    self.condition.set(None);
                    let mut events = Vec::new();
                    self.state.update(|t| {
                        // A batch also shows what started elsewhere since: follow it too.
                        if matches!(plan, PollPlan::Batch { .. }) {
                            t.adopt(&fresh, now());
                        }
                        events = t.apply(&fresh, now());
                    });
                    // The list covers every followed operation of its project; one
                    // missing from it is asked about alone, and lost on a 404.
                    if let PollPlan::Batch { project_id, .. } = &plan {
                        let missing = self.state.with_untracked(|t| {
                            t.active()
                                .filter(|f| &f.op.project_id == project_id)
                                .filter(|f| !fresh.iter().any(|op| op.id == f.op.id))
                                .map(|f| f.op.id.clone())
                                .collect::<Vec<_>>()
                        });
                        for id in missing {
                            match client.operation(&id).await {
                                Err(error) if error.is_not_found() => {
                                    self.state.update(|t| events.extend(t.lose(&id)));
                                }
                                Ok(op) => {
                                    self.state.update(|t| events.extend(t.refresh(&op)));
                                }
                                Err(_) => {}
                            }
                        }
                    }
                    events
                }
                // The API no longer knows the operation (restarted, purged): an
                // end of its own. Asking again cannot help; the person checks
                // whether the resource exists.
                Err(error) if error.is_not_found() => {
                    self.condition.set(None);
                    let mut events = Vec::new();
                    if let PollPlan::Single(id) = &plan {
                        self.state.update(|t| events.extend(t.lose(id)));
                    }
                    events
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
            self.share();
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
        // An end re-reads what the operation changed (a new revision); its notice
        // waits for that read (`Ops::end_shown`).
        let ends = events.iter().any(|e| !matches!(e, Event::Expired(_)));
        let revision = if ends {
            self.next_revision()
        } else {
            self.revision.get_untracked()
        };
        self.notices.update(|notices| {
            for event in events {
                let (op, kind) = match event {
                    Event::Done(op) => (op, NoticeKind::Done),
                    Event::Failed(op) => (op, NoticeKind::Failed),
                    Event::Expired(op) => (op, NoticeKind::OutOfTime),
                    Event::Lost(op) => (op, NoticeKind::Lost),
                };
                notices.retain(|n| n.op.id != op.id);
                notices.push(Notice { op, kind, revision });
            }
            // Keep the latest few; older ones stay on the operations page.
            let excess = notices.len().saturating_sub(5);
            notices.drain(..excess);
        });
    }

    fn save(&self) {
        let Some(ids) = self.state.try_with_untracked(|t| t.persisted_ids()) else {
            return;
        };
        self.kept.save_ids(ids);
    }

    /// Resumes following what an earlier page load (or a closed leader tab) was
    /// following.
    fn resume_saved(&self) {
        let ids = self.kept.saved_ids();
        let ids: Vec<String> = ids
            .into_iter()
            .filter(|id| {
                self.state
                    .try_with_untracked(|t| !t.ops.contains_key(id))
                    .unwrap_or(false)
            })
            .collect();
        if ids.is_empty() {
            return;
        }
        let ops = *self;
        self.spawn(async move {
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
            ops.wake_now();
            ops.share();
        });
    }

    fn receive(&self, message: Message) {
        let leads = self.leader.try_get_untracked().unwrap_or(false);
        match message {
            Message::State {
                ops,
                condition,
                lost,
            } if !leads => {
                let mut events = Vec::new();
                self.state
                    .update(|t| events = t.merge_shared(&ops, &lost, now()));
                self.condition.set(condition.map(|c| c.to_error()));
                self.announce(events);
                if self.is_visible() {
                    self.post(&Message::Seen);
                }
            }
            Message::Track { op } if leads => {
                self.state.update(|t| t.track(op, now(), None));
                self.save();
                self.wake_now();
                self.share();
            }
            Message::KeepWatching { id } if leads => self.keep_watching_now(&id),
            Message::Adopt { project_id } if leads => self.adopt_now(project_id),
            Message::Wake | Message::Seen if leads => {
                let _ = self.peer_visible_ms.try_set_value(now());
                // Only restart a paused poller; a running schedule keeps its backoff,
                // so a second tab does not make polling faster.
                let paused = !self.timer_scheduled() && !self.busy.try_get_value().unwrap_or(true);
                if paused {
                    self.schedule(0);
                }
            }
            Message::Hello if leads => self.share(),
            _ => {}
        }
    }

    /// The leader tells the followers what it knows, after every change.
    fn share(&self) {
        if !self.leader.try_get_untracked().unwrap_or(false) {
            return;
        }
        let Some((ops, lost)) = self
            .state
            .try_with_untracked(|t| (t.snapshot(), t.lost_ids()))
        else {
            return;
        };
        let condition = self
            .condition
            .try_with_untracked(|c| c.as_ref().map(SharedCondition::from_error))
            .flatten();
        self.post(&Message::State {
            ops,
            condition,
            lost,
        });
    }

    fn post(&self, message: &Message) {
        if let Some(Some(channel)) = self.local.try_with_value(|l| l.channel.clone()) {
            let _ = channel.post_message(&JsValue::from_str(&message.to_json()));
        }
    }
}
