//! The Terraform, read back by a real HCL parser (hcl-rs) and held to the
//! provider's schema as `../shared/api/AS_CODE.md` gives it: every resource's
//! required arguments present, none it does not know, no read-only attribute,
//! import ids in the provider's shape, references to blocks of the same file,
//! and every value, hostile names included, read back as it was.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use hcl::eval::{Context, Evaluate};
use hcl::{Block, Body};
use nks_code::{export, write, Format};

/// resource type → (required arguments, optional arguments, import id's parts).
fn schema() -> BTreeMap<&'static str, (Vec<&'static str>, Vec<&'static str>, usize)> {
    BTreeMap::from([
        (
            "nirvana_nks_cluster",
            (
                vec![
                    "autoscaling",
                    "kubernetes_version",
                    "name",
                    "project_id",
                    "region",
                    "vpc_id",
                ],
                vec!["tags"],
                1,
            ),
        ),
        (
            "nirvana_nks_node_pool",
            (
                vec!["cluster_id", "name", "node_config"],
                vec!["node_count", "tags"],
                2,
            ),
        ),
        (
            "nirvana_networking_vpc",
            (
                vec!["name", "project_id", "region", "subnet_name"],
                vec!["tags"],
                1,
            ),
        ),
        (
            "nirvana_networking_firewall_rule",
            (
                vec![
                    "vpc_id",
                    "name",
                    "protocol",
                    "source_address",
                    "destination_address",
                    "destination_ports",
                ],
                vec!["tags"],
                2,
            ),
        ),
    ])
}

const READ_ONLY: [&str; 9] = [
    "id",
    "status",
    "created_at",
    "updated_at",
    "private_ip",
    "public_ip",
    "pool_ids",
    "subnet",
    "firewall_rule_ids",
];

fn resources(body: &Body) -> Vec<&Block> {
    body.blocks()
        .filter(|b| b.identifier() == "resource")
        .collect()
}

fn label(block: &Block, index: usize) -> String {
    block.labels()[index].as_str().to_string()
}

/// A string attribute's value as Terraform reads it (escapes and `$${` undone).
fn string(block: &Block, key: &str) -> Option<String> {
    let attr = block.body().attributes().find(|a| a.key() == key)?;
    match attr.expr().evaluate(&Context::new()).ok()? {
        hcl::Value::String(s) => Some(s),
        _ => None,
    }
}

/// Checks each resource block against the schema; returns "type.name" of each.
fn check(body: &Body, what: &str) -> BTreeSet<String> {
    let schema = schema();
    let mut addresses = BTreeSet::new();
    for block in resources(body) {
        let kind = label(block, 0);
        let name = label(block, 1);
        let (required, optional, _) = schema
            .get(kind.as_str())
            .unwrap_or_else(|| panic!("{what}: unknown {kind}"));
        let keys: BTreeSet<String> = block
            .body()
            .attributes()
            .map(|a| a.key().to_string())
            .collect();
        for r in required {
            assert!(keys.contains(*r), "{what}: {kind}.{name} lacks {r}");
        }
        for k in &keys {
            assert!(
                required.contains(&k.as_str()) || optional.contains(&k.as_str()),
                "{what}: {kind} has no {k}"
            );
            assert!(
                !READ_ONLY.contains(&k.as_str()),
                "{what}: {kind}.{k} is read-only"
            );
        }
        // Nested blocks are attributes here, but for Terraform's own `lifecycle`,
        // whose `ignore_changes` names arguments of the resource.
        for nested in block.body().blocks() {
            assert_eq!(
                nested.identifier(),
                "lifecycle",
                "{what}: {kind}.{name}: nested blocks are attributes here"
            );
            for attr in nested.body().attributes() {
                assert_eq!(attr.key(), "ignore_changes", "{what}: {kind}.{name}");
                let hcl::Expression::Array(items) = attr.expr() else {
                    panic!("{what}: {kind}.{name}: ignore_changes is a list")
                };
                for item in items {
                    let argument = item.to_string();
                    assert!(
                        required.contains(&argument.as_str())
                            || optional.contains(&argument.as_str()),
                        "{what}: {kind} has no {argument} to ignore"
                    );
                }
            }
        }
        let first = name.chars().next().unwrap();
        assert!(
            first.is_ascii_alphabetic() || first == '_',
            "{what}: {name}"
        );
        assert!(
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
            "{what}: {name}"
        );
        assert!(
            addresses.insert(format!("{kind}.{name}")),
            "{what}: two {kind}.{name}"
        );
    }
    addresses
}

