use leptos::prelude::*;

use crate::rules::outcome::ApiError;

/// A failed call, shown as one of the guide's five outcomes with what to do next.
/// A failure is never drawn as an empty list: lists render this instead.
#[component]
pub fn ErrorView(
    error: ApiError,
    /// Offered as a "Retry" button when given.
    #[prop(optional, into)]
    retry: Option<Callback<()>>,
) -> impl IntoView {
    let outcome = error.outcome();
    let conflicting = error.conflicting_operation().map(str::to_string);
    view! {
        <div class=format!("alert alert-error outcome-{}", outcome.slug()) role="alert">
            <p class="alert-title">{outcome.headline()}</p>
            <p class="alert-detail">{error.detail()}</p>
            {conflicting.map(|id| view! { <p class="alert-detail">"Operation in the way: " <code>{id}</code></p> })}
            {retry.map(|r| view! { <button class="btn" on:click=move |_| r.run(())>"Retry"</button> })}
        </div>
    }
}
