use serde_json::{json, Value};

use crate::common::*;

const POOL_KEYS: &[&str] = &[
    "id",
    "cluster_id",
    "name",
    "node_count",
    "node_config",
    "status",
    "tags",
    "created_at",
    "updated_at",
];

fn names(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|n| n["name"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn demo_pools_have_the_digest_shape() {
    let t = start().await;
    let d = t.demo().await;
    let base = t
        .ok(&format!(
            "/v1/nks/clusters/{}/pools/{}",
            d.cluster, d.baseline
        ))
        .await;
    assert_eq!(keys(&base), sorted(POOL_KEYS));
    assert_eq!(
        base["node_config"],
        json!({"instance_type": "n1-standard-8", "boot_volume": {"size": 128, "type": "abs"},
               "labels": ["tier=general"], "taints": []})
    );
    assert_eq!(
        (base["node_count"].as_i64(), base["status"].as_str()),
        (Some(3), Some("ready"))
    );
    let zero = t
        .ok(&format!(
            "/v1/nks/clusters/{}/pools/{}",
            d.cluster, d.batch_zero
        ))
        .await;
    assert_eq!(
        zero["node_config"],
        json!({"instance_type": "n1-highcpu-16", "boot_volume": {"size": 256, "type": "nvme"},
               "labels": ["workload=batch"], "taints": ["dedicated=batch:NoSchedule"]})
    );
    assert_eq!(zero["node_count"], 0);
    let nodes = t
        .ok(&format!(
            "/v1/nks/clusters/{}/pools/{}/nodes",
            d.cluster, d.baseline
        ))
        .await;
    assert_eq!(nodes["pagination"]["total_count"], 3);
    let node = &nodes["items"][0];
    assert_eq!(
        keys(node),
        sorted(&[
            "id",
            "name",
            "private_ip",
            "status",
            "created_at",
            "updated_at"
        ])
    );
    let name = node["name"].as_str().expect("name");
    let suffix = name.strip_prefix("baseline-").expect("pool-name prefix");
    assert!(
        suffix.len() == 5
            && suffix
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()),
        "{name}"
    );
    assert!(node["private_ip"]
        .as_str()
        .is_some_and(|ip| ip.starts_with("10.20.0.")));
    let nid = node["id"].as_str().expect("id");
    assert_eq!(
        t.ok(&format!(
            "/v1/nks/clusters/{}/pools/{}/nodes/{nid}",
            d.cluster, d.baseline
        ))
        .await["name"],
        name
    );
    let empty = t
        .ok(&format!(
            "/v1/nks/clusters/{}/pools/{}/nodes",
            d.cluster, d.batch_zero
        ))
        .await;
    assert_eq!(empty["pagination"]["total_count"], 0);
    // A pool is only found under its own cluster.
    assert_eq!(
        t.get(&format!("/v1/nks/clusters/nope/pools/{}", d.baseline))
            .await
            .0,
        404
    );
    assert_eq!(
        t.get(&format!(
            "/v1/nks/clusters/{}/pools/{}/nodes/nope",
            d.cluster, d.baseline
        ))
        .await
        .0,
        404
    );
}

#[tokio::test]
async fn pool_create_brings_up_creating_nodes_that_become_ready_with_addresses() {
    // Slow enough to see the change while it runs (at the suite's scale a pool update
    // ends in 60 ms, sooner than a busy machine reads it back).
    let t = start_with(|c| c.time_scale = 0.01).await;
    let d = t.demo().await;
    let (s, op) = t
        .post(
            &format!("/v1/nks/clusters/{}/pools", d.cluster),
            pool_body("web", 2),
        )
        .await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(
        (
            op["kind"].as_str(),
            op["type"].as_str(),
            op["status"].as_str()
        ),
        (Some("nks_node_pool"), Some("create"), Some("pending"))
    );
    let pid = op["resource_id"].as_str().expect("pool id").to_string();
    let pool = t
        .ok(&format!("/v1/nks/clusters/{}/pools/{pid}", d.cluster))
        .await;
    assert_eq!(pool["status"], "creating");
    let nodes = t
        .ok(&format!("/v1/nks/clusters/{}/pools/{pid}/nodes", d.cluster))
        .await;
    assert_eq!(nodes["pagination"]["total_count"], 2);
    assert!(nodes["items"]
        .as_array()
        .expect("items")
        .iter()
        .all(|n| n["status"] == "creating" && n["private_ip"].is_null()));
    let cluster = t.ok(&format!("/v1/nks/clusters/{}", d.cluster)).await;
    assert!(cluster["pool_ids"]
        .as_array()
        .is_some_and(|ids| ids.iter().any(|i| i == pid.as_str())));

    let (done, seen) = t.wait_op(op["id"].as_str().expect("id")).await;
    assert_eq!(done["status"], "done");
    assert!(seen.contains(&"running".to_string()), "{seen:?}");
    let pool = t
        .ok(&format!("/v1/nks/clusters/{}/pools/{pid}", d.cluster))
        .await;
    assert_eq!(pool["status"], "ready");
    assert_eq!(pool["tags"], json!(["t"]));
    let nodes = t
        .ok(&format!("/v1/nks/clusters/{}/pools/{pid}/nodes", d.cluster))
        .await;
    assert!(nodes["items"]
        .as_array()
        .expect("items")
        .iter()
        .all(|n| n["status"] == "ready" && n["private_ip"].is_string()));
    assert!(names(&nodes).iter().all(|n| n.starts_with("web-")));
}

#[tokio::test]
async fn pool_update_ignores_node_config_and_other_immutable_fields() {
    let t = start().await;
    let d = t.demo().await;
    let path = format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.baseline);
    let before = t.ok(&path).await;
    let (s, op) = t
        .patch(
            &path,
            json!({
                "name": "baseline-2",
                "tags": ["a"],
                "node_config": {"instance_type": "n1-highmem-8", "boot_volume": {"size": 512, "type": "nvme"},
                                "labels": ["x=y"], "taints": ["a=b:NoExecute"]},
                "cluster_id": "elsewhere",
                "id": "new-id"
            }),
        )
        .await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(
        op["details"],
        json!({"changes": {"name": {"from": "baseline", "to": "baseline-2"}, "tags": {"from": [], "to": ["a"]}}})
    );
    t.wait_op(op["id"].as_str().expect("id")).await;
    let after = t.ok(&path).await;
    assert_eq!(after["name"], "baseline-2");
    assert_eq!(after["node_config"], before["node_config"]);
    assert_eq!(after["cluster_id"], before["cluster_id"]);
    assert_eq!(after["id"], before["id"]);
    assert_eq!(after["node_count"], 3);
    // An update that changes nothing is still an operation, with no changes recorded.
    let (s, op) = t
        .patch(
            &path,
            json!({"node_config": {"instance_type": "n1-standard-2"}}),
        )
        .await;
    assert_eq!(s, 202);
    assert_eq!(op["details"], json!({"changes": {}}));
}

