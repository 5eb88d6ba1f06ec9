//! "Delete cluster": confirmed by typing its name; its pools and nodes go with it.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use crate::api::client::Client;
use crate::api::types::OperationStatus;
use crate::app::components::{follow_submission, ConfirmByTyping, ErrorView, OpProgress};
use crate::app::paths::params::{route, ClusterRoute};
use crate::app::paths::to;
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::outcome::ApiError;

#[component]
pub fn DeleteClusterDialog(
    cluster_id: String,
    cluster_name: String,
    /// Read again with the cluster: the dialog itself is not rebuilt by a refresh,
    /// so what is typed and a delete's progress stay.
    #[prop(into)]
    pool_count: Signal<usize>,
    #[prop(into)] blocked: Signal<Option<String>>,
) -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let route = route::<ClusterRoute>();
    let delete = {
        let id = cluster_id.clone();
        Action::new_local(move |_: &()| {
            let client = client.clone();
            let id = id.clone();
            async move { client.delete_cluster(&id).await }
        })
    };
    let submitted = follow_submission(move || delete.value().get(), RwSignal::new(None));
    let navigate = use_navigate();
    Effect::new(move |_| {
        if submitted
            .get()
            .and_then(|id| ops.get(&id))
            .is_some_and(|t| t.op.status == OperationStatus::Done)
        {
            navigate(
                &route.with_untracked(|r| to::clusters(&r.project_id)),
                Default::default(),
            );
        }
    });
    let warning = {
        let name = cluster_name.clone();
        Signal::derive(move || {
            format!(
                "Deleting cluster {name} deletes its {} and every node in them. Workloads stop at once.",
                display::counted(pool_count.get(), "pool", "pools")
            )
        })
    };
    view! {
        <section class="card" id="delete">
            <h2>"Delete cluster"</h2>
            {move || match submitted.get() {
                Some(id) => view! { <OpProgress operation_id=id title="Delete cluster" /> }.into_any(),
                None => view! {
                    <ConfirmByTyping name=cluster_name.clone() action="Delete cluster" warning
                        pending=delete.pending() disabled_reason=blocked on_confirm=Callback::new(move |_| { delete.dispatch(()); }) />
                }.into_any(),
            }}
            {move || delete.value().get().and_then(Result::err).map(|error: ApiError| view! { <ErrorView error /> })}
        </section>
    }
}
