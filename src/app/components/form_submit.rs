//! One form's submit, the same wherever something changes: the body goes out
//! through an Action; a refusal is kept for the fields to show, with the focus
//! on the first field in error; the operation goes to the tracker, the one
//! poller; then the form gives way, to the operation's own page, or, in a
//! dialog, to its progress until its end is shown.

use std::future::Future;
use std::rc::Rc;

use leptos::html;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::NavigateOptions;

use crate::api::types::Operation;
use crate::app::components::{focus_first_error, ErrorView};
use crate::app::drafts::Draft;
use crate::ops::Ops;
use crate::rules::forms::unplaced;
use crate::rules::gate::Gate;
use crate::rules::outcome::ApiError;

/// A form's submit and what came back from it. Cheap to copy.
pub struct Submit<B: Send + Sync + 'static> {
    /// A submit was tried: every problem shows, typed into or not.
    pub touched: RwSignal<bool>,
    /// The API's refusal of the last send, shown beside its field.
    pub refused: RwSignal<Option<ApiError>>,
    /// The plan's verdict, for forms that show one.
    pub gate: RwSignal<Gate>,
    /// The operation the send answered with, once it did.
    pub sent: RwSignal<Option<String>>,
    /// Back after the key was refused (401): nothing was sent.
    pub refused_before: RwSignal<bool>,
    pub form: NodeRef<html::Form>,
    action: Action<B, ()>,
}

impl<B: Send + Sync + 'static> Clone for Submit<B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B: Send + Sync + 'static> Copy for Submit<B> {}

/// What follows an answered send.
#[derive(Clone)]
enum Then {
    /// Opens the page this makes of the operation's id, in the form's place.
    Open(Rc<dyn Fn(&str) -> String>),
    /// Runs this, if any, once the operation is done and its end shown (a
    /// dialog closes); the progress stays in place until then.
    Follow(Option<Callback<()>>),
}

impl<B: Clone + Send + Sync + 'static> Submit<B> {
    /// A form on its own page: once answered, the operation's page (`page_of`
    /// its id) replaces it. The draft notes a refused key, to say so once back.
    pub fn opening<F, Fut>(
        draft: Draft,
        send: F,
        page_of: impl Fn(&str) -> String + 'static,
    ) -> Self
    where
        F: Fn(B) -> Fut + 'static,
        Fut: Future<Output = Result<Operation, ApiError>> + 'static,
    {
        let before = draft.take_refusal();
        Self::new(send, Some(draft), before, Then::Open(Rc::new(page_of)))
    }

    /// A form in a dialog or a section: once answered, its progress shows in
    /// place, and `on_done` (closing the dialog) runs once the operation is done.
    pub fn following<F, Fut>(send: F, on_done: Option<Callback<()>>) -> Self
    where
        F: Fn(B) -> Fut + 'static,
        Fut: Future<Output = Result<Operation, ApiError>> + 'static,
    {
        Self::new(send, None, false, Then::Follow(on_done))
    }

    fn new<F, Fut>(send: F, draft: Option<Draft>, before: bool, then: Then) -> Self
    where
        F: Fn(B) -> Fut + 'static,
        Fut: Future<Output = Result<Operation, ApiError>> + 'static,
    {
        let ops = expect_context::<Ops>();
        let refused = RwSignal::new(None::<ApiError>);
        let sent = RwSignal::new(None::<String>);
        let refused_before = RwSignal::new(before);
        let note_refusal = draft.map(|d| Rc::new(d.note_refusal()));
        let navigate = use_navigate();
        let action = Action::new_local(move |body: &B| {
            refused.set(None);
            refused_before.set(false);
            let answer = send(body.clone());
            let (note_refusal, then, navigate) =
                (note_refusal.clone(), then.clone(), navigate.clone());
            async move {
                let op = match answer.await {
                    Ok(op) => op,
                    Err(error) => {
                        if let Some(note) = note_refusal {
                            note(&error);
                        }
                        refused.try_set(Some(error));
                        return;
                    }
                };
                let id = op.id.clone();
                ops.track(op);
                if sent.try_set(Some(id.clone())).is_some() {
                    return; // the form has gone: its flow ends with it
                }
                match then {
                    Then::Open(page_of) => {
                        let replace = NavigateOptions {
                            replace: true,
                            ..Default::default()
                        };
                        navigate(&page_of(&id), replace);
                    }
                    Then::Follow(None) => {}
                    Then::Follow(Some(on_done)) => {
                        let done = ops.until_shown(&id).await.is_ok();
                        // Not after "Back to the form": the person chose the form.
                        if done
                            && sent.try_with_untracked(|s| s.as_deref() == Some(&id)) == Some(true)
                        {
                            on_done.run(());
                        }
                    }
                }
            }
        });
        let form = NodeRef::<html::Form>::new();
        // A send the API refused for a field: the focus goes to that field.
        Effect::new(move |_| {
            if refused.with(|e| e.as_ref().and_then(ApiError::field).is_some()) {
                focus_first_error(form);
            }
        });
        Submit {
            touched: RwSignal::new(false),
            refused,
            gate: RwSignal::new(Gate::Idle),
            sent,
            refused_before,
            form,
            action,
        }
    }

    /// A send under way.
    pub fn pending(&self) -> bool {
        self.action.pending().get()
    }

    /// Whether the send was answered with an operation (the form gives way).
    pub fn is_sent(&self) -> bool {
        self.sent.with(Option::is_some)
    }

    /// Sends `body`: never while a send is under way or once one was answered.
    pub fn send(&self, body: B) {
        if self.action.pending().get_untracked() || self.sent.with_untracked(Option::is_some) {
            return;
        }
        self.action.dispatch(body);
    }

    /// The form's submit: the checked body goes out when nothing stands in its
    /// way (`blocked`, the plan's gate); a body that does not check moves the
    /// focus to the first field in error.
    pub fn on_submit(
        self,
        body: impl Fn() -> Option<B> + Copy + 'static,
        blocked: impl Fn() -> bool + Copy + 'static,
    ) -> impl Fn(leptos::ev::SubmitEvent) + Copy + 'static {
        move |ev| {
            ev.prevent_default();
            self.touched.set(true);
            if blocked() {
                return;
            }
            match body() {
                Some(body) if self.gate.with_untracked(Gate::allows_apply) => self.send(body),
                Some(_) => {}
                None => focus_first_error(self.form),
            }
        }
    }
}

/// Above a form's fields: that a send met a refused key before the reconnect,
/// and the API's refusal when it names no field this form shows.
#[component]
pub fn Refusal(
    refused: RwSignal<Option<ApiError>>,
    #[prop(optional)] refused_before: Option<RwSignal<bool>>,
    /// The request fields the form shows beside a control.
    fields: &'static [&'static str],
    /// The submit button's words ("Create pool").
    button: &'static str,
) -> impl IntoView {
    view! {
        {move || refused_before.is_some_and(|b| b.get()).then(|| view! {
            <p class="alert alert-info" role="status">{format!("Not sent: press {button} again.")}</p>
        })}
        {move || refused.get().filter(|e| e.field().is_none()).map(|error| view! { <ErrorView error /> })}
        {move || refused.with(|e| e.as_ref().and_then(|e| unplaced(e, fields))).map(|text| view! {
            <p class="alert alert-error" role="alert">{text}</p>
        })}
    }
}
