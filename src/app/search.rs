//! Finding the project's clusters and pools by name: the index the operations
//! page names resources with, and the header's search (`/`), whose code is
//! fetched the first time it opens.

use std::collections::BTreeMap;

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use crate::api::client::Client;
use crate::api::types::{Cluster, Pool};
use crate::app::components::NameSearch;
use crate::app::context::{after_ops, current_project_id, Projects};
use crate::app::paths::to;
use crate::rules::operations_list::Known;
use crate::rules::outcome::ApiError;
use crate::rules::paged::{gap_title, Start};

/// A cluster or pool as the console names it: its name and its page.
#[derive(Clone, Debug, PartialEq)]
pub struct Named {
    pub name: String,
    pub href: String,
    /// A pool's cluster, which its operation's page needs.
    pub cluster_id: Option<String>,
}

/// Every cluster and pool of a project by id, and the pools that could not be
/// read (they are missing, and the reader says so).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProjectIndex {
    pub names: BTreeMap<String, Named>,
    /// Names of the clusters none of whose pools could be read.
    pub unread: Vec<String>,
    /// The clusters some of whose pools could be read, each with the ones
    /// missing: "big: pools 701–1,000 could not be read".
    pub partly: Vec<String>,
}

/// Reads the index of `project`: its clusters, then each one's pools, keeping
/// the pages of them that could be read. Only a failure to read the clusters
/// fails it.
pub async fn project_index(client: &Client, project: &str) -> Result<ProjectIndex, ApiError> {
    let mut index = ProjectIndex::default();
    let clusters = client.clusters::<Cluster>(project).await?;
    // Each cluster's pools, all read together.
    let first = Start::first_page();
    let pools = futures_util::future::join_all(
        clusters
            .iter()
            .map(|c| client.pools_from::<Pool>(&c.id, &first)),
    )
    .await;
    for (cluster, pools) in clusters.into_iter().zip(pools) {
        match pools.missing() {
            Some(_) if pools.items.is_empty() => index.unread.push(cluster.name.clone()),
            Some(missing) => index.partly.push(format!(
                "{}: {}",
                cluster.name,
                gap_title(missing, "pools").trim_end_matches('.')
            )),
            None => {}
        }
        for pool in pools.items {
            index.names.insert(
                pool.id.clone(),
                Named {
                    name: format!("{} / {}", cluster.name, pool.name),
                    href: to::pool(project, &cluster.id, &pool.id),
                    cluster_id: Some(cluster.id.clone()),
                },
            );
        }
        index.names.insert(
            cluster.id.clone(),
            Named {
                name: cluster.name,
                href: to::cluster(project, &cluster.id),
                cluster_id: None,
            },
        );
    }
    Ok(index)
}

/// Whether the header's search is open.
#[derive(Clone, Copy)]
pub struct SearchOpen(pub RwSignal<bool>);

/// Focuses the element `id`, if it is drawn.
fn focus(id: &str) {
    use wasm_bindgen::JsCast;
    if let Some(el) = document().get_element_by_id(id) {
        let _ = el.unchecked_into::<web_sys::HtmlElement>().focus();
    }
}

/// The header's search: a box over the clusters and pools of the current
/// project (outside one, the last used), by name or id; choosing one opens its
/// page. It closes on Escape (the focus back on its button), on a choice, and
/// when a click or the focus goes elsewhere.
#[component]
pub fn SiteSearch() -> impl IntoView {
    let open = expect_context::<SearchOpen>().0;
    let projects = expect_context::<Projects>();
    let current = current_project_id();
    let project = Memo::new(move |_| current.get().or_else(|| projects.default_id()));
    // Read while open, again when an operation ends (a create adds a name).
    let index = after_ops(
        move || project.get(),
        |client, project| async move {
            match project {
                Some(project) => project_index(&client, &project).await,
                None => Ok(ProjectIndex::default()),
            }
        },
    );
    let read = Memo::new(move |_| index.get().and_then(Result::ok));
    let known = Memo::new(move |_| {
        read.with(|read| {
            read.iter()
                .flat_map(|index| &index.names)
                .map(|(id, named)| Known {
                    id: id.clone(),
                    name: Some(named.name.clone()),
                    gone: false,
                })
                .collect::<Vec<_>>()
        })
    });
    let close = move || open.set(false);
    let navigate = use_navigate();
    let on_choose = Callback::new(move |id: String| {
        let href = read.with_untracked(|read| {
            read.as_ref()
                .and_then(|index| index.names.get(&id))
                .map(|named| named.href.clone())
        });
        if let Some(href) = href {
            close();
            navigate(&href, Default::default());
        }
    });
    let on_escape = Callback::new(move |()| {
        close();
        focus("site-search-open");
    });
    // A click or the focus elsewhere closes it (not the focus lost with a
    // button the search redraws; its own button toggles it).
    let panel = NodeRef::<leptos::html::Div>::new();
    let elsewhere = move |ev: web_sys::Event| {
        use wasm_bindgen::JsCast;
        let to = ev.target().map(|t| t.unchecked_into::<web_sys::Node>());
        let inside = panel
            .get_untracked()
            .is_some_and(|panel| panel.contains(to.as_ref()));
        let toggle = document()
            .get_element_by_id("site-search-open")
            .is_some_and(|button| button.contains(to.as_ref()));
        if !inside && !toggle {
            close();
        }
    };
    let clicks = window_event_listener(leptos::ev::pointerdown, move |ev| elsewhere(ev.into()));
    let focuses = window_event_listener(leptos::ev::focusin, move |ev| elsewhere(ev.into()));
    on_cleanup(move || {
        clicks.remove();
        focuses.remove();
    });
    let retry = move |_| {
        index.refetch();
        focus("site-search");
    };
    let no_match = Signal::derive(move || {
        if index.with(Option::is_none) {
            "Still reading this project's clusters and pools…".to_string()
        } else {
            "No cluster or pool of this project matches.".to_string()
        }
    });
    let project_name = move || {
        project
            .get()
            .and_then(|id| projects.name(&id))
            .unwrap_or_else(|| "this project".into())
    };

    view! {
        <div class="site-search" role="search" aria-label="Clusters and pools" node_ref=panel>
            <NameSearch
                id="site-search"
                label="Search clusters and pools"
                list_label="Clusters and pools"
                placeholder="Name or id"
                known
                selected=Signal::derive(String::new)
                on_choose
                no_match
                on_escape
                focus=true
            >
                {move || match index.get() {
                    None => view! { "Reading the clusters and pools of " {project_name} "…" }.into_any(),
                    Some(Err(error)) => view! {
                        {format!("The clusters could not be read: {}", error.headline())}
                        " "
                        <button type="button" class="btn btn-quiet" on:click=retry>"Retry"</button>
                    }
                        .into_any(),
                    Some(Ok(read)) if !read.unread.is_empty() || !read.partly.is_empty() => {
                        let none = (!read.unread.is_empty()).then(|| format!(
                            "The pools of {} could not be read, so none of them is found. ",
                            read.unread.join(", "),
                        ));
                        let some = (!read.partly.is_empty()).then(|| format!(
                            "{}, so they are not found. ",
                            read.partly.join("; "),
                        ));
                        view! {
                            {none}
                            {some}
                            <button type="button" class="btn btn-quiet" on:click=retry>"Retry"</button>
                        }
                        .into_any()
                    }
                    Some(Ok(_)) => view! {
                        "Clusters and pools of " {project_name} ", by name or id. Enter opens the page; Escape closes."
                    }
                        .into_any(),
                }}
            </NameSearch>
        </div>
    }
}
