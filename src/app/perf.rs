//! Performance marks the benchmark reads (`performance.getEntriesByName`): they
//! cost one call each and say when data reached the screen.

use wasm_bindgen::JsCast;

/// Sets a mark once the browser has painted what was just rendered.
pub fn mark_after_render(name: &'static str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let callback = wasm_bindgen::closure::Closure::once_into_js(move || {
        if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
            let _ = performance.mark(name);
        }
    });
    let _ = window.request_animation_frame(callback.unchecked_ref());
}

/// Sets a mark once the reactive work already queued (effects, keyed-list diffs,
/// DOM writes) has run: the script time of an update, without waiting for a frame.
pub fn mark_after_update(name: &'static str) {
    leptos::task::spawn_local(async move {
        leptos::task::tick().await;
        mark(name);
    });
}

/// Sets a mark now.
pub fn mark(name: &'static str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}
