//! The cluster's kubeconfig: a secret, fetched on demand, never cached or logged.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::api::client::Client;
use crate::app::components::ErrorView;
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
                "copy" => {
                    let clipboard = window().navigator().clipboard();
                    let _ = wasm_bindgen_futures::JsFuture::from(
                        clipboard.write_text(&config.kubeconfig),
                    )
                    .await;
                    Ok::<_, ApiError>("Copied the kubeconfig to the clipboard.".to_string())
                }
                _ => {
                    download(&format!("{name}.kubeconfig.yaml"), &config.kubeconfig);
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

/// Saves `text` as a file through a short-lived object URL, revoked at once.
fn download(file_name: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/yaml");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Ok(anchor) = document().create_element("a") {
        if let Ok(anchor) = anchor.dyn_into::<web_sys::HtmlAnchorElement>() {
            anchor.set_href(&url);
            anchor.set_download(file_name);
            anchor.click();
        }
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}
