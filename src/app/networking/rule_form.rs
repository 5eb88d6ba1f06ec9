//! Adding or editing a firewall rule, and deleting one: each sent once, then
//! followed by the tracker in place; the rules table re-reads when it ends.

use leptos::prelude::*;

use crate::api::client::Client;
use crate::api::types::FirewallRule;
use crate::app::code::CodePanel;
use crate::app::components::{
    described_by, finished, ErrorView, Field, Modal, SubmissionProgress, Submit,
};
use crate::rules::firewall::{rule_mutation, RuleForm};
use crate::rules::forms::{message_for, problems};
use crate::rules::gate::Gate;
use crate::rules::reachability::{source_words, Cidr, EXAMPLE_SOURCE};
use nks_api::mutation::Mutation;
use nks_code::{Change, Resource};

/// The rule being added or edited, kept outside the table so a refresh of the
/// rules does not close the form or lose what is typed.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Editing {
    New,
    Rule(FirewallRule),
}

#[component]
pub(super) fn RuleDialog(
    what: Editing,
    vpc_id: String,
    #[prop(into)] subnet: Signal<Option<Cidr>>,
    on_close: Callback<()>,
) -> impl IntoView {
    let client = expect_context::<Client>();
    let current = match &what {
        Editing::New => None,
        Editing::Rule(rule) => Some(rule.clone()),
    };
    let start = current.as_ref().map(RuleForm::of).unwrap_or(RuleForm {
        protocol: "tcp".into(),
        ..RuleForm::default()
    });
    let name = RwSignal::new(start.name);
    let protocol = RwSignal::new(start.protocol);
    let source = RwSignal::new(start.source_address);
    let destination = RwSignal::new(start.destination_address);
    let ports = RwSignal::new(start.destination_ports);
    let is_edit = current.is_some();
    let dialog_label = match &current {
        Some(rule) => format!("Edit rule {}", rule.name),
        None => "Add firewall rule".to_string(),
    };
    let title = if is_edit {
        "Edit firewall rule"
    } else {
        "Add firewall rule"
    };
    // What is sent, and what the Code panel writes: one value.
    let body = {
        let current = current.clone();
        Memo::new(move |_| {
            let form = RuleForm {
                name: name.get(),
                protocol: protocol.get(),
                source_address: source.get(),
                destination_address: destination.get(),
                destination_ports: ports.get(),
            };
            rule_mutation(current.as_ref(), &vpc_id, &form, subnet.get())
        })
    };
    let unchanged = move || {
        body.with(|b| matches!(b, Ok(Mutation::UpdateFirewallRule { body, .. }) if body.is_empty()))
    };
    let code = Signal::derive(move || {
        let now = current.clone().map(Resource::FirewallRule);
        body.get()
            .ok()
            .filter(|_| !unchanged())
            .map(|m| Change::one(m, now))
    });
    // Sent once, followed in place; the dialog closes once the change is done.
    let submit = Submit::following(
        move |mutation: Mutation| {
            let client = client.clone();
            async move { client.apply(&mutation).await }
        },
        Some(on_close),
    );
    let (tried, rejected, submitted) = (submit.touched, submit.refused, submit.sent);
    let message = move |field: &'static str| {
        let local = if tried.get() {
            body.with(|b| b.as_ref().err().and_then(|e| e.get(field).cloned()))
        } else {
            None
        };
        rejected.with(|r| message_for(field, local, r.as_ref(), &Gate::Idle))
    };
    let finished = finished(submitted);
    let on_submit = submit.on_submit(move || body.get_untracked().ok(), unchanged);
    let pending = Signal::derive(move || submit.pending());
    let everywhere = move || Cidr::parse(&source.get()).is_ok_and(Cidr::is_everywhere);
    let destination_hint = move || match subnet.get() {
        Some(s) => {
            format!("Inside the VPC subnet {s}: the whole subnet, or one address in it as /32.")
        }
        None => "Inside the VPC subnet: the whole subnet, or one address in it as /32.".into(),
    };
    view! {
        <Modal label=dialog_label on_close busy=pending sent=Signal::derive(move || submit.is_sent())>
            <Show when=move || !submit.is_sent() fallback=move || view! {
                <SubmissionProgress submitted finished title />
                <div class="actions">
                    <button class="btn" on:click=move |_| on_close.run(())>"Close"</button>
                </div>
            }>
                <form class="form" aria-label=title on:submit=on_submit novalidate=true>
                    <h3>{title}</h3>
                    {move || rejected.get().filter(|e| e.field().is_none()).map(|error| view! { <ErrorView error /> })}
                    <Field id="rule-name" label="Name" error=Signal::derive(move || message("name"))>
                        <input id="rule-name" aria-describedby=described_by("rule-name") autocomplete="off"
                            prop:value=name on:input=move |ev| name.set(event_target_value(&ev)) />
                    </Field>
                    <Field id="rule-protocol" label="Protocol" error=Signal::derive(move || message("protocol"))>
                        <select id="rule-protocol" aria-describedby=described_by("rule-protocol")
                            prop:value=protocol on:change=move |ev| protocol.set(event_target_value(&ev))>
                            <option value="tcp">"TCP"</option>
                            <option value="udp">"UDP"</option>
                        </select>
                    </Field>
                    <Field id="rule-source" label="Source (CIDR)"
                        hint=Signal::derive(move || if everywhere() {
                            "0.0.0.0/0 is the whole internet: any address may connect on these ports.".to_string()
                        } else {
                            "Where traffic may come from; one address is /32.".to_string()
                        })
                        error=Signal::derive(move || message("source_address"))>
                        <input id="rule-source" aria-describedby=described_by("rule-source") autocomplete="off"
                            spellcheck="false" placeholder=format!("e.g. {EXAMPLE_SOURCE}")
                            prop:value=source on:input=move |ev| source.set(event_target_value(&ev)) />
                    </Field>
                    <Field id="rule-destination" label="Destination (CIDR)" hint=Signal::derive(destination_hint)
                        error=Signal::derive(move || message("destination_address"))>
                        <input id="rule-destination" aria-describedby=described_by("rule-destination") autocomplete="off"
                            spellcheck="false" placeholder=move || subnet.get().map(|s| format!("e.g. {s}")).unwrap_or_default()
                            prop:value=destination on:input=move |ev| destination.set(event_target_value(&ev)) />
                    </Field>
                    <Field id="rule-ports" label="Destination ports" hint="Comma-separated ports or ranges, such as 80, 443 or 8000-8080."
                        error=Signal::derive(move || message("destination_ports"))>
                        <input id="rule-ports" aria-describedby=described_by("rule-ports") autocomplete="off"
                            prop:value=ports on:input=move |ev| ports.set(event_target_value(&ev)) />
                    </Field>
                    <div class="form-actions">
                        <button class="btn btn-primary" type="submit" disabled=pending>
                            {move || match (pending.get(), is_edit) {
                                (true, _) => "Saving…",
                                (false, true) => "Save rule",
                                (false, false) => "Add rule",
                            }}
                        </button>
                        <button class="btn btn-quiet" type="button" disabled=pending on:click=move |_| on_close.run(())>"Cancel"</button>
                        {move || unchanged().then(|| view! { <span class="muted">"Nothing changed yet."</span> })}
                    </div>
                    <CodePanel change=code problems=Signal::derive(move || problems(&body.get())) />
                </form>
            </Show>
        </Modal>
    }
}

