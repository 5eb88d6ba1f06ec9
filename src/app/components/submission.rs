use leptos::prelude::*;

use std::future::Future;

use crate::api::types::{Operation, OperationStatus};
use crate::ops::{NotDone, Ops};
use crate::rules::outcome::ApiError;

/// One step of a flow: sends a change, follows the operation it answers with
/// (its id in `submitted`, for the progress shown) and waits for its end; a
/// refusal goes to `rejected`, for the form to show in place. `None` when it
/// was refused, or when the view that sent it has gone meanwhile: its flow ends
/// with it.
pub async fn send_and_follow(
    ops: Ops,
    sent: impl Future<Output = Result<Operation, ApiError>>,
    submitted: RwSignal<Option<String>>,
    rejected: RwSignal<Option<ApiError>>,
) -> Option<Result<Operation, NotDone>> {
    rejected.try_set(None);
    let op = match sent.await {
        Ok(op) => op,
        Err(error) => {
            rejected.try_set(Some(error));
            return None;
        }
    };
    ops.track(op.clone());
    if submitted.try_set(Some(op.id.clone())).is_some() {
        return None;
    }
    let end = ops.until_ended(&op.id).await;
    submitted.try_get_untracked().map(|_| end)
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
