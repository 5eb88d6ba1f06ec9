//! The console once connected: it provides what every page shares (the
//! projects, the operations tracker, the refresh tick) and draws the routes.

use codee::string::FromToStringCodec;
use leptos::prelude::*;
use leptos_router::hooks::use_location;
use leptos_use_document_visibility::use_document_visibility;
use leptos_use_interval_fn::use_interval_fn;
use leptos_use_storage::use_local_storage;

use super::context::{
    current_project_id, read_again_while_failing, Projects, Refresh, LAST_PROJECT_ITEM,
};
use super::routes::AppRoutes;
use crate::api::client::Client;
use crate::api::types::ProjectSummary;
use crate::ops::Ops;

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

    // The projects, as every kept read: read again after a failure that passes.
    read_again_while_failing(projects.list);

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
            super::frame::focus_main();
        }
        path
    });

    view! { <AppRoutes /> }
}