#[test]
fn every_change_parses_and_fits_the_provider() {
    for hostile in [false, true] {
        for (form, change) in common::changes(hostile) {
            let text = write(&change, Format::Terraform, common::BASE);
            let body: Body = hcl::parse(&text).unwrap_or_else(|e| panic!("{form}: {e}\n{text}"));
            check(&body, form);
        }
    }
}

#[test]
fn hostile_names_read_back_as_typed() {
    let change = common::changes(true)
        .into_iter()
        .find(|(f, _)| *f == "create_pool")
        .unwrap()
        .1;
    let body = hcl::parse(&write(&change, Format::Terraform, common::BASE)).unwrap();
    let pool = resources(&body)[0];
    assert_eq!(string(pool, "name"), Some(common::name("web", true)));
}

#[test]
fn an_edit_says_in_place_and_a_delete_says_remove() {
    let find = |f: &str| {
        common::changes(false)
            .into_iter()
            .find(|(n, _)| *n == f)
            .unwrap()
            .1
    };
    let scale = write(&find("scale_pool"), Format::Terraform, common::BASE);
    assert!(
        scale.contains("# Terraform updates nirvana_nks_node_pool.web in place: node_count."),
        "{scale}"
    );
    assert!(scale.contains("node_count = 5"), "{scale}");
    assert!(
        scale.contains("# A change to cluster_id or node_config would replace it instead"),
        "{scale}"
    );
    let delete = write(&find("delete_pool"), Format::Terraform, common::BASE);
    assert!(
        delete.contains("remove this block")
            && delete.contains("# resource \"nirvana_nks_node_pool\" \"web\"")
    );
    assert!(
        resources(&hcl::parse(&delete).unwrap()).is_empty(),
        "a delete writes no live block"
    );
    assert_eq!(
        nks_code::terraform::replaced_when_changed("nirvana_nks_node_pool"),
        ["cluster_id", "node_config"]
    );
}

fn exported(hostile: bool) -> String {
    let mut second = common::pool(hostile);
    second.id = "pool-2".into();
    let rules = [common::rule(hostile), common::rule(hostile)];
    export::cluster(
        &common::cluster(hostile),
        &[common::pool(hostile), second],
        Some((&common::vpc(hostile), &rules)),
    )
}

#[test]
fn a_cluster_exports_with_references_and_imports() {
    for hostile in [false, true] {
        let text = exported(hostile);
        let body: Body = hcl::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let addresses = check(&body, "export");
        assert_eq!(
            addresses.len(),
            6,
            "VPC, two rules, cluster, two pools: {addresses:?}"
        );
        // One import per resource, to a block of this file, with the provider's id.
        let imports: Vec<&Block> = body
            .blocks()
            .filter(|b| b.identifier() == "import")
            .collect();
        assert_eq!(imports.len(), 6);
        let schema = schema();
        let mut to = BTreeSet::new();
        for import in imports {
            let target = import
                .body()
                .attributes()
                .find(|a| a.key() == "to")
                .unwrap()
                .expr()
                .to_string();
            let id = string(import, "id").unwrap();
            let kind = target.split('.').next().unwrap();
            assert_eq!(id.split('/').count(), schema[kind].2, "{target} = {id}");
            assert!(id.split('/').all(|part| !part.is_empty()));
            to.insert(target);
        }
        assert_eq!(to, addresses);
        // References, not pasted ids, inside the file.
        let refs = |kind: &str, key: &str| -> Vec<String> {
            resources(&body)
                .into_iter()
                .filter(|b| label(b, 0) == kind)
                .map(|b| {
                    b.body()
                        .attributes()
                        .find(|a| a.key() == key)
                        .unwrap()
                        .expr()
                        .to_string()
                })
                .collect()
        };
        let vpc = addresses
            .iter()
            .find(|a| a.starts_with("nirvana_networking_vpc."))
            .unwrap();
        let cluster = addresses
            .iter()
            .find(|a| a.starts_with("nirvana_nks_cluster."))
            .unwrap();
        assert_eq!(refs("nirvana_nks_cluster", "vpc_id"), [format!("{vpc}.id")]);
        assert_eq!(
            refs("nirvana_networking_firewall_rule", "vpc_id"),
            [format!("{vpc}.id"), format!("{vpc}.id")]
        );
        assert_eq!(
            refs("nirvana_nks_node_pool", "cluster_id"),
            [format!("{cluster}.id"), format!("{cluster}.id")]
        );
        assert!(matches!(
            body.blocks().find(|b| b.identifier() == "provider").map(|b| b.labels()[0].as_str().to_string()),
            Some(ref p) if p == "nirvana"
        ));
    }
}

