use leptos::prelude::*;

use crate::api::types::{Operation, OperationStatus};
use crate::ops::Ops;
use crate::rules::outcome::ApiError;

/// Follows the operation a submit answered with (once: an Action's value is read
/// again on every change), and keeps a rejection for the form to show in place.
/// Returns the id of the operation being followed.
pub fn follow_submission(
    answer: impl Fn() -> Option<Result<Operation, ApiError>> + 'static,
    rejected: RwSignal<Option<ApiError>>,
) -> RwSignal<Option<String>> {
    let ops = expect_context::<Ops>();
    let submitted = RwSignal::new(None::<String>);
    Effect::new(move |_| match answer() {
        Some(Ok(op)) if submitted.get_untracked().as_deref() != Some(op.id.as_str()) => {
            rejected.set(None);
            ops.track(op.clone());
            submitted.set(Some(op.id));
        }
        Some(Err(error)) => rejected.set(Some(error)),
        _ => {}
    });
    submitted
}

/// The followed operation once it has ended (`done` or `failed`).
pub fn finished(submitted: RwSignal<Option<String>>) -> Memo<Option<Operation>> {
    let ops = expect_context::<Ops>();
    Memo::new(move |_| {
        let tracked = ops.get(&submitted.get()?)?;
        (matches!(
            tracked.op.status,
            OperationStatus::Done | OperationStatus::Failed
        ) && ops.end_shown(&tracked.op.id))
        .then_some(tracked.op)
    })
}
