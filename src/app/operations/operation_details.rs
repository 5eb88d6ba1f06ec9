//! The sections of an operation's page below its title: its status, what it
//! is and to what, its time against the usual time, the statuses seen, and its
//! changes.

use leptos::prelude::*;

use super::indicator::describe;
use super::operation_resource::Place;
use super::{change_text, noun};
use crate::api::types::{Operation, OperationKind, OperationStatus, OperationType};
use crate::app::components::{utc_time, OpProgress, StatusBadge, Time};
use crate::app::paths::A;
use crate::rules::display;
use crate::rules::history::{pace, past_usual_text, usual_text, Pace, Timeline, Usual};
use crate::rules::operation::is_terminal;
use crate::rules::outcome::ApiError;

/// Where the operation stands: the tracker's progress while it follows it,
/// else its status as read.
#[component]
pub(super) fn OpStatus<E>(
    id: String,
    op: Memo<Option<Operation>>,
    is_tracked: Memo<bool>,
    elapsed: E,
) -> impl IntoView
where
    E: Fn() -> Option<u64> + Copy + Send + Sync + 'static,
{
    let progress_title = move || {
        op.with_untracked(|o| o.as_ref().map(describe))
            .unwrap_or_default()
    };
    move || {
        if is_tracked.get() {
            view! { <OpProgress operation_id=id.clone() title=progress_title() /> }.into_any()
        } else {
            // Not followed (it had ended when read): its status as read.
            let status = Signal::derive(move || {
                op.with(|o| o.as_ref().map(|o| o.status.as_str().to_string()))
                    .unwrap_or_default()
            });
            view! {
                <div class="op-progress" role="status">
                    <p>
                        <strong>{progress_title()}</strong>" — operation "<code>{id.clone()}</code>
                        {move || if op.with(|o| o.as_ref().is_some_and(|o| o.status == OperationStatus::Failed)) { " has " } else { " is " }}
                        <StatusBadge status />
                        {move || elapsed().map(|s| format!(" · {}", display::elapsed(s)))}
                    </p>
                </div>
            }.into_any()
        }
    }
}

/// What the operation is, and to what: its resource as it stands now.
#[component]
pub(super) fn OpFields(
    op: Memo<Option<Operation>>,
    place: LocalResource<Option<Place>>,
    place_now: Memo<Option<Place>>,
    started: Memo<Option<String>>,
) -> impl IntoView {
    view! {
        <dl class="fields">
            <dt>"Kind"</dt>
            <dd>{move || op.with(|o| o.as_ref().map(|o| noun(o).to_string()))}</dd>
            <dt>"Type"</dt>
            <dd>{move || op.with(|o| o.as_ref().map(|o| o.op_type.as_str().to_string()))}</dd>
            <dt>"Resource"</dt>
            <dd>{move || {
                let id = op.with(|o| o.as_ref().map(|o| o.resource_id.clone())).unwrap_or_default();
                match place_now.get() {
                    Some(Place::Exists { name, href, .. }) => view! { <A href=move || href.clone()>{name}</A> }.into_any(),
                    Some(Place::Gone) => view! {
                        <code>{id}</code>
                        " — no longer exists (the API answered 404)"
                    }.into_any(),
                    Some(Place::Unreadable(error)) => view! {
                        <code>{id}</code>
                        {format!(" — could not be read: {}", error.detail())}
                        " "
                        <button class="btn btn-quiet" on:click=move |_| place.refetch()>"Retry"</button>
                    }.into_any(),
                    _ => view! { <code>{id}</code> }.into_any(),
                }
            }}</dd>
            <dt>"Started"</dt>
            <dd>{move || started.get().map(|at| view! { <Time at /> })}</dd>
        </dl>
    }
}

