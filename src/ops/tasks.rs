//! The tracker's background work: tasks that end the moment the tracker stops,
//! and waiting for the browser to be idle before starting some.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The tracker's running tasks: stopping wakes each one so it ends at once.
#[derive(Default)]
pub(super) struct Tasks {
    stopped: Cell<bool>,
    next: Cell<u64>,
    wakers: RefCell<HashMap<u64, Waker>>,
}

impl Tasks {
    /// Runs `task` until it ends or these tasks stop, whichever is first;
    /// dropping it aborts its fetch and clears its retry timer.
    pub(super) fn spawn(self: &Rc<Self>, task: impl Future<Output = ()> + 'static) {
        if self.stopped.get() {
            return;
        }
        let id = self.next.get();
        self.next.set(id + 1);
        spawn_local(Stoppable {
            task: Box::pin(task),
            tasks: self.clone(),
            id,
        });
    }

    pub(super) fn is_stopped(&self) -> bool {
        self.stopped.get()
    }

    pub(super) fn stop(&self) {
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
pub(super) fn when_idle() -> impl Future<Output = ()> {
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
