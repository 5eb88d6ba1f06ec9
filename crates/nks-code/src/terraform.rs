//! Terraform, provider `nirvana-labs/nirvana`: a create is its resource block, an
//! edit the block with the new values (and whether the provider updates it in
//! place or replaces it), a delete the block to remove. Written as
//! `terraform fmt` writes it.

use std::collections::HashSet;

use nks_api::mutation::Mutation;
use nks_api::types::{ClusterCreate, FirewallRuleCreate, NodeConfig, PoolCreate, VpcCreate};

use crate::quote::{comment, hcl, hcl_list, ident};
use crate::{Change, Resource};

/// An attribute's value: one line, or an object over several.
pub(crate) enum Value {
    Line(String),
    Object(Vec<(&'static str, Value)>),
}

fn text(value: &str) -> Value {
    Value::Line(hcl(value))
}

fn texts(values: &[String]) -> Value {
    Value::Line(hcl_list(values))
}

/// Attributes at `depth` (two spaces each): a run of one-line attributes is
/// aligned on `=`; an object stands alone.
fn write_body(out: &mut String, attributes: &[(&'static str, Value)], depth: usize) {
    let pad = "  ".repeat(depth);
    let mut index = 0;
    while index < attributes.len() {
        let end = (index..attributes.len())
            .find(|&i| matches!(attributes[i].1, Value::Object(_)))
            .unwrap_or(attributes.len());
        if end == index {
            let (key, value) = &attributes[index];
            if let Value::Object(members) = value {
                out.push_str(&format!("{pad}{key} = {{\n"));
                write_body(out, members, depth + 1);
                out.push_str(&format!("{pad}}}\n"));
            }
            index += 1;
            continue;
        }
        let width = attributes[index..end]
            .iter()
            .map(|(k, _)| k.len())
            .max()
            .unwrap_or(0);
        for (key, value) in &attributes[index..end] {
            if let Value::Line(line) = value {
                out.push_str(&format!(
                    "{pad}{key}{} = {line}\n",
                    " ".repeat(width - key.len())
                ));
            }
        }
        index = end;
    }
}

/// A resource block.
pub(crate) struct Block {
    pub kind: &'static str,
    pub name: String,
    pub attributes: Vec<(&'static str, Value)>,
    /// Arguments Terraform leaves as they are, with the one line that says why
    /// (a `lifecycle { ignore_changes = [...] }` at the block's end).
    pub ignored: Option<(&'static [&'static str], &'static str)>,
}

impl Block {
    pub fn address(&self) -> String {
        format!("{}.{}", self.kind, self.name)
    }

    pub fn write(&self) -> String {
        let mut out = format!("resource \"{}\" \"{}\" {{\n", self.kind, self.name);
        write_body(&mut out, &self.attributes, 1);
        if let Some((arguments, why)) = self.ignored {
            out.push_str(&format!(
                "\n  # {why}\n  lifecycle {{\n    ignore_changes = [{}]\n  }}\n",
                arguments.join(", ")
            ));
        }
        out.push_str("}\n");
        out
    }
}

/// Resource names, each a valid identifier and unique in its file.
#[derive(Default)]
pub(crate) struct Names(HashSet<String>);

impl Names {
    pub fn name(&mut self, kind: &'static str, name: &str, word: &str) -> String {
        let base = ident(name, word);
        let mut candidate = base.clone();
        let mut n = 2;
        while !self.0.insert(format!("{kind}.{candidate}")) {
            candidate = format!("{base}_{n}");
            n += 1;
        }
        candidate
    }
}

/// An id written as a reference to a block of the same file, or as its text.
pub(crate) enum Id {
    Text(String),
    Of(String),
}

impl Id {
    fn value(&self) -> Value {
        match self {
            Id::Text(id) => text(id),
            Id::Of(address) => Value::Line(format!("{address}.id")),
        }
    }
}

pub(crate) fn cluster(names: &mut Names, b: &ClusterCreate, vpc: Id) -> Block {
    let kind = "nirvana_nks_cluster";
    let mut attributes = vec![
        ("autoscaling", Value::Line(b.autoscaling.to_string())),
        ("kubernetes_version", text(&b.kubernetes_version)),
        ("name", text(&b.name)),
        ("project_id", text(&b.project_id)),
        ("region", text(&b.region)),
        ("vpc_id", vpc.value()),
    ];
    if !b.tags.is_empty() {
        attributes.push(("tags", texts(&b.tags)));
    }
    Block {
        kind,
        name: names.name(kind, &b.name, "cluster"),
        attributes,
        ignored: None,
    }
}

fn node_config(c: &NodeConfig) -> Value {
    Value::Object(vec![
        ("instance_type", text(&c.instance_type)),
        (
            "boot_volume",
            Value::Object(vec![
                ("size", Value::Line(c.boot_volume.size.to_string())),
                ("type", text(c.boot_volume.volume_type.as_str())),
            ]),
        ),
        ("labels", texts(&c.labels)),
        ("taints", texts(&c.taints)),
    ])
}

pub(crate) fn pool(names: &mut Names, b: &PoolCreate, cluster: Id) -> Block {
    let kind = "nirvana_nks_node_pool";
    let mut attributes = vec![
        ("cluster_id", cluster.value()),
        ("name", text(&b.name)),
        ("node_count", Value::Line(b.node_count.to_string())),
        ("node_config", node_config(&b.node_config)),
    ];
    if !b.tags.is_empty() {
        attributes.push(("tags", texts(&b.tags)));
    }
    Block {
        kind,
        name: names.name(kind, &b.name, "pool"),
        attributes,
        ignored: None,
    }
}

pub(crate) fn vpc(names: &mut Names, b: &VpcCreate) -> Block {
    let kind = "nirvana_networking_vpc";
    let mut attributes = vec![
        ("name", text(&b.name)),
        ("project_id", text(&b.project_id)),
        ("region", text(&b.region)),
        ("subnet_name", text(&b.subnet_name)),
    ];
    if !b.tags.is_empty() {
        attributes.push(("tags", texts(&b.tags)));
    }
    Block {
        kind,
        name: names.name(kind, &b.name, "vpc"),
        attributes,
        ignored: None,
    }
}

pub(crate) fn rule(names: &mut Names, b: &FirewallRuleCreate, vpc: Id) -> Block {
    let kind = "nirvana_networking_firewall_rule";
    let mut attributes = vec![
        ("vpc_id", vpc.value()),
        ("name", text(&b.name)),
        ("protocol", text(b.protocol.as_str())),
        ("source_address", text(&b.source_address)),
        ("destination_address", text(&b.destination_address)),
        ("destination_ports", texts(&b.destination_ports)),
    ];
    if !b.tags.is_empty() {
        attributes.push(("tags", texts(&b.tags)));
    }
    Block {
        kind,
        name: names.name(kind, &b.name, "rule"),
        attributes,
        ignored: None,
    }
}

/// The arguments the provider replaces the resource for when they change
/// (its RequiresReplace list).
pub fn replaced_when_changed(kind: &str) -> &'static [&'static str] {
    match kind {
        "nirvana_nks_cluster" => &["kubernetes_version", "project_id", "region", "vpc_id"],
        "nirvana_nks_node_pool" => &["cluster_id", "node_config"],
        _ => &[],
    }
}

/// A resource as read, as the body that would create it (Terraform's block
/// writes the whole resource, not the change).
pub(crate) fn block_of(names: &mut Names, resource: &Resource) -> Block {
    match resource {
        Resource::Cluster(c) => cluster(
            names,
            &ClusterCreate {
                name: c.name.clone(),
                project_id: c.project_id.clone(),
                region: c.region.clone(),
                vpc_id: c.vpc_id.clone(),
                kubernetes_version: c.kubernetes_version.clone(),
                autoscaling: c.autoscaling,
                tags: c.tags.clone(),
            },
            Id::Text(c.vpc_id.clone()),
        ),
        Resource::Pool(p) => pool(
            names,
            &PoolCreate {
                name: p.name.clone(),
                node_count: p.node_count,
                node_config: p.node_config.clone(),
                tags: p.tags.clone(),
            },
            Id::Text(p.cluster_id.clone()),
        ),
        Resource::Vpc(v) => vpc(
            names,
            &VpcCreate {
                name: v.name.clone(),
                project_id: v.project_id.clone(),
                region: v.region.clone(),
                subnet_name: v
                    .subnet
                    .as_ref()
                    .map(|s| s.name.clone())
                    .unwrap_or_default(),
                tags: v.tags.clone(),
            },
        ),
        Resource::FirewallRule(r) => rule(
            names,
            &FirewallRuleCreate {
                name: r.name.clone(),
                protocol: r.protocol.clone(),
                source_address: r.source_address.clone(),
                destination_address: r.destination_address.clone(),
                destination_ports: r.destination_ports.clone(),
                tags: r.tags.clone(),
            },
            Id::Text(r.vpc_id.clone()),
        ),
    }
}

/// The resource after an edit: as it is now, with the PATCH's fields applied.
/// `None` when the step is no edit or what it edits was not read.
fn edited(mutation: &Mutation, now: Option<&Resource>) -> Option<(Resource, Vec<&'static str>)> {
    let mut changed = vec![];
    let mut set = |field: &'static str, apply: bool| {
        if apply {
            changed.push(field)
        }
    };
    let resource = match (mutation, now?.clone()) {
        (Mutation::UpdateCluster { body, .. }, Resource::Cluster(mut c)) => {
            set("name", body.name.is_some());
            set("autoscaling", body.autoscaling.is_some());
            set("tags", body.tags.is_some());
            c.name = body.name.clone().unwrap_or(c.name);
            c.autoscaling = body.autoscaling.unwrap_or(c.autoscaling);
            c.tags = body.tags.clone().unwrap_or(c.tags);
            Resource::Cluster(c)
        }
        (Mutation::UpdatePool { body, .. }, Resource::Pool(mut p)) => {
            set("name", body.name.is_some());
            set("node_count", body.node_count.is_some());
            set("tags", body.tags.is_some());
            p.name = body.name.clone().unwrap_or(p.name);
            p.node_count = body.node_count.unwrap_or(p.node_count);
            p.tags = body.tags.clone().unwrap_or(p.tags);
            Resource::Pool(p)
        }
        (Mutation::UpdateFirewallRule { body, .. }, Resource::FirewallRule(mut r)) => {
            set("name", body.name.is_some());
            set("protocol", body.protocol.is_some());
            set("source_address", body.source_address.is_some());
            set("destination_address", body.destination_address.is_some());
            set("destination_ports", body.destination_ports.is_some());
            set("tags", body.tags.is_some());
            r.name = body.name.clone().unwrap_or(r.name);
            r.protocol = body.protocol.clone().unwrap_or(r.protocol);
            r.source_address = body.source_address.clone().unwrap_or(r.source_address);
            r.destination_address = body
                .destination_address
                .clone()
                .unwrap_or(r.destination_address);
            r.destination_ports = body
                .destination_ports
                .clone()
                .unwrap_or(r.destination_ports);
            r.tags = body.tags.clone().unwrap_or(r.tags);
            Resource::FirewallRule(r)
        }
        _ => return None,
    };
    Some((resource, changed))
}

pub fn write(change: &Change) -> String {
    let mut names = Names::default();
    let mut out = String::new();
    let mut made: Vec<(&'static str, String)> = vec![];
    for step in &change.steps {
        if !out.is_empty() {
            out.push('\n');
        }
        let earlier = |kind: &str| {
            made.iter()
                .rev()
                .find(|(k, _)| *k == kind)
                .map(|(_, a)| a.clone())
        };
        let block = match &step.mutation {
            Mutation::CreateCluster(b) => Some(cluster(
                &mut names,
                b,
                match earlier("nirvana_networking_vpc") {
                    Some(address) if b.vpc_id.is_empty() => Id::Of(address),
                    _ => Id::Text(b.vpc_id.clone()),
                },
            )),
            Mutation::CreatePool { cluster_id, body } => Some(pool(
                &mut names,
                body,
                match earlier("nirvana_nks_cluster") {
                    Some(address) if cluster_id.is_empty() => Id::Of(address),
                    _ => Id::Text(cluster_id.clone()),
                },
            )),
            Mutation::CreateVpc(b) => Some(vpc(&mut names, b)),
            Mutation::CreateFirewallRule { vpc_id, body } => {
                Some(rule(&mut names, body, Id::Text(vpc_id.clone())))
            }
            _ => None,
        };
        if let Some(block) = block {
            made.push((block.kind, block.address()));
            out.push_str(&block.write());
            continue;
        }
        out.push_str(&changed(&mut names, step));
    }
    out
}

/// An edit or a delete, or a change Terraform does not hold.
fn changed(names: &mut Names, step: &crate::Step) -> String {
    let m = &step.mutation;
    match m {
        Mutation::DeleteNode { .. } => {
            return "# A node is not a Terraform resource: the provider sets a pool's node_count,\n\
                    # and which node goes is the platform's choice. Delete this node with cURL, Go\n\
                    # or TypeScript, or lower node_count and let the platform choose.\n"
                .into()
        }
        Mutation::UpdateLoadBalancer { .. } => {
            return "# A load balancer is not a Terraform resource: Kubernetes makes it for a Service.\n\
                    # Turn its public IP on or off with cURL, Go or TypeScript.\n"
                .into()
        }
        _ => {}
    }
    if let Some((resource, fields)) = edited(m, step.now.as_ref()) {
        let block = block_of(names, &resource);
        let mut note = format!(
            "# Terraform updates {} in place: {}.\n",
            block.address(),
            fields.join(", ")
        );
        let replaced = replaced_when_changed(block.kind);
        if !replaced.is_empty() {
            note.push_str(&format!(
                "# A change to {} would replace it instead (destroyed, then made again);\n\
                 # for a pool, make the new one first, drain the old one, then delete it.\n",
                replaced.join(" or ")
            ));
        }
        return note + &block.write();
    }
    let deleted = matches!(
        m,
        Mutation::DeleteCluster { .. }
            | Mutation::DeletePool { .. }
            | Mutation::DeleteVpc { .. }
            | Mutation::DeleteFirewallRule { .. }
    );
    match (deleted, step.now.as_ref()) {
        (true, Some(resource)) => {
            let block = block_of(names, resource);
            let mut out = format!(
                "# To delete it with Terraform, remove this block from your configuration and run\n\
                 # `terraform apply`: the provider deletes {}.\n",
                block.address()
            );
            for line in block.write().lines() {
                out.push_str(&format!("# {line}\n"));
            }
            out
        }
        _ => format!(
            "# {}: the resource as it is now was not read, so its block cannot be written.\n",
            comment(m.call())
        ),
    }
}
