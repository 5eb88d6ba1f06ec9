//! Go, with nirvana-go (v1.94.2): one program that sends each request through
//! the SDK and follows its operation as the guide's `WaitForOperation` does.
//! Written as gofmt writes it, so `gofmt -l` has nothing to say.

use nks_api::mutation::{Mutation, Verb};
use nks_api::types::{Protocol, VolumeType};

use crate::quote::{string, strings};
use crate::{from_earlier, made, Change};

/// A Go value: written on one line, or a composite literal over several.
enum Value {
    Line(String),
    Struct(&'static str, Vec<(&'static str, Value)>),
}

fn line(text: impl Into<String>) -> Value {
    Value::Line(text.into())
}

fn list(values: &[String]) -> Value {
    line(format!("[]string{{{}}}", strings(values)))
}

/// A composite literal at `depth` tabs: a run of one-line fields is aligned on
/// its values (gofmt's columns); a field over several lines stands alone.
fn write_value(out: &mut String, value: &Value, depth: usize) {
    match value {
        Value::Line(text) => out.push_str(text),
        Value::Struct(ty, fields) => {
            out.push_str(ty);
            out.push_str("{\n");
            let tabs = "\t".repeat(depth + 1);
            let mut index = 0;
            while index < fields.len() {
                let run_end = (index..fields.len())
                    .find(|&i| matches!(fields[i].1, Value::Struct(..)))
                    .unwrap_or(fields.len());
                if run_end == index {
                    let (key, value) = &fields[index];
                    out.push_str(&format!("{tabs}{key}: "));
                    write_value(out, value, depth + 1);
                    out.push_str(",\n");
                    index += 1;
                    continue;
                }
                let width = fields[index..run_end]
                    .iter()
                    .map(|(k, _)| k.len())
                    .max()
                    .unwrap_or(0);
                for (key, value) in &fields[index..run_end] {
                    out.push_str(&format!("{tabs}{key}:{} ", " ".repeat(width - key.len())));
                    write_value(out, value, depth + 1);
                    out.push_str(",\n");
                }
                index = run_end;
            }
            out.push_str(&"\t".repeat(depth));
            out.push('}');
        }
    }
}

fn region(name: &str) -> Value {
    match name {
        "us-sva-2" => line("shared.RegionNameUsSva2"),
        other => line(format!("shared.RegionName({})", string(other))),
    }
}

fn volume_type(kind: &VolumeType) -> Value {
    match kind.as_str() {
        "abs" => line("compute.VolumeTypeABS"),
        "nvme" => line("compute.VolumeTypeNvme"),
        other => line(format!("compute.VolumeType({})", string(other))),
    }
}

fn protocol(kind: &Protocol, params: &str) -> Value {
    match kind.as_str() {
        "tcp" => line(format!("networking.{params}ProtocolTcp")),
        "udp" => line(format!("networking.{params}ProtocolUdp")),
        other => line(format!("networking.{params}Protocol({})", string(other))),
    }
}

/// An id: the earlier step's variable when it comes from there, else the text.
fn id(value: &str, earlier: Option<&str>) -> String {
    match earlier {
        Some(var) if value.is_empty() => var.to_string(),
        _ => string(value),
    }
}

fn camel(var: &str) -> String {
    match var {
        "vpc_id" => "vpcID".into(),
        "cluster_id" => "clusterID".into(),
        "pool_id" => "poolID".into(),
        "node_id" => "nodeID".into(),
        "rule_id" => "ruleID".into(),
        _ => "loadBalancerID".into(),
    }
}

