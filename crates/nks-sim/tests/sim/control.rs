use std::time::Duration;

use reqwest::Method;
use serde_json::json;

use crate::common::*;

#[tokio::test]
async fn next_operation_failed_leaves_the_resource_in_error() {
    let t = start().await;
    let d = t.demo().await;
    let (s, _) = t
        .sim(
            Method::POST,
            "/_sim/operations/next",
            Some(json!({"outcome": "failed", "kind": "nks_node_pool"})),
        )
        .await;
    assert_eq!(s, 201);
    // A cluster operation does not consume a pool-only override.
    let (_, cop) = t
        .patch(
            &format!("/v1/nks/clusters/{}", d.cluster),
            json!({"tags": ["x"]}),
        )
        .await;
    assert_eq!(
        t.wait_op(cop["id"].as_str().expect("id")).await.0["status"],
        "done"
    );
    let (_, op) = t
        .post(
            &format!("/v1/nks/clusters/{}/pools", d.cluster),
            pool_body("doomed", 1),
        )
        .await;
    let (done, seen) = t.wait_op(op["id"].as_str().expect("id")).await;
    assert_eq!(done["status"], "failed");
    assert!(seen.contains(&"running".to_string()), "{seen:?}");
    let pid = op["resource_id"].as_str().expect("pool");
    let pool = t
        .ok(&format!("/v1/nks/clusters/{}/pools/{pid}", d.cluster))
        .await;
    assert_eq!(pool["status"], "error");
    // The next one succeeds again, and an errored pool can be deleted.
    let (s, del) = t
        .delete(&format!("/v1/nks/clusters/{}/pools/{pid}", d.cluster))
        .await;
    assert_eq!(s, 202);
    assert_eq!(
        t.wait_op(del["id"].as_str().expect("id")).await.0["status"],
        "done"
    );
}

#[tokio::test]
async fn next_operation_unknown_sits_in_unknown_then_finishes() {
    let t = start().await;
    let d = t.demo().await;
    t.sim(
        Method::POST,
        "/_sim/operations/next",
        Some(json!({"outcome": "unknown", "unknown_ms": 400})),
    )
    .await;
    let (_, op) = t
        .patch(
            &format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.baseline),
            json!({"node_count": 4}),
        )
        .await;
    let id = op["id"].as_str().expect("id");
    tokio::time::sleep(Duration::from_millis(150)).await;
    let mid = t.ok(&format!("/v1/operations/{id}")).await;
    assert_eq!(mid["status"], "unknown");
    // Still in flight: the pool is busy.
    assert_eq!(
        t.patch(
            &format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.baseline),
            json!({"node_count": 5})
        )
        .await
        .0,
        409
    );
    let (done, seen) = t.wait_op(id).await;
    assert_eq!(done["status"], "done");
    assert!(!seen.contains(&"running".to_string()), "{seen:?}");
    let pool = t
        .ok(&format!(
            "/v1/nks/clusters/{}/pools/{}",
            d.cluster, d.baseline
        ))
        .await;
    assert_eq!(
        (pool["status"].as_str(), pool["node_count"].as_i64()),
        (Some("ready"), Some(4))
    );
    let unknowns = t
        .ok(&format!(
            "/v1/operations?project_id={}&status=unknown",
            d.production
        ))
        .await;
    assert_eq!(unknowns["pagination"]["total_count"], 0);
}

#[tokio::test]
async fn request_counters_count_every_v1_request_by_route_and_path() {
    let t = start().await;
    let d = t.demo().await;
    assert_eq!(t.sim(Method::DELETE, "/_sim/requests", None).await.0, 204);
    let (_, op) = t
        .patch(
            &format!("/v1/nks/clusters/{}", d.cluster),
            json!({"name": "c"}),
        )
        .await;
    let id = op["id"].as_str().expect("id");
    for _ in 0..3 {
        t.get(&format!("/v1/operations/{id}")).await;
    }
    t.http
        .get(t.url("/v1/user"))
        .send()
        .await
        .expect("401 still counted");
    t.http
        .request(Method::OPTIONS, t.url("/v1/user"))
        .send()
        .await
        .expect("preflight counted");
    t.sim(Method::GET, "/_sim/faults", None).await;
    let counts = t.sim(Method::GET, "/_sim/requests", None).await.1;
    assert_eq!(counts["total"], 6);
    // Routes as the router spells them (axum's MatchedPath), with the SDKs' parameter names.
    assert_eq!(counts["by_route"]["GET /v1/operations/{operation_id}"], 3);
    assert_eq!(counts["by_route"]["PATCH /v1/nks/clusters/{cluster_id}"], 1);
    assert_eq!(counts["by_route"]["OPTIONS /v1/user"], 1);
    assert_eq!(counts["by_path"][format!("GET /v1/operations/{id}")], 3);
    assert_eq!(counts["by_path"]["GET /v1/user"], 1);
    t.sim(Method::DELETE, "/_sim/requests", None).await;
    assert_eq!(
        t.sim(Method::GET, "/_sim/requests", None).await.1["total"],
        0
    );
}

#[tokio::test]
async fn reset_reseeds_the_world_and_clears_faults_and_counters() {
    let t = start().await;
    let d = t.demo().await;
    t.delete(&format!("/v1/nks/clusters/{}", d.cluster)).await;
    t.sim(
        Method::POST,
        "/_sim/faults",
        Some(json!({"match": {"path_prefix": "/v1/projects/"}, "action": {"type": "drop"}})),
    )
    .await;
    let (s, body) = t
        .sim(Method::POST, "/_sim/reset", Some(json!({"seed": "empty"})))
        .await;
    assert_eq!((s, body["seed"].as_str()), (200, Some("empty")));
    let projects = t.ok("/v1/projects").await;
    assert_eq!(projects["pagination"]["total_count"], 1);
    assert_eq!(
        t.sim(Method::GET, "/_sim/faults", None).await.1["items"],
        json!([])
    );
    assert_eq!(
        t.sim(Method::GET, "/_sim/requests", None).await.1["total"],
        1
    );
    t.sim(Method::POST, "/_sim/reset", Some(json!({"seed": "demo"})))
        .await;
    let again = t.demo().await;
    assert_eq!(again.cluster, d.cluster, "ids are deterministic per seed");
    assert_eq!(
        t.ok(&format!("/v1/nks/clusters/{}", d.cluster)).await["status"],
        "ready"
    );
    assert_eq!(
        t.sim(Method::POST, "/_sim/reset", Some(json!({"seed": "huge"})))
            .await
            .0,
        400
    );
}

#[tokio::test]
async fn time_scale_can_change_at_run_time_for_new_operations() {
    let t = start_with(|c| c.time_scale = 1.0).await;
    let d = t.demo().await;
    let (s, body) = t
        .sim(
            Method::POST,
            "/_sim/time-scale",
            Some(json!({"time_scale": 0.0005})),
        )
        .await;
    assert_eq!((s, body["time_scale"].as_f64()), (200, Some(0.0005)));
    let (_, op) = t
        .patch(
            &format!("/v1/nks/clusters/{}", d.cluster),
            json!({"name": "quick"}),
        )
        .await;
    assert_eq!(
        t.wait_op(op["id"].as_str().expect("id")).await.0["status"],
        "done"
    );
    assert_eq!(
        t.sim(
            Method::POST,
            "/_sim/time-scale",
            Some(json!({"time_scale": -1}))
        )
        .await
        .0,
        400
    );
    assert_eq!(
        t.sim(
            Method::POST,
            "/_sim/time-scale",
            Some(json!({"time_scale": "fast"}))
        )
        .await
        .0,
        400
    );
}
