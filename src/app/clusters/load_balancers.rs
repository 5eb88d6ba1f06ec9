//! The cluster's load balancers (one per Service of type LoadBalancer), and the
//! one change the API allows on them: turning the public IP on or off. Loaded on
//! first use (`lazy::load_balancers`).

use leptos::prelude::*;

use crate::api::client::Client;
use crate::api::types::{LoadBalancer, LoadBalancerUpdate};
use crate::app::code::CodePanel;
use crate::app::components::{
    finished, listed, Column, ErrorView, Modal, StatusBadge, SubmissionProgress, Submit, Table,
};
use crate::app::context::live;
use crate::app::paths::params::{route, ClusterRoute};
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::exposure::{public_ip_change, service_name};
use nks_api::mutation::Mutation;
use nks_code::Change;

/// The cluster's load balancers, and the confirm of a public IP change.
#[component]
pub fn LoadBalancerList() -> impl IntoView {
    let route = route::<ClusterRoute>();
    // Re-read when an operation ends: the public IP is assigned or removed then.
    let balancers = live(
        move || route.read().cluster_id.clone(),
        |client, id| async move { client.load_balancers(&id).await },
    );
    // The load balancer whose change is being confirmed or followed. Kept here,
    // outside the table, so a refresh of the list does not close the confirm.
    let asked = RwSignal::new(None::<LoadBalancer>);
    view! {
        {listed(
            balancers,
            "Loading load balancers…",
            "This cluster has no load balancers. One appears here when a Service of type LoadBalancer is created inside the cluster.",
            move |list| view! { <LoadBalancerTable list asked /> }.into_any(),
        )}
        {move || asked.get().map(|lb| view! {
            <PublicIpConfirm lb on_close=Callback::new(move |_| asked.set(None)) />
        })}
    }
}

/// Keyed by the whole load balancer: one whose address or flag changed is
/// drawn again, an unchanged one keeps its row.
#[component]
fn LoadBalancerTable(
    list: Vec<LoadBalancer>,
    asked: RwSignal<Option<LoadBalancer>>,
) -> impl IntoView {
    let columns = vec![
        Column::new("Service", |lb: &LoadBalancer| {
            lb.service_name.clone().into_any()
        }),
        Column::new("Namespace", |lb: &LoadBalancer| {
            lb.namespace.clone().into_any()
        }),
        Column::new("Status", |lb: &LoadBalancer| {
            view! { <StatusBadge status=lb.status.as_str().to_string() /> }.into_any()
        }),
        Column::new("Private IP", |lb: &LoadBalancer| {
            display::address(lb.private_ip.as_deref())
                .to_string()
                .into_any()
        })
        .class("nowrap"),
        Column::new("Public IP", |lb: &LoadBalancer| {
            public_address(lb).into_any()
        })
        .class("nowrap"),
        Column::new("Public", |lb: &LoadBalancer| {
            (if lb.public_ip_enabled { "yes" } else { "no" }).into_any()
        }),
        Column::new("Actions", move |lb: &LoadBalancer| {
            view! { <PublicIpButton lb=lb.clone() asked /> }.into_any()
        })
        .head_hidden(),
    ];
    view! { <Table label="Load balancers" rows=list columns /> }
}