/// The call and its arguments, and the packages they use.
fn call(
    m: &Mutation,
    earlier: Option<&str>,
    uses: &mut Vec<&'static str>,
) -> (String, Vec<String>, Option<Value>) {
    let s = |v: &str| string(v);
    match m {
        Mutation::CreateCluster(b) => {
            uses.extend(["nks", "shared"]);
            let mut fields = vec![
                ("Autoscaling", line(b.autoscaling.to_string())),
                ("KubernetesVersion", line(s(&b.kubernetes_version))),
                ("Name", line(s(&b.name))),
                ("ProjectID", line(s(&b.project_id))),
                ("Region", region(&b.region)),
                ("VPCID", line(id(&b.vpc_id, earlier))),
            ];
            if !b.tags.is_empty() {
                fields.push(("Tags", list(&b.tags)));
            }
            (
                "NKS.Clusters.New".into(),
                vec![],
                Some(Value::Struct("nks.ClusterNewParams", fields)),
            )
        }
        Mutation::UpdateCluster { cluster_id, body } => {
            uses.push("nks");
            let mut fields = vec![];
            if let Some(a) = body.autoscaling {
                fields.push(("Autoscaling", line(format!("nirvana.Bool({a})"))));
            }
            if let Some(n) = &body.name {
                fields.push(("Name", line(format!("nirvana.String({})", s(n)))));
            }
            if let Some(t) = &body.tags {
                fields.push(("Tags", list(t)));
            }
            (
                "NKS.Clusters.Update".into(),
                vec![s(cluster_id)],
                Some(Value::Struct("nks.ClusterUpdateParams", fields)),
            )
        }
        Mutation::DeleteCluster { cluster_id } => {
            ("NKS.Clusters.Delete".into(), vec![s(cluster_id)], None)
        }
        Mutation::CreatePool { cluster_id, body } => {
            uses.extend(["nks", "compute"]);
            let config = &body.node_config;
            let mut node_config = vec![
                ("InstanceType", line(s(&config.instance_type))),
                (
                    "BootVolume",
                    Value::Struct(
                        "nks.NKSNodePoolBootVolumeParam",
                        vec![
                            ("Size", line(config.boot_volume.size.to_string())),
                            ("Type", volume_type(&config.boot_volume.volume_type)),
                        ],
                    ),
                ),
            ];
            node_config.push(("Labels", list(&config.labels)));
            node_config.push(("Taints", list(&config.taints)));
            let mut fields = vec![
                ("Name", line(s(&body.name))),
                (
                    "NodeCount",
                    line(format!("nirvana.Int({})", body.node_count)),
                ),
                (
                    "NodeConfig",
                    Value::Struct("nks.NKSNodePoolNodeConfigParam", node_config),
                ),
            ];
            if !body.tags.is_empty() {
                fields.push(("Tags", list(&body.tags)));
            }
            (
                "NKS.Clusters.Pools.New".into(),
                vec![id(cluster_id, earlier)],
                Some(Value::Struct("nks.ClusterPoolNewParams", fields)),
            )
        }
        Mutation::UpdatePool {
            cluster_id,
            pool_id,
            body,
        } => {
            uses.push("nks");
            let mut fields = vec![];
            if let Some(n) = &body.name {
                fields.push(("Name", line(format!("nirvana.String({})", s(n)))));
            }
            if let Some(n) = body.node_count {
                fields.push(("NodeCount", line(format!("nirvana.Int({n})"))));
            }
            if let Some(t) = &body.tags {
                fields.push(("Tags", list(t)));
            }
            (
                "NKS.Clusters.Pools.Update".into(),
                vec![s(cluster_id), s(pool_id)],
                Some(Value::Struct("nks.ClusterPoolUpdateParams", fields)),
            )
        }
        Mutation::DeletePool {
            cluster_id,
            pool_id,
        } => (
            "NKS.Clusters.Pools.Delete".into(),
            vec![s(cluster_id), s(pool_id)],
            None,
        ),
        Mutation::DeleteNode {
            cluster_id,
            pool_id,
            node_id,
        } => (
            "NKS.Clusters.Pools.Nodes.Delete".into(),
            vec![s(cluster_id), s(pool_id), s(node_id)],
            None,
        ),
        Mutation::UpdateLoadBalancer {
            cluster_id,
            load_balancer_id,
            body,
        } => {
            uses.push("nks");
            (
                "NKS.Clusters.LoadBalancers.Update".into(),
                vec![s(cluster_id), s(load_balancer_id)],
                Some(Value::Struct(
                    "nks.ClusterLoadBalancerUpdateParams",
                    vec![("PublicIPEnabled", line(body.public_ip_enabled.to_string()))],
                )),
            )
        }
        Mutation::CreateVpc(b) => {
            uses.extend(["networking", "shared"]);
            let mut fields = vec![
                ("Name", line(s(&b.name))),
                ("ProjectID", line(s(&b.project_id))),
                ("Region", region(&b.region)),
                ("SubnetName", line(s(&b.subnet_name))),
            ];
            if !b.tags.is_empty() {
                fields.push(("Tags", list(&b.tags)));
            }
            (
                "Networking.VPCs.New".into(),
                vec![],
                Some(Value::Struct("networking.VPCNewParams", fields)),
            )
        }
        Mutation::DeleteVpc { vpc_id } => ("Networking.VPCs.Delete".into(), vec![s(vpc_id)], None),
        Mutation::CreateFirewallRule { vpc_id, body } => {
            uses.push("networking");
            let mut fields = vec![
                ("DestinationAddress", line(s(&body.destination_address))),
                ("DestinationPorts", list(&body.destination_ports)),
                ("Name", line(s(&body.name))),
                (
                    "Protocol",
                    protocol(&body.protocol, "FirewallRuleNewParams"),
                ),
                ("SourceAddress", line(s(&body.source_address))),
            ];
            if !body.tags.is_empty() {
                fields.push(("Tags", list(&body.tags)));
            }
            (
                "Networking.FirewallRules.New".into(),
                vec![s(vpc_id)],
                Some(Value::Struct("networking.FirewallRuleNewParams", fields)),
            )
        }
        Mutation::UpdateFirewallRule {
            vpc_id,
            rule_id,
            body,
        } => {
            uses.push("networking");
            let mut fields = vec![];
            if let Some(v) = &body.destination_address {
                fields.push((
                    "DestinationAddress",
                    line(format!("nirvana.String({})", s(v))),
                ));
            }
            if let Some(v) = &body.destination_ports {
                fields.push(("DestinationPorts", list(v)));
            }
            if let Some(v) = &body.name {
                fields.push(("Name", line(format!("nirvana.String({})", s(v)))));
            }
            if let Some(v) = &body.protocol {
                fields.push(("Protocol", protocol(v, "FirewallRuleUpdateParams")));
            }
            if let Some(v) = &body.source_address {
                fields.push(("SourceAddress", line(format!("nirvana.String({})", s(v)))));
            }
            if let Some(v) = &body.tags {
                fields.push(("Tags", list(v)));
            }
            (
                "Networking.FirewallRules.Update".into(),
                vec![s(vpc_id), s(rule_id)],
                Some(Value::Struct("networking.FirewallRuleUpdateParams", fields)),
            )
        }
        Mutation::DeleteFirewallRule { vpc_id, rule_id } => (
            "Networking.FirewallRules.Delete".into(),
            vec![s(vpc_id), s(rule_id)],
            None,
        ),
    }
}

