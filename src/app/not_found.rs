use crate::app::paths::A;
use leptos::prelude::*;

#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section class="page empty">
            <h1>"Page not found"</h1>
            <p>"Nothing lives at this address. It may have been a cluster or pool that was deleted."</p>
            <p><A href="/">"Go to your clusters"</A></p>
        </section>
    }
}
