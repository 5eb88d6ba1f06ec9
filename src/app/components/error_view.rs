use leptos::prelude::*;

use crate::api::client::Client;
use crate::api::types::{Operation, OperationStatus};
use crate::app::context::current_project_id;
use crate::app::paths::to;
use crate::app::paths::A;
use crate::ops::Ops;
use crate::rules::outcome::{ApiError, Outcome};

/// A failed call, shown as one of the guide's five outcomes with what to do next.
/// A failure is never drawn as an empty list: lists render this instead.
///
/// One state at a time: while other calls wait to be tried again (the shell's
/// "retrying in N s" line and its Retry now), a temporary failure that can be
/// retried says in a line what is not read yet, with no box or button of its own,
/// and Retry now tries it again too. Nothing is retried on its own here: the client's backoff
/// stays the only schedule.
#[component]
pub fn ErrorView(
    error: ApiError,
    /// Offered as a "Retry" button when given.
    #[prop(optional, into)]
    retry: Option<Callback<()>>,
) -> impl IntoView {
    let outcome = error.outcome();
    let conflicting = error.conflicting_operation().map(str::to_string);
    let technical = error.technical().map(str::to_string);
    let client = use_context::<Client>();
    let (waiting, retried) = (
        client.as_ref().map(|c| c.waiting),
        client.as_ref().map(|c| c.retried),
    );
    let joins_wait = outcome == Outcome::Temporary && retry.is_some() && client.is_some();
    let others_waiting = Memo::new(move |_| waiting.is_some_and(|w| w.with(|w| !w.is_empty())));
    if let (true, Some(retry), Some(retried)) = (joins_wait, retry, retried) {
        Effect::watch(
            move || retried.get(),
            move |_, _, _| {
                if others_waiting.get_untracked() {
                    retry.run(());
                }
            },
            false,
        );
    }
    let detail = match error.detail() {
        d if d.ends_with('.') => d,
        d => format!("{d}."),
    };
    let full = move || {
        view! {
            <div class=format!("alert alert-error outcome-{}", outcome.slug()) role="alert">
                <p class="alert-title">{error.headline()}</p>
                <p class="alert-detail">{error.detail()}</p>
                {technical.clone().map(|t| view! {
                    <details class="alert-detail">
                        <summary>"Technical details"</summary>
                        <code>{t}</code>
                    </details>
                })}
                {conflicting.clone().map(crate::app::lazy::in_the_way)}
                {retry.map(|r| view! { <button class="btn" on:click=move |_| r.run(())>"Retry"</button> })}
            </div>
        }
    };
    view! {
        <Show when=move || !(joins_wait && others_waiting.get()) fallback=move || view! {
            // The wait itself is said once, by the shell's line above; here only
            // what is missing, in a line of text, not a second box of that weight.
            <p class="waiting-line" role="status">
                "Not read yet: " {detail.clone()} " It is tried again with the calls above."
            </p>
        }>
            {full()}
        </Show>
    }
}

/// The operation a 409 named. It was started elsewhere (another tab, tool or
/// person), so the console did not know it: it is looked up once, followed by the
/// tracker (which disables the conflicting actions until it ends), and linked on
/// the operations page filtered to its resource.
#[component]
pub fn InTheWay(id: String) -> impl IntoView {
    let client = use_context::<Client>();
    let ops = use_context::<Ops>();
    let project = current_project_id();
    let found = LocalResource::new({
        let id = id.clone();
        move || {
            let client = client.clone();
            let id = id.clone();
            async move {
                match client {
                    Some(client) => client.operation(&id).await.ok(),
                    None => None,
                }
            }
        }
    });
    Effect::new(move |_| {
        if let (Some(Some(op)), Some(ops)) = (found.get(), ops) {
            let ended = matches!(op.status, OperationStatus::Done | OperationStatus::Failed);
            if !ended && untrack(|| ops.get(&op.id).is_none()) {
                ops.track(op);
            }
        }
    });
    let href = move || match found.get().flatten() {
        Some(Operation {
            project_id,
            resource_id,
            ..
        }) => to::operations_of(&project_id, &resource_id),
        None => project
            .get()
            .map(|p| to::operations(&p))
            .unwrap_or_else(|| to::HOME.into()),
    };
    view! {
        <p class="alert-detail">
            "Operation in the way: " <code>{id}</code> " "
            <A href=href>"Show it on the operations page"</A>
        </p>
    }
}