/// Its time, and how long the same kind and type took in this project.
#[component]
pub(super) fn OpTime<E>(
    op: Memo<Option<Operation>>,
    lost: Memo<bool>,
    elapsed: E,
    usual: Memo<Option<Result<Option<Usual>, ApiError>>>,
    kind_type: Memo<Option<(OperationKind, OperationType)>>,
) -> impl IntoView
where
    E: Fn() -> Option<u64> + Copy + Send + Sync + 'static,
{
    view! {
        <section class="op-time" aria-labelledby="op-time-heading">
            <h2 id="op-time-heading">"Time"</h2>
            <p>
                {move || if op.with(|o| o.as_ref().is_some_and(|o| is_terminal(&o.status))) { "Took " } else { "Elapsed " }}
                <strong>{move || elapsed().map(display::elapsed).unwrap_or_else(|| "not known".into())}</strong>
                ". "
                {move || match (usual.get(), kind_type.get()) {
                    (None, _) | (_, None) => "Reading the project's past operations…".to_string(),
                    (Some(Err(error)), _) => format!("No usual time: the project's past operations could not be read ({}).", error.detail()),
                    (Some(Ok(u)), Some((kind, op_type))) => usual_text(u, &kind, &op_type),
                }}
            </p>
            {move || {
                let running = op.with(|o| o.as_ref().is_some_and(|o| !is_terminal(&o.status))) && !lost.get();
                let u = usual.get().and_then(Result::ok).flatten().filter(|_| running)?;
                let spent = elapsed()?;
                Some(view! { <UsualBar spent usual=u /> })
            }}
        </section>
    }
}

/// The time spent against the usual time, and a word when it runs past it.
#[component]
fn UsualBar(spent: u64, usual: Usual) -> impl IntoView {
    let (max, value) = (usual.secs.max(1), spent.min(usual.secs.max(1)));
    view! {
        <progress class="op-bar" max=max.to_string() value=value.to_string()
            aria-label="Time so far against the usual time"></progress>
        {match pace(spent, usual) {
            Pace::Past(over) => Some(view! { <p class="alert alert-info">{past_usual_text(over, usual)}</p> }),
            Pace::Within(_) => None,
        }}
    }
}

/// The statuses it was seen in, with their times.
#[component]
pub(super) fn OpTimeline(timeline: RwSignal<Timeline>) -> impl IntoView {
    view! {
        <section aria-labelledby="op-timeline-heading">
            <h2 id="op-timeline-heading">"Timeline"</h2>
            <ol class="op-timeline" aria-label="Statuses seen">
                <For
                    each=move || timeline.with(|t| t.steps.clone().into_iter().enumerate().collect::<Vec<_>>())
                    key=|(i, _)| *i
                    let:((_, step))
                >
                    <li>
                        <StatusBadge status=step.status.clone() />
                        " "
                        {match (step.at_ms, step.unseen) {
                            (_, true) => "not seen here; the API keeps no time for this step".to_string(),
                            (Some(ms), false) => utc_time(ms),
                            (None, false) => "time not known".to_string(),
                        }}
                    </li>
                </For>
            </ol>
        </section>
    }
}

/// The field changes the API records for it.
#[component]
pub(super) fn OpChanges(op: Memo<Option<Operation>>) -> impl IntoView {
    view! {
        <section aria-labelledby="op-changes-heading">
            <h2 id="op-changes-heading">"Changes"</h2>
            {move || {
                let changes: Vec<(String, String)> = op.with(|o| {
                    o.iter().flat_map(|o| o.changes()).map(|(field, c)| (field.clone(), change_text(c))).collect()
                });
                if changes.is_empty() {
                    view! { <p class="muted">"The API records no field changes for it."</p> }.into_any()
                } else {
                    view! {
                        <ul class="op-changes" aria-label="Changes">
                            {changes.into_iter().map(|(field, text)| view! { <li><code>{field}</code>": "{text}</li> }).collect_view()}
                        </ul>
                    }.into_any()
                }
            }}
        </section>
    }
}
