use serde_json::{json, Value};

use crate::common::*;

const VPC_KEYS: &[&str] = &[
    "id",
    "name",
    "project_id",
    "region",
    "status",
    "subnet",
    "firewall_rule_ids",
    "tags",
    "created_at",
    "updated_at",
];

const RULE_KEYS: &[&str] = &[
    "id",
    "vpc_id",
    "name",
    "protocol",
    "source_address",
    "destination_address",
    "destination_ports",
    "status",
    "tags",
    "created_at",
    "updated_at",
];

fn new_vpc(project: &str) -> Value {
    json!({"name": "fresh-vpc", "project_id": project, "region": "us-sva-2",
           "subnet_name": "fresh-subnet", "tags": ["new"]})
}

fn kubectl_rule() -> Value {
    json!({"name": "kubectl", "protocol": "tcp", "source_address": "203.0.113.0/24",
           "destination_address": "10.20.0.253/32", "destination_ports": ["443"]})
}

fn message(v: &Value) -> String {
    v["message"].as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn vpc_create_is_an_operation_and_the_new_vpc_hosts_a_cluster_once_ready() {
    let t = start().await;
    let d = t.demo().await;
    let (s, op) = t.post("/v1/networking/vpcs", new_vpc(&d.production)).await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(
        (op["kind"].as_str(), op["type"].as_str()),
        (Some("vpc"), Some("create"))
    );
    let id = op["resource_id"].as_str().expect("vpc id").to_string();
    let vpc = t.ok(&format!("/v1/networking/vpcs/{id}")).await;
    assert_eq!(keys(&vpc), sorted(VPC_KEYS));
    assert_eq!(vpc["status"], "creating");
    assert_eq!(vpc["subnet"]["name"], "fresh-subnet");
    assert_eq!(vpc["subnet"]["cidr"], "10.40.0.0/24");
    assert_eq!(vpc["firewall_rule_ids"], json!([]));
    // A cluster waits for its VPC.
    let cluster = json!({"name": "c2", "project_id": d.production, "region": "us-sva-2",
        "vpc_id": id, "kubernetes_version": "v1.34.4", "autoscaling": false});
    let (s, e) = t.post("/v1/nks/clusters", cluster.clone()).await;
    assert_eq!(s, 422, "{e}");
    assert!(
        message(&e).starts_with("vpc_id: VPC fresh-vpc is creating"),
        "{e}"
    );

    let (done, _) = t.wait_op(op["id"].as_str().expect("op id")).await;
    assert_eq!(done["status"], "done");
    assert_eq!(
        t.ok(&format!("/v1/networking/vpcs/{id}")).await["status"],
        "ready"
    );
    let (s, c) = t.post("/v1/nks/clusters", cluster).await;
    assert_eq!(s, 202, "{c}");
    let list = t
        .ok(&format!("/v1/networking/vpcs?project_id={}", d.production))
        .await;
    assert_eq!(list["pagination"]["total_count"], 3);
}

#[tokio::test]
async fn vpc_bodies_are_validated_and_preflights_answer_without_changing_anything() {
    let t = start().await;
    let d = t.demo().await;
    let mut body = new_vpc(&d.production);
    body.as_object_mut().map(|o| o.remove("subnet_name"));
    let (s, e) = t.post("/v1/networking/vpcs", body).await;
    assert_eq!((s, message(&e).as_str()), (422, "subnet_name: is required"));
    let mut body = new_vpc(&d.production);
    body["region"] = json!("eu-1");
    let (s, e) = t.post("/v1/networking/vpcs/availability", body).await;
    assert_eq!((s, message(&e).as_str()), (422, "region: must be us-sva-2"));
    let (s, e) = t.post("/v1/networking/vpcs", new_vpc("nope")).await;
    assert_eq!(
        (s, message(&e).as_str()),
        (422, "project_id: project not found")
    );
    let (s, _) = t
        .post("/v1/networking/vpcs/availability", new_vpc(&d.production))
        .await;
    assert_eq!(s, 204);
    let (s, q) = t
        .post("/v1/networking/vpcs/cost", new_vpc(&d.production))
        .await;
    assert_eq!(s, 200, "{q}");
    assert_eq!(q["monthly_total"], "0.00");
    assert_eq!(q["usage_dimensions"][0]["dimension"], "networking_vpc");
    let (s, q) = t
        .patch(
            &format!("/v1/networking/vpcs/{}/cost", d.spare_vpc),
            json!({"name": "x"}),
        )
        .await;
    assert_eq!(s, 200, "{q}");
    assert_eq!(q["diff"]["monthly_total_delta"], "0.00");
    let (s, _) = t
        .patch(
            &format!("/v1/networking/vpcs/{}/availability", d.spare_vpc),
            json!({"subnet_name": ""}),
        )
        .await;
    assert_eq!(s, 422);
    let list = t
        .ok(&format!("/v1/networking/vpcs?project_id={}", d.production))
        .await;
    assert_eq!(list["pagination"]["total_count"], 2);
    assert_eq!(t.get("/v1/networking/vpcs/nope").await.0, 404);
    assert_eq!(t.patch("/v1/networking/vpcs/nope", json!({})).await.0, 404);
    assert_eq!(t.delete("/v1/networking/vpcs/nope").await.0, 404);
}

#[tokio::test]
async fn vpc_update_renames_the_vpc_and_its_subnet_and_records_the_changes() {
    // Slow enough that the update is still running when the second PATCH
    // arrives (at the suite's usual scale it ends within 15 ms, before it).
    let t = start_with(|c| c.time_scale = 0.05).await;
    let d = t.demo().await;
    let path = format!("/v1/networking/vpcs/{}", d.spare_vpc);
    let (s, op) = t
        .patch(
            &path,
            json!({"name": "spare", "subnet_name": "spare-net", "tags": ["a"]}),
        )
        .await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(
        (op["kind"].as_str(), op["type"].as_str()),
        (Some("vpc"), Some("update"))
    );
    assert_eq!(
        op["details"]["changes"]["subnet_name"],
        json!({"from": "prod-spare-vpc-subnet", "to": "spare-net"})
    );
    let vpc = t.ok(&path).await;
    assert_eq!(
        (vpc["name"].as_str(), vpc["status"].as_str()),
        (Some("spare"), Some("updating"))
    );
    assert_eq!(t.patch(&path, json!({"name": "again"})).await.0, 409);
    t.wait_op(op["id"].as_str().expect("id")).await;
    let vpc = t.ok(&path).await;
    assert_eq!(vpc["status"], "ready");
    assert_eq!(vpc["subnet"]["name"], "spare-net");
    assert_eq!(vpc["tags"], json!(["a"]));
}

#[tokio::test]
async fn deleting_a_vpc_a_cluster_uses_is_refused_naming_the_cluster() {
    let t = start().await;
    let d = t.demo().await;
    let (s, e) = t
        .delete(&format!("/v1/networking/vpcs/{}", d.prod_vpc))
        .await;
    assert_eq!(s, 422, "{e}");
    assert!(message(&e).contains("used by cluster edge-prod"), "{e}");
    assert_eq!(
        t.ok(&format!("/v1/networking/vpcs/{}", d.prod_vpc)).await["status"],
        "ready"
    );
    let (s, op) = t
        .delete(&format!("/v1/networking/vpcs/{}", d.spare_vpc))
        .await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(
        (op["kind"].as_str(), op["type"].as_str()),
        (Some("vpc"), Some("delete"))
    );
    t.wait_op(op["id"].as_str().expect("id")).await;
    assert_eq!(
        t.get(&format!("/v1/networking/vpcs/{}", d.spare_vpc))
            .await
            .0,
        404
    );
}

#[tokio::test]
async fn firewall_rule_crud_runs_through_operations_of_kind_firewall_rule() {
    let t = start().await;
    let d = t.demo().await;
    let base = format!("/v1/networking/vpcs/{}/firewall_rules", d.prod_vpc);
    let empty = t.ok(&base).await;
    assert_eq!(empty["pagination"]["total_count"], 0);
    let (s, op) = t.post(&base, kubectl_rule()).await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(
        (
            op["kind"].as_str(),
            op["type"].as_str(),
            op["project_id"].as_str()
        ),
        (
            Some("firewall_rule"),
            Some("create"),
            Some(d.production.as_str())
        )
    );
    let rid = op["resource_id"].as_str().expect("rule id").to_string();
    let rule = t.ok(&format!("{base}/{rid}")).await;
    assert_eq!(keys(&rule), sorted(RULE_KEYS));
    assert_eq!(rule["status"], "creating");
    assert_eq!(rule["tags"], json!([]));
    let vpc = t.ok(&format!("/v1/networking/vpcs/{}", d.prod_vpc)).await;
    assert_eq!(vpc["firewall_rule_ids"], json!([rid]));
    t.wait_op(op["id"].as_str().expect("id")).await;
    assert_eq!(t.ok(&format!("{base}/{rid}")).await["status"], "ready");

    let (s, op) = t
        .patch(
            &format!("{base}/{rid}"),
            json!({"destination_ports": ["80", "443"]}),
        )
        .await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(
        op["details"]["changes"]["destination_ports"],
        json!({"from": ["443"], "to": ["80", "443"]})
    );
    t.wait_op(op["id"].as_str().expect("id")).await;
    let rule = t.ok(&format!("{base}/{rid}")).await;
    assert_eq!(rule["destination_ports"], json!(["80", "443"]));

    let (s, op) = t.delete(&format!("{base}/{rid}")).await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(op["type"], "delete");
    assert_eq!(t.ok(&format!("{base}/{rid}")).await["status"], "deleting");
    t.wait_op(op["id"].as_str().expect("id")).await;
    assert_eq!(t.get(&format!("{base}/{rid}")).await.0, 404);
    let vpc = t.ok(&format!("/v1/networking/vpcs/{}", d.prod_vpc)).await;
    assert_eq!(vpc["firewall_rule_ids"], json!([]));
}

#[tokio::test]
async fn firewall_rules_refuse_bad_protocols_ports_and_addresses() {
    let t = start().await;
    let d = t.demo().await;
    let base = format!("/v1/networking/vpcs/{}/firewall_rules", d.prod_vpc);
    let cases: &[(&str, Value, &str)] = &[
        ("protocol", json!("icmp"), "protocol: must be one of tcp, udp"),
        ("destination_ports", json!(["0"]), "destination_ports[0]: must be a port 1-65535 or a range such as 8000-8080"),
        ("destination_ports", json!(["80", "70000"]), "destination_ports[1]: must be a port 1-65535 or a range such as 8000-8080"),
        ("destination_ports", json!([]), "destination_ports: must not be empty"),
        ("source_address", json!("0.0.0.0/8"), "source_address: address 0.0.0.0 requires a CIDR mask of 0 (0.0.0.0/0)"),
        ("source_address", json!("203.0.113.7/24"), "source_address: must be network-aligned: 203.0.113.0/24, not 203.0.113.7/24"),
        ("source_address", json!("somewhere"), "source_address: must be an IPv4 CIDR such as 10.20.0.0/24"),
        ("destination_address", json!("10.99.0.0/24"), "destination_address: must lie inside the VPC subnet 10.20.0.0/24 (the VPC CIDR or a VM in the VPC)"),
        ("name", json!(" "), "name: must not be empty"),
    ];
    for (field, value, expected) in cases {
        let mut body = kubectl_rule();
        body[*field] = value.clone();
        let (s, e) = t.post(&base, body).await;
        assert_eq!(
            (s, message(&e).as_str()),
            (422, *expected),
            "{field}={value}"
        );
    }
    let mut body = kubectl_rule();
    body.as_object_mut().map(|o| o.remove("protocol"));
    let (s, e) = t.post(&base, body).await;
    assert_eq!((s, message(&e).as_str()), (422, "protocol: is required"));
    // The whole VPC and a port range are fine; so is the world.
    let mut body = kubectl_rule();
    body["destination_address"] = json!("10.20.0.0/24");
    body["destination_ports"] = json!(["30000-32767"]);
    body["source_address"] = json!("0.0.0.0/0");
    assert_eq!(t.post(&base, body).await.0, 202);
    assert_eq!(t.get(&format!("{base}/nope")).await.0, 404);
    assert_eq!(
        t.post("/v1/networking/vpcs/nope/firewall_rules", kubectl_rule())
            .await
            .0,
        404
    );
    // A rule is only found under its own VPC.
    let rules = t.ok(&base).await;
    let rid = rules["items"][0]["id"].as_str().expect("id");
    let other = format!("/v1/networking/vpcs/{}/firewall_rules/{rid}", d.spare_vpc);
    assert_eq!(t.get(&other).await.0, 404);
    assert_eq!(t.delete(&other).await.0, 404);
    assert_eq!(
        t.patch(&format!("{base}/{rid}"), json!({"protocol": "sctp"}))
            .await
            .0,
        422
    );
}

#[tokio::test]
async fn firewall_rules_page_with_cursors_and_filter_by_protocol() {
    let t = start().await;
    let d = t.demo().await;
    let base = format!("/v1/networking/vpcs/{}/firewall_rules", d.spare_vpc);
    for i in 0..12 {
        let body = json!({"name": format!("r{i:02}"), "protocol": if i % 3 == 0 { "udp" } else { "tcp" },
            "source_address": "198.51.100.0/24", "destination_address": "10.21.0.0/24",
            "destination_ports": [format!("{}", 8000 + i)]});
        let (s, op) = t.post(&base, body).await;
        assert_eq!(s, 202, "{op}");
    }
    let first = t.ok(&format!("{base}?limit=10")).await;
    assert_eq!(first["items"].as_array().map(Vec::len), Some(10));
    assert_eq!(first["pagination"]["total_count"], 12);
    assert_eq!(first["items"][0]["name"], "r00");
    let cursor = first["pagination"]["next_cursor"].as_str().expect("more");
    let second = t.ok(&format!("{base}?limit=10&cursor={cursor}")).await;
    assert_eq!(second["items"].as_array().map(Vec::len), Some(2));
    assert!(second["pagination"]["next_cursor"].is_null());
    let udp = t.ok(&format!("{base}?protocol=udp")).await;
    assert_eq!(udp["pagination"]["total_count"], 4);
    assert_eq!(t.get(&format!("{base}?protocol=icmp")).await.0, 400);
    assert_eq!(
        t.get(&format!("{base}?protocol=udp&cursor={cursor}"))
            .await
            .0,
        400
    );
}