#[test]
fn a_vpc_exports_with_its_rules() {
    let rules = [common::rule(false)];
    let body = hcl::parse(&export::vpc(&common::vpc(false), &rules)).unwrap();
    assert_eq!(check(&body, "vpc export").len(), 2);
}

/// The demo world's cluster as the simulator answers it: its VPC, rules and pools.
async fn demo_export(hostile: bool) -> String {
    use nks_api::types::{Cluster, FirewallRule, Page, Pool, Project, Vpc};
    let config = nks_sim::Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        ..Default::default()
    };
    let sim = nks_sim::start(config).await.expect("simulator starts");
    let http = reqwest::Client::new();
    let base = sim.url();
    let get = |path: String| {
        let request = http
            .get(format!("{base}{path}"))
            .bearer_auth(nks_sim::DEMO_API_KEY);
        async move {
            request
                .send()
                .await
                .unwrap()
                .error_for_status()
                .unwrap()
                .text()
                .await
                .unwrap()
        }
    };
    let projects: Page<Project> = serde_json::from_str(&get("/v1/projects".into()).await).unwrap();
    let project = projects
        .items
        .iter()
        .find(|p| p.name == "Production")
        .unwrap();
    let clusters: Page<Cluster> =
        serde_json::from_str(&get(format!("/v1/nks/clusters?project_id={}", project.id)).await)
            .unwrap();
    let cluster = clusters
        .items
        .into_iter()
        .next()
        .expect("the demo has a cluster");
    let pools: Page<Pool> =
        serde_json::from_str(&get(format!("/v1/nks/clusters/{}/pools", cluster.id)).await).unwrap();
    if hostile {
        for (kind, id) in [
            ("cluster", &cluster.id),
            ("vpc", &cluster.vpc_id),
            ("pool", &pools.items[0].id),
        ] {
            http.post(format!("{base}/_sim/rename"))
                .json(
                    &serde_json::json!({ "kind": kind, "id": id, "name": common::name("x", true) }),
                )
                .send()
                .await
                .unwrap()
                .error_for_status()
                .unwrap();
        }
    }
    let cluster: Cluster =
        serde_json::from_str(&get(format!("/v1/nks/clusters/{}", cluster.id)).await).unwrap();
    let pools: Page<Pool> =
        serde_json::from_str(&get(format!("/v1/nks/clusters/{}/pools", cluster.id)).await).unwrap();
    let vpc: Vpc =
        serde_json::from_str(&get(format!("/v1/networking/vpcs/{}", cluster.vpc_id)).await)
            .unwrap();
    let rules: Page<FirewallRule> =
        serde_json::from_str(&get(format!("/v1/networking/vpcs/{}/firewall_rules", vpc.id)).await)
            .unwrap();
    assert!(!pools.items.is_empty());
    export::cluster(&cluster, &pools.items, Some((&vpc, &rules.items)))
}

#[tokio::test]
async fn the_simulators_demo_cluster_exports_as_the_provider_reads_it() {
    for hostile in [false, true] {
        let text = demo_export(hostile).await;
        let body: Body = hcl::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let addresses = check(&body, "demo export");
        let imports = body.blocks().filter(|b| b.identifier() == "import").count();
        assert_eq!(imports, addresses.len(), "one import per resource");
        assert!(addresses
            .iter()
            .any(|a| a.starts_with("nirvana_nks_cluster.")));
        assert!(addresses
            .iter()
            .any(|a| a.starts_with("nirvana_networking_vpc.")));
        if hostile {
            let cluster = resources(&body)
                .into_iter()
                .find(|b| label(b, 0) == "nirvana_nks_cluster")
                .unwrap();
            assert_eq!(
                string(cluster, "name"),
                Some(common::name("x", true)),
                "the name reads back as stored"
            );
        }
    }
}
