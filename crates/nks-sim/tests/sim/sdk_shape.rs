//! Every kind of answer the simulator gives, held to Nirvana's own TypeScript SDK
//! (1.98.1, `shared/sdk/typescript`, unmodified): each answer is written as an
//! object literal typed with the SDK's type for it and type-checked in strict
//! mode (`tools/ts-check.mjs`). A field the SDK does not know (TypeScript's
//! excess property check), a required field left out, a `null` where the SDK
//! has none, or an enum value outside the SDK's fails it. A difference the
//! project keeps on purpose is listed in `docs/sdk-differences.md` and marked
//! `@ts-expect-error` on its line here, so that it fails too the day it goes.

use std::path::{Path, PathBuf};
use std::process::Command;

use reqwest::Method;
use serde_json::{json, Value};

use crate::common::start;

/// The SDK's module for each type used below.
const IMPORTS: &[(&str, &str)] = &[
    ("Pagination, CostQuote", "resources/shared"),
    ("User", "resources/user/user"),
    ("Project", "resources/projects/projects"),
    ("Region", "resources/regions/regions"),
    ("InstanceType", "resources/instance-types/instance-types"),
    ("Quota", "resources/quotas/quotas"),
    ("KubernetesVersion", "resources/nks/kubernetes-versions"),
    ("NKSCluster", "resources/nks/clusters/clusters"),
    ("Kubeconfig", "resources/nks/clusters/kubeconfig"),
    ("NKSNodePool", "resources/nks/clusters/pools/pools"),
    ("NKSNode", "resources/nks/clusters/pools/nodes/nodes"),
    (
        "NKSNodeVolume",
        "resources/nks/clusters/pools/nodes/volumes",
    ),
    (
        "NKSController",
        "resources/nks/clusters/controllers/controllers",
    ),
    (
        "NKSControllerVolume",
        "resources/nks/clusters/controllers/volumes",
    ),
    ("NKSLoadBalancer", "resources/nks/clusters/load-balancers"),
    (
        "PersistentVolumeClaim",
        "resources/nks/clusters/persistent-volume-claims",
    ),
    ("VPC", "resources/networking/vpcs/vpcs"),
    ("FirewallRule", "resources/networking/firewall-rules"),
    ("Operation", "resources/operations/operations"),
];

/// Differences kept on purpose (`docs/sdk-differences.md`): a line of an answer
/// that holds `what` gets `@ts-expect-error` with `why`.
const KEPT: &[(&str, &str)] = &[(
    "\"kind\": \"nks_node\"",
    "a node delete's operation kind, which the SDKs' response enum lacks (UNCONFIRMED)",
)];

fn shared() -> PathBuf {
    std::env::var_os("NKS_SHARED").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
        PathBuf::from,
    )
}

struct Answers {
    lines: Vec<String>,
    count: usize,
}

impl Answers {
    /// `value`, as the SDK's `ty`, one property a line.
    fn typed(&mut self, ty: &str, what: &str, value: &Value) {
        self.count += 1;
        self.lines.push(format!("// {what}"));
        let text = serde_json::to_string_pretty(value).unwrap();
        let mut body = vec![];
        for line in text.lines() {
            if let Some((_, why)) = KEPT.iter().find(|(held, _)| line.contains(held)) {
                body.push(format!("// @ts-expect-error {why}"));
            }
            body.push(line.to_string());
        }
        self.lines.push(format!(
            "export const a{}: {ty} = {};",
            self.count,
            body.join("\n")
        ));
    }

    /// A list answer: its items as `ty`, its envelope as the SDK's cursor page.
    fn page(&mut self, ty: &str, what: &str, value: &Value) {
        assert!(
            value["items"].as_array().is_some_and(|i| !i.is_empty()),
            "{what}: an empty list checks nothing: {value}"
        );
        self.typed(
            &format!("{{ items: {ty}[]; pagination: Pagination }}"),
            what,
            value,
        );
    }
}

