//! The frame around every page: the header with the project switcher, the
//! navigation, the search and the operations indicator, and the page's place.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use wasm_bindgen::JsCast;

use super::context::{current_project_id, Projects};
use super::paths::{to, A};
use super::search::SearchOpen;
use super::{lazy, operations, Session};

/// The header and navigation around a page, which each page shows inside `<main>`.
/// Each page shows its own loading line; the header and navigation stay.
#[component]
pub fn Frame(children: Children) -> impl IntoView {
    // The first stop of the keyboard: past the header and navigation, to the page.
    // Handled here, not followed: under `<base href>` "#main" would name the root.
    let skip = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        focus_main();
    };
    view! {
        <a class="skip-link" href="#main" on:click=skip>"Skip to content"</a>
        <Header />
        <main class="content" id="main" tabindex="-1">
            // In the page's flow, above its content: a notice pushes the page
            // down instead of covering any of it.
            <operations::OpsNotices />
            <crate::app::components::RetryWait />
            {children()}
        </main>
    }
}

/// Moves the focus to the page's content (`<main>`): the skip link, and a new
/// page, as a page load would.
pub fn focus_main() {
    if let Some(main) = document().get_element_by_id("main") {
        if let Ok(main) = main.dyn_into::<web_sys::HtmlElement>() {
            let _ = main.focus();
        }
    }
}

#[component]
fn Header() -> impl IntoView {
    let known = expect_context::<Projects>();
    let projects = known.list;
    let session = expect_context::<Session>();
    let current = current_project_id();
    let navigate = use_navigate();
    let search = SearchOpen(RwSignal::new(false));
    provide_context(search);
    // `/` opens the search from anywhere but a field being typed in.
    let keys = window_event_listener_untyped("keydown", move |ev| {
        let ev: web_sys::KeyboardEvent = ev.unchecked_into();
        let typing = ev.target().is_some_and(|to| {
            let to: web_sys::Element = to.unchecked_into();
            matches!(
                to.closest("input, textarea, select, [contenteditable]"),
                Ok(Some(_))
            )
        });
        // Not under a modal dialog: the header is inert then.
        let modal_open = matches!(document().query_selector("dialog[open]"), Ok(Some(_)));
        if ev.key() == "/" && !typing && !modal_open && !ev.default_prevented() {
            ev.prevent_default();
            search.0.set(true);
        }
    });
    on_cleanup(move || keys.remove());
    let on_switch = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if !id.is_empty() {
            navigate(&to::clusters(&id), Default::default());
        }
    };
    // Outside a project (Settings), the project links lead to the last one
    // used. Never to `/` once the projects are read: a link to `/` is marked
    // current on every page.
    // The project the selector shows agrees with the page: the address's, or,
    // outside a project, the one the project links lead to; none when the
    // address names a project the key does not see.
    let shown = Memo::new(move |_| {
        let list_has = |id: &str| known.lookup(id).flatten().is_some();
        match current.get() {
            Some(id) => list_has(&id).then_some(id),
            None => known.default_id(),
        }
    });
    let project_link = move |page: fn(&str) -> String| {
        move || {
            current
                .get()
                .or_else(|| known.default_id())
                .map(|id| page(&id))
                .unwrap_or_else(|| to::HOME.to_string())
        }
    };
    view! {
        <header class="topbar">
            <A href=to::HOME exact=true attr:class="brand">"NKS Console"</A>
            <div class="project-switcher">
                <label for="project">"Project"</label>
                <select id="project" on:change=on_switch prop:value=move || shown.get().unwrap_or_default()>
                    <Transition fallback=|| view! { <option value="">"Loading…"</option> }>
                        {move || projects.get().map(|read| match read {
                            Err(_) => view! { <option value="">"Projects unavailable"</option> }.into_any(),
                            Ok(list) => {
                                let selected = shown.get_untracked();
                                // An address naming a project the key does not see.
                                let placeholder = move || {
                                    if current.with(Option::is_some) && shown.with(Option::is_none) {
                                        "Project not found"
                                    } else {
                                        "Choose a project"
                                    }
                                };
                                view! {
                                    <option value="" disabled=true selected=move || shown.with(Option::is_none)>{placeholder}</option>
                                    {list
                                        .into_iter()
                                        .map(|p| {
                                            let is_selected = selected.as_deref() == Some(p.id.as_str());
                                            view! { <option value=p.id selected=is_selected>{p.name}</option> }
                                        })
                                        .collect_view()}
                                }
                                    .into_any()
                            }
                        })}
                    </Transition>
                </select>
            </div>
            <nav class="mainnav" aria-label="Main">
                <A href=project_link(to::clusters)>"Clusters"</A>
                <A href=project_link(to::operations)>"Operations"</A>
                <A href=project_link(to::networking)>"Networking"</A>
                <A href=to::SETTINGS>"Settings"</A>
            </nav>
            <button
                type="button"
                id="site-search-open"
                class="btn btn-quiet"
                aria-keyshortcuts="/"
                aria-expanded=move || if search.0.get() { "true" } else { "false" }
                on:click=move |_| search.0.update(|open| *open = !*open)
            >
                "Search" <kbd aria-hidden="true">"/"</kbd>
            </button>
            {move || search.0.get().then(lazy::site_search)}
            <div class="ops-slot">
                <operations::OpsIndicator />
            </div>
            <button class="btn btn-quiet" on:click=move |_| session.log_out()>"Log out"</button>
        </header>
    }
}