pub fn write(change: &Change, base_url: &str) -> String {
    let mut uses: Vec<&'static str> = vec![];
    let mut body = String::new();
    for (index, step) in change.steps.iter().enumerate() {
        let m = &step.mutation;
        let (what, var) = made(m);
        let earlier = from_earlier(&change.steps, index).map(|(_, v)| camel(v));
        let (method, args, params) = call(m, earlier.as_deref(), &mut uses);
        let assign = if index == 0 { ":=" } else { "=" };
        body.push_str(&format!("\n\t// {}.\n", m.call()));
        body.push_str(&format!("\top, err {assign} client.{method}(ctx"));
        for arg in &args {
            body.push_str(", ");
            body.push_str(arg);
        }
        if let Some(params) = &params {
            body.push_str(", ");
            write_value(&mut body, params, 1);
        }
        body.push_str(")\n");
        body.push_str(&format!(
            "\tif err != nil {{\n\t\tlog.Fatalf(\"{}: %v\", err)\n\t}}\n",
            m.call().to_lowercase()
        ));
        let var = camel(var);
        let done = match m.verb() {
            Verb::Post => "made",
            Verb::Patch => "changed",
            Verb::Delete => "deleted",
        };
        body.push_str(&format!(
            "\t{var}, err := waitFor(ctx, client, op.ID)\n\tif err != nil {{\n\t\tlog.Fatal(err)\n\t}}\n\tfmt.Println(\"{what} {done}:\", {var})\n"
        ));
    }
    let mut imports = vec![
        "",
        "compute",
        "networking",
        "nks",
        "operations",
        "option",
        "shared",
    ];
    imports.retain(|p| p.is_empty() || ["operations", "option"].contains(p) || uses.contains(p));
    let sdk: String = imports
        .iter()
        .map(|p| match *p {
            "" => "\t\"github.com/nirvana-labs/nirvana-go\"\n".to_string(),
            p => format!("\t\"github.com/nirvana-labs/nirvana-go/{p}\"\n"),
        })
        .collect();
    format!(
        "package main\n\nimport (\n\t\"context\"\n\t\"fmt\"\n\t\"log\"\n\t\"os\"\n\t\"time\"\n\n{sdk})\n\n\
         // The key is read from NIRVANA_LABS_API_KEY, the API from NIRVANA_LABS_BASE_URL.\n\
         func main() {{\n\tctx := context.Background()\n\tbaseURL := os.Getenv(\"NIRVANA_LABS_BASE_URL\")\n\
         \tif baseURL == \"\" {{\n\t\tbaseURL = {}\n\t}}\n\tclient := nirvana.NewClient(option.WithBaseURL(baseURL))\n{body}}}\n\n{WAIT}",
        string(base_url)
    )
}

const WAIT: &str =
    "// waitFor follows an operation until it is done or failed (pending, running and\n\
// unknown are not terminal) and returns the id of the resource it changed.\n\
func waitFor(ctx context.Context, client nirvana.Client, id string) (string, error) {\n\
\tticker := time.NewTicker(5 * time.Second)\n\
\tdefer ticker.Stop()\n\
\tfor {\n\
\t\top, err := client.Operations.Get(ctx, id)\n\
\t\tif err != nil {\n\
\t\t\treturn \"\", fmt.Errorf(\"polling operation %s: %w\", id, err)\n\
\t\t}\n\
\t\tswitch op.Status {\n\
\t\tcase operations.OperationStatusDone:\n\
\t\t\treturn op.ResourceID, nil\n\
\t\tcase operations.OperationStatusFailed:\n\
\t\t\treturn \"\", fmt.Errorf(\"operation %s failed\", id)\n\
\t\t}\n\
\t\tselect {\n\
\t\tcase <-ctx.Done():\n\
\t\t\treturn \"\", ctx.Err()\n\
\t\tcase <-ticker.C:\n\
\t\t}\n\
\t}\n\
}\n";
