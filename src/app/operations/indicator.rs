//! The header's operations indicator and the notices when operations end.

use crate::app::paths::to;
use crate::app::paths::A;
use leptos::prelude::*;

use crate::api::types::{Operation, OperationKind};
use crate::app::context::current_project_id;
use crate::ops::{NoticeKind, Ops};

/// "N in flight", with the polling condition when a transient fault is being ridden out.
#[component]
pub fn OpsIndicator() -> impl IntoView {
    let ops = expect_context::<Ops>();
    let project = current_project_id();
    let count = Memo::new(move |_| ops.active_count());
    let href = move || {
        project
            .get()
            .map(|p| to::operations(&p))
            .unwrap_or_else(|| to::HOME.into())
    };
    view! {
        <A href=href attr:class="ops-indicator">
            <span class=move || { if count.get() > 0 { "ops-count ops-count-busy" } else { "ops-count" } }>
                {move || count.get()}
            </span>
            {move || if count.get() == 1 { " operation in flight" } else { " operations in flight" }}
        </A>
        {move || {
            ops.condition
                .get()
                .filter(|_| count.get() > 0)
                .map(|error| {
                    view! {
                        <span class=format!("ops-condition outcome-{}", error.outcome().slug()) role="status">
                            {error.headline()}
                            " Still following; retrying with backoff."
                        </span>
                    }
                })
        }}
        {move || {
            ops.engine_missing.get().then(|| view! {
                <span class="ops-condition outcome-unreachable" role="status">
                    "Following operations is paused: its code did not arrive. Trying again."
                </span>
            })
        }}
    }
}

/// What a person calls an operation's resource: "cluster", "pool".
pub(crate) fn noun(op: &Operation) -> &str {
    match op.kind {
        OperationKind::NksCluster => "cluster",
        OperationKind::NksNodePool => "pool",
        OperationKind::NksNode => "node",
        OperationKind::NksLoadBalancer => "load balancer",
        OperationKind::Vpc => "VPC",
        OperationKind::FirewallRule => "firewall rule",
        _ => op.kind.as_str(),
    }
}

/// What a person calls an operation: "Update pool", "Create cluster".
pub(crate) fn describe(op: &Operation) -> String {
    let what = noun(op);
    let verb = op.op_type.as_str();
    let mut verb = verb.to_string();
    if let Some(first) = verb.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    format!("{verb} {what}")
}

/// Notices for operations that ended, with the guide's words for each outcome.
/// The live region is always there, so what appears in it is announced; the
/// list's code loads with the first notice.
#[component]
pub fn OpsNotices() -> impl IntoView {
    let ops = expect_context::<Ops>();
    let any = Memo::new(move |_| ops.notices.with(|n| !n.is_empty()));
    view! {
        <div class="notices" aria-live="polite">
            {move || any.get().then(crate::app::lazy::notices)}
        </div>
    }
}

/// How long a success notice stays while nobody points at or focuses it.
const DONE_NOTICE_MS: u64 = 6_000;

/// The notices themselves, each with its dismiss button. A success leaves by
/// itself after a few seconds (not while the pointer or focus is on it); a
/// failure, a timeout or a lost operation stays until closed.
#[component]
pub fn NoticeList() -> impl IntoView {
    let ops = expect_context::<Ops>();
    view! {
        <For each=move || ops.notices.get().into_iter().filter(move |n| ops.end_shown(&n.op.id)) key=|n| (n.op.id.clone(), n.kind as u8) let:notice>
            {
                let id = notice.op.id.clone();
                let dismiss_id = id.clone();
                let title = describe(&notice.op);
                let (class, text) = match notice.kind {
                    NoticeKind::Done => ("notice notice-done", format!("{title}: done.")),
                    NoticeKind::Failed => (
                        "notice notice-failed",
                        format!("{title}: the platform ran the operation and it failed. Inspect the resource; it was not retried."),
                    ),
                    NoticeKind::OutOfTime => (
                        "notice notice-expired",
                        format!("{title}: ran out of time. It may still be running on the platform; the request will not be sent again."),
                    ),
                    NoticeKind::Lost => (
                        "notice notice-expired",
                        format!("{title}: this operation is no longer known to the API, so it is no longer followed. Check whether the {} exists; nothing was sent again.", noun(&notice.op)),
                    ),
                };
                let expired = notice.kind == NoticeKind::OutOfTime;
                let leaves = notice.kind == NoticeKind::Done;
                let timer = StoredValue::new(None::<TimeoutHandle>);
                let hold = move || {
                    if let Some(handle) = timer.try_update_value(Option::take).flatten() {
                        handle.clear();
                    }
                };
                let arm = {
                    let id = id.clone();
                    move || {
                        hold();
                        if leaves {
                            let id = id.clone();
                            let handle = set_timeout_with_handle(
                                move || ops.dismiss(&id),
                                std::time::Duration::from_millis(DONE_NOTICE_MS),
                            );
                            let _ = timer.try_set_value(handle.ok());
                        }
                    }
                };
                arm();
                on_cleanup(hold);
                let arm_again = arm.clone();
                view! {
                    <div
                        class=class
                        role="status"
                        on:mouseenter=move |_| hold()
                        on:mouseleave=move |_| arm()
                        on:focusin=move |_| hold()
                        on:focusout=move |_| arm_again()
                    >
                        <span>{text}</span>
                        {expired
                            .then(|| {
                                let id = id.clone();
                                view! {
                                    <button class="btn" on:click=move |_| ops.keep_watching(&id)>"Keep watching"</button>
                                }
                            })}
                        <button class="btn btn-quiet" aria-label="Dismiss" on:click=move |_| ops.dismiss(&dismiss_id)>
                            "×"
                        </button>
                    </div>
                }
            }
        </For>
    }
}
