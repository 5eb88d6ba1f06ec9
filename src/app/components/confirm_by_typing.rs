use leptos::prelude::*;

use crate::rules::display::visible_controls;

/// A destructive action that asks the person to type the resource's name first.
#[component]
pub fn ConfirmByTyping(
    /// What must be typed.
    #[prop(into)]
    name: String,
    /// The button's text, e.g. "Delete pool".
    action: &'static str,
    /// Explains what will happen (it may change while the dialog is open).
    #[prop(into)]
    warning: Signal<String>,
    #[prop(into)] pending: Signal<bool>,
    #[prop(optional, into)] disabled_reason: MaybeProp<String>,
    /// Focus the name's field when drawn: in a dialog, never on a page.
    #[prop(optional)]
    autofocus: bool,
    on_confirm: Callback<()>,
    /// Shown after the warning it follows, before the name's field.
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let typed = RwSignal::new(String::new());
    // One per action: a dialog's confirmation can sit over a page's own.
    let field_id = format!("confirm-{}", action.to_lowercase().replace(' ', "-"));
    // What is typed is compared with what is shown: a name holding direction
    // controls shows them written out, so that text typed as seen matches.
    let shown = visible_controls(&name);
    let controls = shown != name;
    let expected = shown.clone();
    let matches = move || typed.with(|t| t == &expected);
    let blocked = move || disabled_reason.with(Option::is_some);
    view! {
        <div class="danger-zone">
            <p>{warning}</p>
            {children.map(|c| c())}
            {move || disabled_reason.get().map(|why| view! { <p class="alert alert-warning">{why}</p> })}
            <div class="field">
                <label for=field_id.clone()>"Type " <strong class="typed-name">{shown}</strong> " to confirm"</label>
                {controls.then(|| view! {
                    <p class="field-hint">
                        "This name holds invisible characters that reorder the text around them; each is written out here as [U+…]. Type it as shown."
                    </p>
                })}
                <input
                    id=field_id
                    autocomplete="off"
                autofocus=autofocus
                    prop:value=typed
                    on:input=move |ev| typed.set(event_target_value(&ev))
                />
            </div>
            <button
                class="btn btn-danger"
                disabled=move || !matches() || pending.get() || blocked()
                on:click=move |_| on_confirm.run(())
            >
                {move || if pending.get() { "Working…".to_string() } else { action.to_string() }}
            </button>
        </div>
    }
}
