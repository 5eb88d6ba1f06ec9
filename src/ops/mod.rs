//! The operations tracker: the only poller in the app.
//!
//! Every mutation answers with an Operation that must be followed to `done` or
//! `failed`. One tracker follows all of them on one browser timer, asks about many
//! operations with one list call per tick, backs off for long ones, pauses while
//! nobody can see it, survives transient failures, and keeps the ids (never the key)
//! in `localStorage` so a reload resumes. Views read its signals; none of them polls.
//!
//! This module is the tracker's handle ([`Ops`]), what views call and read. The
//! rest, one concern per module:
//! - `leader`: several open tabs share one poller, the holder of a Web Lock;
//! - `engine`: the poll loop, the notices and the messages between tabs, loaded
//!   when there is first something to follow (`engine_code`, [`Ops::engine`]);
//! - `storage`: the ids kept across a reload, and the deadlines' override;
//! - `tasks`: background work that ends when the tracker does.
//!
//! Deadlines come from a `Deadlines` in context (config.json) and can be overridden
//! per browser with the `localStorage` item `nks-console.deadline-secs`: a number of
//! seconds, or `{"cluster_create": 1800, "default": 600}`.
//!
//! Tests that move the simulator's clock set `nks-console.poll-ms` (50 to 10,000)
//! to poll at that steady pace rather than the growing one. Both items are read
//! from this browser's own storage only: no API answer, URL or config sets them.

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;

use leptos::prelude::*;
use leptos_use_document_visibility::use_document_visibility;
use wasm_bindgen::JsValue;

use crate::api::client::Client;
use crate::api::types::{Operation, OperationStatus};
use crate::rules::outcome::ApiError;
use crate::rules::tracking::tabs::{anyone_watching, Adoptions};
use crate::rules::tracking::tracker::{Tracked, Tracker};

mod engine;
mod engine_code;
mod leader;
mod storage;
mod tasks;

use engine::Cmd;
use engine_code::EngineSlot;
use tasks::{when_idle, Tasks};

/// A finished (or timed-out) operation the person should hear about.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub op: Operation,
    pub kind: NoticeKind,
    /// The tracker's revision its end caused (the reads it started).
    pub revision: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    Done,
    Failed,
    OutOfTime,
    /// The API answered 404 for it: no longer known.
    Lost,
}

/// How a followed operation ended when it did not end `done`.
#[derive(Clone, Debug, PartialEq)]
pub enum NotDone {
    /// The platform ran it and it failed.
    Failed(Operation),
    /// Its deadline passed: it may still be running ("keep watching" follows it on).
    OutOfTime,
    /// The API no longer knows it (404); or the wait ended unanswered, its
    /// view or the tracker gone.
    Lost,
}

/// The tracker's handle, shared through context. Cheap to copy.
#[derive(Clone, Copy)]
pub struct Ops {
    state: RwSignal<Tracker>,
    /// Bumped whenever an operation ends: resources that depend on it refetch.
    pub revision: RwSignal<u64>,
    /// The revision the page's reads reflect: once every read that follows
    /// `revision` ([`Ops::read`]) has ended, it catches up. An operation's end is
    /// shown only then ([`Ops::end_shown`]), so "done" never sits beside what the
    /// operation changed, as it was before.
    settled: RwSignal<u64>,
    /// Reads that follow `revision`, running now.
    reads: StoredValue<u32>,
    /// Why the last poll failed, while polling is riding out a transient fault.
    pub condition: RwSignal<Option<ApiError>>,
    pub notices: RwSignal<Vec<Notice>>,
    /// The engine's code did not arrive (yet): nothing is polled until it does.
    pub engine_missing: RwSignal<bool>,
    /// This tab polls (it holds the lock); otherwise it follows the tab that does.
    leader: RwSignal<bool>,
    /// Until the lock answers, nobody here polls and requests wait.
    role_known: StoredValue<bool>,
    waiting_adopts: StoredValue<Vec<String>>,
    adoptions: StoredValue<Adoptions>,
    /// When a follower tab last said it is visible.
    peer_visible_ms: StoredValue<f64>,
    timer: StoredValue<Option<TimeoutHandle>>,
    busy: StoredValue<bool>,
    again: StoredValue<bool>,
    client: StoredValue<Client>,
    /// The ids and the deadlines' override in `localStorage`.
    kept: storage::Kept,
    /// Whether this tab's page is shown (leptos-use's document visibility).
    shown: Signal<bool>,
    local: StoredValue<Local, LocalStorage>,
}

/// Browser objects of one tracker, released when its owner goes away.
struct Local {
    tasks: Rc<Tasks>,
    channel: Option<web_sys::BroadcastChannel>,
    /// Aborts the lock request of a tab still waiting to lead.
    lock_wait: Option<web_sys::AbortController>,
    /// Resolves the promise that holds the lock: calling it hands the lead over.
    release: Rc<RefCell<Option<js_sys::Function>>>,
    engine: EngineSlot,
}

