//! The read slots the capacity and cost figures share: at most [`MAX_READS`]
//! of their reads are under way at once, first come first served.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

/// Reads under way at once from these figures.
pub const MAX_READS: usize = 3;

#[derive(Default)]
struct Slots {
    busy: usize,
    next_ticket: u64,
    queue: VecDeque<(u64, Option<Waker>)>,
}

thread_local!(static SLOTS: RefCell<Slots> = RefCell::new(Slots::default()));

/// Waits for a slot, first come first served. Dropped while waiting (its page
/// left), it leaves the queue and the next in line moves up.
struct Acquire {
    ticket: Option<u64>,
    done: bool,
}

/// A slot held; freed when dropped.
pub struct Permit(());

impl Future for Acquire {
    type Output = Permit;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Permit> {
        let ticket = self.ticket;
        let got = SLOTS.with(|s| {
            let mut s = s.borrow_mut();
            let ticket = match ticket {
                Some(t) => t,
                None => {
                    let t = s.next_ticket;
                    s.next_ticket += 1;
                    s.queue.push_back((t, None));
                    t
                }
            };
            let first = s.queue.front().map(|(t, _)| *t) == Some(ticket);
            if first && s.busy < MAX_READS {
                s.queue.pop_front();
                s.busy += 1;
                (ticket, true)
            } else {
                if let Some(entry) = s.queue.iter_mut().find(|(t, _)| *t == ticket) {
                    entry.1 = Some(cx.waker().clone());
                }
                (ticket, false)
            }
        });
        self.ticket = Some(got.0);
        if got.1 {
            self.done = true;
            wake_next();
            Poll::Ready(Permit(()))
        } else {
            Poll::Pending
        }
    }
}

impl Drop for Acquire {
    fn drop(&mut self) {
        if let (Some(ticket), false) = (self.ticket, self.done) {
            SLOTS.with(|s| s.borrow_mut().queue.retain(|(t, _)| *t != ticket));
            wake_next();
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        SLOTS.with(|s| {
            let mut s = s.borrow_mut();
            s.busy = s.busy.saturating_sub(1);
        });
        wake_next();
    }
}

/// Wakes the first in line when a slot is free.
fn wake_next() {
    let waker = SLOTS.with(|s| {
        let s = s.borrow();
        if s.busy < MAX_READS {
            s.queue.front().and_then(|(_, w)| w.clone())
        } else {
            None
        }
    });
    if let Some(w) = waker {
        w.wake();
    }
}

/// A read slot (see [`MAX_READS`]).
pub fn slot() -> impl Future<Output = Permit> {
    Acquire {
        ticket: None,
        done: false,
    }
}
