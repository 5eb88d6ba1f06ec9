//! "Delete VPC": confirmed by typing its name. The API refuses to delete a VPC a
//! cluster uses, so a VPC read as used is not offered for deletion: the section
//! says why and names the cluster to delete first. Should the API refuse all the
//! same (a cluster made since the read), the refusal is shown here, beside the
//! action, in the words of the outcome it is (rejected: retrying will not help).

use leptos::prelude::*;
use leptos_router::components::A;
use leptos_router::hooks::use_navigate;

use crate::api::client::Client;
use crate::app::code::CodePanel;
use crate::app::components::{send_and_follow, ConfirmByTyping, ErrorView, OpProgress};
use crate::app::paths::params::{route, NetworkingRoute};
use crate::app::paths::to;
use crate::ops::Ops;
use crate::rules::outcome::ApiError;
use nks_api::mutation::Mutation;
use nks_code::{Change, Resource};

#[component]
pub(super) fn DeleteVpc(
    vpc_id: String,
    vpc_name: String,
    /// The cluster that uses the VPC, as read: (id, name).
    used_by: Option<(String, String)>,
    project: String,
    /// The VPC as read, for the Code panel's Terraform.
    #[prop(optional, into)]
    now: Signal<Option<Resource>>,
) -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let route = route::<NetworkingRoute>();
    let rejected = RwSignal::new(None::<ApiError>);
    let submitted = RwSignal::new(None::<String>);
    let navigate = use_navigate();
    // Delete, follow, then the VPC list.
    let mutation = Mutation::DeleteVpc {
        vpc_id: vpc_id.clone(),
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
                        &route.with_untracked(|r| to::networking(&r.project_id)),
                        Default::default(),
                    );
                }
            }
        })
    };
    let in_flight = {
        let id = vpc_id.clone();
        Memo::new(move |_| ops.in_flight_on(&id))
    };
    let blocked = Signal::derive(move || {
        in_flight.get().map(|t| {
            format!(
                "An operation is in flight on this VPC ({} {}); wait for it to end.",
                t.op.op_type.as_str(),
                t.op.status.as_str()
            )
        })
    });
    let warning = Signal::stored(format!(
        "Deleting VPC {vpc_name} deletes its subnet and every firewall rule in it."
    ));
    if let Some((cluster_id, cluster_name)) = used_by {
        return view! {
            <section class="card" id="delete" aria-labelledby="delete-vpc-heading">
                <h2 id="delete-vpc-heading">"Delete VPC"</h2>
                <p>
                    {format!("VPC {vpc_name} cannot be deleted while cluster {cluster_name} uses it. Delete ")}
                    <A href=to::cluster(&project, &cluster_id)>{format!("cluster {cluster_name}")}</A>
                    " first (its page has Delete cluster), then this VPC."
                </p>
            </section>
        }
        .into_any();
    }
    view! {
        <section class="card" id="delete" aria-labelledby="delete-vpc-heading">
            <h2 id="delete-vpc-heading">"Delete VPC"</h2>
            {move || match submitted.get() {
                Some(id) => view! { <OpProgress operation_id=id title="Delete VPC" /> }.into_any(),
                None => view! {
                    <ConfirmByTyping name=vpc_name.clone() action="Delete VPC" warning
                        pending=delete.pending() disabled_reason=blocked
                        on_confirm=Callback::new(move |_| { delete.dispatch(()); }) />
                    <CodePanel change=code />
                }.into_any(),
            }}
            {move || rejected.get().map(|error| view! { <ErrorView error /> })}
        </section>
    }
    .into_any()
}