/// Turns a load balancer's public IP on or off, after a confirm; disabled, with
/// the reason, while a change to it is under way.
#[component]
fn PublicIpButton(lb: LoadBalancer, asked: RwSignal<Option<LoadBalancer>>) -> impl IntoView {
    let ops = expect_context::<Ops>();
    let name = service_name(&lb.namespace, &lb.service_name);
    let (verb, label) = if lb.public_ip_enabled {
        (
            "Turn off public IP",
            format!("Turn off public IP of {name}"),
        )
    } else {
        ("Turn on public IP", format!("Turn on public IP of {name}"))
    };
    let reason_id = format!("lb-busy-{}", lb.id);
    let busy_on_server = lb.status.is_busy();
    let id = lb.id.clone();
    let blocked = Memo::new(move |_| {
        if ops.in_flight_on(&id).is_some() {
            Some("A change to it is in flight; wait for it to end.")
        } else if busy_on_server {
            Some("It is updating on the platform; wait for it to end.")
        } else {
            None
        }
    });
    let described_by = reason_id.clone();
    view! {
        <button class="btn" aria-label=label
            aria-describedby=move || blocked.get().map(|_| described_by.clone())
            disabled=move || blocked.get().is_some()
            on:click=move |_| asked.set(Some(lb.clone()))>
            {verb}
        </button>
        {move || blocked.get().map(|why| view! { <p class="field-hint" id=reason_id.clone()>{why}</p> })}
    }
}

/// The public address as a person reads it: off, on its way, or the address.
fn public_address(lb: &LoadBalancer) -> String {
    match (
        lb.public_ip_enabled,
        display::assigned(lb.public_ip.as_deref()),
    ) {
        (false, None) => "none".into(),
        (_, ip) => display::address(ip).to_string(),
    }
}

/// Says what the change makes reachable (or unreachable) before anything is
/// sent; once sent, follows its operation through the tracker, in place.
#[component]
fn PublicIpConfirm(lb: LoadBalancer, on_close: Callback<()>) -> impl IntoView {
    let client = expect_context::<Client>();
    let route = route::<ClusterRoute>();
    let enable = !lb.public_ip_enabled;
    let name = service_name(&lb.namespace, &lb.service_name);
    let consequence = public_ip_change(
        &lb.namespace,
        &lb.service_name,
        enable,
        lb.public_ip.as_deref(),
        lb.private_ip.as_deref(),
    );
    let (action, title) = if enable {
        ("Turn on public IP", "Turn on public IP")
    } else {
        ("Turn off public IP", "Turn off public IP")
    };
    // Sent once; the tracker follows the operation (the one poller), this shows it.
    let mutation = Mutation::UpdateLoadBalancer {
        cluster_id: route.read_untracked().cluster_id.clone(),
        load_balancer_id: lb.id.clone(),
        body: LoadBalancerUpdate {
            public_ip_enabled: enable,
        },
    };
    let code = Change::one(mutation.clone(), None);
    let submit = Submit::following(
        move |()| {
            let (client, mutation) = (client.clone(), mutation.clone());
            async move { client.apply(&mutation).await }
        },
        None,
    );
    let (rejected, submitted) = (submit.refused, submit.sent);
    let finished = finished(submitted);
    let pending = Signal::derive(move || submit.pending());
    let dialog_label = format!("{title}: {name}");
    view! {
        <Modal label=dialog_label on_close class="dialog lb-confirm" busy=pending sent=Signal::derive(move || submit.is_sent())>
            <h3>{move || match submitted.get() {
                None => format!("{title} of {name}?"),
                Some(_) => format!("{title} of {name}"),
            }}</h3>
            {move || match submitted.get() {
                Some(_) => view! { <SubmissionProgress submitted finished title /> }.into_any(),
                None => view! {
                    <p class=if enable { "danger-zone" } else { "" }>{consequence.clone()}</p>
                    <div class="actions">
                        <button class=if enable { "btn btn-danger" } else { "btn btn-primary" }
                            disabled=pending on:click=move |_| submit.send(())>
                            {move || if pending.get() { "Working…" } else { action }}
                        </button>
                        <button class="btn btn-quiet" autofocus=true disabled=pending on:click=move |_| on_close.run(())>"Cancel"</button>
                    </div>
                    <CodePanel change=Signal::stored(Some(code.clone())) />
                }.into_any(),
            }}
            {move || rejected.get().map(|error| view! { <ErrorView error /> })}
            {move || submitted.get().is_some().then(|| view! {
                <div class="actions">
                    <button class="btn" on:click=move |_| on_close.run(())>"Close"</button>
                </div>
            })}
        </Modal>
    }
}
