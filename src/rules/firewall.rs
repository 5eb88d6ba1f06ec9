//! The firewall-rule form: what a person typed, checked field by field against
//! the API's rules (keyed by the API's field names, so a server refusal lands
//! beside the same field), and turned into a create body or a PATCH body that
//! carries only what changed.
//!
//! Every field of a rule can change (the SDK's update body has them all), so the
//! edit form locks nothing.

use super::forms::FieldErrors;
use super::reachability::{ports, Cidr};
use super::validation as v;
use crate::api::types::{FirewallRule, FirewallRuleCreate, FirewallRuleUpdate, Protocol};
use nks_api::mutation::Mutation;

/// The rule form as typed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleForm {
    pub name: String,
    /// `tcp` or `udp`.
    pub protocol: String,
    pub source_address: String,
    pub destination_address: String,
    /// Comma-separated ports and ranges.
    pub destination_ports: String,
}

impl RuleForm {
    /// The form filled with a rule as it is, for editing.
    pub fn of(rule: &FirewallRule) -> RuleForm {
        RuleForm {
            name: rule.name.clone(),
            protocol: rule.protocol.as_str().to_string(),
            source_address: rule.source_address.clone(),
            destination_address: rule.destination_address.clone(),
            destination_ports: rule.destination_ports.join(", "),
        }
    }
}

fn protocol(raw: &str) -> Result<Protocol, String> {
    match raw {
        "tcp" => Ok(Protocol::Tcp),
        "udp" => Ok(Protocol::Udp),
        _ => Err("Choose TCP or UDP.".into()),
    }
}

/// The destination must lie inside the VPC subnet ("either VPC CIDR or VM in VPC").
fn destination(raw: &str, subnet: Option<Cidr>) -> Result<Cidr, String> {
    let d = Cidr::parse(raw)?;
    match subnet {
        Some(s) if !s.covers(d) => Err(format!(
            "Must lie inside the VPC subnet {s}: the whole subnet, or one address in it as /32."
        )),
        _ => Ok(d),
    }
}

/// The checked values of the form, or every field's problem.
struct Checked {
    name: String,
    protocol: Protocol,
    source: String,
    destination: String,
    ports: Vec<String>,
}

fn check(form: &RuleForm, subnet: Option<Cidr>) -> Result<Checked, FieldErrors> {
    let mut errors = FieldErrors::new();
    let mut keep = |field: &'static str, r: Result<String, String>| {
        r.map_err(|e| errors.insert(field, e)).ok()
    };
    let name = keep("name", v::name(&form.name));
    let source = keep(
        "source_address",
        Cidr::parse(&form.source_address).map(|c| c.to_string()),
    );
    let destination = keep(
        "destination_address",
        destination(&form.destination_address, subnet).map(|c| c.to_string()),
    );
    let protocol = protocol(&form.protocol)
        .map_err(|e| errors.insert("protocol", e))
        .ok();
    let ports = ports(&form.destination_ports)
        .map_err(|e| errors.insert("destination_ports", e))
        .ok();
    match (name, protocol, source, destination, ports) {
        (Some(name), Some(protocol), Some(source), Some(destination), Some(ports))
            if errors.is_empty() =>
        {
            Ok(Checked {
                name,
                protocol,
                source,
                destination,
                ports,
            })
        }
        _ => Err(errors),
    }
}

/// The create body, or what is wrong with each field.
pub fn rule_create(
    form: &RuleForm,
    subnet: Option<Cidr>,
) -> Result<FirewallRuleCreate, FieldErrors> {
    let c = check(form, subnet)?;
    Ok(FirewallRuleCreate {
        name: c.name,
        protocol: c.protocol,
        source_address: c.source,
        destination_address: c.destination,
        destination_ports: c.ports,
        tags: Vec::new(),
    })
}

