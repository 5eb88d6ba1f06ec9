//! The cluster's kubeconfig: a secret, fetched on demand, never cached or logged.

use leptos::prelude::*;

use crate::api::client::Client;
use crate::app::components::{download, write_clipboard, ErrorView};
use crate::rules::outcome::ApiError;

#[component]
pub fn KubeconfigActions(
    #[prop(into)] cluster_id: String,
    #[prop(into)] cluster_name: String,
) -> impl IntoView {
    let client = expect_context::<Client>();
    let message = RwSignal::new(None::<String>);
    let fetch = Action::new_local(move |how: &&'static str| {
        let client = client.clone();
        let (id, name, how) = (cluster_id.clone(), cluster_name.clone(), *how);
        async move {
            let config = client.kubeconfig(&id).await?;
            // The text lives only inside this future: used once, then dropped.
            match how {
                // Said as it went: the text is not on the page to copy by hand.
                "copy" => Ok::<_, ApiError>(if write_clipboard(&config.kubeconfig).await {
                    "Copied the kubeconfig to the clipboard.".to_string()
                } else {
                    "Could not copy: the browser refused the clipboard. Download the kubeconfig instead."
                        .to_string()
                }),
                _ => {
                    download(
                        &format!("{name}.kubeconfig.yaml"),
                        "application/yaml",
                        &config.kubeconfig,
                    );
                    Ok(format!("Downloaded {name}.kubeconfig.yaml."))
                }
            }
        }
    });
    Effect::new(move |_| {
        if let Some(Ok(text)) = fetch.value().get() {
            message.set(Some(text));
        }
    });
    view! {
        <div class="kubeconfig">
            <button class="btn" disabled=move || fetch.pending().get() on:click=move |_| { fetch.dispatch("download"); }>"Download kubeconfig"</button>
            <button class="btn" disabled=move || fetch.pending().get() on:click=move |_| { fetch.dispatch("copy"); }>"Copy kubeconfig"</button>
            {move || message.get().map(|m| view! { <span class="muted" role="status">{m}</span> })}
            {move || fetch.value().get().and_then(Result::err).map(|error| view! { <ErrorView error /> })}
        </div>
    }
}
