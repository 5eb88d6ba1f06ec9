//! The Code panel's body, a split of its own: the tabs, and the chosen format's
//! code with Copy.

use leptos::prelude::*;
use leptos_use_signal_debounce_throttle::signal_debounced;
use nks_code::Format;

use super::source::CodeSource;
use crate::app::components::CopyButton;

/// Wait this long after the last keystroke before writing the code again (as the plan).
const DEBOUNCE_MS: f64 = 350.0;

/// The tabs and the code of the chosen one, with Copy.
#[component]
pub fn CodeView() -> impl IntoView {
    let CodeSource {
        change,
        problems,
        base_url,
    } = expect_context::<CodeSource>();
    let settled = signal_debounced(change, DEBOUNCE_MS);
    let tab = RwSignal::new(Format::Curl);
    let tabs = Format::ALL.map(|format| {
        view! {
            <button type="button" role="tab" class="code-tab"
                aria-selected=move || (tab.get() == format).to_string()
                on:click=move |_| tab.set(format)>
                {format.label()}
            </button>
        }
    });
    view! {
        <div class="code-tabs" role="tablist" aria-label="Format">{tabs.into_iter().collect_view()}</div>
        {move || match settled.get() {
            None => match problems.get() {
                problems if problems.is_empty() => view! {
                    <p class="muted" role="status">"No code yet: nothing differs from what is there. Change a field and the code follows."</p>
                }.into_any(),
                problems => view! {
                    <div role="status">
                        <p class="muted">"No code yet: the API would refuse this change as the form stands. Fix these and the code follows:"</p>
                        <ul class="code-problems">{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
                    </div>
                }.into_any(),
            },
            Some(change) => {
                let format = tab.get();
                let text = nks_code::write(&change, format, &base_url);
                view! { <CodeBlock text label=format!("{} code", format.label()) /> }.into_any()
            }
        }}
    }
}

/// Code in its own scrolling box, with Copy; a download too when `file` names one.
#[component]
pub(super) fn CodeBlock(
    text: String,
    label: String,
    #[prop(optional)] file: Option<(String, &'static str)>,
) -> impl IntoView {
    let download = file.map(|(name, mime)| {
        let text = text.clone();
        view! {
            <button type="button" class="btn btn-quiet" on:click=move |_| crate::app::components::download(&name, mime, &text)>
                "Download"
            </button>
        }
    });
    view! {
        <div class="code-actions">
            <CopyButton text=text.clone() what=label.clone() />
            {download}
        </div>
        <pre class="code" role="tabpanel" aria-label=label><code>{text}</code></pre>
    }
}
