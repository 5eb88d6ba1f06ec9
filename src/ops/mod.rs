//! The operations tracker: the only poller in the app.
//!
//! Every mutation answers with an Operation that must be followed to `done` or
//! `failed`. One tracker follows all of them on one browser timer, asks about many
//! operations with one list call per tick, backs off for long ones, pauses while
//! nobody can see it, survives transient failures, and keeps the ids (never the key)
//! in `localStorage` so a reload resumes. Views read its signals; none of them polls.
//!
//! Several open tabs share one poller: the tab holding the Web Lock
//! `nks-console.ops-leader` leads and polls; the others follow over the
//! `BroadcastChannel` of the same name (they receive its state and send it their
//! operations), and the browser hands the lock to one of them when the leader
//! closes. Without Web Locks every tab leads on its own.
//!
//! The poll loop, the notices and the messages between tabs are the tracker's
//! engine (`engine.rs`), loaded when there is first something to follow; see
//! [`Ops::engine`].
//!
//! Deadlines come from a `Deadlines` in context (config.json) and can be overridden
//! per browser with the `localStorage` item `nks-console.deadline-secs`: a number of
//! seconds, or `{"cluster_create": 1800, "default": 600}`.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::api::client::Client;
use crate::api::types::Operation;
use crate::rules::outcome::ApiError;
use crate::rules::tracking::deadlines::Deadlines;
use crate::rules::tracking::tabs::{anyone_watching, Adoptions};
use crate::rules::tracking::tracker::{Tracked, Tracker};

mod engine;
use engine::Cmd;

const STORAGE_ITEM: &str = "nks-console.operations";
/// Test and operator override of the deadlines (see the module comment).
pub const DEADLINE_ITEM: &str = "nks-console.deadline-secs";
const CHANNEL: &str = "nks-console.operations";
const LOCK: &str = "nks-console.ops-leader";
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

/// The engine, once its code is here, and the commands that wait for it.
#[derive(Default)]
struct EngineSlot {
    run: Option<Engine>,
    /// Commands asked for before the engine arrived, oldest first.
    queue: Vec<Cmd>,
    /// Something asked for the engine: from then on every wake goes to it.
    wanted: bool,
    loading: bool,
}

type Engine = fn(Ops, Cmd);

/// The split point: in the split build, calling this fetches the engine's module.
#[cfg_attr(nks_split, wasm_split_helpers::wasm_split(ops_engine, fallible))]
fn load_engine() -> Result<Engine, crate::SplitLoadError> {
    Ok(engine::run)
}

/// How long to wait before asking again for engine code that did not arrive.
const ENGINE_RETRY_MS: u64 = 5_000;

