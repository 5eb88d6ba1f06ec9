//! TypeScript, with `@nirvana-labs/nirvana`: an ES module that sends each
//! request through the SDK and follows its operation to the end.

use nks_api::mutation::{Mutation, Verb};

use crate::quote::{string, strings};
use crate::{from_earlier, made, Change};

/// A TypeScript object literal's members, one per line at `indent` spaces.
fn object(members: &[(&str, String)], indent: usize) -> String {
    let pad = " ".repeat(indent + 2);
    let mut out = String::from("{\n");
    for (key, value) in members {
        out.push_str(&format!("{pad}{key}: {value},\n"));
    }
    out.push_str(&" ".repeat(indent));
    out.push('}');
    out
}

fn list(values: &[String]) -> String {
    format!("[{}]", strings(values))
}

fn id(value: &str, earlier: Option<&str>) -> String {
    match earlier {
        Some(var) if value.is_empty() => var.to_string(),
        _ => string(value),
    }
}

fn camel(var: &str) -> &'static str {
    match var {
        "vpc_id" => "vpcId",
        "cluster_id" => "clusterId",
        "pool_id" => "poolId",
        "node_id" => "nodeId",
        "rule_id" => "ruleId",
        _ => "loadBalancerId",
    }
}

/// `client.<method>(<arguments>)`.
fn call(m: &Mutation, earlier: Option<&str>) -> String {
    let s = |v: &str| string(v);
    match m {
        Mutation::CreateCluster(b) => {
            let mut members = vec![
                ("name", s(&b.name)),
                ("project_id", s(&b.project_id)),
                ("region", s(&b.region)),
                ("vpc_id", id(&b.vpc_id, earlier)),
                ("kubernetes_version", s(&b.kubernetes_version)),
                ("autoscaling", b.autoscaling.to_string()),
            ];
            if !b.tags.is_empty() {
                members.push(("tags", list(&b.tags)));
            }
            format!("nks.clusters.create({})", object(&members, 0))
        }
        Mutation::UpdateCluster { cluster_id, body } => {
            let mut members = vec![];
            if let Some(n) = &body.name {
                members.push(("name", s(n)));
            }
            if let Some(a) = body.autoscaling {
                members.push(("autoscaling", a.to_string()));
            }
            if let Some(t) = &body.tags {
                members.push(("tags", list(t)));
            }
            format!(
                "nks.clusters.update({}, {})",
                s(cluster_id),
                object(&members, 0)
            )
        }
        Mutation::DeleteCluster { cluster_id } => format!("nks.clusters.delete({})", s(cluster_id)),
        Mutation::CreatePool { cluster_id, body } => {
            let c = &body.node_config;
            let boot = object(
                &[
                    ("size", c.boot_volume.size.to_string()),
                    ("type", s(c.boot_volume.volume_type.as_str())),
                ],
                4,
            );
            let config = object(
                &[
                    ("instance_type", s(&c.instance_type)),
                    ("boot_volume", boot),
                    ("labels", list(&c.labels)),
                    ("taints", list(&c.taints)),
                ],
                2,
            );
            let mut members = vec![
                ("name", s(&body.name)),
                ("node_count", body.node_count.to_string()),
                ("node_config", config),
            ];
            if !body.tags.is_empty() {
                members.push(("tags", list(&body.tags)));
            }
            format!(
                "nks.clusters.pools.create({}, {})",
                id(cluster_id, earlier),
                object(&members, 0)
            )
        }
        Mutation::UpdatePool {
            cluster_id,
            pool_id,
            body,
        } => {
            let mut members = vec![("cluster_id", s(cluster_id))];
            if let Some(n) = &body.name {
                members.push(("name", s(n)));
            }
            if let Some(n) = body.node_count {
                members.push(("node_count", n.to_string()));
            }
            if let Some(t) = &body.tags {
                members.push(("tags", list(t)));
            }
            format!(
                "nks.clusters.pools.update({}, {})",
                s(pool_id),
                object(&members, 0)
            )
        }
        Mutation::DeletePool {
            cluster_id,
            pool_id,
        } => format!(
            "nks.clusters.pools.delete({}, {})",
            s(pool_id),
            object(&[("cluster_id", s(cluster_id))], 0)
        ),
        Mutation::DeleteNode {
            cluster_id,
            pool_id,
            node_id,
        } => format!(
            "nks.clusters.pools.nodes.delete({}, {})",
            s(node_id),
            object(&[("cluster_id", s(cluster_id)), ("pool_id", s(pool_id))], 0)
        ),
        Mutation::UpdateLoadBalancer {
            cluster_id,
            load_balancer_id,
            body,
        } => format!(
            "nks.clusters.loadBalancers.update({}, {})",
            s(load_balancer_id),
            object(
                &[
                    ("cluster_id", s(cluster_id)),
                    ("public_ip_enabled", body.public_ip_enabled.to_string()),
                ],
                0
            )
        ),
        Mutation::CreateVpc(b) => {
            let mut members = vec![
                ("name", s(&b.name)),
                ("project_id", s(&b.project_id)),
                ("region", s(&b.region)),
                ("subnet_name", s(&b.subnet_name)),
            ];
            if !b.tags.is_empty() {
                members.push(("tags", list(&b.tags)));
            }
            format!("networking.vpcs.create({})", object(&members, 0))
        }
        Mutation::DeleteVpc { vpc_id } => format!("networking.vpcs.delete({})", s(vpc_id)),
        Mutation::CreateFirewallRule { vpc_id, body } => {
            let mut members = vec![
                ("name", s(&body.name)),
                ("protocol", s(body.protocol.as_str())),
                ("source_address", s(&body.source_address)),
                ("destination_address", s(&body.destination_address)),
                ("destination_ports", list(&body.destination_ports)),
            ];
            if !body.tags.is_empty() {
                members.push(("tags", list(&body.tags)));
            }
            format!(
                "networking.firewallRules.create({}, {})",
                s(vpc_id),
                object(&members, 0)
            )
        }
        Mutation::UpdateFirewallRule {
            vpc_id,
            rule_id,
            body,
        } => {
            let mut members = vec![("vpc_id", s(vpc_id))];
            if let Some(v) = &body.name {
                members.push(("name", s(v)));
            }
            if let Some(v) = &body.protocol {
                members.push(("protocol", s(v.as_str())));
            }
            if let Some(v) = &body.source_address {
                members.push(("source_address", s(v)));
            }
            if let Some(v) = &body.destination_address {
                members.push(("destination_address", s(v)));
            }
            if let Some(v) = &body.destination_ports {
                members.push(("destination_ports", list(v)));
            }
            if let Some(v) = &body.tags {
                members.push(("tags", list(v)));
            }
            format!(
                "networking.firewallRules.update({}, {})",
                s(rule_id),
                object(&members, 0)
            )
        }
        Mutation::DeleteFirewallRule { vpc_id, rule_id } => format!(
            "networking.firewallRules.delete({}, {})",
            s(rule_id),
            object(&[("vpc_id", s(vpc_id))], 0)
        ),
    }
}

