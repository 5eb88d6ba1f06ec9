//! What the tracker keeps in this browser's `localStorage`: the ids it follows
//! (never the key), so a reload or the next leading tab resumes them, and the
//! per-browser override of the deadlines.
//!
//! Both are leptos-use storage signals: a follower tab's copy of the ids follows
//! the leader's writes through the storage event, so the tab that leads next
//! starts from what the last leader saved.
//!
//! Every storage signal in the app holds text (`FromToStringCodec`), so the
//! console carries one copy of leptos-use's storage code; the ids are JSON
//! through serde_json here.

use codee::string::FromToStringCodec;
use leptos::prelude::*;
use leptos_use_storage::use_local_storage;

use crate::api::decode::from_json;
use crate::rules::operation::parse_poll_override;
use crate::rules::tracking::deadlines::Deadlines;

const STORAGE_ITEM: &str = "nks-console.operations";
/// Test and operator override of the deadlines (see `crate::ops`).
const DEADLINE_ITEM: &str = "nks-console.deadline-secs";
/// Test-only steady poll interval (see `crate::ops`).
const POLL_ITEM: &str = "nks-console.poll-ms";

/// The tracker's two items. Cheap to copy; lives as long as the tracker's owner.
#[derive(Clone, Copy)]
pub(super) struct Kept {
    ids: Signal<String>,
    set_ids: WriteSignal<String>,
    deadline_override: Signal<String>,
    poll_override: Signal<String>,
}

impl Kept {
    /// Opens both items. Call under the tracker's owner.
    pub(super) fn open() -> Self {
        let (ids, set_ids, _) = use_local_storage::<String, FromToStringCodec>(STORAGE_ITEM);
        let (deadline_override, _, _) =
            use_local_storage::<String, FromToStringCodec>(DEADLINE_ITEM);
        let (poll_override, _, _) = use_local_storage::<String, FromToStringCodec>(POLL_ITEM);
        Kept {
            ids,
            set_ids,
            deadline_override,
            poll_override,
        }
    }

    /// The deadlines: config.json's (provided as context), unless this browser
    /// overrides them.
    pub(super) fn deadlines(&self) -> Deadlines {
        Deadlines::parse_override(&self.deadline_override.get_untracked())
            .or_else(use_context::<Deadlines>)
            .unwrap_or_default()
    }

    /// A test's steady poll interval, when this browser sets one.
    pub(super) fn steady_poll_ms(&self) -> Option<u64> {
        parse_poll_override(&self.poll_override.get_untracked())
    }

    /// Keeps the ids being followed, for the next load or the next leading tab.
    pub(super) fn save_ids(&self, ids: Vec<String>) {
        if let Ok(text) = serde_json::to_string(&ids) {
            if self.ids.try_with_untracked(|kept| *kept != text) == Some(true) {
                self.set_ids.set(text);
            }
        }
    }

    /// The ids an earlier load (or the tab that led before) was following.
    pub(super) fn saved_ids(&self) -> Vec<String> {
        self.ids
            .try_with_untracked(|text| from_json(text).ok())
            .flatten()
            .unwrap_or_default()
    }

    /// Whether there are such ids.
    pub(super) fn has_saved_ids(&self) -> bool {
        self.ids
            .try_with_untracked(|text| !text.is_empty() && text != "[]")
            == Some(true)
    }
}
