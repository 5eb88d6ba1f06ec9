//! Code beside the console: under each plan and in each confirmation, the change
//! as cURL, Go, TypeScript and Terraform of exactly what Apply would send
//! (nks-code writes them from the same request); on a cluster's and a VPC's
//! page, the whole of it exported to Terraform. Both views are splits of their
//! own, fetched when their panel is first opened ([`super::lazy`]).

mod export;

pub use export::{Export, ExportPanel, ExportView};

use leptos::prelude::*;
use leptos_use_signal_debounce_throttle::signal_debounced;
use nks_code::{Change, Format};
use wasm_bindgen::JsCast;

use crate::api::client::Client;
use crate::app::components::CopyButton;

/// Wait this long after the last keystroke before writing the code again (as the plan).
const DEBOUNCE_MS: f64 = 350.0;

/// What the open panel writes, handed to its split view.
#[derive(Clone)]
struct CodeSource {
    change: Signal<Option<Change>>,
    problems: Signal<Vec<String>>,
    base_url: String,
}

/// A `<details>` whose body is drawn by `draw` the first time it is opened,
/// and kept after.
#[component]
fn Disclosure(class: &'static str, summary: &'static str, draw: fn() -> AnyView) -> impl IntoView {
    let opened = RwSignal::new(false);
    let on_toggle = move |ev: leptos::ev::Event| {
        let open = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|e| e.has_attribute("open"));
        if open {
            opened.set(true);
        }
    };
    view! {
        <details class=class on:toggle=on_toggle>
            <summary>{summary}</summary>
            {move || opened.get().then(draw)}
        </details>
    }
}

/// "Code", closed until asked for. `change` is `None` while the form would send
/// nothing: `problems` says why (what is wrong with the fields), or, empty,
/// that nothing changed.
#[component]
pub fn CodePanel(
    #[prop(into)] change: Signal<Option<Change>>,
    #[prop(optional, into)] problems: Signal<Vec<String>>,
) -> impl IntoView {
    let base_url = expect_context::<Client>().base_url();
    provide_context(CodeSource {
        change,
        problems,
        base_url,
    });
    view! { <Disclosure class="code-panel" summary="Code: cURL, Go, TypeScript, Terraform" draw=super::lazy::code /> }
}

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
fn CodeBlock(
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