impl Ops {
    /// Starts the tracker for the current session and provides it as context.
    /// Its timer, listeners, channel, lock and in-flight requests are released
    /// when the owning view goes away.
    pub fn provide(client: Client) -> Ops {
        let tracker = Tracker {
            deadlines: deadlines(),
            ..Tracker::default()
        };
        let ops = Ops {
            state: RwSignal::new(tracker),
            revision: RwSignal::new(0),
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
            local: StoredValue::new_local(Local {
                tasks: Rc::new(Tasks::default()),
                channel: web_sys::BroadcastChannel::new(CHANNEL).ok(),
                lock_wait: None,
                release: Rc::new(RefCell::new(None)),
                engine: EngineSlot::default(),
            }),
        };
        provide_context(ops);

        let visibility = window_event_listener_untyped("visibilitychange", move |_| {
            if is_visible() {
                ops.wake();
            } else if !ops.watched() {
                ops.clear_timer();
            }
        });
        let online = window_event_listener_untyped("online", move |_| ops.wake());
        ops.listen();
        on_cleanup(move || {
            visibility.remove();
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
                    .operations::<crate::api::json::Json>(
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
        anyone_watching(is_visible(), peer, now())
    }

    // ----- one poller for all tabs -----

    /// Asks for the lead. With Web Locks: take it if free; else follow, and queue
    /// for it, so the browser hands it over when the leader's tab closes.
    fn elect(&self) {
        let Some(locks) = web_locks() else {
            self.lead();
            return;
        };
        let ops = *self;
        let first = Closure::once_into_js(move |lock: JsValue| -> JsValue {
            if ops.stopped() {
                return JsValue::UNDEFINED;
            }
            if lock.is_null() {
                ops.follow();
                ops.queue_for_lead();
                JsValue::UNDEFINED
            } else {
                ops.hold_lead()
            }
        });
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"ifAvailable".into(), &JsValue::TRUE);
        if request_lock(&locks, &options, &first).is_none() {
            self.lead();
        }
    }

    fn queue_for_lead(&self) {
        let Some(locks) = web_locks() else {
            return;
        };
        let Ok(abort) = web_sys::AbortController::new() else {
            return;
        };
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"signal".into(), &abort.signal());
        let ops = *self;
        let granted = Closure::once_into_js(move |_lock: JsValue| -> JsValue {
            if ops.stopped() {
                return JsValue::UNDEFINED; // gone meanwhile: hand it on at once
            }
            ops.hold_lead()
        });
        let _ = self.local.try_update_value(|l| l.lock_wait = Some(abort));
        let _ = request_lock(&locks, &options, &granted);
    }

    /// Called with the lock granted: lead until the owner goes away, which
    /// resolves the returned promise and so releases the lock.
    fn hold_lead(&self) -> JsValue {
        let Some(release) = self.local.try_with_value(|l| l.release.clone()) else {
            return JsValue::UNDEFINED;
        };
        let held = js_sys::Promise::new(&mut |resolve, _reject| {
            *release.borrow_mut() = Some(resolve);
        });
        self.lead();
        held.into()
    }

    fn lead(&self) {
        let _ = self.role_known.try_set_value(true);
        let _ = self.leader.try_set(true);
        let wanted = self
            .local
            .try_with_value(|l| l.engine.wanted)
            .unwrap_or(false);
        // Ids saved by an earlier load, or state from the tab that led before.
        let saved = local_storage()
            .and_then(|s| s.get_item(STORAGE_ITEM).ok().flatten())
            .is_some_and(|ids| ids != "[]");
        if wanted || saved {
            self.engine(Cmd::Lead);
        }
        for project in self
            .waiting_adopts
            .try_update_value(std::mem::take)
            .unwrap_or_default()
        {
            self.adopt_now(project);
        }
    }

    fn follow(&self) {
        let _ = self.role_known.try_set_value(true);
        let _ = self.leader.try_set(false);
        let projects = self
            .waiting_adopts
            .try_update_value(std::mem::take)
            .unwrap_or_default();
        self.engine(Cmd::Follow(projects));
    }

    fn listen(&self) {
        let Some(channel) = self.local.try_with_value(|l| l.channel.clone()).flatten() else {
            return;
        };
        let ops = *self;
        let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                if ops.stopped() {
                    return;
                }
                if let Some(text) = event.data().as_string() {
                    ops.engine(Cmd::Receive(text));
                }
            },
        );
        // JS owns the closure from here; the channel is closed and detached on cleanup.
        channel.set_onmessage(Some(on_message.into_js_value().unchecked_ref()));
    }

    /// Hands `cmd` to the engine: at once when its code is here, otherwise after
    /// fetching it (once), in the order asked. If the fetch fails, the header says
    /// so and the fetch is retried, the commands kept.
    fn engine(&self, cmd: Cmd) {
        let ready = self.local.try_update_value(|l| {
            l.engine.wanted = true;
            match l.engine.run {
                Some(run) => Some((run, cmd)),
                None => {
                    l.engine.queue.push(cmd);
                    None
                }
            }
        });
        match ready {
            Some(Some((run, cmd))) => run(*self, cmd),
            Some(None) => self.fetch_engine(),
            None => {} // the tracker is gone
        }
    }

    fn fetch_engine(&self) {
        let started = self.local.try_update_value(|l| {
            let start = !l.engine.loading && l.engine.run.is_none();
            l.engine.loading |= start;
            start
        });
        if started != Some(true) {
            return;
        }
        let ops = *self;
        self.spawn(async move {
            let Ok(run) = split_call!(load_engine()) else {
                let _ = ops.local.try_update_value(|l| l.engine.loading = false);
                ops.engine_missing.set(true);
                set_timeout(
                    move || {
                        if !ops.stopped() {
                            ops.fetch_engine();
                        }
                    },
                    Duration::from_millis(ENGINE_RETRY_MS),
                );
                return;
            };
            let Some(queued) = ops.local.try_update_value(|l| {
                l.engine.run = Some(run);
                l.engine.loading = false;
                std::mem::take(&mut l.engine.queue)
            }) else {
                return;
            };
            ops.engine_missing.set(false);
            for cmd in queued {
                run(ops, cmd);
            }
        });
    }

    fn stopped(&self) -> bool {
        self.local
            .try_with_value(|l| l.tasks.stopped.get())
            .unwrap_or(true)
    }

    /// Runs `task` until it ends or the tracker goes away, whichever is first;
    /// dropping it aborts its fetch and clears its retry timer.
    fn spawn(&self, task: impl Future<Output = ()> + 'static) {
        let Some(tasks) = self.local.try_with_value(|l| l.tasks.clone()) else {
            return;
        };
        if tasks.stopped.get() {
            return;
        }
        let id = tasks.next.get();
        tasks.next.set(id + 1);
        spawn_local(Stoppable {
            task: Box::pin(task),
            tasks,
            id,
        });
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

/// The tracker's running tasks: stopping wakes each one so it ends at once.
#[derive(Default)]
struct Tasks {
    stopped: Cell<bool>,
    next: Cell<u64>,
    wakers: RefCell<HashMap<u64, Waker>>,
}

impl Tasks {
    fn stop(&self) {
        self.stopped.set(true);
        let wakers: Vec<Waker> = self.wakers.borrow_mut().drain().map(|(_, w)| w).collect();
        for waker in wakers {
            waker.wake();
        }
    }
}

struct Stoppable {
    task: Pin<Box<dyn Future<Output = ()>>>,
    tasks: Rc<Tasks>,
    id: u64,
}

impl Future for Stoppable {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        if this.tasks.stopped.get() {
            return Poll::Ready(());
        }
        match this.task.as_mut().poll(cx) {
            Poll::Ready(()) => {
                this.tasks.wakers.borrow_mut().remove(&this.id);
                Poll::Ready(())
            }
            Poll::Pending => {
                this.tasks
                    .wakers
                    .borrow_mut()
                    .insert(this.id, cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

/// The longest a background read waits for the browser to be idle.
const IDLE_WAIT_MS: i32 = 2_000;

/// Resolves when the browser is next idle (`requestIdleCallback`, at most
/// [`IDLE_WAIT_MS`] away), or after [`IDLE_WAIT_MS`] where there is no such call
/// (Safari). Dropped first (the tracker stopped), it cancels its callback.
fn when_idle() -> impl Future<Output = ()> {
    /// The pending callback: (an idle callback rather than a timeout, its id).
    struct Pending(Option<(bool, i32)>);
    impl Drop for Pending {
        fn drop(&mut self) {
            match self.0 {
                Some((true, id)) => window().cancel_idle_callback(id as u32),
                Some((false, id)) => window().clear_timeout_with_handle(id),
                None => {}
            }
        }
    }
    let window = window();
    let mut pending = Pending(None);
    let done = js_sys::Promise::new(&mut |resolve, _reject| {
        let idle = js_sys::Reflect::get(&window, &"requestIdleCallback".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        pending.0 = match idle {
            Some(request) => {
                let options = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&options, &"timeout".into(), &IDLE_WAIT_MS.into());
                request
                    .call2(&window, &resolve, &options)
                    .ok()
                    .and_then(|id| id.as_f64())
                    .map(|id| (true, id as i32))
            }
            None => window
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, IDLE_WAIT_MS)
                .ok()
                .map(|id| (false, id)),
        };
        if pending.0.is_none() {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    });
    async move {
        let _pending = pending;
        let _ = wasm_bindgen_futures::JsFuture::from(done).await;
    }
}

/// `navigator.locks`, where the browser has it (secure contexts).
fn web_locks() -> Option<JsValue> {
    let locks = js_sys::Reflect::get(&window().navigator(), &"locks".into()).ok()?;
    (!locks.is_undefined() && !locks.is_null()).then_some(locks)
}

/// `locks.request(LOCK, options, callback)`, its rejection (an abort) handled.
fn request_lock(locks: &JsValue, options: &js_sys::Object, callback: &JsValue) -> Option<()> {
    let request: js_sys::Function = js_sys::Reflect::get(locks, &"request".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let promise: js_sys::Promise = request
        .call3(locks, &LOCK.into(), options, callback)
        .ok()?
        .dyn_into()
        .ok()?;
    // Through Reflect so JS owns the handler (it runs at most once, or never).
    let ignore = Closure::once_into_js(|_: JsValue| {});
    let catch: js_sys::Function = js_sys::Reflect::get(&promise, &"catch".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let _ = catch.call1(&promise, &ignore);
    Some(())
}

/// The deadlines: config.json's (provided as context), unless this browser
/// overrides them.
fn deadlines() -> Deadlines {
    local_storage()
        .and_then(|s| s.get_item(DEADLINE_ITEM).ok().flatten())
        .and_then(|text| Deadlines::parse_override(&text))
        .or_else(use_context::<Deadlines>)
        .unwrap_or_default()
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
