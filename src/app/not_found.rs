use crate::app::paths::A;
use crate::app::shell::page_title;
use leptos::prelude::*;

#[component]
pub fn NotFound() -> impl IntoView {
    page_title(|| vec!["Not found".into()]);
    view! {
        <section class="page empty">
            <h1>"Page not found"</h1>
            <p>"Nothing lives at this address. It may have been a cluster or pool that was deleted."</p>
            <p><A href="/">"Go to your clusters"</A></p>
        </section>
    }
}

/// A project, cluster or pool the address names that the API does not know (or
/// not under this project): said as such, with the way back, never as an empty
/// list or an error to retry.
/// (`what` is never lowercased: `to_lowercase` brings the Unicode case tables,
/// about 12 KB, into the first load with the cluster list.)
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
    page_title(|| vec!["Not found".into()]);
    view! {
        <section class="page empty">
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