pub fn write(change: &Change, base_url: &str) -> String {
    let mut out = format!(
        "import NirvanaLabs from '@nirvana-labs/nirvana';\n\n\
         // The key is read from NIRVANA_LABS_API_KEY, the API from NIRVANA_LABS_BASE_URL.\n\
         const client = new NirvanaLabs({{\n  baseURL: process.env['NIRVANA_LABS_BASE_URL'] || {},\n}});\n\n{WAIT}",
        string(base_url)
    );
    for (index, step) in change.steps.iter().enumerate() {
        let m = &step.mutation;
        let (what, var) = made(m);
        let earlier = from_earlier(&change.steps, index).map(|(_, v)| camel(v));
        let op = format!("op{}", index + 1);
        let var = camel(var);
        let done = match m.verb() {
            Verb::Post => "made",
            Verb::Patch => "changed",
            Verb::Delete => "deleted",
        };
        out.push_str(&format!(
            "\n// {}.\nconst {op} = await client.{};\nconst {var} = await waitFor({op}.id);\nconsole.log('{what} {done}:', {var});\n",
            m.call(),
            call(m, earlier)
        ));
    }
    out
}

const WAIT: &str = "// Follows an operation until it is done or failed (pending, running and\n\
// unknown are not terminal) and returns the id of the resource it changed.\n\
async function waitFor(id: string): Promise<string> {\n\
\x20 for (;;) {\n\
\x20   const op = await client.operations.get(id);\n\
\x20   if (op.status === 'done') return op.resource_id;\n\
\x20   if (op.status === 'failed') throw new Error(`operation ${id} failed`);\n\
\x20   await new Promise((resolve) => setTimeout(resolve, 5000));\n\
\x20 }\n\
}\n";
