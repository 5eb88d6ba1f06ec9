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

/// Sets a mark now.
pub fn mark(name: &'static str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}

/// The marks a list view sets each time it reads its data: when the read reached
/// the view, when its script work is done (the DOM written), and once the change
/// is painted.
#[derive(Clone, Copy)]
pub struct ListMarks {
    pub read: &'static str,
    pub updated: &'static str,
    pub painted: &'static str,
}
