use serde_json::{json, Value};

use crate::common::*;

const VOLUME_KEYS: &[&str] = &[
    "id",
    "name",
    "kind",
    "type",
    "size",
    "status",
    "created_at",
    "updated_at",
];

fn ids(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn every_cluster_has_three_controllers_with_a_boot_volume_each() {
    let t = start().await;
    let d = t.demo().await;
    let base = format!("/v1/nks/clusters/{}/controllers", d.cluster);
    let list = t.ok(&base).await;
    assert_eq!(list["pagination"]["total_count"], 3);
    let c = &list["items"][0];
    assert_eq!(
        keys(c),
        sorted(&[
            "id",
            "name",
            "instance_type",
            "private_ip",
            "status",
            "created_at",
            "updated_at"
        ])
    );
    assert_eq!(
        (
            c["name"].as_str(),
            c["status"].as_str(),
            c["private_ip"].as_str()
        ),
        (
            Some("edge-prod-controller-1"),
            Some("ready"),
            Some("10.20.0.244")
        )
    );
    let cid = c["id"].as_str().expect("id");
    assert_eq!(t.ok(&format!("{base}/{cid}")).await, *c);
    let vols = t.ok(&format!("{base}/{cid}/volumes")).await;
    assert_eq!(vols["pagination"]["total_count"], 1);
    let v = &vols["items"][0];
    assert_eq!(keys(v), sorted(VOLUME_KEYS));
    assert_eq!(
        (v["kind"].as_str(), v["type"].as_str(), v["size"].as_i64()),
        (Some("boot"), Some("abs"), Some(128))
    );
    let vid = v["id"].as_str().expect("id");
    assert_eq!(t.ok(&format!("{base}/{cid}/volumes/{vid}")).await, *v);
    assert_eq!(t.get(&format!("{base}/{cid}/volumes/nope")).await.0, 404);
    assert_eq!(t.get(&format!("{base}/nope")).await.0, 404);
    assert_eq!(t.get("/v1/nks/clusters/nope/controllers").await.0, 404);
}

#[tokio::test]
async fn a_new_clusters_controllers_are_created_with_it_and_get_addresses_when_it_is_ready() {
    // Slow enough to see the new cluster's parts while it is created.
    let t = start_with(|c| c.time_scale = 0.002).await;
    let d = t.demo().await;
    let body = json!({"name": "c2", "project_id": d.production, "region": "us-sva-2",
        "vpc_id": d.spare_vpc, "kubernetes_version": "v1.34.4", "autoscaling": false});
    let (s, op) = t.post("/v1/nks/clusters", body).await;
    assert_eq!(s, 202, "{op}");
    let cid = op["resource_id"].as_str().expect("id");
    let list = t.ok(&format!("/v1/nks/clusters/{cid}/controllers")).await;
    assert_eq!(list["pagination"]["total_count"], 3);
    assert!(list["items"].as_array().is_some_and(|a| a
        .iter()
        .all(|c| c["status"] == "creating" && c["private_ip"].is_null())));
    t.wait_op(op["id"].as_str().expect("op")).await;
    let list = t.ok(&format!("/v1/nks/clusters/{cid}/controllers")).await;
    assert!(list["items"].as_array().is_some_and(|a| a
        .iter()
        .all(|c| c["status"] == "ready" && c["private_ip"].is_string())));
}

#[tokio::test]
async fn edge_prod_has_two_load_balancers_one_public() {
    let t = start().await;
    let d = t.demo().await;
    let list = t
        .ok(&format!("/v1/nks/clusters/{}/load_balancers", d.cluster))
        .await;
    assert_eq!(list["pagination"]["total_count"], 2);
    let lb = &list["items"][0];
    assert_eq!(
        keys(lb),
        sorted(&[
            "id",
            "cluster_id",
            "namespace",
            "service_name",
            "private_ip",
            "public_ip",
            "public_ip_enabled",
            "status",
            "created_at",
            "updated_at"
        ])
    );
    assert_eq!(
        (
            lb["namespace"].as_str(),
            lb["service_name"].as_str(),
            lb["public_ip_enabled"].as_bool()
        ),
        (
            Some("ingress-nginx"),
            Some("ingress-nginx-controller"),
            Some(true)
        )
    );
    assert!(lb["public_ip"].is_string());
    let private = &list["items"][1];
    assert_eq!(private["service_name"], "payments-api");
    assert_eq!(
        (
            private["public_ip_enabled"].as_bool(),
            private["public_ip"].is_null()
        ),
        (Some(false), true)
    );
    assert!(private["private_ip"].is_string());
}

#[tokio::test]
async fn a_load_balancers_public_ip_follows_the_update_operation() {
    let t = start().await;
    let d = t.demo().await;
    let list = t
        .ok(&format!("/v1/nks/clusters/{}/load_balancers", d.cluster))
        .await;
    let id = list["items"][0]["id"].as_str().expect("id");
    let path = format!("/v1/nks/clusters/{}/load_balancers/{id}", d.cluster);
    let (s, op) = t.patch(&path, json!({"public_ip_enabled": false})).await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(
        (
            op["kind"].as_str(),
            op["type"].as_str(),
            op["resource_id"].as_str()
        ),
        (Some("nks_load_balancer"), Some("update"), Some(id))
    );
    assert_eq!(
        op["details"]["changes"]["public_ip_enabled"],
        json!({"from": true, "to": false})
    );
    let lb = t.ok(&path).await;
    assert_eq!(lb["status"], "updating");
    assert!(
        lb["public_ip"].is_string(),
        "still reachable until the operation ends"
    );
    assert_eq!(
        t.patch(&path, json!({"public_ip_enabled": true})).await.0,
        409
    );
    t.wait_op(op["id"].as_str().expect("op")).await;
    let lb = t.ok(&path).await;
    assert_eq!(
        (lb["status"].as_str(), lb["public_ip"].is_null()),
        (Some("ready"), true)
    );

    let (s, op) = t.patch(&path, json!({"public_ip_enabled": true})).await;
    assert_eq!(s, 202, "{op}");
    t.wait_op(op["id"].as_str().expect("op")).await;
    let lb = t.ok(&path).await;
    assert!(lb["public_ip"].is_string());
    assert_eq!(lb["public_ip_enabled"], true);

    let (s, e) = t.patch(&path, json!({})).await;
    assert_eq!(
        (s, e["message"].as_str()),
        (422, Some("public_ip_enabled: is required"))
    );
    let (s, e) = t.patch(&path, json!({"public_ip_enabled": "yes"})).await;
    assert_eq!(
        (s, e["message"].as_str()),
        (422, Some("public_ip_enabled: must be a boolean"))
    );
    let other = format!("/v1/nks/clusters/nope/load_balancers/{id}");
    assert_eq!(t.get(&other).await.0, 404);
    assert_eq!(
        t.patch(&other, json!({"public_ip_enabled": true})).await.0,
        404
    );
}

#[tokio::test]
async fn edge_prod_has_persistent_volume_claims() {
    let t = start().await;
    let d = t.demo().await;
    let base = format!("/v1/nks/clusters/{}/persistent_volume_claims", d.cluster);
    let list = t.ok(&base).await;
    assert_eq!(list["pagination"]["total_count"], 3);
    let p = &list["items"][0];
    assert_eq!(
        keys(p),
        sorted(&[
            "id",
            "cluster_id",
            "name",
            "size",
            "type",
            "status",
            "created_at",
            "updated_at"
        ])
    );
    assert_eq!(
        (p["name"].as_str(), p["size"].as_i64(), p["type"].as_str()),
        (Some("data-postgres-0"), Some(50), Some("abs"))
    );
    let id = p["id"].as_str().expect("id");
    assert_eq!(t.ok(&format!("{base}/{id}")).await, *p);
    assert_eq!(t.get(&format!("{base}/nope")).await.0, 404);
}

#[tokio::test]
async fn pool_and_node_volumes_are_the_nodes_boot_volumes_and_page() {
    let t = start().await;
    let d = t.demo().await;
    let pool = format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.baseline);
    let vols = t.ok(&format!("{pool}/volumes")).await;
    assert_eq!(vols["pagination"]["total_count"], 3);
    let v = &vols["items"][0];
    let mut expected = VOLUME_KEYS.to_vec();
    expected.push("node_id");
    assert_eq!(keys(v), sorted(&expected));
    assert_eq!(
        (v["kind"].as_str(), v["type"].as_str(), v["size"].as_i64()),
        (Some("boot"), Some("abs"), Some(128))
    );
    let node_id = v["node_id"].as_str().expect("node");
    let node = t.ok(&format!("{pool}/nodes/{node_id}")).await;
    assert_eq!(
        v["name"],
        format!("{}-boot", node["name"].as_str().unwrap_or_default())
    );
    let own = t.ok(&format!("{pool}/nodes/{node_id}/volumes")).await;
    assert_eq!(
        ids(&own),
        vec![v["id"].as_str().unwrap_or_default().to_string()]
    );
    let vid = v["id"].as_str().expect("id");
    assert_eq!(
        t.ok(&format!("{pool}/nodes/{node_id}/volumes/{vid}")).await,
        *v
    );
    assert_eq!(
        t.get(&format!("{pool}/nodes/{node_id}/volumes/nope"))
            .await
            .0,
        404
    );
    assert_eq!(t.get(&format!("{pool}/nodes/nope/volumes")).await.0, 404);
    let zero = format!(
        "/v1/nks/clusters/{}/pools/{}/volumes",
        d.cluster, d.batch_zero
    );
    assert_eq!(t.ok(&zero).await["pagination"]["total_count"], 0);

    let (s, op) = t
        .post(
            &format!("/v1/nks/clusters/{}/pools", d.cluster),
            pool_body("wide", 12),
        )
        .await;
    assert_eq!(s, 202, "{op}");
    let wide = format!(
        "/v1/nks/clusters/{}/pools/{}/volumes",
        d.cluster,
        op["resource_id"].as_str().expect("pool")
    );
    let first = t.ok(&format!("{wide}?limit=10")).await;
    assert_eq!(first["items"].as_array().map(Vec::len), Some(10));
    assert_eq!(first["items"][0]["status"], "creating");
    let cursor = first["pagination"]["next_cursor"].as_str().expect("more");
    let second = t.ok(&format!("{wide}?limit=10&cursor={cursor}")).await;
    assert_eq!(second["items"].as_array().map(Vec::len), Some(2));
    assert_eq!(t.get(&format!("{wide}?limit=5")).await.0, 400);
}
