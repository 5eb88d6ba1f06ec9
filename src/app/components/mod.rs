//! Small widgets shared by every page.

mod confirm_by_typing;
mod copy;
mod error_view;
mod field;
mod form_submit;
mod modal;
mod name_search;
mod op_progress;
mod retry_wait;
mod sort_header;
mod status_badge;
mod submission;
mod table;
mod time;
mod uncertain_create;

use leptos::prelude::*;

pub use confirm_by_typing::ConfirmByTyping;
pub use copy::{download, write_clipboard, Commands, CopyButton, CopyableId};
pub use error_view::{ErrorView, InTheWay};
pub use field::{described_by, focus_first_error, focus_once_drawn, Field};
pub use form_submit::{Refusal, Submit};
pub use modal::Modal;
pub use name_search::{label_of, NameSearch};
pub use op_progress::{OpProgress, SubmissionProgress};
pub use retry_wait::{RetryLine, RetryWait};
pub use sort_header::SortHeader;
pub use status_badge::StatusBadge;
pub use submission::{finished, send_and_follow};
pub use table::{listed, Column, Keyed, Table};
pub use time::{local_time, utc_time, Time};
pub use uncertain_create::{CreateCheck, UncertainCreate};

/// A list of short strings (tags, labels, taints) as chips, or "none". Text is
/// always rendered as text, so names that carry markup stay inert.
pub fn tag_list(items: &[String]) -> AnyView {
    if items.is_empty() {
        return view! { <span class="muted">"none"</span> }.into_any();
    }
    view! {
        <ul class="chips">
            {items.iter().map(|t| view! { <li class="chip" title=t.clone()>{t.clone()}</li> }).collect_view()}
        </ul>
    }
    .into_any()
}
