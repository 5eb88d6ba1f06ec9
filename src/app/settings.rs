//! Settings: where the console points, and the session.

use leptos::prelude::*;

use super::Session;
use crate::api::client::Config;

#[component]
pub fn SettingsPage() -> impl IntoView {
    let config = expect_context::<Config>();
    let session = expect_context::<Session>();
    document().set_title("Settings \u{b7} NKS Console");
    let api = if config.api_base_url.is_empty() {
        "this page's origin".to_string()
    } else {
        config.api_base_url.clone()
    };
    view! {
        <section class="page">
            <header class="page-header">
                <h1>"Settings"</h1>
            </header>
            <dl class="fields">
                <dt>"API base URL"</dt>
                <dd><code>{api}</code></dd>
                <dt>"Configured by"</dt>
                <dd><code>"config.json"</code> " beside index.html"</dd>
            </dl>
            <p>
                <button class="btn" on:click=move |_| session.log_out()>"Log out"</button>
                " forgets the API key in this tab and on this device."
            </p>
        </section>
    }
}
