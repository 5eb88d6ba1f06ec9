use crate::app::context::{current_project_id, Projects};
use crate::app::paths::to;
use crate::app::paths::A;
use leptos::prelude::*;

/// An address the console has no page for, or one under a project the key does
/// not see (the cluster list shows this then): "Project not found".
#[component]
pub fn NotFound() -> impl IntoView {
    let project = current_project_id().get_untracked();
    let unknown = project.filter(|id| {
        use_context::<Projects>().and_then(|projects| projects.lookup(id)) == Some(None)
    });
    if let Some(id) = unknown {
        return view! { <Missing what="Project" id back="/" back_label="← Clusters" /> }.into_any();
    }
    document().set_title("Not found \u{b7} NKS Console");
    view! {
        <section class="page empty">
            <h1>"Page not found"</h1>
            <p>"Nothing lives at this address. It may have been a cluster or pool that was deleted."</p>
            <p><A href=to::HOME>"Go to your clusters"</A></p>
        </section>
    }
    .into_any()
}

/// A project, cluster or pool the address names that the API does not know (or
/// not under this project): said as such, with the way back, never as an empty
/// list or an error to retry.
#[component]
pub fn Missing(
    /// "Project", "Cluster", "Pool".
    what: &'static str,
    #[prop(into)] id: String,
    /// Where to go instead, and its words ("← Clusters").
    #[prop(into)]
    back: String,
    #[prop(into)] back_label: String,
) -> impl IntoView {
    document().set_title("Not found \u{b7} NKS Console");
    view! {
        <section class="page empty missing">
            <h1>{format!("{what} not found")}</h1>
            <p>
                "Nothing here has the id "
                <code>{id}</code>
                ". It may have been deleted, or the address may be mistyped."
            </p>
            <p><A href=back>{back_label}</A></p>
        </section>
    }
}