/// The PATCH body: only the fields that differ from `current`.
pub fn rule_update(
    current: &FirewallRule,
    form: &RuleForm,
    subnet: Option<Cidr>,
) -> Result<FirewallRuleUpdate, FieldErrors> {
    let c = check(form, subnet)?;
    Ok(FirewallRuleUpdate {
        name: (c.name != current.name).then_some(c.name),
        protocol: (c.protocol != current.protocol).then_some(c.protocol),
        source_address: (c.source != current.source_address).then_some(c.source),
        destination_address: (c.destination != current.destination_address)
            .then_some(c.destination),
        destination_ports: (c.ports != current.destination_ports).then_some(c.ports),
        tags: None,
    })
}

/// What Save sends for `form` in VPC `vpc_id`: a new rule, or the changes to
/// `current` (the one value the Code panel writes too).
pub fn rule_mutation(
    current: Option<&FirewallRule>,
    vpc_id: &str,
    form: &RuleForm,
    subnet: Option<Cidr>,
) -> Result<Mutation, FieldErrors> {
    let vpc_id = vpc_id.to_string();
    match current {
        None => rule_create(form, subnet).map(|body| Mutation::CreateFirewallRule { vpc_id, body }),
        Some(rule) => rule_update(rule, form, subnet).map(|body| Mutation::UpdateFirewallRule {
            vpc_id,
            rule_id: rule.id.clone(),
            body,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_is_a_patch_of_that_rule_in_that_vpc() {
        let current = FirewallRule {
            id: "r1".into(),
            name: "web".into(),
            protocol: Protocol::Tcp,
            source_address: "203.0.113.0/24".into(),
            destination_address: "10.20.0.243/32".into(),
            destination_ports: vec!["80".into()],
            ..Default::default()
        };
        let m = rule_mutation(Some(&current), "v1", &form(), subnet()).expect("valid");
        assert_eq!(m.path(), "/v1/networking/vpcs/v1/firewall_rules/r1");
        assert_eq!(
            m.body().as_deref(),
            Some(r#"{"destination_ports":["80","443"]}"#)
        );
        let new = rule_mutation(None, "v1", &form(), subnet()).expect("valid");
        assert_eq!(new.path(), "/v1/networking/vpcs/v1/firewall_rules");
    }

    fn subnet() -> Option<Cidr> {
        Cidr::parse("10.20.0.0/24").ok()
    }

    fn form() -> RuleForm {
        RuleForm {
            name: "web".into(),
            protocol: "tcp".into(),
            source_address: "203.0.113.0/24".into(),
            destination_address: "10.20.0.243/32".into(),
            destination_ports: "80, 443".into(),
        }
    }

    #[test]
    fn a_good_form_makes_the_create_body() {
        let body = rule_create(&form(), subnet()).expect("valid");
        assert_eq!(body.destination_ports, vec!["80", "443"]);
        assert_eq!(body.protocol, Protocol::Tcp);
    }

    #[test]
    fn each_bad_field_gets_its_own_message() {
        let bad = RuleForm {
            name: " ".into(),
            protocol: "icmp".into(),
            source_address: "203.0.113.7/24".into(),
            destination_address: "10.30.0.0/24".into(),
            destination_ports: "http".into(),
        };
        let errors = rule_create(&bad, subnet()).unwrap_err();
        let fields: Vec<&str> = errors.keys().copied().collect();
        assert_eq!(
            fields,
            [
                "destination_address",
                "destination_ports",
                "name",
                "protocol",
                "source_address"
            ]
        );
        assert!(errors["destination_address"].contains("10.20.0.0/24"));
    }

    #[test]
    fn an_edit_sends_only_what_changed() {
        let current = FirewallRule {
            name: "web".into(),
            protocol: Protocol::Tcp,
            source_address: "203.0.113.0/24".into(),
            destination_address: "10.20.0.243/32".into(),
            destination_ports: vec!["80".into(), "443".into()],
            ..FirewallRule::default()
        };
        assert!(rule_update(&current, &RuleForm::of(&current), subnet())
            .expect("valid")
            .is_empty());
        let mut changed = RuleForm::of(&current);
        changed.destination_ports = "443".into();
        let body = rule_update(&current, &changed, subnet()).expect("valid");
        assert_eq!(
            serde_json::to_string(&body).expect("json"),
            r#"{"destination_ports":["443"]}"#
        );
    }
}
