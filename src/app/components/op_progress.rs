use leptos::prelude::*;

use crate::api::types::OperationStatus;
use crate::app::operations::noun;
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::operation::elapsed_secs;

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
    let lost = move || tracked.get().is_some_and(|t| t.lost);
    let status = move || match tracked.get() {
        Some(t) if t.lost => "no longer known".to_string(),
        // Ended, and what it changed is being read again: its end shows with that.
        Some(t) if !t.is_active() && !ops.end_shown(&t.op.id) => "ending".into(),
        Some(t) => t.op.status.as_str().to_string(),
        None => "pending".into(),
    };
    let status_class = move || {
        if lost() {
            "badge badge-unknown".to_string()
        } else {
            format!("badge badge-{}", status())
        }
    };
    let unknown = move || {
        tracked
            .get()
            .is_some_and(|t| t.is_active() && t.op.status == OperationStatus::Unknown)
    };
    let noun = move || {
        tracked
            .get()
            .map(|t| noun(&t.op).to_string())
            .unwrap_or_else(|| "resource".into())
    };
    let elapsed = move || {
        tracked
            .get()
            // A lost operation's end is not known: no time is claimed for it.
            .filter(|t| !t.lost)
            .and_then(|t| elapsed_secs(&t.op, Some(t.since_ms), now.get()))
            .map(display::elapsed)
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
                {move || if status() == "failed" { " has " } else { " is " }}
                <span class=status_class>{status}</span>
                {move || {
                    let elapsed = elapsed();
                    (!elapsed.is_empty()).then(|| format!(" · {elapsed}"))
                }}
            </p>
            <Show when=unknown>
                <p class="alert alert-info">
                    "\"unknown\" means the platform has not reported on this operation yet. "
                    "It is still followed: keep waiting, and do not send the request again."
                </p>
            </Show>
            <Show when=lost>
                <p class="alert alert-warning">
                    "This operation is no longer known to the API (it answered 404): the API may have "
                    "been restarted, or the operation dropped. It is no longer followed, and nothing was "
                    "sent again. Check whether the " {noun} " exists before trying again."
                    <button class="btn" on:click=move |_| ops.revision.update(|r| *r += 1)>
                        "Check now"
                    </button>
                </p>
            </Show>
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
/// the platform ran it and it failed, the guide's words for that and the way
/// back: the form, still holding what was asked.
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
                .filter(|op| op.status == OperationStatus::Failed)
                .map(|op| {
                    let what = noun(&op).to_string();
                    let error = crate::rules::outcome::ApiError::OperationFailed {
                        operation_id: op.id,
                        what: title.into(),
                    };
                    view! {
                        <crate::app::components::ErrorView error />
                        <p class="muted">
                            "The API gives no reason for a failed operation; the " {what}
                            "'s own status may say more. Nothing was sent again."
                        </p>
                        <p>
                            <button class="btn" on:click=move |_| submitted.set(None)>
                                "Back to the form, with what was asked"
                            </button>
                        </p>
                    }
                })
        }}
    }
}
