use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A labelled control with its message beside it. The message is linked with
/// `aria-describedby`, so a screen reader reads the problem with the field.
/// `hint` is shown always (e.g. why a field is locked); `error` only when set.
#[component]
pub fn Field(
    /// The control's id; the label points at it.
    id: &'static str,
    label: &'static str,
    #[prop(optional, into)] hint: MaybeProp<String>,
    #[prop(optional, into)] error: MaybeProp<String>,
    children: Children,
) -> impl IntoView {
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let has_hint = move || hint.with(|h| h.as_ref().is_some_and(|h| !h.is_empty()));
    view! {
        <div class="field" class:field-invalid=move || error.with(Option::is_some)>
            <label for=id>{label}</label>
            {children()}
            <Show when=has_hint>
                <p class="field-hint" id=hint_id.clone()>{move || hint.get()}</p>
            </Show>
            <Show when=move || error.with(Option::is_some)>
                <p class="field-error" id=error_id.clone() role="alert">{move || error.get()}</p>
            </Show>
        </div>
    }
}

/// The `aria-describedby` value for a control inside a [`Field`].
pub fn described_by(id: &'static str) -> String {
    format!("{id}-hint {id}-error")
}

/// The controls of fields in error, in page order: a [`Field`] or row marked
/// `field-invalid`, never a locked (disabled) control.
const IN_ERROR: &str = ".field-invalid input:not([disabled]), .field-invalid select:not([disabled]), .field-invalid textarea:not([disabled])";

/// After a refused submit (the console's own check or the API's 422): the first
/// field in error takes the focus, once its message is drawn (the next frame),
/// so the person lands on what to fix with the message read out beside it.
pub fn focus_first_error(form: NodeRef<leptos::html::Form>) {
    focus_once_drawn(form, IN_ERROR);
}

/// Once the next frame is drawn, the first control under `root` that matches
/// `selector` takes the focus (a row just added, a field in error).
pub fn focus_once_drawn<E>(root: NodeRef<E>, selector: &'static str)
where
    E: leptos::html::ElementType,
    E::Output: JsCast + Clone + 'static,
{
    request_animation_frame(move || {
        let Some(root) = root.get_untracked() else {
            return;
        };
        let root: &web_sys::Element = root.unchecked_ref();
        if let Ok(Some(control)) = root.query_selector(selector) {
            if let Ok(control) = control.dyn_into::<web_sys::HtmlElement>() {
                let _ = control.focus();
            }
        }
    });
}
