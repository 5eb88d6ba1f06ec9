use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{json, Value};

use crate::common::*;

async fn wait_for_autoscaler_op(t: &T, project: &str, known: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let list = t
            .ok(&format!("/v1/operations?project_id={project}&limit=100"))
            .await;
        if list["pagination"]["total_count"].as_u64().unwrap_or(0) as usize > known {
            return list["items"][0].clone();
        }
        assert!(Instant::now() < deadline, "the autoscaler never acted");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn autoscaler_moves_a_pool_by_one_node_through_a_real_operation() {
    let t = start_with(|c| {
        c.autoscaler = true;
        c.time_scale = 0.001;
    })
    .await;
    let d = t.demo().await;
    let op = wait_for_autoscaler_op(&t, &d.production, 4).await;
    let changes = &op["details"]["changes"];
    let (from, to) = (
        changes["node_count"]["from"].as_i64(),
        changes["node_count"]["to"].as_i64(),
    );
    match (op["kind"].as_str(), op["type"].as_str()) {
        (Some("nks_node_pool"), Some("update")) => {
            assert_eq!(to.zip(from).map(|(a, b)| a - b), Some(1))
        }
        (Some("nks_node"), Some("delete")) => {
            assert_eq!(from.zip(to).map(|(a, b)| a - b), Some(1));
            assert_eq!(
                changes["drained"],
                json!({"from": false, "to": true}),
                "autoscaler drains"
            );
        }
        other => panic!("unexpected autoscaler operation {other:?}: {op}"),
    }
    t.wait_op(op["id"].as_str().expect("id")).await;
}

#[tokio::test]
async fn autoscaler_can_be_toggled_at_run_time_and_never_empties_a_cluster() {
    let t = start_with(|c| c.time_scale = 0.001).await;
    let d = t.demo().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let quiet = t
        .ok(&format!("/v1/operations?project_id={}", d.production))
        .await;
    assert_eq!(quiet["pagination"]["total_count"], 4, "off by default");
    let (s, body) = t
        .sim(Method::POST, "/_sim/autoscaler", Some(json!({"on": true})))
        .await;
    assert_eq!((s, body["on"].as_bool()), (200, Some(true)));
    wait_for_autoscaler_op(&t, &d.production, 4).await;
    // Let it run a while; the cluster must keep at least one node throughout.
    let deadline = Instant::now() + Duration::from_millis(1500);
    while Instant::now() < deadline {
        let pools = t.ok(&format!("/v1/nks/clusters/{}/pools", d.cluster)).await;
        let total: i64 = pools["items"]
            .as_array()
            .expect("items")
            .iter()
            .filter_map(|p| p["node_count"].as_i64())
            .sum();
        assert!(total >= 1, "cluster emptied: {pools}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    t.sim(Method::POST, "/_sim/autoscaler", Some(json!({"on": false})))
        .await;
}

#[tokio::test]
async fn the_drain_control_deletes_a_node_as_the_autoscaler_does_and_a_plain_delete_does_not_drain()
{
    let t = start_with(|c| c.time_scale = 0.001).await;
    let d = t.demo().await;
    let nodes_path = format!("/v1/nks/clusters/{}/pools/{}/nodes", d.cluster, d.baseline);
    let nodes = t.ok(&nodes_path).await;
    let first = nodes["items"][0]["id"].as_str().expect("node").to_string();
    let second = nodes["items"][1]["id"].as_str().expect("node").to_string();

    let (s, op) = t
        .sim(
            Method::POST,
            "/_sim/drain",
            Some(json!({"cluster_id": d.cluster, "pool_id": d.baseline, "node_id": first})),
        )
        .await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(
        (op["kind"].as_str(), op["type"].as_str()),
        (Some("nks_node"), Some("delete"))
    );
    assert_eq!(op["resource_id"], json!(first));
    assert_eq!(
        op["details"]["changes"]["node_count"],
        json!({"from": 3, "to": 2})
    );
    assert_eq!(
        op["details"]["changes"]["drained"],
        json!({"from": false, "to": true})
    );
    t.wait_op(op["id"].as_str().expect("id")).await;

    let (s, plain) = t.delete(&format!("{nodes_path}/{second}")).await;
    assert_eq!(s, 202, "{plain}");
    assert_eq!(
        plain["details"]["changes"]["node_count"],
        json!({"from": 2, "to": 1})
    );
    assert!(
        plain["details"]["changes"].get("drained").is_none(),
        "{plain}"
    );
    t.wait_op(plain["id"].as_str().expect("id")).await;

    let (s, missing) = t
        .sim(
            Method::POST,
            "/_sim/drain",
            Some(json!({"cluster_id": d.cluster, "pool_id": d.baseline, "node_id": "nope"})),
        )
        .await;
    assert_eq!(s, 404, "{missing}");
}
