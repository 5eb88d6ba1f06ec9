//! What an open panel hands its split view: the change to write, or what to export.

use leptos::prelude::*;
use nks_code::Change;

/// What the open Code panel writes.
#[derive(Clone)]
pub(super) struct CodeSource {
    pub(super) change: Signal<Option<Change>>,
    pub(super) problems: Signal<Vec<String>>,
    pub(super) base_url: String,
}

/// What a page exports.
#[derive(Clone, Debug, PartialEq)]
pub enum Export {
    Cluster(String),
    Vpc(String),
}

/// What the open export panel reads and writes.
#[derive(Clone, Copy)]
pub(super) struct ExportSource(pub(super) Signal<Export>);
