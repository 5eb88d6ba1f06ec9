use leptos::prelude::*;

/// A resource or operation status as a coloured badge with its word in it.
#[component]
pub fn StatusBadge(#[prop(into)] status: Signal<String>) -> impl IntoView {
    view! { <span class=move || format!("badge badge-{}", status.get())>{move || status.get()}</span> }
}
