//! "Delete cluster": confirmed by typing its name; its pools and nodes go with it.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use crate::api::client::Client;
use crate::app::code::CodePanel;
use crate::app::components::{send_and_follow, ConfirmByTyping, ErrorView, OpProgress};
use crate::app::paths::params::{route, ClusterRoute};
use crate::app::paths::to;
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::outcome::ApiError;
use nks_api::mutation::Mutation;
use nks_code::{Change, Resource};

#[component]
pub fn DeleteClusterDialog(
    cluster_id: String,
    cluster_name: String,
    /// Read again with the cluster: the dialog itself is not rebuilt by a refresh,
    /// so what is typed and a delete's progress stay.
    #[prop(into)]
    pool_count: Signal<usize>,
    #[prop(into)] blocked: Signal<Option<String>>,
    /// The cluster as read, for the Code panel's Terraform.
    #[prop(optional, into)]
    now: Signal<Option<Resource>>,
) -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let route = route::<ClusterRoute>();
    let rejected = RwSignal::new(None::<ApiError>);
    let submitted = RwSignal::new(None::<String>);
    let navigate = use_navigate();
    // Delete, follow, then the project's clusters.
    let mutation = Mutation::DeleteCluster {
        cluster_id: cluster_id.clone(),
    };
    let code = {
        let mutation = mutation.clone();
        Signal::derive(move || Some(Change::one(mutation.clone(), now.get())))
    };
    let delete = {
        Action::new_local(move |_: &()| {
            let (client, mutation, navigate) = (client.clone(), mutation.clone(), navigate.clone());
            async move {
                let sent = client.apply(&mutation);
                if let Some(Ok(_)) = send_and_follow(ops, sent, submitted, rejected).await {
                    navigate(
                        &route.with_untracked(|r| to::clusters(&r.project_id)),
                        Default::default(),
                    );
                }
            }
        })
    };
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
                    <CodePanel change=code />
                }.into_any(),
            }}
            {move || rejected.get().map(|error| view! { <ErrorView error /> })}
        </section>
    }
}