impl Ops {
    /// Starts the tracker for the current session and provides it as context.
    /// Its timer, listeners, channel, lock and in-flight requests are released
    /// when the owning view goes away.
    pub fn provide(client: Client) -> Ops {
        let kept = storage::Kept::open();
        let visibility = use_document_visibility();
        let shown = Signal::derive(move || visibility.get() != web_sys::VisibilityState::Hidden);
        let tracker = Tracker {
            deadlines: kept.deadlines(),
            steady_poll_ms: kept.steady_poll_ms(),
            ..Tracker::default()
        };
        let ops = Ops {
            state: RwSignal::new(tracker),
            revision: RwSignal::new(0),
            settled: RwSignal::new(0),
            reads: StoredValue::new(0),
            condition: RwSignal::new(None),
            notices: RwSignal::new(Vec::new()),
            engine_missing: RwSignal::new(false),
            leader: RwSignal::new(false),
            role_known: StoredValue::new(false),
            waiting_adopts: StoredValue::new(Vec::new()),
            adoptions: StoredValue::new(Adoptions::default()),
            peer_visible_ms: StoredValue::new(f64::NEG_INFINITY),
            timer: StoredValue::new(None),
            busy: StoredValue::new(false),
            again: StoredValue::new(false),
            client: StoredValue::new(client),
            kept,
            shown,
            local: StoredValue::new_local(Local {
                tasks: Rc::new(Tasks::default()),
                channel: leader::open_channel(),
                lock_wait: None,
                release: Rc::new(RefCell::new(None)),
                engine: EngineSlot::default(),
            }),
        };
        provide_context(ops);

        Effect::watch(
            move || shown.get(),
            move |shown, _, _| {
                if *shown {
                    ops.wake();
                } else if !ops.watched() {
                    ops.clear_timer();
                }
            },
            false,
        );
        let online = window_event_listener_untyped("online", move |_| ops.wake());
        ops.listen();
        on_cleanup(move || {
            online.remove();
            ops.clear_timer();
            ops.shut_down();
        });

        ops.elect();
        ops
    }

    /// Follows a freshly returned operation, and polls soon.
    pub fn track(&self, op: Operation) {
        self.engine(Cmd::Track(op));
    }

    /// Follows operations already in flight in a project, started elsewhere (another
    /// tab, another tool, the autoscaler). Done by the leading tab, at most once a
    /// minute per project, so a second tab opening does not repeat it.
    pub fn adopt_in_flight(&self, project_id: String) {
        if !self.role_known.try_get_value().unwrap_or(false) {
            let _ = self.waiting_adopts.try_update_value(|w| w.push(project_id));
        } else if self.is_leader() {
            self.adopt_now(project_id);
        } else {
            self.engine(Cmd::AskToAdopt(project_id));
        }
    }

    /// Looks for operations in flight in the project; the engine follows any found.
    fn adopt_now(&self, project_id: String) {
        let fresh = self
            .adoptions
            .try_update_value(|a| a.claim(&project_id, now()))
            .unwrap_or(false);
        if !fresh {
            return;
        }
        let ops = *self;
        self.spawn(async move {
            // Background work: the page's own first reads and drawing go first.
            when_idle().await;
            let client = ops.client.get_value();
            let mut found = Vec::new();
            for status in ["pending", "running", "unknown"] {
                if let Ok(list) = client
                    .operations::<Box<serde_json::value::RawValue>>(
                        &project_id,
                        &[("status", status.to_string())],
                    )
                    .await
                {
                    found.extend(list);
                }
            }
            if !found.is_empty() {
                ops.engine(Cmd::Adopt(found));
            }
        });
    }

    /// The person chose to keep watching an operation that ran out of time.
    pub fn keep_watching(&self, id: &str) {
        self.engine(Cmd::KeepWatching(id.to_string()));
    }

    pub fn dismiss(&self, id: &str) {
        self.notices.update(|n| n.retain(|x| x.op.id != id));
    }

    /// Marks a read of resources that operations change: call it in the read's
    /// source (it tracks `revision`, so the read runs again when an operation
    /// ends) and keep the guard in the read until it ends.
    pub fn read(&self) -> Reading {
        self.revision.track();
        self.reads.update_value(|n| *n += 1);
        Reading(*self)
    }

    /// Whether the end of operation `id` may be shown: the reads its end caused
    /// are in (its notice says which), or it has no notice (any more).
    pub fn end_shown(&self, id: &str) -> bool {
        let caused = self
            .notices
            .with(|n| n.iter().find(|n| n.op.id == id).map(|n| n.revision));
        caused.is_none_or(|r| self.settled.get() >= r)
    }

    /// The next revision, for operations that ended: reads that follow it start
    /// now; if none does, their end shows at once.
    fn next_revision(&self) -> u64 {
        self.revision.update(|r| *r += 1);
        let ops = *self;
        set_timeout(move || ops.settle(), std::time::Duration::ZERO);
        self.revision.get_untracked()
    }

