//! One poller for all tabs. The tab holding the Web Lock `nks-console.ops-leader`
//! leads and polls; the others follow over the `BroadcastChannel`
//! `nks-console.operations` (they receive its state and send it their
//! operations), and the browser hands the lock to one of them when the leader
//! closes. Without Web Locks every tab leads on its own.
//!
//! The channel is web-sys's, not leptos-use's: that one hands messages over as a
//! signal of the last one, and two sent in one tick would reach the engine as one.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::engine::Cmd;
use super::Ops;

const CHANNEL: &str = "nks-console.operations";
const LOCK: &str = "nks-console.ops-leader";

/// The channel the tabs talk on, where the browser has one.
pub(super) fn open_channel() -> Option<web_sys::BroadcastChannel> {
    web_sys::BroadcastChannel::new(CHANNEL).ok()
}

impl Ops {
    /// Asks for the lead. With Web Locks: take it if free; else follow, and queue
    /// for it, so the browser hands it over when the leader's tab closes.
    pub(super) fn elect(&self) {
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
        let saved = self.kept.has_saved_ids();
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

    pub(super) fn listen(&self) {
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
