//! The project's operations: the header indicator, notices, the operations page,
//! and the banner a resource page shows while an operation runs on it. All of them
//! read the tracker (`crate::ops`); none polls.

mod in_flight_banner;
mod indicator;
mod page;

use leptos::prelude::*;

use crate::api::types::Change;
use serde_json::Value;

pub use in_flight_banner::InFlightBanner;
pub(crate) use indicator::noun;
pub use indicator::{NoticeList, OpsIndicator, OpsNotices};
pub use page::OperationsPage;

/// The current time, ticking once a second, for elapsed times: the console's
/// one clock (`components::Clock`), not an interval per view.
pub(crate) fn clock() -> Signal<f64> {
    match crate::app::components::Clock::get() {
        Some(clock) => Signal::derive(move || clock.tick.get() as f64),
        None => Signal::stored(js_sys::Date::now()),
    }
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
