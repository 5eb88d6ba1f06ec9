//! `/` and a bare project: where the console opens.

use leptos::prelude::*;
use leptos_router::components::Redirect;
use leptos_router::NavigateOptions;

use super::components::ErrorView;
use super::context::{current_project_id, Projects};
use super::paths::to;

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
                                path=to::clusters(&id)
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
