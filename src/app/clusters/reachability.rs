//! Whether the cluster's Kubernetes API and its shared ingress can be reached,
//! read from its VPC's firewall rules (NKS creates none), and "Allow kubectl
//! from…", which adds the one rule kubectl needs. Loaded on first use
//! (`lazy::reachability`).

use leptos::prelude::*;

use crate::api::client::Client;
use crate::api::types::{Cluster, FirewallRule, Vpc};
use crate::app::code::CodePanel;
use crate::app::components::{
    described_by, finished, ErrorView, Field, Modal, SubmissionProgress, Submit,
};
use crate::app::context::live;
use crate::app::paths::params::{route, ClusterRoute};
use crate::app::paths::to;
use crate::app::paths::A;
use crate::rules::forms::message_for;
use crate::rules::gate::Gate;
use crate::rules::outcome::ApiError;
use crate::rules::reachability::{
    api_vip, format_address, kubectl_rule, verdict, vips, whole_internet_warning, Cidr,
    EXAMPLE_SOURCE,
};
use nks_api::mutation::Mutation;
use nks_code::Change;

/// What the section is read from: the cluster, its VPC and the VPC's rules, read
/// together, so a verdict is never drawn from rules that could not be read.
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    cluster: Cluster,
    vpc: Vpc,
    rules: Vec<FirewallRule>,
}

/// What the "Allow kubectl" form needs; it stays the same across refreshes, so
/// the form (and what is typed in it) is not rebuilt by one.
#[derive(Clone, Debug, PartialEq)]
struct Target {
    cluster_name: String,
    vpc_id: String,
    api_vip: Option<u32>,
}

#[component]
pub fn ReachabilitySection() -> impl IntoView {
    let route = route::<ClusterRoute>();
    // Re-read when an operation ends (a rule added here is counted once it is in
    // force), and every few seconds while visible (rules change elsewhere too).
    let seen = live(
        move || route.read().cluster_id.clone(),
        |client, id| async move {
            let cluster = client.cluster(&id).await?;
            // The VPC and its rules together, once the cluster names the VPC.
            let (vpc, rules) = futures_util::future::try_join(
                client.vpc(&cluster.vpc_id),
                client.firewall_rules(&cluster.vpc_id),
            )
            .await?;
            Ok::<_, ApiError>(Seen {
                cluster,
                vpc,
                rules,
            })
        },
    );
    let target = Memo::new(move |_| {
        seen.with(|read| match read {
            Some(Ok(s)) => Some(Target {
                cluster_name: s.cluster.name.clone(),
                vpc_id: s.vpc.id.clone(),
                api_vip: api_vip(s.cluster.private_ip.as_deref(), &subnet_cidr(&s.vpc)),
            }),
            _ => None,
        })
    });
    view! {
        <Transition fallback=|| view! { <p class="loading">"Loading firewall rules…"</p> }>
            {move || seen.get().map(|read| match read {
                Err(error) => view! { <ErrorView error retry=move |_| seen.refetch() /> }.into_any(),
                Ok(seen) => view! { <Verdicts seen /> }.into_any(),
            })}
        </Transition>
        {move || target.get().map(|target| view! { <AllowKubectl target /> })}
    }
}

fn subnet_cidr(vpc: &Vpc) -> String {
    vpc.subnet
        .as_ref()
        .map(|s| s.cidr.clone())
        .unwrap_or_default()
}

