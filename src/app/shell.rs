//! The frame around every page: the state every page shares (projects, the
//! operations tracker, the refresh tick), and the header with the project
//! switcher, the slot for the operations indicator and the page's place.

use codee::string::FromToStringCodec;
use leptos::prelude::*;
use leptos_router::components::Redirect;
use leptos_router::hooks::{use_location, use_navigate};
use leptos_router::NavigateOptions;
use leptos_use_document_visibility::use_document_visibility;
use leptos_use_interval_fn::use_interval_fn;
use leptos_use_storage::use_local_storage;

use super::components::ErrorView;
use super::paths::{router_base, A};
use super::routes::AppRoutes;
use super::search::SearchOpen;
use super::{lazy, operations, Session};
use crate::api::client::Client;
use crate::api::types::ProjectSummary;
use crate::ops::Ops;
use crate::rules::outcome::ApiError;
use wasm_bindgen::JsCast;

/// The projects the key can see, loaded once for the whole shell, and the one
/// last shown.
#[derive(Clone, Copy)]
pub struct Projects {
    pub list: LocalResource<Result<Vec<ProjectSummary>, ApiError>>,
    /// The project last shown, kept in `localStorage` (an id, not a secret) so
    /// the brand link, `/` and the navigation of a page outside any project lead
    /// back to it. Empty when none was; kept as the address named it, so read it
    /// through [`Projects::default_id`].
    pub last: Signal<String>,
}

impl Projects {
    /// The project `id` as the key sees it, once the list is read: its name,
    /// or `Some(None)` when the key sees no such project; `None` until the
    /// list is read (or when it could not be).
    /// (The list is cloned, as the header reads it: a few projects, and no
    /// second way of reading the resource in the first page's code.)
    pub fn lookup(&self, id: &str) -> Option<Option<String>> {
        match self.list.get()? {
            Ok(list) => Some(list.into_iter().find(|p| p.id == id).map(|p| p.name)),
            Err(_) => None,
        }
    }

    /// The project to open when the address names none: the last one shown if
    /// the key still sees it, else the first; `None` until the list is read.
    /// (`last` is read untracked: it only changes as the address names a
    /// project, which those who ask track already.)
    pub fn default_id(&self) -> Option<String> {
        let list = self.list.get()?.ok()?;
        let last = self.last.get_untracked();
        if list.iter().any(|p| p.id == last) {
            Some(last)
        } else {
            list.into_iter().next().map(|p| p.id)
        }
    }

    /// The project's name, once the list is read. (Inlined: only lazily loaded
    /// pages ask, and a shared function would be a wasm chunk of its own.)
    #[inline(always)]
    pub fn name(&self, id: &str) -> Option<String> {
        self.lookup(id).flatten()
    }
}

const LAST_PROJECT_ITEM: &str = "nks-console.last-project";

/// Names the tab after the page shown: its parts, most specific first, as they
/// become known (`baseline · edge-prod · NKS Console`).
pub fn page_title(parts: impl Fn() -> Vec<String> + 'static) {
    title_from(Box::new(parts));
}

/// One effect for every page's title (a generic one would be built per page).
fn title_from(parts: Box<dyn Fn() -> Vec<String>>) {
    Effect::new(move |_| {
        let parts = parts();
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        document().set_title(&crate::rules::display::title(&parts));
    });
}

/// The project named by the current URL (`/projects/{id}/…` under the router
/// base), if any. Read from the location, not from a route's params: the header
/// and the tracker sit above the page's route and never see its params.
pub fn current_project_id() -> Memo<Option<String>> {
    let location = use_location();
    let base = router_base();
    Memo::new(move |_| {
        location.pathname.with(|path| {
            let rest = path
                .strip_prefix(base.as_str())?
                .strip_prefix("/projects/")?;
            let id = rest.split('/').next()?;
            (!id.is_empty()).then(|| id.to_string())
        })
    })
}

/// Bumped every few seconds while the tab is visible, so lists follow changes made
/// behind the person's back (the autoscaler moves node counts on its own). It is
/// the console's one shared tick: relative times ("3 min ago") move on it too.
#[derive(Clone, Copy)]
pub struct Refresh(pub RwSignal<u64>);

const REFRESH_EVERY_MS: u64 = 15_000;

