//! A read for the always-present frame (the shell's projects, the cluster list):
//! it keeps its last answer on screen while the next one is on its way.
//!
//! The pages loaded on first use read through `LocalResource` under a
//! `<Transition>`. The first page does not: those two, with the async machinery
//! behind them, were a tenth of the first page's wasm (40 KB of 431, 16 KB
//! gzipped), and a signal set when the answer arrives does the same job here. A view reads [`Load::get`]: `None`
//! until the first answer, then always the latest one, so a refresh never blanks
//! what is shown.

use std::any::Any;
use std::cell::Cell;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::rc::Rc;

use leptos::prelude::*;

pub struct Load<T: 'static> {
    /// Always holds a `T`. Kept untyped so that one copy of the machinery below
    /// serves every `T`: each copy is about 1 KB of the first page.
    answer: Answer,
    again: RwSignal<u32>,
    kind: PhantomData<fn() -> T>,
}

impl<T> Clone for Load<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Load<T> {}

type Answer = RwSignal<Option<Rc<dyn Any>>, LocalStorage>;
type Reading = Pin<Box<dyn Future<Output = Rc<dyn Any>>>>;

impl<T: 'static> Load<T> {
    /// Starts `read` now, and again whenever a signal it reads while building its
    /// future changes, or on [`Load::refetch`]. Only the answer to the latest
    /// start is kept: a slow earlier one that arrives late is dropped.
    pub fn new<F>(read: impl Fn() -> F + 'static) -> Self
    where
        F: Future<Output = T> + 'static,
    {
        let (answer, again) = start(Box::new(move || {
            let reading = read();
            Box::pin(async move { Rc::new(reading.await) as Rc<dyn Any> })
        }));
        Self {
            answer,
            again,
            kind: PhantomData,
        }
    }

    /// The latest answer, `None` until the first arrives. Tracked.
    pub fn get(&self) -> Option<Rc<T>> {
        self.answer.get().and_then(|answer| answer.downcast().ok())
    }

    /// Reads again; the current answer stays until the new one arrives.
    pub fn refetch(&self) {
        self.again.update(|n| *n = n.wrapping_add(1));
    }
}

fn start(read: Box<dyn Fn() -> Reading>) -> (Answer, RwSignal<u32>) {
    let answer = RwSignal::new_local(None);
    let again = RwSignal::new(0_u32);
    let started = Rc::new(Cell::new(0_u32));
    Effect::new(move |_| {
        again.track();
        let reading = read();
        let this = started.get().wrapping_add(1);
        started.set(this);
        let started = started.clone();
        leptos::task::spawn_local(async move {
            let value = reading.await;
            if started.get() == this {
                // The view may be gone by now (another page opened): nothing to show it in.
                let _ = answer.try_set(Some(value));
            }
        });
    });
    (answer, again)
}
