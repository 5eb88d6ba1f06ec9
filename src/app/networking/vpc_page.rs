//! One VPC: its fields, its firewall rules (add, edit, delete), and "Delete VPC".

use leptos::prelude::*;

use super::delete_vpc::DeleteVpc;
use super::rule_form::{DeleteRuleConfirm, Editing, RuleDialog};
use super::user_of;
use crate::api::types::{Cluster, FirewallRule, Vpc};
use crate::app::code::{Export, ExportPanel};
use crate::app::components::{tag_list, Column, CopyableId, ErrorView, StatusBadge, Table, Time};
use crate::app::context::{live, page_title, Projects};
use crate::app::paths::params::{route, NetworkingRoute};
use crate::app::paths::to;
use crate::app::paths::A;
use crate::ops::Ops;
use crate::rules::reachability::{format_address, source_words, vips, Cidr};

#[component]
pub fn VpcPage() -> impl IntoView {
    let route = route::<NetworkingRoute>();
    let project_id = move || route.read().project_id.clone();
    let vpc_id = move || route.read().vpc_id.clone().unwrap_or_default();
    let vpc = live(
        move || (project_id(), vpc_id()),
        |client, (project, id)| async move {
            futures_util::future::try_join(client.vpc(&id), client.clusters::<Cluster>(&project))
                .await
        },
    );
    // Read on its own: a failed rules read is shown as what it is, beside a VPC
    // that could be read, never as a VPC without rules.
    let rules = live(vpc_id, |client, id| async move {
        client.firewall_rules(&id).await
    });
    let facts = Memo::new(move |_| {
        vpc.with(|read| match read {
            Some(Ok((v, clusters))) => Some((
                v.id.clone(),
                v.name.clone(),
                v.subnet
                    .as_ref()
                    .map(|s| s.cidr.clone())
                    .unwrap_or_default(),
                user_of(clusters, &v.id).map(|c| (c.id.clone(), c.name.clone())),
            )),
            _ => None,
        })
    });
    let subnet = Signal::derive(move || {
        facts.with(|f| f.as_ref().and_then(|(_, _, cidr, _)| Cidr::read(cidr)))
    });
    let editing = RwSignal::new(None::<Editing>);
    let deleting = RwSignal::new(None::<FirewallRule>);
    let back = move || to::networking(&project_id());
    let projects = expect_context::<Projects>();
    page_title(move || {
        let name = facts.with(|f| f.as_ref().map(|(_, name, _, _)| name.clone()));
        vec![
            name.unwrap_or_default(),
            projects.name(&project_id()).unwrap_or_default(),
        ]
    });
    view! {
        <section class="page">
            <p class="breadcrumb"><A href=back>"← Networking"</A></p>
            <Transition fallback=|| view! { <p class="loading">"Loading VPC…"</p> }>
                {move || vpc.get().map(|read| match read {
                    Err(error) => view! { <ErrorView error retry=move |_| vpc.refetch() /> }.into_any(),
                    Ok((v, clusters)) => view! { <VpcFields vpc=v clusters project=project_id() /> }.into_any(),
                })}
            </Transition>
            <h2>"Firewall rules"</h2>
            <p class="muted">
                "Traffic into the VPC is allowed only where a rule allows it; traffic inside a cluster and ICMP "
                "are always allowed."
            </p>
            <p class="actions">
                <button class="btn" disabled=move || editing.with(Option::is_some)
                    on:click=move |_| { deleting.set(None); editing.set(Some(Editing::New)); }>
                    "Add rule"
                </button>
            </p>
            {move || editing.get().map(|what| view! {
                <RuleDialog what vpc_id=vpc_id() subnet on_close=Callback::new(move |_| editing.set(None)) />
            })}
            {move || deleting.get().map(|rule| view! {
                <DeleteRuleConfirm rule vpc_id=vpc_id() on_close=Callback::new(move |_| deleting.set(None)) />
            })}
            <Transition fallback=|| view! { <p class="loading">"Loading firewall rules…"</p> }>
                {move || rules.get().map(|read| match read {
                    Err(error) => view! { <ErrorView error retry=move |_| rules.refetch() /> }.into_any(),
                    Ok(list) if list.is_empty() => view! {
                        <p class="empty">"This VPC has no firewall rules: no traffic from outside the VPC is let in (ICMP aside)."</p>
                    }.into_any(),
                    Ok(list) => view! { <RuleTable list editing deleting /> }.into_any(),
                })}
            </Transition>
            <h2>"Export to Terraform"</h2>
            <ExportPanel what=Signal::derive(move || Export::Vpc(vpc_id())) />
            {move || facts.get().map(|(vpc_id, vpc_name, _, used_by)| view! {
                <DeleteVpc vpc_id vpc_name used_by project=project_id() now=Signal::derive(move || vpc.get().and_then(Result::ok).map(|(v, _)| nks_code::Resource::Vpc(v))) />
            })}
        </section>
    }
}

