//! Cluster and pool names are DNS labels (node names derive from them); anything else is a
//! 422 naming the field, on create, update and their availability checks. Names already
//! stored, or planted with the test control `POST /_sim/rename`, are served as they are.

use reqwest::Method;
use serde_json::json;

use crate::common::*;

const REASON: &str = "name: must be a DNS label: lowercase letters, digits and '-' (at most 63), starting and ending with a letter or digit";
const BAD: [&str; 6] = [
    "Web Pool",
    "web_pool",
    "web.pool",
    "-web",
    "web-",
    "Bad Pool!",
];

#[tokio::test]
async fn pool_names_that_are_not_dns_labels_are_refused_naming_the_field() {
    let t = start().await;
    let d = t.demo().await;
    let pools = format!("/v1/nks/clusters/{}/pools", d.cluster);
    for bad in BAD {
        for path in [pools.clone(), format!("{pools}/availability")] {
            let (s, body) = t.post(&path, pool_body(bad, 1)).await;
            assert_eq!(
                (s, body["message"].as_str()),
                (422, Some(REASON)),
                "POST {path} {bad}"
            );
        }
        let one = format!("{pools}/{}", d.batch_zero);
        for path in [one.clone(), format!("{one}/availability")] {
            let (s, body) = t.patch(&path, json!({ "name": bad })).await;
            assert_eq!(
                (s, body["message"].as_str()),
                (422, Some(REASON)),
                "PATCH {path} {bad}"
            );
        }
    }
    let pool = t.ok(&format!("{pools}/{}", d.batch_zero)).await;
    assert_eq!(pool["name"], "batch-zero", "nothing was renamed");
    // A DNS label passes, 63 characters included.
    let long = "a".repeat(63);
    let (s, _) = t.post(&pools, pool_body(&long, 1)).await;
    assert_eq!(s, 202);
    let (s, _) = t
        .patch(
            &format!("{pools}/{}", d.batch_zero),
            json!({"name": "batch-0"}),
        )
        .await;
    assert_eq!(s, 202);
}

#[tokio::test]
async fn cluster_names_that_are_not_dns_labels_are_refused_naming_the_field() {
    let t = start().await;
    let d = t.demo().await;
    for bad in BAD {
        let body = json!({"name": bad, "project_id": d.production, "region": "us-sva-2",
            "vpc_id": d.spare_vpc, "kubernetes_version": "v1.34.4", "autoscaling": true});
        for path in ["/v1/nks/clusters", "/v1/nks/clusters/availability"] {
            let (s, answer) = t.post(path, body.clone()).await;
            assert_eq!(
                (s, answer["message"].as_str()),
                (422, Some(REASON)),
                "POST {path} {bad}"
            );
        }
        let one = format!("/v1/nks/clusters/{}", d.cluster);
        for path in [one.clone(), format!("{one}/availability")] {
            let (s, answer) = t.patch(&path, json!({ "name": bad })).await;
            assert_eq!(
                (s, answer["message"].as_str()),
                (422, Some(REASON)),
                "PATCH {path} {bad}"
            );
        }
    }
    let (s, _) = t
        .post(
            "/v1/nks/clusters/availability",
            json!({"name": "edge-2", "project_id": d.production, "region": "us-sva-2",
            "vpc_id": d.spare_vpc, "kubernetes_version": "v1.34.4", "autoscaling": true}),
        )
        .await;
    assert_eq!(s, 204);
}

#[tokio::test]
async fn vpc_names_keep_the_general_rule() {
    let t = start().await;
    let d = t.demo().await;
    let (s, _) = t
        .patch(
            &format!("/v1/networking/vpcs/{}", d.spare_vpc),
            json!({"name": "Spare VPC"}),
        )
        .await;
    assert_eq!(s, 202);
}

#[tokio::test]
async fn the_rename_control_plants_any_name_and_the_api_serves_it() {
    let t = start().await;
    let d = t.demo().await;
    let hostile = "<img src=x onerror=1> 'Bad Pool!'\n$(id)";
    let (s, body) = t
        .sim(
            Method::POST,
            "/_sim/rename",
            Some(json!({"kind": "pool", "id": d.baseline, "name": hostile})),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let pool = t
        .ok(&format!(
            "/v1/nks/clusters/{}/pools/{}",
            d.cluster, d.baseline
        ))
        .await;
    assert_eq!(pool["name"], hostile);

    let nodes = t
        .ok(&format!(
            "/v1/nks/clusters/{}/pools/{}/nodes",
            d.cluster, d.baseline
        ))
        .await;
    let node = nodes["items"][0]["id"]
        .as_str()
        .expect("a node")
        .to_string();
    let (s, _) = t
        .sim(
            Method::POST,
            "/_sim/rename",
            Some(json!({"kind": "node", "id": node, "name": "Bad Pool!-x1"})),
        )
        .await;
    assert_eq!(s, 200);
    let nodes = t
        .ok(&format!(
            "/v1/nks/clusters/{}/pools/{}/nodes",
            d.cluster, d.baseline
        ))
        .await;
    assert!(nodes["items"]
        .as_array()
        .expect("items")
        .iter()
        .any(|n| n["id"] == node.as_str() && n["name"] == "Bad Pool!-x1"));

    let (s, _) = t
        .sim(
            Method::POST,
            "/_sim/rename",
            Some(json!({"kind": "cluster", "id": d.cluster, "name": "Edge Prod"})),
        )
        .await;
    assert_eq!(s, 200);
    assert_eq!(
        t.ok(&format!("/v1/nks/clusters/{}", d.cluster)).await["name"],
        "Edge Prod"
    );
    // The planted names stay usable: other fields can still be changed.
    let (s, _) = t
        .patch(
            &format!("/v1/nks/clusters/{}", d.cluster),
            json!({"tags": ["x"]}),
        )
        .await;
    assert_eq!(s, 202);

    let (s, _) = t
        .sim(
            Method::POST,
            "/_sim/rename",
            Some(json!({"kind": "pool", "id": "no-such-pool", "name": "x"})),
        )
        .await;
    assert_eq!(s, 404);
    let (s, _) = t
        .sim(
            Method::POST,
            "/_sim/rename",
            Some(json!({"kind": "project", "id": d.production, "name": "x"})),
        )
        .await;
    assert_eq!(s, 400);
}