#[tokio::test]
async fn manual_scale_down_terminates_the_newest_nodes_without_drain() {
    // Slow enough to see the change while it runs (at the suite's scale a pool update
    // ends in 60 ms, sooner than a busy machine reads it back).
    let t = start_with(|c| c.time_scale = 0.01).await;
    let d = t.demo().await;
    let path = format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.baseline);
    let nodes = t.ok(&format!("{path}/nodes")).await;
    let all = names(&nodes);
    let (s, op) = t.patch(&path, json!({"node_count": 1})).await;
    assert_eq!(s, 202, "{op}");
    let newest: Vec<String> = vec![all[2].clone(), all[1].clone()];
    assert_eq!(
        op["details"]["changes"],
        json!({"node_count": {"from": 3, "to": 1}, "terminated_nodes": {"from": newest, "to": []}})
    );
    assert!(op["details"]["changes"].get("drained").is_none());
    let pool = t.ok(&path).await;
    assert_eq!(
        (pool["node_count"].as_i64(), pool["status"].as_str()),
        (Some(1), Some("updating"))
    );
    let during = t.ok(&format!("{path}/nodes")).await;
    let deleting: Vec<&str> = during["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|n| n["status"] == "deleting")
        .filter_map(|n| n["name"].as_str())
        .collect();
    assert_eq!(deleting.len(), 2);
    t.wait_op(op["id"].as_str().expect("id")).await;
    let left = t.ok(&format!("{path}/nodes")).await;
    assert_eq!(names(&left), vec![all[0].clone()]);
    assert_eq!(t.ok(&path).await["status"], "ready");
}