#[component]
fn VpcFields(vpc: Vpc, clusters: Vec<Cluster>, project: String) -> impl IntoView {
    let status = vpc.status.as_str().to_string();
    let user = user_of(&clusters, &vpc.id).cloned();
    let (subnet_name, cidr) = vpc
        .subnet
        .as_ref()
        .map(|s| (s.name.clone(), s.cidr.clone()))
        .unwrap_or_default();
    let vip_line = vips(&cidr).map(|v| {
        format!(
            "Kubernetes API VIP {}, shared ingress VIP {} (the platform keeps the top 12 addresses of the subnet).",
            format_address(v.api),
            format_address(v.ingress)
        )
    });
    view! {
        <header class="page-header">
            <h1>{vpc.name.clone()}</h1>
            <StatusBadge status />
        </header>
        <dl class="fields">
            <dt>"Region"</dt>
            <dd>{vpc.region.clone()}</dd>
            <dt>"Subnet"</dt>
            <dd>
                <code>{cidr.clone()}</code>
                {(!subnet_name.is_empty()).then(|| format!(" ({subnet_name})"))}
                {vip_line.map(|line| view! { <p class="muted">{line}</p> })}
            </dd>
            <dt>"Used by"</dt>
            <dd>{match user {
                Some(c) => view! {
                    <A href=to::cluster(&project, &c.id)>{format!("cluster {}", c.name)}</A>
                }.into_any(),
                None => view! { <span class="muted">"no cluster"</span> }.into_any(),
            }}</dd>
            <dt>"Tags"</dt>
            <dd>{tag_list(&vpc.tags)}</dd>
            <dt>"Created"</dt>
            <dd><Time at=vpc.created_at.clone() /></dd>
            <dt>"ID"</dt>
            <dd><CopyableId id=vpc.id.clone() what="VPC ID" /></dd>
        </dl>
    }
}

/// Keyed by the whole rule: a changed rule is drawn again.
#[component]
fn RuleTable(
    list: Vec<FirewallRule>,
    editing: RwSignal<Option<Editing>>,
    deleting: RwSignal<Option<FirewallRule>>,
) -> impl IntoView {
    type Rule = FirewallRule;
    let columns = vec![
        Column::new("Name", |r: &Rule| r.name.clone().into_any()),
        Column::new("Protocol", |r: &Rule| {
            r.protocol.as_str().to_uppercase().into_any()
        }),
        Column::new("Sources", |r: &Rule| {
            source_words(&r.source_address).into_any()
        }),
        Column::new("Destination", |r: &Rule| {
            view! { <code>{r.destination_address.clone()}</code> }.into_any()
        })
        .class("nowrap"),
        Column::new("Ports", |r: &Rule| {
            r.destination_ports.join(", ").into_any()
        }),
        Column::new("Status", |r: &Rule| {
            view! { <StatusBadge status=r.status.as_str().to_string() /> }.into_any()
        }),
        Column::new("Actions", move |r: &Rule| {
            view! { <RuleActions rule=r.clone() editing deleting /> }.into_any()
        })
        .head_hidden(),
    ];
    view! { <Table label="Firewall rules" rows=list columns /> }
}

/// Edit and Delete for one rule; disabled, with the reason, while a change to
/// it is under way.
#[component]
fn RuleActions(
    rule: FirewallRule,
    editing: RwSignal<Option<Editing>>,
    deleting: RwSignal<Option<FirewallRule>>,
) -> impl IntoView {
    let ops = expect_context::<Ops>();
    let reason_id = format!("rule-busy-{}", rule.id);
    let busy_on_server = rule.status.is_busy();
    let id = rule.id.clone();
    let blocked = Memo::new(move |_| {
        if ops.in_flight_on(&id).is_some() {
            Some("A change to it is in flight; wait for it to end.")
        } else if busy_on_server {
            Some("It is changing on the platform; wait for it to end.")
        } else {
            None
        }
    });
    let (to_edit, to_delete) = (rule.clone(), rule.clone());
    let describe = {
        let reason_id = reason_id.clone();
        move || blocked.get().map(|_| reason_id.clone())
    };
    let describe2 = describe.clone();
    view! {
        <span class="nowrap">
            <button class="btn" aria-label=format!("Edit rule {}", rule.name)
                aria-describedby=describe
                disabled=move || blocked.get().is_some()
                on:click=move |_| { deleting.set(None); editing.set(Some(Editing::Rule(to_edit.clone()))); }>
                "Edit"
            </button>
            " "
            <button class="btn btn-quiet" aria-label=format!("Delete rule {}", rule.name)
                aria-describedby=describe2
                disabled=move || blocked.get().is_some()
                on:click=move |_| { editing.set(None); deleting.set(Some(to_delete.clone())); }>
                "Delete"
            </button>
        </span>
        {move || blocked.get().map(|why| view! { <p class="field-hint" id=reason_id.clone()>{why}</p> })}
    }
}
