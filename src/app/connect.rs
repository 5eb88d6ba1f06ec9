//! The connect screen: the API key is typed in, tested with a real call, then kept.
//! It shows over whatever page the URL names, so a 401 anywhere returns here
//! and the person lands back on the same page once connected.

use leptos::prelude::*;

use super::Session;
use crate::api::client::Client;
use crate::app::components::ErrorView;

#[component]
pub fn ConnectScreen() -> impl IntoView {
    super::boot_done();
    let client = expect_context::<Client>();
    let session = expect_context::<Session>();
    document().set_title("Connect \u{b7} NKS Console");
    let typed = RwSignal::new(String::new());
    let remember = RwSignal::new(false);

    let connect = Action::new_local(move |(key, remember): &(String, bool)| {
        let client = client.clone();
        let key = key.trim().to_string();
        let remember = *remember;
        async move {
            let user = client.check_key(&key).await?;
            session.store.keep(&key, remember);
            session.refused.set(None);
            session.key.set(Some(key));
            Ok::<_, crate::rules::outcome::ApiError>(user)
        }
    });
    let pending = connect.pending();
    let failure = move || connect.value().get().and_then(Result::err);

    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if typed.with(|k| !k.trim().is_empty()) && !pending.get_untracked() {
            connect.dispatch((typed.get_untracked(), remember.get_untracked()));
        }
    };

    view! {
        <main class="connect">
            <form class="card connect-card" on:submit=on_submit>
                <h1>"Connect to Nirvana NKS"</h1>
                <p class="muted">
                    "Paste an API key. It is tested with a real call, sent only to the configured API, "
                    "and kept for this tab unless you choose to remember it."
                </p>
                {move || {
                    session
                        .refused
                        .get()
                        .map(|why| {
                            view! {
                                <p class="alert alert-warning" role="alert">
                                    "The API refused the key in use (401): " {why} ". Connect again to continue where you were."
                                </p>
                            }
                        })
                }}
                <div class="field">
                    <label for="api-key">"API key"</label>
                    <input
                        id="api-key"
                        type="password"
                        autocomplete="off"
                        spellcheck="false"
                        prop:value=typed
                        on:input=move |ev| typed.set(event_target_value(&ev))
                    />
                </div>
                <div class="field field-inline">
                    <input
                        id="remember"
                        type="checkbox"
                        prop:checked=remember
                        on:change=move |ev| remember.set(event_target_checked(&ev))
                    />
                    <label for="remember">"Remember on this device"</label>
                </div>
                {move || failure().map(|error| {
                    if error.is_unauthorized() {
                        view! {
                            <p class="alert alert-error outcome-rejected" role="alert">
                                "The API rejected this key (401). Check that it is complete and still active."
                            </p>
                        }
                            .into_any()
                    } else {
                        view! { <ErrorView error /> }.into_any()
                    }
                })}
                <button
                    class="btn btn-primary"
                    type="submit"
                    disabled=move || pending.get() || typed.with(|k| k.trim().is_empty())
                >
                    {move || if pending.get() { "Connecting…" } else { "Connect" }}
                </button>
            </form>
        </main>
    }
}