#[component]
pub fn Shell() -> impl IntoView {
    super::boot_done();
    let client = expect_context::<Client>();
    // The last project shown is remembered (in the effect below).
    let (last, keep_last, _) = use_local_storage::<String, FromToStringCodec>(LAST_PROJECT_ITEM);
    let projects = {
        let client = client.clone();
        Projects {
            list: LocalResource::new(move || {
                let client = client.clone();
                async move { client.projects::<ProjectSummary>().await }
            }),
            last,
        }
    };
    provide_context(projects);
    let config = expect_context::<crate::api::client::Config>();
    provide_context(config.operation_deadline_secs.unwrap_or_default());
    let ops = Ops::provide(client);

    let refresh = Refresh(RwSignal::new(0));
    provide_context(refresh);
    let visibility = use_document_visibility();
    // Cleared with the shell, as every use_interval_fn is with its owner.
    use_interval_fn(
        move || {
            if visibility.get_untracked() != web_sys::VisibilityState::Hidden {
                refresh.0.update(|n| *n += 1);
            }
        },
        REFRESH_EVERY_MS,
    );

    // Operations already in flight in the project being looked at are followed too.
    let project = current_project_id();
    Effect::new(move |previous: Option<Option<String>>| {
        let now = project.get();
        if now.is_some() && previous.as_ref() != Some(&now) {
            if let Some(id) = now.clone() {
                keep_last.set(id.clone());
                ops.adopt_in_flight(id);
            }
        }
        now
    });

    // A new page moves the focus to its content, as a page load would, so keyboard
    // and screen-reader users start at the top of the page they opened instead of
    // wherever the link they followed used to be.
    // The same effect names the tab on the cluster list, the first page, which
    // has no effect of its own (other pages call `page_title`), once the
    // project's name is read; nothing for a project the key does not see (the
    // not-found page names the tab).
    let location = use_location();
    Effect::new(move |previous: Option<String>| {
        let path = location.pathname.get();
        if let (true, Some(id)) = (path.ends_with("/clusters"), project.get()) {
            if let Some(Some(name)) = projects.lookup(&id) {
                document().set_title(&format!("Clusters \u{b7} {name} \u{b7} NKS Console"));
            }
        }
        if previous.is_some_and(|p| p != path) {
            if let Some(main) = document().get_element_by_id("main") {
                if let Ok(main) = main.dyn_into::<web_sys::HtmlElement>() {
                    let _ = main.focus();
                }
            }
        }
        path
    });

    view! { <AppRoutes /> }
}

/// The header and navigation around a page, which each page shows inside `<main>`.
/// Each page shows its own loading line; the header and navigation stay.
#[component]
pub fn Frame(children: Children) -> impl IntoView {
    view! {
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

/// `/` (or a bare project) goes to the clusters of the URL's project, else the
/// last project used, else the first project.
#[component]
pub(super) fn Home() -> impl IntoView {
    let known = expect_context::<Projects>();
    let projects = known.list;
    let current = current_project_id();
    view! {
        <Transition fallback=|| view! { <p class="loading">"Loading projects…"</p> }>
            {move || projects.get().map(|read| match read {
                Err(error) => view! { <ErrorView error retry=move |_| projects.refetch() /> }.into_any(),
                Ok(_) => {
                    // Untracked: the redirect itself makes its project the last shown.
                    let target = current.get().or_else(|| untrack(|| known.default_id()));
                    match target {
                        // Replacing the entry: Back from the clusters must not land here and be sent on again.
                        Some(id) => view! {
                            <Redirect
                                path=format!("/projects/{id}/clusters")
                                options=NavigateOptions { replace: true, ..Default::default() }
                            />
                        }
                            .into_any(),
                        None => view! {
                            <section class="empty">
                                <h1>"No projects"</h1>
                                <p>"This API key cannot see any project. Create one in the Nirvana dashboard, or use a key scoped to a project."</p>
                            </section>
                        }
                            .into_any(),
                    }
                }
            })}
        </Transition>
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
            navigate(&format!("/projects/{id}/clusters"), Default::default());
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
    let project_link = move |tail: &'static str| {
        move || {
            current
                .get()
                .or_else(|| known.default_id())
                .map(|id| format!("/projects/{id}/{tail}"))
                .unwrap_or_else(|| "/".to_string())
        }
    };
    view! {
        <header class="topbar">
            <A href="/" exact=true attr:class="brand">"NKS Console"</A>
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
                <A href=project_link("clusters")>"Clusters"</A>
                <A href=project_link("operations")>"Operations"</A>
                <A href=project_link("networking")>"Networking"</A>
                <A href="/settings">"Settings"</A>
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