/// The two answers, in words, and where the rules live.
#[component]
fn Verdicts(seen: Seen) -> impl IntoView {
    let cidr = subnet_cidr(&seen.vpc);
    let api = api_vip(seen.cluster.private_ip.as_deref(), &cidr);
    let ingress = vips(&cidr).map(|v| v.ingress);
    let vpc_href = to::vpc(&seen.cluster.project_id, &seen.vpc.id);
    let rules = seen.rules;
    // Each verdict names the address it is about, and what it is.
    let one = move |title: &'static str,
                    what: &'static str,
                    address: Option<u32>,
                    ports: &'static [u16],
                    note: Option<&'static str>| {
        let ports_text = ports
            .iter()
            .map(u16::to_string)
            .collect::<Vec<_>>()
            .join(" and ");
        match address {
            None => view! {
                <div class="reach" role="group" aria-label=title>
                    <h3>{title}</h3>
                    <p class="reach-verdict">
                        {format!("Not known: the VPC subnet ({cidr}) does not show where its address is.", cidr = if cidr.is_empty() { "none given".to_string() } else { cidr.clone() })}
                    </p>
                </div>
            }
            .into_any(),
            Some(address) => {
                let v = verdict(address, ports, &rules);
                let class = if v.reachable {
                    "reach-verdict reach-open"
                } else {
                    "reach-verdict reach-closed"
                };
                view! {
                    <div class="reach" role="group" aria-label=title>
                        <h3>{title}</h3>
                        <p class="muted">{format!("{what}: {}.", format_address(address))} {note.map(|n| format!(" {n}"))}</p>
                        <p class=class>{v.summary}</p>
                        {v.reachable.then(|| view! {
                            <p class="muted">{format!("Checked: TCP {ports_text} to {}.", format_address(address))}</p>
                        })}
                        {v.waiting.into_iter().map(|line| view! { <p class="alert alert-info">{line}</p> }).collect_view()}
                    </div>
                }
                .into_any()
            }
        }
    };
    view! {
        {one("Kubernetes API", "The Kubernetes API VIP", api, &[443], None)}
        {one("Ingress", "The shared ingress VIP", ingress, &[80, 443], Some(
            "It is the first address of the block the platform keeps at the top of the VPC subnet, \
             not a load balancer's: each load balancer below has addresses of its own (private, and \
             public when turned on), which this verdict does not cover."
        ))}
        <p class="muted">
            "NKS creates no firewall rules: what is allowed is what the rules of VPC "
            <A href=vpc_href>{seen.vpc.name}</A>
            " allow. Traffic inside the cluster and ICMP are always allowed."
        </p>
    }
}

/// Where the form is.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Closed,
    Typing,
    /// The whole internet was asked for: nothing is sent until this is confirmed.
    Confirming(Cidr),
}

/// What the reachability actions show: the button, the form, or a create followed.
#[derive(Clone, Copy, PartialEq)]
enum Phase {
    Closed,
    Form,
    Following,
}

