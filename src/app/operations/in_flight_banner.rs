use crate::app::paths::A;
use leptos::prelude::*;

use super::clock;
use super::indicator::describe;
use crate::app::paths::to;
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::operation::elapsed_secs;

/// "Update pool in progress — running · 12 s", with a link to the operations
/// page filtered to this resource; nothing when no operation runs on it.
#[component]
pub fn InFlightBanner(
    /// The resource's id (cluster or pool), as operations name it in `resource_id`.
    #[prop(into)]
    resource_id: Signal<String>,
) -> impl IntoView {
    let ops = expect_context::<Ops>();
    let tracked = Memo::new(move |_| ops.in_flight_on(&resource_id.get()));
    let now = clock();
    move || {
        tracked.get().map(|t| {
            let title = describe(&t.op);
            let status = t.op.status.as_str();
            let op = t.op.clone();
            let elapsed = move || {
                elapsed_secs(&op, Some(t.since_ms), now.get())
                    .map(display::elapsed)
                    .unwrap_or_default()
            };
            let href = to::operations_of(&t.op.project_id, &t.op.resource_id);
            view! {
                <div class="inflight-banner" role="status" aria-label="Operation in progress">
                    <span class="inflight-spinner" aria-hidden="true"></span>
                    <span>{format!("{title} in progress — {status} · ")} {elapsed}</span>
                    <A href=href>"See operations"</A>
                </div>
            }
        })
    }
}