#[tokio::test]
async fn every_kind_of_answer_is_the_typescript_sdks_type() {
    let t = start().await;
    let d = t.demo().await;
    let mut a = Answers {
        lines: vec![],
        count: 0,
    };
    let first_id = |list: &Value| list["items"][0]["id"].as_str().unwrap().to_string();

    a.typed("User", "GET /v1/user", &t.ok("/v1/user").await);
    let projects = t.ok("/v1/projects").await;
    a.page("Project", "GET /v1/projects", &projects);
    a.typed(
        "Project",
        "GET /v1/projects/{id}",
        &t.ok(&format!("/v1/projects/{}", d.production)).await,
    );
    a.page("Region", "GET /v1/regions", &t.ok("/v1/regions").await);
    a.page(
        "InstanceType",
        "GET /v1/instance_types",
        &t.ok("/v1/instance_types").await,
    );
    a.page("Quota", "GET /v1/quotas", &t.ok("/v1/quotas").await);
    let versions = t.ok("/v1/nks/kubernetes_versions").await;
    a.page(
        "KubernetesVersion",
        "GET /v1/nks/kubernetes_versions",
        &versions,
    );

    let cluster = format!("/v1/nks/clusters/{}", d.cluster);
    a.page(
        "NKSCluster",
        "GET /v1/nks/clusters",
        &t.ok(&format!("/v1/nks/clusters?project_id={}", d.production))
            .await,
    );
    a.typed(
        "NKSCluster",
        "GET /v1/nks/clusters/{id}",
        &t.ok(&cluster).await,
    );
    a.typed(
        "Kubeconfig",
        "GET …/kubeconfig",
        &t.ok(&format!("{cluster}/kubeconfig")).await,
    );
    a.page(
        "NKSNodePool",
        "GET …/pools",
        &t.ok(&format!("{cluster}/pools")).await,
    );
    let pool = format!("{cluster}/pools/{}", d.baseline);
    a.typed("NKSNodePool", "GET …/pools/{id}", &t.ok(&pool).await);
    a.page(
        "NKSNodeVolume",
        "GET …/pools/{id}/volumes",
        &t.ok(&format!("{pool}/volumes")).await,
    );
    let nodes = t.ok(&format!("{pool}/nodes")).await;
    a.page("NKSNode", "GET …/nodes", &nodes);
    let node = format!("{pool}/nodes/{}", first_id(&nodes));
    a.typed("NKSNode", "GET …/nodes/{id}", &t.ok(&node).await);
    a.page(
        "NKSNodeVolume",
        "GET …/nodes/{id}/volumes",
        &t.ok(&format!("{node}/volumes")).await,
    );
    let controllers = t.ok(&format!("{cluster}/controllers")).await;
    a.page("NKSController", "GET …/controllers", &controllers);
    let controller = format!("{cluster}/controllers/{}", first_id(&controllers));
    a.typed(
        "NKSController",
        "GET …/controllers/{id}",
        &t.ok(&controller).await,
    );
    a.page(
        "NKSControllerVolume",
        "GET …/controllers/{id}/volumes",
        &t.ok(&format!("{controller}/volumes")).await,
    );
    let lbs = t.ok(&format!("{cluster}/load_balancers")).await;
    a.page("NKSLoadBalancer", "GET …/load_balancers", &lbs);
    let pvcs = t.ok(&format!("{cluster}/persistent_volume_claims")).await;
    a.page(
        "PersistentVolumeClaim",
        "GET …/persistent_volume_claims",
        &pvcs,
    );

    let vpcs = t
        .ok(&format!("/v1/networking/vpcs?project_id={}", d.production))
        .await;
    a.page("VPC", "GET /v1/networking/vpcs", &vpcs);
    let vpc = format!("/v1/networking/vpcs/{}", d.prod_vpc);
    let vpc_answer = t.ok(&vpc).await;
    a.typed("VPC", "GET /v1/networking/vpcs/{id}", &vpc_answer);
    // A rule of its own, so the list has one.
    let rule = json!({"name": "https", "protocol": "tcp", "source_address": "0.0.0.0/0",
        "destination_address": vpc_answer["subnet"]["cidr"], "destination_ports": ["443", "8000-8080"]});
    let (status, op) = t.post(&format!("{vpc}/firewall_rules"), rule).await;
    assert_eq!(status, 202, "{op}");
    t.wait_op(op["id"].as_str().unwrap()).await;
    let rules = t.ok(&format!("{vpc}/firewall_rules")).await;
    a.page("FirewallRule", "GET …/firewall_rules", &rules);
    a.typed(
        "FirewallRule",
        "GET …/firewall_rules/{id}",
        &t.ok(&format!("{vpc}/firewall_rules/{}", first_id(&rules)))
            .await,
    );

    // A change answers with its operation; read again once done, with its changes.
    let (status, op) = t
        .call(
            Method::PATCH,
            &pool,
            Some(json!({"node_count": 4, "tags": ["a"]})),
        )
        .await;
    assert_eq!(status, 202, "{op}");
    a.typed("Operation", "PATCH …/pools/{id}", &op);
    let id = op["id"].as_str().unwrap();
    let (ended, _) = t.wait_op(id).await;
    a.typed("Operation", "GET /v1/operations/{id}, done", &ended);
    let ops = t
        .ok(&format!("/v1/operations?project_id={}", d.production))
        .await;
    a.page("Operation", "GET /v1/operations", &ops);
    let (status, quote) = t
        .call(
            Method::POST,
            &format!("{cluster}/pools/cost"),
            Some(json!({"name": "priced", "node_count": 2,
                "node_config": {"instance_type": "n1-standard-4", "boot_volume": {"size": 64, "type": "abs"}}})),
        )
        .await;
    assert_eq!(status, 200, "{quote}");
    a.typed("CostQuote", "POST …/pools/cost", &quote);

    let dir = std::env::temp_dir().join(format!("nks-sdk-shape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut file: Vec<String> = IMPORTS
        .iter()
        .map(|(names, module)| {
            format!("import type {{ {names} }} from '@nirvana-labs/nirvana/{module}';")
        })
        .collect();
    file.push(String::new());
    file.extend(a.lines);
    let path = dir.join("answers.ts");
    std::fs::write(&path, file.join("\n") + "\n").unwrap();

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/ts-check.mjs");
    let out = Command::new("node")
        .arg(script)
        .arg(&path)
        .env("NKS_SHARED", shared())
        .output()
        .expect("node runs (scripts/install-tools.sh)");
    assert!(
        out.status.success(),
        "the simulator's answers are not the TypeScript SDK's types ({}):\n{}{}",
        path.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