#[tokio::test]
async fn scale_up_adds_creating_nodes_that_become_ready() {
    // Slow enough to see the change while it runs (at the suite's scale a pool update
    // ends in 60 ms, sooner than a busy machine reads it back).
    let t = start_with(|c| c.time_scale = 0.01).await;
    let d = t.demo().await;
    let path = format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.batch_zero);
    let (s, op) = t.patch(&path, json!({"node_count": 2})).await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(
        op["details"],
        json!({"changes": {"node_count": {"from": 0, "to": 2}}})
    );
    let during = t.ok(&format!("{path}/nodes")).await;
    assert_eq!(during["pagination"]["total_count"], 2);
    assert!(during["items"]
        .as_array()
        .expect("items")
        .iter()
        .all(|n| n["status"] == "creating"));
    t.wait_op(op["id"].as_str().expect("id")).await;
    let after = t.ok(&format!("{path}/nodes")).await;
    assert!(after["items"]
        .as_array()
        .expect("items")
        .iter()
        .all(|n| n["status"] == "ready"));
    assert!(names(&after).iter().all(|n| n.starts_with("batch-zero-")));
}

#[tokio::test]
async fn node_delete_is_an_nks_node_operation_that_lowers_node_count_when_done() {
    let t = start().await;
    let d = t.demo().await;
    let path = format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.baseline);
    let nodes = t.ok(&format!("{path}/nodes")).await;
    let nid = nodes["items"][0]["id"].as_str().expect("id").to_string();
    let (s, op) = t.delete(&format!("{path}/nodes/{nid}")).await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(
        (op["kind"].as_str(), op["type"].as_str()),
        (Some("nks_node"), Some("delete"))
    );
    assert_eq!(op["resource_id"], nid.as_str());
    assert_eq!(
        op["details"]["changes"]["node_count"],
        json!({"from": 3, "to": 2})
    );
    assert_eq!(
        t.ok(&path).await["node_count"],
        3,
        "count drops only when done"
    );
    assert_eq!(
        t.ok(&format!("{path}/nodes/{nid}")).await["status"],
        "deleting"
    );
    // The pool is busy meanwhile.
    let (s, body) = t.patch(&path, json!({"node_count": 5})).await;
    assert_eq!(s, 409, "{body}");
    t.wait_op(op["id"].as_str().expect("id")).await;
    assert_eq!(t.ok(&path).await["node_count"], 2);
    assert_eq!(t.get(&format!("{path}/nodes/{nid}")).await.0, 404);
}

#[tokio::test]
async fn pool_delete_removes_it_and_its_nodes() {
    let t = start().await;
    let d = t.demo().await;
    let path = format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.baseline);
    let (s, op) = t.delete(&path).await;
    assert_eq!(s, 202, "{op}");
    assert_eq!(t.ok(&path).await["status"], "deleting");
    t.wait_op(op["id"].as_str().expect("id")).await;
    assert_eq!(t.get(&path).await.0, 404);
    assert_eq!(t.get(&format!("{path}/nodes")).await.0, 404);
    let pools = t.ok(&format!("/v1/nks/clusters/{}/pools", d.cluster)).await;
    assert_eq!(names(&pools), vec!["batch-zero".to_string()]);
    let cluster = t.ok(&format!("/v1/nks/clusters/{}", d.cluster)).await;
    assert_eq!(cluster["pool_ids"], json!([d.batch_zero]));
}

