use leptos::prelude::*;

use crate::ops::Ops;
use crate::rules::display;
use crate::rules::times::parse_rfc3339_ms;

/// The progress of one operation, in place: status and elapsed time, read from
/// the tracker (this component never polls).
#[component]
pub fn OpProgress(
    /// The operation's id (what is polled), not the resource's.
    #[prop(into)]
    operation_id: String,
    /// What it does, e.g. "Create pool".
    #[prop(into)]
    title: String,
) -> impl IntoView {
    let ops = expect_context::<Ops>();
    let id = operation_id.clone();
    let tracked = Memo::new(move |_| ops.get(&id));
    let now = crate::app::operations::clock();
    let status = move || {
        tracked
            .get()
            .map(|t| t.op.status.as_str().to_string())
            .unwrap_or_else(|| "pending".into())
    };
    let elapsed = move || {
        let started = tracked
            .get()
            .and_then(|t| parse_rfc3339_ms(&t.op.created_at).or(Some(t.since_ms)));
        started
            .map(|s| display::elapsed(((now.get() - s).max(0.0) / 1000.0) as u64))
            .unwrap_or_default()
    };
    let expired = move || tracked.get().is_some_and(|t| t.expired);
    let keep_id = operation_id.clone();
    view! {
        <div class="op-progress" role="status" aria-live="polite">
            <p>
                <strong>{title}</strong>
                " — operation "
                <code>{operation_id.clone()}</code>
                " is "
                <span class=move || format!("badge badge-{}", status())>{status}</span>
                " · " {elapsed}
            </p>
            <Show when=expired>
                <p class="alert alert-warning">
                    "Ran out of time; it may still be running on the platform. The request will not be sent again."
                    <button class="btn" on:click={
                        let id = keep_id.clone();
                        move |_| ops.keep_watching(&id)
                    }>"Keep watching"</button>
                </p>
            </Show>
        </div>
    }
}

/// A submitted change in place of its form: the operation's progress, and when
/// the platform ran it and it failed, the guide's words for that.
#[component]
pub fn SubmissionProgress(
    submitted: RwSignal<Option<String>>,
    finished: Memo<Option<crate::api::types::Operation>>,
    title: &'static str,
) -> impl IntoView {
    view! {
        <OpProgress operation_id=submitted.get_untracked().unwrap_or_default() title=title />
        {move || {
            finished
                .get()
                .filter(|op| op.status == crate::api::types::OperationStatus::Failed)
                .map(|op| {
                    let error = crate::rules::outcome::ApiError::OperationFailed {
                        operation_id: op.id,
                        what: title.into(),
                    };
                    view! { <crate::app::components::ErrorView error /> }
                })
        }}
    }
}
