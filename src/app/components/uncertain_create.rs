use std::future::Future;

use leptos::prelude::*;

use crate::app::components::ErrorView;
use crate::app::paths::A;
use crate::rules::outcome::ApiError;

/// What a create form needs to avoid a blind re-send: whether the last create may
/// have gone through, the name it was for, and the lookup of that name.
#[derive(Clone, Copy)]
pub struct CreateCheck {
    pub uncertain: Memo<bool>,
    pub attempted: RwSignal<String>,
    pub found: LocalResource<Result<Option<(String, String)>, ApiError>>,
}

impl CreateCheck {
    /// `find` looks for a resource by name and answers its id and status;
    /// `attempted` is the name the last create was sent with.
    pub fn new<F, Fut>(
        rejected: RwSignal<Option<ApiError>>,
        attempted: RwSignal<String>,
        find: F,
    ) -> Self
    where
        F: Fn(String) -> Fut + 'static,
        Fut: Future<Output = Result<Option<(String, String)>, ApiError>> + 'static,
    {
        let uncertain =
            Memo::new(move |_| rejected.with(|e| e.as_ref().is_some_and(ApiError::may_have_acted)));
        let found = LocalResource::new(move || {
            let (check, name) = (uncertain.get(), attempted.get());
            let lookup = check.then(|| find(name));
            async move {
                match lookup {
                    Some(lookup) => lookup.await,
                    None => Ok(None),
                }
            }
        });
        CreateCheck {
            uncertain,
            attempted,
            found,
        }
    }

    /// A new send must wait until the lookup has shown nothing was created.
    pub fn resend_blocked(&self) -> bool {
        self.uncertain.get() && !matches!(self.found.get(), Some(Ok(None)))
    }
}

/// After a create answered with a 5xx or no answer at all, the resource may exist
/// anyway. Re-sending blindly would make a duplicate (there is no idempotency
/// key), so the console looks for it by name first and says what it found.
#[component]
pub fn UncertainCreate(
    /// "pool" or "cluster".
    what: &'static str,
    #[prop(into)] name: String,
    /// The lookup: the id and status of a resource with that name, if any.
    found: LocalResource<Result<Option<(String, String)>, ApiError>>,
    /// Where the found resource lives, from its id.
    href: Callback<String, String>,
    on_retry: Callback<()>,
) -> impl IntoView {
    view! {
        <div class="alert alert-warning uncertain-create">
            {move || match found.get() {
                None => view! { <p role="status">{format!("Checking whether a {what} named {name} was created anyway…")}</p> }.into_any(),
                Some(Ok(Some((id, status)))) => view! {
                    <p role="status">
                        {format!("A {what} named {name} exists (status {status}): the create went through despite the error. It was not sent again. ")}
                        <A href=href.run(id)>{format!("Open {what} {name}")}</A>
                    </p>
                }.into_any(),
                Some(Ok(None)) => view! {
                    <p role="status">{format!("No {what} named {name} was created, so it is safe to try again.")}</p>
                    <button class="btn" type="button" on:click=move |_| on_retry.run(())>"Try again"</button>
                }.into_any(),
                Some(Err(error)) => view! {
                    <p role="status">{format!("Could not check whether the {what} was created. Look at the list before trying again.")}</p>
                    <ErrorView error retry=move |_| found.refetch() />
                }.into_any(),
            }}
        </div>
    }
}
