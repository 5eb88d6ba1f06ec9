//! "Delete pool" and "Delete node": confirmed by typing the name, tracked as operations.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

use crate::api::client::Client;
use crate::api::types::Node;
use crate::app::code::CodePanel;
use crate::app::components::{
    send_and_follow, Commands, ConfirmByTyping, ErrorView, Modal, OpProgress, Submit,
};
use crate::app::paths::params::{route, PoolRoute};
use crate::app::paths::to;
use crate::app::pools::kept_deletes::KeptDeletes;
use crate::ops::Ops;
use crate::rules::capacity::{drain_commands, BASELINE_REASON};
use crate::rules::display;
use crate::rules::outcome::ApiError;
use nks_api::mutation::Mutation;
use nks_code::{Change, Resource};

/// Deletes a pool once its name is typed; refused when it would leave the cluster
/// without a baseline worker.
#[component]
pub fn DeletePoolDialog(
    pool_id: String,
    pool_name: String,
    /// Read again with the pool: the dialog itself is not rebuilt by a refresh,
    /// so what is typed and a delete's progress stay.
    #[prop(into)]
    node_count: Signal<u32>,
    /// Whether deleting it leaves the cluster without a baseline worker
    /// (`leaves_no_baseline`), from the latest read of the pools.
    #[prop(into)]
    no_baseline: Signal<bool>,
    #[prop(into)] blocked: Signal<Option<String>>,
    /// The pool as read, for the Code panel's Terraform.
    #[prop(optional, into)]
    now: Signal<Option<Resource>>,
) -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let route = route::<PoolRoute>();
    let mutation = Mutation::DeletePool {
        cluster_id: route.read_untracked().cluster_id.clone(),
        pool_id: pool_id.clone(),
    };
    let code = {
        let mutation = mutation.clone();
        Signal::derive(move || Some(Change::one(mutation.clone(), now.get())))
    };
    let reason = Signal::derive(move || {
        if no_baseline.get() {
            Some(BASELINE_REASON.to_string())
        } else {
            blocked.get()
        }
    });
    let rejected = RwSignal::new(None::<ApiError>);
    let submitted = RwSignal::new(None::<String>);
    let navigate = use_navigate();
    // Delete, follow, then the cluster's page.
    let delete = {
        Action::new_local(move |_: &()| {
            let (client, mutation, navigate) = (client.clone(), mutation.clone(), navigate.clone());
            async move {
                let sent = client.apply(&mutation);
                if let Some(Ok(_)) = send_and_follow(ops, sent, submitted, rejected).await {
                    let href = route.with_untracked(|r| to::cluster(&r.project_id, &r.cluster_id));
                    navigate(&href, Default::default());
                }
            }
        })
    };
    let warning = {
        let name = pool_name.clone();
        Signal::derive(move || match node_count.get() {
            0 => format!("Deleting pool {name} removes it; it has no nodes to terminate."),
            n => {
                let them = if n == 1 { "it" } else { "them" };
                format!(
                    "Deleting pool {name} terminates its {} without draining {them}. Drain {them} first if workloads run there.",
                    display::counted(n as usize, "node", "nodes")
                )
            }
        })
    };
    view! {
        <section class="card" id="delete">
            <h2>"Delete pool"</h2>
            {move || match submitted.get() {
                Some(id) => view! { <OpProgress operation_id=id title="Delete pool" /> }.into_any(),
                None => view! {
                    <ConfirmByTyping name=pool_name.clone() action="Delete pool" warning
                        pending=delete.pending() disabled_reason=reason on_confirm=Callback::new(move |_| { delete.dispatch(()); }) />
                    <CodePanel change=code />
                }.into_any(),
            }}
            {move || rejected.get().map(|error| view! { <ErrorView error /> })}
        </section>
    }
}

/// Deletes one node once its name is typed.
#[component]
pub fn DeleteNodeDialog(node: Node, kept: KeptDeletes, on_close: Callback<()>) -> impl IntoView {
    let client = expect_context::<Client>();
    let route = route::<PoolRoute>();
    // Sent once, then followed in place.
    let (cluster_id, pool_id) = route.with_untracked(|p| (p.cluster_id.clone(), p.pool_id.clone()));
    let mutation = Mutation::DeleteNode {
        cluster_id,
        pool_id: pool_id.clone(),
        node_id: node.id.clone(),
    };
    let code = Change::one(mutation.clone(), None);
    let delete = {
        let node_id = node.id.clone();
        Submit::following(
            move |()| {
                let (client, mutation) = (client.clone(), mutation.clone());
                let (node, pool) = (node_id.clone(), pool_id.clone());
                async move {
                    let sent = client.apply(&mutation).await;
                    if sent.is_ok() {
                        kept.keep(&node, &pool);
                    }
                    sent
                }
            },
            None,
        )
    };
    let submitted = delete.sent;
    let pending = Signal::derive(move || delete.pending());
    let [cordon, drain] = drain_commands(&node.name);
    let commands = format!("{cordon}\n{drain}");
    let warning = format!(
        "Deleting node {} terminates it without draining, and lowers the pool's node count by one. Drain it first:",
        node.name
    );
    let dialog_label = format!("Delete node {}", node.name);
    let node_name = node.name.clone();
    view! {
        <Modal label=dialog_label.clone() class="dialog" on_close busy=pending sent=Signal::derive(move || delete.is_sent())>
            <h3>{format!("{dialog_label}?")}</h3>
            {move || match submitted.get() {
                Some(id) => view! { <OpProgress operation_id=id title="Delete node" /> }.into_any(),
                None => {
                    let commands = commands.clone();
                    view! {
                        <ConfirmByTyping name=node_name.clone() action="Delete node" warning=warning.clone()
                            pending autofocus=true on_confirm=Callback::new(move |_| delete.send(()))>
                            <Commands text=commands label="Drain commands" what="drain commands" />
                        </ConfirmByTyping>
                        <CodePanel change=Signal::stored(Some(code.clone())) />
                    }.into_any()
                }
            }}
            {move || delete.refused.get().map(|error| view! { <ErrorView error /> })}
            <button class="btn btn-quiet" disabled=pending on:click=move |_| on_close.run(())>"Close"</button>
        </Modal>
    }
}