#[tokio::test]
async fn pool_cost_quotes_are_exact_and_diffs_list_only_touched_dimensions() {
    let t = start().await;
    let d = t.demo().await;
    let mut body = pool_body("priced", 3);
    body["node_config"]["instance_type"] = json!("n1-standard-8");
    body["node_config"]["boot_volume"] = json!({"size": 128, "type": "abs"});
    let (s, q) = t
        .post(&format!("/v1/nks/clusters/{}/pools/cost", d.cluster), body)
        .await;
    assert_eq!(s, 200, "{q}");
    assert_eq!(q["monthly_total"], "360.77");
    let dims: Vec<&str> = q["usage_dimensions"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|r| r["dimension"].as_str())
        .collect();
    assert_eq!(
        dims,
        ["compute_vcpu", "compute_memory_gb", "storage_abs_gb"]
    );
    assert_eq!(q["usage_dimensions"][1]["unit_price"], "1.1680");
    assert_eq!(q["usage_dimensions"][1]["monthly_amount"], "112.13");
    assert_eq!(q["updated_summary"]["monthly_cost"], "794.54");

    let (s, u) = t
        .patch(
            &format!("/v1/nks/clusters/{}/pools/{}/cost", d.cluster, d.baseline),
            json!({"node_count": 1, "name": "n"}),
        )
        .await;
    assert_eq!(s, 200, "{u}");
    assert_eq!(
        keys(&u),
        sorted(&[
            "currency",
            "priced_at",
            "before",
            "after",
            "diff",
            "current_summary",
            "updated_summary"
        ])
    );
    assert_eq!(u["before"]["monthly_total"], "360.77");
    assert_eq!(u["after"]["monthly_total"], "120.26");
    assert_eq!(u["diff"]["monthly_total_delta"], "-240.51");
    let row = &u["diff"]["usage_dimensions"][0];
    assert_eq!(
        keys(row),
        sorted(&[
            "dimension",
            "dimension_display_name",
            "monthly_amount_delta",
            "before",
            "after"
        ])
    );
    assert_eq!(
        row["before"],
        json!({"quantity": 24, "unit_price": "8.7600", "monthly_amount": "210.24"})
    );
    assert_eq!(row["monthly_amount_delta"], "-140.16");
    let (_, same) = t
        .patch(
            &format!("/v1/nks/clusters/{}/pools/{}/cost", d.cluster, d.baseline),
            json!({"name": "only-a-rename"}),
        )
        .await;
    assert_eq!(same["diff"]["usage_dimensions"], json!([]));
}

#[tokio::test]
async fn pool_availability_answers_204_or_the_refusal_without_changing_anything() {
    let t = start().await;
    let d = t.demo().await;
    let url = format!("/v1/nks/clusters/{}/pools/availability", d.cluster);
    assert_eq!(t.post(&url, pool_body("fits", 2)).await, (204, Value::Null));
    let (s, body) = t.post(&url, pool_body("baseline", 1)).await;
    assert_eq!(s, 422);
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("name: ")),
        "{body}"
    );
    let upd = format!(
        "/v1/nks/clusters/{}/pools/{}/availability",
        d.cluster, d.baseline
    );
    assert_eq!(t.patch(&upd, json!({"node_count": 4})).await.0, 204);
    assert_eq!(t.patch(&upd, json!({"node_count": 101})).await.0, 422);
    let pools = t.ok(&format!("/v1/nks/clusters/{}/pools", d.cluster)).await;
    assert_eq!(pools["pagination"]["total_count"], 2);
}
