use leptos::prelude::*;

use crate::api::client::{Client, Waiting};
use crate::app::operations::clock;

/// While a call waits to be tried again (a 429, a burst of 5xx, no response),
/// says so, with the reason and the time left, and offers to try at once: a
/// wait never reads as "loading". The line's code loads with the first wait.
#[component]
pub fn RetryWait() -> impl IntoView {
    let client = expect_context::<Client>();
    let waiting = client.waiting;
    let any = Memo::new(move |_| waiting.with(|w| !w.is_empty()));
    move || any.get().then(crate::app::lazy::retry_line)
}

/// The line itself.
#[component]
pub fn RetryLine() -> impl IntoView {
    let client = expect_context::<Client>();
    let waiting = client.waiting;
    let now = clock();
    // The wait that ends first speaks for all of them; Retry now ends them all.
    let first = Memo::new(move |_| {
        waiting.with(|w| {
            w.iter()
                .min_by(|a, b| a.retry_at_ms.total_cmp(&b.retry_at_ms))
                .cloned()
        })
    });
    let line = move || {
        first.get().map(
            |Waiting {
                 error, retry_at_ms, ..
             }| {
                let secs = ((retry_at_ms - now.get()) / 1000.0).ceil().max(0.0) as u64;
                let call = error.call().unwrap_or("A call").to_string();
                format!(
                    "{}: {call} is retrying in {secs} s.",
                    error.waiting_reason()
                )
            },
        )
    };
    view! {
        <div class="alert alert-warning retry-wait" role="status">
            <span>{line}</span>
            <button class="btn" on:click=move |_| client.retry_now()>"Retry now"</button>
        </div>
    }
}
