//! The frame around every page: header with the project switcher, the slot for
//! the operations indicator, and the routes.

use leptos::prelude::*;

use super::components::ErrorView;
use super::router::{routes, use_navigate, use_path, Redirect, A};
use super::{clusters, lazy, operations, Session};
use crate::api::client::Client;
use crate::api::types::Project;
use crate::ops::Ops;
use crate::rules::outcome::ApiError;
use crate::rules::route::Page;
use wasm_bindgen::JsCast;

/// The projects the key can see, loaded once for the whole shell.
#[derive(Clone, Copy)]
pub struct Projects(pub LocalResource<Result<Vec<Project>, ApiError>>);

/// The project named by the current URL (`/projects/{id}/…`), if any.
pub fn current_project_id() -> Memo<Option<String>> {
    let path = use_path();
    Memo::new(move |_| {
        let path = path.get();
        let mut parts = path.trim_start_matches('/').split('/');
        (parts.next() == Some("projects"))
            .then(|| parts.next().map(str::to_string))
            .flatten()
            .filter(|p| !p.is_empty())
    })
}

/// Bumped every few seconds while the tab is visible, so lists follow changes made
/// behind the person's back (the autoscaler moves node counts on its own).
#[derive(Clone, Copy)]
pub struct Refresh(pub RwSignal<u64>);

const REFRESH_EVERY: std::time::Duration = std::time::Duration::from_secs(15);

#[component]
pub fn Shell() -> impl IntoView {
    super::boot_done();
    let client = expect_context::<Client>();
    let projects = {
        let client = client.clone();
        Projects(LocalResource::new(move || {
            let client = client.clone();
            async move { client.projects().await }
        }))
    };
    provide_context(projects);
    let config = expect_context::<crate::api::client::Config>();
    provide_context(config.operation_deadline_secs.unwrap_or_default());
    let ops = Ops::provide(client);

    let refresh = Refresh(RwSignal::new(0));
    provide_context(refresh);
    if let Ok(handle) = set_interval_with_handle(
        move || {
            if document().visibility_state() != web_sys::VisibilityState::Hidden {
                refresh.0.update(|n| *n += 1);
            }
        },
        REFRESH_EVERY,
    ) {
        on_cleanup(move || handle.clear());
    }

    // Operations already in flight in the project being looked at are followed too.
    let project = current_project_id();
    Effect::new(move |previous: Option<Option<String>>| {
        let now = project.get();
        if now.is_some() && previous.as_ref() != Some(&now) {
            if let Some(id) = now.clone() {
                ops.adopt_in_flight(id);
            }
        }
        now
    });

    // A new page moves the focus to its content, as a page load would, so keyboard
    // and screen-reader users start at the top of the page they opened instead of
    // wherever the link they followed used to be.
    let path = use_path();
    Effect::new(move |previous: Option<String>| {
        let path = path.get();
        if previous.is_some_and(|p| p != path) {
            if let Some(main) = document().get_element_by_id("main") {
                if let Ok(main) = main.dyn_into::<web_sys::HtmlElement>() {
                    let _ = main.focus();
                }
            }
        }
        path
    });

    view! {
        <Header />
        <operations::OpsNotices />
        <main class="content" id="main" tabindex="-1">
            // Each page shows its own loading line; the header and navigation stay.
            {routes(|page| match page {
                Page::Home => lazy::home().into_any(),
                Page::Clusters => view! { <clusters::ClusterList /> }.into_any(),
                Page::CreateCluster => lazy::create_cluster().into_any(),
                Page::Cluster => lazy::cluster().into_any(),
                Page::EditCluster => lazy::edit_cluster().into_any(),
                Page::CreatePool => lazy::create_pool().into_any(),
                Page::Pool => lazy::pool().into_any(),
                Page::EditPool => lazy::edit_pool().into_any(),
                Page::Operations => lazy::operations().into_any(),
                Page::Settings => lazy::settings().into_any(),
                Page::NotFound => lazy::not_found().into_any(),
            })}
        </main>
    }
}

/// `/` (or a bare project) goes to the clusters of the URL's project, else the first project.
#[component]
pub(super) fn Home() -> impl IntoView {
    let Projects(projects) = expect_context::<Projects>();
    let current = current_project_id();
    view! {
        <Transition fallback=|| view! { <p class="loading">"Loading projects…"</p> }>
            {move || projects.get().map(|read| match read {
                Err(error) => view! { <ErrorView error retry=move |_| projects.refetch() /> }.into_any(),
                Ok(list) => {
                    let target = current.get().or_else(|| list.first().map(|p| p.id.clone()));
                    match target {
                        Some(id) => view! { <Redirect path=format!("/projects/{id}/clusters") /> }.into_any(),
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
    let Projects(projects) = expect_context::<Projects>();
    let session = expect_context::<Session>();
    let current = current_project_id();
    let navigate = use_navigate();
    let on_switch = move |ev: leptos::ev::Event| {
        let id = event_target_value(&ev);
        if !id.is_empty() {
            navigate(&format!("/projects/{id}/clusters"), Default::default());
        }
    };
    let project_link = move |tail: &'static str| {
        move || {
            current
                .get()
                .map(|id| format!("/projects/{id}/{tail}"))
                .unwrap_or_else(|| "/".to_string())
        }
    };
    view! {
        <header class="topbar">
            <A href="/" exact=true attr:class="brand">"NKS Console"</A>
            <div class="project-switcher">
                <label for="project">"Project"</label>
                <select id="project" on:change=on_switch prop:value=move || current.get().unwrap_or_default()>
                    <Transition fallback=|| view! { <option value="">"Loading…"</option> }>
                        {move || projects.get().map(|read| match read {
                            Err(_) => view! { <option value="">"Projects unavailable"</option> }.into_any(),
                            Ok(list) => {
                                let selected = current.get_untracked();
                                let none_selected = selected.is_none();
                                view! {
                                    <option value="" disabled=true selected=none_selected>"Choose a project"</option>
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
                <A href="/settings">"Settings"</A>
            </nav>
            <div class="ops-slot">
                <operations::OpsIndicator />
            </div>
            <button class="btn btn-quiet" on:click=move |_| session.log_out()>"Log out"</button>
        </header>
    }
}