/// "Allow kubectl from…": the person types the source range (nothing guessed);
/// `0.0.0.0/0` needs a confirm that names the exposure; the create is followed
/// by the tracker, and the section re-reads when it ends.
#[component]
fn AllowKubectl(target: Target) -> impl IntoView {
    let client = expect_context::<Client>();
    let step = RwSignal::new(Step::Closed);
    let source = RwSignal::new(String::new());
    let api = target.api_vip;
    let vpc_id = StoredValue::new(target.vpc_id.clone());
    // The rule for a source range: what is sent, and what the Code panel writes.
    let rule_for = move |source: Cidr| {
        api.map(|vip| Mutation::CreateFirewallRule {
            vpc_id: vpc_id.get_value(),
            body: kubectl_rule(source, vip),
        })
    };
    // Sent once, then followed in place; Close returns to the button.
    let submit = Submit::following(
        move |source: Cidr| {
            let (client, rule) = (client.clone(), rule_for(source));
            async move {
                match rule {
                    Some(rule) => client.apply(&rule).await,
                    // The button is disabled without an address; never reached.
                    None => Err(ApiError::Cancelled {
                        call: "Create firewall rule".into(),
                    }),
                }
            }
        },
        None,
    );
    let (tried, rejected, submitted) = (submit.touched, submit.refused, submit.sent);
    let finished = finished(submitted);
    let pending = Signal::derive(move || submit.pending());
    let local_error = Memo::new(move |_| {
        if !tried.get() {
            return None;
        }
        Cidr::parse(&source.get()).err()
    });
    let field_error = Signal::derive(move || {
        rejected.with(|r| message_for("source_address", local_error.get(), r.as_ref(), &Gate::Idle))
    });
    let typed = Memo::new(move |_| Cidr::parse(&source.get()));
    let code = Signal::derive(move || {
        let rule = typed.get().ok().and_then(rule_for);
        rule.map(|rule| Change::one(rule, None))
    });
    let problems = Signal::derive(move || typed.get().err().into_iter().collect::<Vec<_>>());
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        tried.set(true);
        if let Ok(cidr) = Cidr::parse(&source.get_untracked()) {
            rejected.set(None);
            if cidr.is_everywhere() {
                step.set(Step::Confirming(cidr));
            } else {
                submit.send(cidr);
            }
        }
    };
    let close = move || {
        step.set(Step::Closed);
        submitted.set(None);
        rejected.set(None);
        tried.set(false);
        source.set(String::new());
    };
    let no_address = api.is_none();
    let cluster_name = StoredValue::new(target.cluster_name.clone());
    // The form stays drawn under the whole-internet confirm, so Back or Escape
    // returns to it as it was, with the focus on its button.
    let phase = Memo::new(
        move |_| match (step.get(), submitted.with(Option::is_some)) {
            (_, true) => Phase::Following,
            (Step::Closed, false) => Phase::Closed,
            _ => Phase::Form,
        },
    );
    let confirming = Memo::new(move |_| match step.get() {
        Step::Confirming(cidr) if submitted.with(Option::is_none) => Some(cidr),
        _ => None,
    });
    view! {
        <div class="reach-actions">
            {move || match phase.get() {
                Phase::Following => view! {
                    <div class="card">
                        <SubmissionProgress submitted finished title="Allow kubectl" />
                        <div class="actions">
                            <button class="btn" on:click=move |_| close()>"Close"</button>
                        </div>
                    </div>
                }.into_any(),
                Phase::Closed => view! {
                    <button class="btn" disabled=no_address
                        aria-describedby=no_address.then_some("kubectl-no-address")
                        on:click=move |_| step.set(Step::Typing)>
                        "Allow kubectl from…"
                    </button>
                    {no_address.then(|| view! {
                        <p class="field-hint" id="kubectl-no-address">
                            "The Kubernetes API's address is not known yet, so no rule can name it."
                        </p>
                    })}
                }.into_any(),
                Phase::Form => view! {
                    <form class="form card" aria-label="Allow kubectl" on:submit=on_submit novalidate=true>
                        <Field id="kubectl-source" label="Allow kubectl from (source range)"
                            hint=format!("The addresses kubectl connects from, in CIDR form such as {EXAMPLE_SOURCE}; one address is /32. The rule allows TCP 443 from there to the Kubernetes API.")
                            error=field_error>
                            <input id="kubectl-source" aria-describedby=described_by("kubectl-source")
                                autocomplete="off" spellcheck="false"
                                placeholder=format!("e.g. {EXAMPLE_SOURCE}")
                                prop:value=source on:input=move |ev| source.set(event_target_value(&ev)) />
                        </Field>
                        {move || rejected.get().filter(|e| e.field() != Some("source_address")).map(|error| view! { <ErrorView error /> })}
                        <div class="form-actions">
                            <button class="btn btn-primary" type="submit" disabled=pending>
                                {move || if pending.get() { "Working…" } else { "Allow kubectl" }}
                            </button>
                            <button class="btn btn-quiet" type="button" on:click=move |_| close()>"Cancel"</button>
                        </div>
                        <CodePanel change=code problems />
                    </form>
                }.into_any(),
            }}
            {move || confirming.get().map(|cidr| {
                let warning = api
                    .map(|vip| cluster_name.with_value(|name| whole_internet_warning(name, vip)))
                    .unwrap_or_default();
                let label = cluster_name.with_value(|name| format!("Expose the Kubernetes API of {name} to the whole internet?"));
                let heading = label.clone();
                view! {
                    <Modal label class="dialog" busy=pending on_close=Callback::new(move |_| step.set(Step::Typing))>
                        <h3>{heading}</h3>
                        <p class="danger-zone">{warning}</p>
                        {move || rejected.get().map(|error| view! { <ErrorView error /> })}
                        <div class="actions">
                            <button class="btn btn-danger" disabled=pending on:click=move |_| submit.send(cidr)>
                                {move || if pending.get() { "Working…" } else { "Allow from the whole internet" }}
                            </button>
                            <button class="btn btn-quiet" autofocus=true disabled=pending on:click=move |_| step.set(Step::Typing)>"Back"</button>
                        </div>
                    </Modal>
                }
            })}
        </div>
    }
}
