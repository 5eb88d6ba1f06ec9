//! Copying ids and commands: a button that puts the text on the browser's
//! clipboard and says, in a live region beside it, whether it did.
//!
//! Not leptos-use's `use_clipboard`: it drops a refused write without a word,
//! and a refusal here must be said (with what to do instead).

use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// How long "Copied" stays beside the button.
const SAID_FOR: Duration = Duration::from_secs(4);

/// "Copy" for `text`, named "Copy {what}" for assistive technology. Says
/// "Copied" once the clipboard holds the text, and that the copy failed when
/// the browser refused (no permission, no clipboard outside a secure page).
#[component]
pub fn CopyButton(#[prop(into)] text: String, #[prop(into)] what: String) -> impl IntoView {
    // `Some(true)` copied, `Some(false)` refused; each click is a new attempt.
    let said = RwSignal::new(None::<bool>);
    let attempt = StoredValue::new(0_u32);
    let text = StoredValue::new(text);
    let copy = move |_| {
        let this = attempt.get_value().wrapping_add(1);
        attempt.set_value(this);
        said.set(None);
        let text = text.get_value();
        leptos::task::spawn_local(async move {
            let copied = write_clipboard(&text).await;
            if said.try_set(Some(copied)).is_none() {
                set_timeout(
                    move || {
                        if attempt.try_get_value() == Some(this) {
                            let _ = said.try_set(None);
                        }
                    },
                    SAID_FOR,
                );
            }
        });
    };
    view! {
        <button type="button" class="btn btn-quiet btn-copy" aria-label=format!("Copy {what}") on:click=copy>
            "Copy"
        </button>
        " "
        <span class="muted" role="status">
            {move || said.get().map(|copied| if copied {
                "Copied"
            } else {
                "Could not copy: the browser refused. Select the text and copy it by hand."
            })}
        </span>
    }
}

/// An id in full, as code, with its copy button.
#[component]
pub fn CopyableId(#[prop(into)] id: String, what: &'static str) -> impl IntoView {
    view! {
        <span>
            <code>{id.clone()}</code>
            " "
            <CopyButton text=id what />
        </span>
    }
}

/// Shell commands to run, shown as typed and named `label` ("Drain commands"),
/// with a button to copy them all, named "Copy {what}" ("Copy drain commands").
#[component]
pub fn Commands(
    #[prop(into)] text: String,
    label: &'static str,
    what: &'static str,
) -> impl IntoView {
    view! {
        <div>
            <pre class="commands" aria-label=label>{text.clone()}</pre>
            <CopyButton text what />
        </div>
    }
}

/// Writes `text` to the clipboard; `false` when the browser has none here or refuses.
pub async fn write_clipboard(text: &str) -> bool {
    // Read as a plain property: outside a secure context `navigator.clipboard`
    // is undefined, and calling through it would throw.
    let clipboard = js_sys::Reflect::get(&window().navigator(), &"clipboard".into())
        .ok()
        .filter(|c| c.is_object());
    let Some(clipboard) = clipboard else {
        return false;
    };
    let clipboard: web_sys::Clipboard = clipboard.unchecked_into();
    wasm_bindgen_futures::JsFuture::from(clipboard.write_text(text))
        .await
        .is_ok()
}

/// Saves `text` as a file named `file_name` through a short-lived object URL,
/// revoked at once.
pub fn download(file_name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
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