    fn settle(&self) {
        if self.reads.try_get_value() == Some(0) {
            if let Some(now) = self.revision.try_get_untracked() {
                self.settled.set(now);
            }
        }
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

    /// Resolves once operation `id` (tracked: [`Ops::track`]) has ended. A view
    /// of the tracker's state, which the one poll loop moves: it never asks the
    /// API itself. It waits under the caller's owner, so a view's flow ends
    /// with the view.
    pub async fn until_ended(&self, id: &str) -> Result<Operation, NotDone> {
        self.until(id, false).await
    }

    /// Resolves once operation `id` has ended and its end may be shown
    /// ([`Ops::end_shown`]): what it changed has been read again.
    pub async fn until_shown(&self, id: &str) -> Result<Operation, NotDone> {
        self.until(id, true).await
    }

    async fn until(&self, id: &str, shown: bool) -> Result<Operation, NotDone> {
        use futures_util::StreamExt;
        let ops = *self;
        let id = id.to_string();
        // Its own owner: the memo and the stream's effect go when the wait ends.
        let owner = Owner::new();
        let end_of = owner.with(|| {
            Memo::new(move |_| {
                let end = ops.get(&id).and_then(|t| ending(&t))?;
                (!shown || ops.end_shown(&id)).then_some(end)
            })
        });
        let mut ends = owner.with(|| end_of.to_stream());
        let end = loop {
            match ends.next().await {
                Some(Some(end)) => break end,
                Some(None) => continue,
                None => break Err(NotDone::Lost),
            }
        };
        drop(owner);
        end
    }

    /// Reads the whole tracker (for the operations page's live overlay).
    pub fn with_tracker<R>(&self, f: impl FnOnce(&Tracker) -> R) -> R {
        self.state.with(f)
    }

    /// Whether a timer is scheduled (for tests: no timer outlives its purpose).
    pub fn timer_scheduled(&self) -> bool {
        self.timer.try_with_value(Option::is_some).unwrap_or(false)
    }

    /// Whether this tab polls for all tabs.
    pub fn is_leader(&self) -> bool {
        self.leader.try_get_untracked().unwrap_or(false)
    }

    fn clear_timer(&self) {
        if let Some(Some(handle)) = self.timer.try_update_value(Option::take) {
            handle.clear();
        }
    }

    /// Polls soon: when the tab is shown again, when online. Until the engine is
    /// wanted there is nothing to poll.
    fn wake(&self) {
        let wanted = self
            .local
            .try_with_value(|l| l.engine.wanted)
            .unwrap_or(false);
        if wanted {
            self.engine(Cmd::Wake);
        }
    }

    /// Whether anyone can see what polling would bring: this tab, or a follower
    /// that said so recently.
    fn watched(&self) -> bool {
        let peer = self
            .peer_visible_ms
            .try_get_value()
            .unwrap_or(f64::NEG_INFINITY);
        anyone_watching(self.is_visible(), peer, now())
    }

    fn stopped(&self) -> bool {
        self.local
            .try_with_value(|l| l.tasks.is_stopped())
            .unwrap_or(true)
    }

    /// Runs `task` until it ends or the tracker goes away, whichever is first;
    /// dropping it aborts its fetch and clears its retry timer.
    fn spawn(&self, task: impl Future<Output = ()> + 'static) {
        if let Some(tasks) = self.local.try_with_value(|l| l.tasks.clone()) {
            tasks.spawn(task);
        }
    }

    fn shut_down(&self) {
        let _ = self.local.try_update_value(|l| {
            l.tasks.stop();
            if let Some(channel) = l.channel.take() {
                channel.set_onmessage(None);
                channel.close();
            }
            if let Some(abort) = l.lock_wait.take() {
                abort.abort();
            }
            if let Some(release) = l.release.borrow_mut().take() {
                let _ = release.call0(&JsValue::UNDEFINED);
            }
        });
    }
}

/// A read that follows the tracker's revision, running ([`Ops::read`]); when the
/// last one ends, whether done, failed or dropped, the shown data is settled.
pub struct Reading(Ops);

impl Drop for Reading {
    fn drop(&mut self) {
        if self.0.reads.try_update_value(|n| *n -= 1).is_some() {
            self.0.settle();
        }
    }
}

fn now() -> f64 {
    js_sys::Date::now()
}

impl Ops {
    /// Whether this tab's page is shown now.
    fn is_visible(&self) -> bool {
        self.shown.try_get_untracked().unwrap_or(true)
    }
}

/// How a tracked operation ended, if it has.
fn ending(tracked: &Tracked) -> Option<Result<Operation, NotDone>> {
    match tracked.op.status {
        OperationStatus::Done => Some(Ok(tracked.op.clone())),
        OperationStatus::Failed => Some(Err(NotDone::Failed(tracked.op.clone()))),
        _ if tracked.lost => Some(Err(NotDone::Lost)),
        _ if tracked.expired => Some(Err(NotDone::OutOfTime)),
        _ => None,
    }
}
