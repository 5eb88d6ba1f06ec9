use leptos::prelude::*;

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
