use serde_json::{json, Value};

use crate::common::*;

const CLUSTER_KEYS: &[&str] = &[
    "id",
    "name",
    "project_id",
    "region",
    "vpc_id",
    "kubernetes_version",
    "autoscaling",
    "pool_ids",
    "private_ip",
    "public_ip",
    "status",
    "tags",
    "created_at",
    "updated_at",
];
const OP_KEYS: &[&str] = &[
    "id",
    "kind",
    "type",
    "status",
    "resource_id",
    "project_id",
    "details",
    "created_at",
    "updated_at",
];

fn new_cluster(d: &Demo) -> Value {
    json!({
        "name": "edge-two",
        "project_id": d.production,
        "region": "us-sva-2",
        "vpc_id": d.spare_vpc,
        "kubernetes_version": "v1.33.8",
        "autoscaling": false,
        "tags": ["two"],
        "some_future_field": {"ignored": true}
    })
}

#[tokio::test]
async fn demo_cluster_has_the_digest_shape() {
    let t = start().await;
    let d = t.demo().await;
    let c = t.ok(&format!("/v1/nks/clusters/{}", d.cluster)).await;
    assert_eq!(keys(&c), sorted(CLUSTER_KEYS));
    assert_eq!(c["name"], "edge-prod");
    assert_eq!(c["status"], "ready");
    assert_eq!(c["autoscaling"], true);
    assert_eq!(c["tags"], json!(["prod"]));
    assert_eq!(c["private_ip"], "10.20.0.253");
    assert!(c["public_ip"].is_string());
    assert_eq!(c["vpc_id"], d.prod_vpc.as_str());
    assert_eq!(c["pool_ids"], json!([d.baseline, d.batch_zero]));
    let created = c["created_at"].as_str().expect("ts");
    assert_eq!(created, "2026-05-04T09:12:00Z");
}

#[tokio::test]
async fn cluster_create_runs_pending_running_done_and_the_cluster_becomes_ready() {
    let t = start().await;
    let d = t.demo().await;
    let (status, op) = t.post("/v1/nks/clusters", new_cluster(&d)).await;
    assert_eq!(status, 202, "{op}");
    assert_eq!(keys(&op), sorted(OP_KEYS));
    assert_eq!(op["status"], "pending");
    assert_eq!(op["kind"], "nks_cluster");
    assert_eq!(op["type"], "create");
    assert_eq!(op["project_id"], d.production.as_str());
    assert_eq!(op["details"], Value::Null);
    let cid = op["resource_id"].as_str().expect("resource id").to_string();
    assert_ne!(cid, op["id"].as_str().unwrap_or_default());

    let c = t.ok(&format!("/v1/nks/clusters/{cid}")).await;
    assert_eq!(c["status"], "creating");
    // Strings in the SDK types, never null: empty until the control plane exists.
    assert_eq!(c["private_ip"], "");
    assert_eq!(c["public_ip"], "");
    assert_eq!(c["tags"], json!(["two"]));
    let (kc_status, kc) = t.get(&format!("/v1/nks/clusters/{cid}/kubeconfig")).await;
    assert_eq!(kc_status, 409, "{kc}");
    assert!(kc["message"]
        .as_str()
        .is_some_and(|m| m.contains("not ready")));

    let (done, seen) = t.wait_op(op["id"].as_str().expect("id")).await;
    assert_eq!(done["status"], "done");
    assert!(seen.contains(&"running".to_string()), "saw {seen:?}");
    assert!(done["updated_at"].as_str() >= done["created_at"].as_str());

    let c = t.ok(&format!("/v1/nks/clusters/{cid}")).await;
    assert_eq!(c["status"], "ready");
    assert_eq!(c["private_ip"], "10.21.0.253");
    let kc = t.ok(&format!("/v1/nks/clusters/{cid}/kubeconfig")).await;
    assert_eq!(keys(&kc), ["kubeconfig"]);
    let yaml = kc["kubeconfig"].as_str().expect("yaml");
    assert!(yaml.starts_with("apiVersion: v1\nkind: Config\n"));
    assert!(yaml.contains("\"edge-two\""));

    let list = t
        .ok(&format!("/v1/nks/clusters?project_id={}", d.production))
        .await;
    assert_eq!(list["pagination"]["total_count"], 2);
    let q = t.ok("/v1/quotas/us-sva-2").await;
    assert_eq!(q["nks"]["clusters"]["used"], 2);
}

