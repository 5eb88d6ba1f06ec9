//! The project's operations: the header indicator, notices, the operations page,
//! and the banner a resource page shows while an operation runs on it. All of them
//! read the tracker (`crate::ops`); none polls.

mod filters;
mod in_flight_banner;
mod indicator;
mod operation_details;
mod operation_next;
mod operation_page;
mod operation_resource;
mod page;
mod results;
mod timeline;

use leptos::prelude::*;

use crate::api::types::Change;
use crate::app::paths::params::{route, OperationsRoute};
use serde_json::Value;

pub use in_flight_banner::InFlightBanner;
pub(crate) use indicator::{describe, noun};
pub use indicator::{NoticeList, OpsIndicator, OpsNotices};
pub use operation_page::OperationPage;
pub use page::OperationsPage;

/// The project's operations, or one of them (`:operation_id`): one split module
/// for both (`crate::app::lazy`), as a new split point costs first-load bytes.
#[component]
pub fn OperationViews() -> impl IntoView {
    let route = route::<OperationsRoute>();
    let one = Memo::new(move |_| route.read().operation_id.is_some());
    move || {
        if one.get() {
            view! { <OperationPage /> }.into_any()
        } else {
            view! { <OperationsPage /> }.into_any()
        }
    }
}

/// The current time, ticking once a second while the view that asked is mounted
/// (for elapsed times); its interval is cleared with that view.
pub(crate) fn clock() -> RwSignal<f64> {
    let now = RwSignal::new(js_sys::Date::now());
    leptos_use_interval_fn::use_interval_fn(move || now.set(js_sys::Date::now()), 1_000);
    now
}

/// The address of an operation's page. A pool's operation carries its cluster
/// (the pool's address needs it), and a replacement the pool it replaces.
/// Inlined: as a function of its own, shared by five split modules, it made a
/// wasm chunk of its own, and each chunk costs first-load bytes in the loader.
#[inline(always)]
pub(crate) fn operation_href(
    project_id: &str,
    operation_id: &str,
    cluster_id: Option<&str>,
    replacing: Option<&str>,
) -> String {
    let mut href = super::paths::to::operation(project_id, operation_id);
    for (key, value) in [("cluster", cluster_id), ("replace", replacing)] {
        if let Some(value) = value {
            href.push(if href.contains('?') { '&' } else { '?' });
            href.push_str(key);
            href.push('=');
            href.push_str(&String::from(js_sys::encode_uri_component(value)));
        }
    }
    href
}

/// The operation's page as a form hands over to it after a send: once `done`,
/// it opens what the operation made or changed (`open=1`), as the form would
/// have. Reached any other way, the page stays, with the link.
pub(crate) fn follow_href(
    project_id: &str,
    operation_id: &str,
    cluster_id: Option<&str>,
    replacing: Option<&str>,
) -> String {
    let href = operation_href(project_id, operation_id, cluster_id, replacing);
    let sep = if href.contains('?') { '&' } else { '?' };
    format!("{href}{sep}open=1")
}

/// One field's change as a person reads it: `3 → 4`, `a, b → (none)`.
pub(crate) fn change_text(change: &Change) -> String {
    format!("{} → {}", value_text(&change.from), value_text(&change.to))
}

fn value_text(value: &Value) -> String {
    match value {
        Value::Null => "(none)".into(),
        Value::String(s) => s.clone(),
        Value::Array(items) if items.is_empty() => "(none)".into(),
        Value::Array(items) => items.iter().map(value_text).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}
