//! The node deletes this browser sent, kept in `localStorage` (see
//! [`crate::rules::node_deletes`]) so a pool's size history attributes them.

use codee::string::FromToStringCodec;
use leptos::prelude::*;
use leptos_use_storage::use_local_storage;

use crate::rules::node_deletes::NodeDeletes;

const ITEM: &str = "nks-console.node-deletes";

/// The item, opened by the pool page; cheap to copy.
#[derive(Clone, Copy)]
pub(super) struct KeptDeletes {
    text: Signal<String>,
    set_text: WriteSignal<String>,
}

impl KeptDeletes {
    pub(super) fn open() -> Self {
        let (text, set_text, _) = use_local_storage::<String, FromToStringCodec>(ITEM);
        KeptDeletes { text, set_text }
    }

    /// Keeps that `node_id` was deleted from `pool_id`. Harmless once the page is gone.
    pub(super) fn keep(self, node_id: &str, pool_id: &str) {
        if let Some(kept) = self.text.try_with_untracked(|t| NodeDeletes::parse(t)) {
            self.set_text.try_set(kept.with(node_id, pool_id).to_text());
        }
    }

    /// The nodes this browser deleted from `pool_id`.
    pub(super) fn nodes_of(self, pool_id: &str) -> Vec<String> {
        self.text.with(|t| {
            NodeDeletes::parse(t)
                .nodes_of(pool_id)
                .map(str::to_string)
                .collect()
        })
    }
}