#[tokio::test]
async fn cluster_update_applies_only_mutable_fields_and_records_real_changes() {
    let t = start().await;
    let d = t.demo().await;
    let before = t.ok(&format!("/v1/nks/clusters/{}", d.cluster)).await;
    let (status, op) = t
        .patch(
            &format!("/v1/nks/clusters/{}", d.cluster),
            json!({
                "name": "edge-prod-renamed",
                "autoscaling": true,
                "tags": ["prod", "eu"],
                "kubernetes_version": "v1.32.12",
                "vpc_id": d.spare_vpc,
                "region": "somewhere-else",
                "project_id": d.staging,
                "pool_ids": []
            }),
        )
        .await;
    assert_eq!(status, 202, "{op}");
    assert_eq!(op["type"], "update");
    assert_eq!(
        op["details"],
        json!({"changes": {
            "name": {"from": "edge-prod", "to": "edge-prod-renamed"},
            "tags": {"from": ["prod"], "to": ["prod", "eu"]}
        }})
    );
    let during = t.ok(&format!("/v1/nks/clusters/{}", d.cluster)).await;
    assert_eq!(during["status"], "updating");
    t.wait_op(op["id"].as_str().expect("id")).await;
    let after = t.ok(&format!("/v1/nks/clusters/{}", d.cluster)).await;
    assert_eq!(after["status"], "ready");
    assert_eq!(after["name"], "edge-prod-renamed");
    assert_eq!(after["tags"], json!(["prod", "eu"]));
    for immutable in [
        "kubernetes_version",
        "vpc_id",
        "region",
        "project_id",
        "pool_ids",
        "created_at",
    ] {
        assert_eq!(after[immutable], before[immutable], "{immutable} changed");
    }
    // Omitted fields stay; an empty tags array clears the list.
    let (_, op2) = t
        .patch(
            &format!("/v1/nks/clusters/{}", d.cluster),
            json!({"tags": []}),
        )
        .await;
    t.wait_op(op2["id"].as_str().expect("id")).await;
    let cleared = t.ok(&format!("/v1/nks/clusters/{}", d.cluster)).await;
    assert_eq!(cleared["tags"], json!([]));
    assert_eq!(cleared["name"], "edge-prod-renamed");
}

#[tokio::test]
async fn cluster_delete_removes_its_pools_and_then_answers_404() {
    let t = start().await;
    let d = t.demo().await;
    let (status, op) = t.delete(&format!("/v1/nks/clusters/{}", d.cluster)).await;
    assert_eq!(status, 202, "{op}");
    assert_eq!(
        (op["type"].as_str(), op["resource_id"].as_str()),
        (Some("delete"), Some(d.cluster.as_str()))
    );
    let during = t.ok(&format!("/v1/nks/clusters/{}", d.cluster)).await;
    assert_eq!(during["status"], "deleting");
    let pool = t
        .ok(&format!(
            "/v1/nks/clusters/{}/pools/{}",
            d.cluster, d.baseline
        ))
        .await;
    assert_eq!(pool["status"], "deleting");
    t.wait_op(op["id"].as_str().expect("id")).await;
    assert_eq!(
        t.get(&format!("/v1/nks/clusters/{}", d.cluster)).await.0,
        404
    );
    assert_eq!(
        t.get(&format!(
            "/v1/nks/clusters/{}/pools/{}",
            d.cluster, d.baseline
        ))
        .await
        .0,
        404
    );
    let list = t
        .ok(&format!("/v1/nks/clusters?project_id={}", d.production))
        .await;
    assert_eq!(list["pagination"]["total_count"], 0);
    assert_eq!(
        t.delete(&format!("/v1/nks/clusters/{}", d.cluster)).await.0,
        404
    );
    let q = t.ok("/v1/quotas/us-sva-2").await;
    assert_eq!(q["nks"]["node_pool_vcpu"]["used"], 0);
    // The freed VPC can host a new cluster.
    let (s, _) = t
        .post(
            "/v1/nks/clusters/availability",
            json!({"name": "again", "project_id": d.production, "region": "us-sva-2",
            "vpc_id": d.prod_vpc, "kubernetes_version": "v1.34.4", "autoscaling": true}),
        )
        .await;
    assert_eq!(s, 204);
}

