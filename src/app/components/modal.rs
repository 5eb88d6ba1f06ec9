use std::cell::RefCell;
use std::rc::Rc;

use leptos::html::Dialog;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::JsCast;

/// A confirmation or a small form opened by a button: a modal `<dialog>` shown
/// over the page wherever the person is, with the focus inside it (on the
/// element marked `autofocus`, else the first one that takes focus). Escape
/// calls `on_close`, except while `busy` (a send on its way: its answer is
/// followed from inside). Once it is closed, the focus goes back to what had
/// it when it opened, or to the page's main region when that is gone or
/// disabled, or about to be: once its change is `sent`, the button that opened
/// it is disabled while the change is in flight (and its row may be drawn anew),
/// whenever the page hears of it.
#[component]
pub fn Modal(
    /// Its accessible name.
    #[prop(into)]
    label: String,
    on_close: Callback<()>,
    /// Classes beside `card modal`: `dialog` marks a destructive one.
    #[prop(optional)]
    class: &'static str,
    #[prop(optional, into)] busy: Signal<bool>,
    /// Whether its change was sent.
    #[prop(optional, into)]
    sent: Signal<bool>,
    children: Children,
) -> impl IntoView {
    let dialog = NodeRef::<Dialog>::new();
    // Plain values, not reactive ones: the cleanup runs as the owner goes away.
    let opener = SendWrapper::new(document().active_element());
    let shown = SendWrapper::new(Rc::new(RefCell::new(None::<web_sys::HtmlDialogElement>)));
    let drawn = SendWrapper::new(Rc::clone(&shown));
    // Read as it changes: the signals behind it may be gone when the cleanup runs.
    let was_sent = SendWrapper::new(Rc::new(std::cell::Cell::new(false)));
    let seen_sent = SendWrapper::new(Rc::clone(&was_sent));
    Effect::new(move |_| seen_sent.set(sent.get()));
    Effect::new(move |_| {
        if let Some(el) = dialog.get() {
            if !el.open() {
                // Refused only when it is not in the document (it is, once drawn).
                let _ = el.show_modal();
            }
            *drawn.borrow_mut() = Some(el);
        }
    });
    on_cleanup(move || {
        // The page is inert while the dialog is open: close it before moving the focus.
        if let Some(el) = shown.borrow_mut().take() {
            el.close();
        }
        let usable = |el: &web_sys::Element| el.is_connected() && !el.has_attribute("disabled");
        let sent = was_sent.get();
        let back = opener
            .take()
            .filter(|el| !sent && usable(el))
            .or_else(|| document().get_element_by_id("main"));
        if let Some(el) = back
            .as_ref()
            .and_then(|el| el.dyn_ref::<web_sys::HtmlElement>())
        {
            let _ = el.focus();
        }
    });
    view! {
        <dialog
            node_ref=dialog
            class=format!("card modal {class}")
            aria-label=label
            on:cancel=move |ev: web_sys::Event| {
                ev.prevent_default();
                if !busy.get_untracked() {
                    on_close.run(());
                }
            }
        >
            {children()}
        </dialog>
    }
}
