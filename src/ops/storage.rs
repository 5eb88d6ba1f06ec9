//! What the tracker keeps in this browser's `localStorage`: the ids it follows
//! (never the key), so a reload or the next leading tab resumes them, and the
//! per-browser override of the deadlines.

use leptos::prelude::*;

use crate::api::decode::from_json;
use crate::rules::tracking::deadlines::Deadlines;

const STORAGE_ITEM: &str = "nks-console.operations";
/// Test and operator override of the deadlines (see `crate::ops`).
const DEADLINE_ITEM: &str = "nks-console.deadline-secs";

/// The deadlines: config.json's (provided as context), unless this browser
/// overrides them.
pub(super) fn deadlines() -> Deadlines {
    local_storage()
        .and_then(|s| s.get_item(DEADLINE_ITEM).ok().flatten())
        .and_then(|text| Deadlines::parse_override(&text))
        .or_else(use_context::<Deadlines>)
        .unwrap_or_default()
}

/// Keeps the ids being followed, for the next load or the next leading tab.
pub(super) fn save_ids(ids: Vec<String>) {
    if let Some(storage) = local_storage() {
        if let Ok(text) = serde_json::to_string(&ids) {
            let _ = storage.set_item(STORAGE_ITEM, &text);
        }
    }
}

/// The ids an earlier load (or the tab that led before) was following.
pub(super) fn saved_ids() -> Vec<String> {
    local_storage()
        .and_then(|s| s.get_item(STORAGE_ITEM).ok().flatten())
        .and_then(|text| from_json(&text).ok())
        .unwrap_or_default()
}

/// Whether there are such ids, without reading them.
pub(super) fn has_saved_ids() -> bool {
    local_storage()
        .and_then(|s| s.get_item(STORAGE_ITEM).ok().flatten())
        .is_some_and(|ids| ids != "[]")
}

fn local_storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}
