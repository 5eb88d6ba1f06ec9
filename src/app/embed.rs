//! At home in a portal: the theme and the compact layout are set on `<html>`
//! (style/themes.css reads them), and the host page may talk to the console by
//! `postMessage`, but only from an origin listed in config.json
//! `embed_origins`. Anything else is ignored without a word: an answer would
//! tell a probing page that the console is there.
//!
//! The protocol, documented in docs/self-hosting.md:
//! - the console posts `{type: "nks-console:ready"}` to its parent, addressed to
//!   each listed origin only, once it listens (a message sent before that is lost);
//! - `{type: "nks-console:theme", theme: "light" | "dark" | "system"}`;
//! - `{type: "nks-console:api-key", key: "…"}` connects with that key. A handed
//!   key is kept in memory only, never in sessionStorage or localStorage: the
//!   host owns it and hands it again on the next load.

use js_sys::Reflect;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use super::Session;
use crate::api::client::Config;
use crate::SplitLoadError;

const READY: &str = "nks-console:ready";
const THEME: &str = "nks-console:theme";
const API_KEY: &str = "nks-console:api-key";

/// Applies the deployment's and the URL's look, and listens to the host page.
/// Called once, by the console root, for the life of the page.
pub fn install(config: &Config, session: Session) {
    // Read before the router starts, once: the look is set for the page's life.
    let query = window()
        .location()
        .search()
        .and_then(|search| web_sys::UrlSearchParams::new_with_str(&search))
        .ok();
    let param = |name: &str| query.as_ref().and_then(|q| q.get(name));

    // The URL wins over config.json: a portal can ask for compact or dark in the
    // iframe's src without a deployment of its own.
    let compact = match param("compact").as_deref() {
        Some("0" | "false") => false,
        Some(_) => true,
        None => config.compact,
    };
    set_root_attribute("data-compact", compact.then_some(""));
    let theme = param("theme").or_else(|| config.theme.clone());
    apply_theme(theme.as_deref().unwrap_or("system"));

    listen_to_host(allowed_origins(&config.embed_origins), session);
}

/// Exact origins only: `*`, `null` (sandboxed frames, files) and anything that is
/// not an http(s) origin are dropped, so a typo can never mean "everyone".
fn allowed_origins(listed: &[String]) -> Vec<String> {
    listed
        .iter()
        .map(|o| o.trim().trim_end_matches('/').to_string())
        .filter(|o| o.starts_with("https://") || o.starts_with("http://"))
        .collect()
}

/// Most deployments list no origin, so the listener's code is its own module,
/// fetched only when one is listed. Until it is here nothing is announced, and a
/// host does not send before the announcement; a failed fetch is tried again.
fn listen_to_host(allowed: Vec<String>, session: Session) {
    if allowed.is_empty() {
        return;
    }
    leptos::task::spawn_local(async move {
        loop {
            match split_call!(load_listener()) {
                Ok(listen) => return listen(allowed, session),
                Err(SplitLoadError) => gloo_timers::future::sleep(LISTENER_RETRY).await,
            }
        }
    });
}

const LISTENER_RETRY: std::time::Duration = std::time::Duration::from_secs(5);

#[cfg_attr(nks_split, wasm_split_helpers::wasm_split(embed_listener, fallible))]
fn load_listener() -> Result<fn(Vec<String>, Session), SplitLoadError> {
    Ok(listen)
}

/// Listens to the host page for the life of the page, then says it is ready.
fn listen(allowed: Vec<String>, session: Session) {
    let handle = window_event_listener(leptos::ev::message, {
        let allowed = allowed.clone();
        move |ev: web_sys::MessageEvent| {
            let origin = ev.origin();
            if !allowed.contains(&origin) {
                return;
            }
            let data = ev.data();
            let field = |name: &str| {
                Reflect::get(&data, &JsValue::from_str(name))
                    .ok()
                    .and_then(|v| v.as_string())
            };
            match field("type").as_deref() {
                Some(THEME) => {
                    if let Some(theme) = field("theme") {
                        apply_theme(&theme);
                    }
                }
                Some(API_KEY) => {
                    let key = field("key").map(|k| k.trim().to_string());
                    if let Some(key) = key.filter(|k| !k.is_empty()) {
                        session.refused.set(None);
                        session.key.set(Some(key));
                    }
                }
                _ => {}
            }
        }
    });
    // The console root installs this once and lives as long as the page.
    std::mem::forget(handle);
    announce_ready(&allowed);
}

/// Tells the host it may send now. Addressed to each listed origin, so a page
/// of any other origin that framed the console learns nothing.
fn announce_ready(allowed: &[String]) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if JsValue::from(parent.clone()) == JsValue::from(window) {
        return;
    }
    let message = js_sys::Object::new();
    if Reflect::set(&message, &"type".into(), &READY.into()).is_err() {
        return;
    }
    for origin in allowed {
        let _ = parent.post_message(&message, origin);
    }
}

/// `light` and `dark` pin the theme; `system` (or no setting) follows the
/// person's `prefers-color-scheme`. Unknown values leave the theme as it is.
fn apply_theme(theme: &str) {
    match theme {
        "light" | "dark" => set_root_attribute("data-theme", Some(theme)),
        "system" => set_root_attribute("data-theme", None),
        _ => {}
    }
}

fn set_root_attribute(name: &str, value: Option<&str>) {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    let _ = match value {
        Some(value) => root.set_attribute(name, value),
        None => root.remove_attribute(name),
    };
}