#[tokio::test]
async fn a_second_mutation_while_one_runs_is_409_naming_the_operation() {
    let t = start_with(|c| c.time_scale = 0.05).await;
    let d = t.demo().await;
    let (_, op) = t
        .patch(
            &format!("/v1/nks/clusters/{}", d.cluster),
            json!({"name": "busy"}),
        )
        .await;
    let op_id = op["id"].as_str().expect("id");
    let expected = format!("another operation is in progress on this resource: {op_id}");
    let (s, body) = t
        .patch(
            &format!("/v1/nks/clusters/{}", d.cluster),
            json!({"name": "again"}),
        )
        .await;
    assert_eq!(
        (s, body["message"].as_str()),
        (409, Some(expected.as_str()))
    );
    let (s, body) = t.delete(&format!("/v1/nks/clusters/{}", d.cluster)).await;
    assert_eq!(
        (s, body["message"].as_str()),
        (409, Some(expected.as_str()))
    );
    let (s, body) = t
        .post(
            &format!("/v1/nks/clusters/{}/pools", d.cluster),
            pool_body("new", 1),
        )
        .await;
    assert_eq!(
        (s, body["message"].as_str()),
        (409, Some(expected.as_str())),
        "pool create on a busy cluster"
    );
    let (s, _) = t
        .patch(
            &format!("/v1/nks/clusters/{}/availability", d.cluster),
            json!({"name": "x"}),
        )
        .await;
    assert_eq!(s, 409);
}

#[tokio::test]
async fn cluster_cost_quotes_the_control_plane_and_updates_change_nothing() {
    let t = start().await;
    let d = t.demo().await;
    let (s, q) = t.post("/v1/nks/clusters/cost", new_cluster(&d)).await;
    assert_eq!(s, 200, "{q}");
    assert_eq!(
        keys(&q),
        sorted(&[
            "currency",
            "monthly_total",
            "priced_at",
            "usage_dimensions",
            "current_summary",
            "updated_summary"
        ])
    );
    assert_eq!(q["currency"], "USD");
    assert_eq!(q["monthly_total"], "73.00");
    assert_eq!(
        q["usage_dimensions"][0],
        json!({"dimension": "nks_control_plane", "dimension_display_name": "NKS control plane (per cluster-month)",
               "quantity": 1, "unit_price": "73.0000", "monthly_amount": "73.00"})
    );
    // Current org run-rate: edge-prod's control plane + baseline (3 × n1-standard-8, 128 GB ABS).
    assert_eq!(q["current_summary"]["monthly_cost"], "433.77");
    assert_eq!(q["updated_summary"]["monthly_cost"], "506.77");
    assert_eq!(
        keys(&q["current_summary"]),
        sorted(&[
            "daily_cost",
            "monthly_cost",
            "effective_balance",
            "recharge_threshold_days",
            "runway_months",
            "estimated_next_charge_at"
        ])
    );
    let (s, u) = t
        .patch(
            &format!("/v1/nks/clusters/{}/cost", d.cluster),
            json!({"name": "x"}),
        )
        .await;
    assert_eq!(s, 200, "{u}");
    assert_eq!(u["diff"]["monthly_total_delta"], "0.00");
    assert_eq!(u["before"]["monthly_total"], "433.77");
    assert_eq!(u["after"], u["before"]);
    assert_eq!(
        t.post("/v1/nks/clusters/cost", json!({"name": "x"}))
            .await
            .0,
        422
    );
}

#[tokio::test]
async fn cost_quotes_omit_billing_summaries_for_keys_without_billing_access() {
    let t = start_with(|c| c.api_keys = vec!["nks-demo-key".into(), "ci-key".into()]).await;
    let d = t.demo().await;
    let q: Value = t
        .http
        .post(t.url("/v1/nks/clusters/cost"))
        .bearer_auth("ci-key")
        .json(&new_cluster(&d))
        .send()
        .await
        .expect("sent")
        .json()
        .await
        .expect("json");
    assert!(
        q.get("current_summary").is_none() && q.get("updated_summary").is_none(),
        "{q}"
    );
}

#[tokio::test]
async fn cluster_availability_answers_204_or_the_refusal() {
    let t = start().await;
    let d = t.demo().await;
    let url = "/v1/nks/clusters/availability";
    let (s, body) = t.post(url, new_cluster(&d)).await;
    assert_eq!((s, body), (204, Value::Null));
    let mut taken = new_cluster(&d);
    taken["vpc_id"] = json!(d.prod_vpc);
    let (s, body) = t.post(url, taken).await;
    assert_eq!(s, 422);
    assert!(
        body["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("vpc_id: VPC already hosts cluster edge-prod")),
        "{body}"
    );
    assert_eq!(
        t.patch(
            &format!("/v1/nks/clusters/{}/availability", d.cluster),
            json!({"name": "ok"})
        )
        .await
        .0,
        204
    );
    assert_eq!(
        t.patch(
            &format!("/v1/nks/clusters/{}/availability", d.cluster),
            json!({"name": ""})
        )
        .await
        .0,
        422
    );
    // Nothing changed.
    assert_eq!(
        t.ok(&format!("/v1/nks/clusters/{}", d.cluster)).await["name"],
        "edge-prod"
    );
}
