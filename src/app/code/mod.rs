//! Code beside the console: under each plan and in each confirmation, the change
//! as cURL, Go, TypeScript and Terraform of exactly what Apply would send
//! (nks-code writes them from the same request); on a cluster's and a VPC's
//! page, the whole of it exported to Terraform. Both views are splits of their
//! own, fetched when their panel is first opened ([`super::lazy`]).

pub(super) mod export;
mod source;
pub(super) mod view;

pub use source::Export;

use leptos::prelude::*;
use nks_code::Change;
use wasm_bindgen::JsCast;

use crate::api::client::Client;
use source::{CodeSource, ExportSource};

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

/// The panel, closed until asked for; the reads happen when it is opened.
#[component]
pub fn ExportPanel(#[prop(into)] what: Signal<Export>) -> impl IntoView {
    provide_context(ExportSource(what));
    view! { <Disclosure class="code-panel export-panel" summary="main.tf: the resources and their import blocks" draw=super::lazy::terraform_export /> }
}