/// Says what stops being allowed before anything is sent.
#[component]
pub(super) fn DeleteRuleConfirm(
    rule: FirewallRule,
    vpc_id: String,
    on_close: Callback<()>,
) -> impl IntoView {
    let client = expect_context::<Client>();
    let consequence = format!(
        "Traffic this rule allows stops being let in, unless another rule allows it: {} {} from {} to {}.",
        rule.protocol.as_str().to_uppercase(),
        rule.destination_ports.join(", "),
        source_words(&rule.source_address),
        rule.destination_address
    );
    let label = format!("Delete rule {}", rule.name);
    let mutation = Mutation::DeleteFirewallRule {
        vpc_id,
        rule_id: rule.id.clone(),
    };
    let code = Change::one(mutation.clone(), Some(Resource::FirewallRule(rule.clone())));
    let submit = Submit::following(
        move |()| {
            let (client, mutation) = (client.clone(), mutation.clone());
            async move { client.apply(&mutation).await }
        },
        Some(on_close),
    );
    let (rejected, submitted) = (submit.refused, submit.sent);
    let finished = finished(submitted);
    let pending = Signal::derive(move || submit.pending());
    let heading = format!("{label}?");
    view! {
        <Modal label class="dialog" on_close busy=pending sent=Signal::derive(move || submit.is_sent())>
            <h3>{heading}</h3>
            {move || match submitted.get() {
                Some(_) => view! { <SubmissionProgress submitted finished title="Delete firewall rule" /> }.into_any(),
                None => view! {
                    <p class="danger-zone">{consequence.clone()}</p>
                    <div class="actions">
                        <button class="btn btn-danger" disabled=pending on:click=move |_| submit.send(())>
                            {move || if pending.get() { "Working…" } else { "Delete rule" }}
                        </button>
                        <button class="btn btn-quiet" autofocus=true disabled=pending on:click=move |_| on_close.run(())>"Cancel"</button>
                    </div>
                    <CodePanel change=Signal::stored(Some(code.clone())) />
                }.into_any(),
            }}
            {move || rejected.get().map(|error| view! { <ErrorView error /> })}
        </Modal>
    }
}
