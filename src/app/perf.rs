//! Performance marks the benchmark reads (`performance.getEntriesByName`): they
//! cost one call each and say when data reached the screen.

use wasm_bindgen::JsCast;

/// Sets a mark once the browser has painted what was just rendered.
pub fn mark_after_render(name: &'static str) {
    after_render(move || mark(name));
}

/// Runs `then` at the next frame, once what was just rendered is laid out for
/// the paint.
pub fn after_render(then: impl FnOnce() + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let callback = wasm_bindgen::closure::Closure::once_into_js(then);
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

impl ListMarks {
    /// Called as a read reaches a keyed list (in its `each`): marks it now, then
    /// once the list's rows are written (the keyed diff runs right after `each`,
    /// in the same turn; a microtask runs when that turn's work is done), and
    /// once painted.
    pub fn reached(self) {
        mark(self.read);
        leptos::prelude::queue_microtask(move || mark(self.updated));
        mark_after_render(self.painted);
    }
}
