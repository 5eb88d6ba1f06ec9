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

#[tokio::test]
async fn finish_ends_the_named_operations_now_and_leaves_the_others_running() {
    // Real durations: nothing would end during this test on its own.
    let t = start_with(|c| c.time_scale = 1.0).await;
    let d = t.demo().await;
    let (_, update) = t
        .patch(
            &format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.baseline),
            json!({"node_count": 4}),
        )
        .await;
    let (_, create) = t
        .post(
            &format!("/v1/nks/clusters/{}/pools", d.cluster),
            pool_body("later", 1),
        )
        .await;
    let update_id = update["id"].as_str().expect("id");
    let create_id = create["id"].as_str().expect("id");

    let (s, ended) = t
        .sim(
            Method::POST,
            "/_sim/operations/finish",
            Some(json!({"id": update_id})),
        )
        .await;
    assert_eq!(s, 200);
    assert_eq!(
        ended["finished"],
        json!([{"id": update_id, "kind": "nks_node_pool", "status": "done"}])
    );
    let pool = t
        .ok(&format!(
            "/v1/nks/clusters/{}/pools/{}",
            d.cluster, d.baseline
        ))
        .await;
    assert_eq!(pool["node_count"], 4);
    assert_eq!(pool["status"], "ready");
    let op = t.ok(&format!("/v1/operations/{update_id}")).await;
    assert_eq!(op["status"], "done");
    let other = t.ok(&format!("/v1/operations/{create_id}")).await;
    assert!(
        ["pending", "running"].contains(&other["status"].as_str().unwrap_or("")),
        "{other}"
    );

    // By kind, and a planned failure stays a failure.
    let (s, bad) = t
        .sim(
            Method::POST,
            "/_sim/operations/finish",
            Some(json!({"kind": "warp"})),
        )
        .await;
    assert_eq!(s, 400, "{bad}");
    let (_, ended) = t
        .sim(
            Method::POST,
            "/_sim/operations/finish",
            Some(json!({"kind": "nks_node_pool"})),
        )
        .await;
    assert_eq!(ended["finished"][0]["id"], create_id);
    assert_eq!(ended["finished"].as_array().map(Vec::len), Some(1));
    t.sim(
        Method::POST,
        "/_sim/operations/next",
        Some(json!({"outcome": "failed"})),
    )
    .await;
    let (_, doomed) = t
        .patch(
            &format!("/v1/nks/clusters/{}", d.cluster),
            json!({"tags": ["x"]}),
        )
        .await;
    let (_, ended) = t.sim(Method::POST, "/_sim/operations/finish", None).await;
    assert_eq!(
        ended["finished"],
        json!([{"id": doomed["id"], "kind": "nks_cluster", "status": "failed"}])
    );
}

#[tokio::test]
async fn the_clock_moves_forward_on_request_and_operations_follow_it() {
    let t = start_with(|c| c.time_scale = 1.0).await;
    let d = t.demo().await;
    let (_, before) = t.sim(Method::GET, "/_sim/clock", None).await;
    assert_eq!(before["offset_ms"], 0);
    let (_, op) = t
        .patch(
            &format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.baseline),
            json!({"node_count": 4}),
        )
        .await;
    let id = op["id"].as_str().expect("id");

    // A pool update takes 2 minutes: one minute in, it is still running.
    let (s, one) = t
        .sim(
            Method::POST,
            "/_sim/clock",
            Some(json!({"advance_ms": 60_000})),
        )
        .await;
    assert_eq!(s, 200);
    assert_eq!(one["offset_ms"], 60_000);
    assert_eq!(
        t.ok(&format!("/v1/operations/{id}")).await["status"],
        "running"
    );
    t.sim(
        Method::POST,
        "/_sim/clock",
        Some(json!({"advance_ms": 61_000})),
    )
    .await;
    let done = t.ok(&format!("/v1/operations/{id}")).await;
    assert_eq!(done["status"], "done");
    // Stamped at its own end on the moved clock: two minutes after it was created.
    let created = nks_sim_time(&done["created_at"]);
    let updated = nks_sim_time(&done["updated_at"]);
    assert_eq!(updated - created, 120);

    // New records carry the offset; a reset puts the clock back on the wall.
    let (s, bad) = t
        .sim(Method::POST, "/_sim/clock", Some(json!({"advance_ms": -1})))
        .await;
    assert_eq!(s, 400, "{bad}");
    t.sim(Method::POST, "/_sim/reset", Some(json!({}))).await;
    let (_, after) = t.sim(Method::GET, "/_sim/clock", None).await;
    assert_eq!(after["offset_ms"], 0);
}

#[tokio::test]
async fn the_autoscaler_takes_its_turn_when_the_clock_passes_its_period() {
    let t = start_with(|c| {
        c.time_scale = 1.0;
        c.autoscaler = true;
    })
    .await;
    let d = t.demo().await;
    let list = format!("/v1/operations?project_id={}&limit=100", d.production);
    let count = |v: &serde_json::Value| v["pagination"]["total_count"].as_u64().unwrap_or(0);
    let before = count(&t.ok(&list).await);
    // The first request switched the autoscaler's timer on; a period later it acts.
    t.sim(
        Method::POST,
        "/_sim/clock",
        Some(json!({"advance_ms": 61_000})),
    )
    .await;
    let ops = t.ok(&list).await;
    assert_eq!(count(&ops), before + 1, "{ops}");
}

/// Seconds since the epoch of an RFC 3339 timestamp as the simulator writes it.
fn nks_sim_time(v: &serde_json::Value) -> i64 {
    let text = v.as_str().expect("timestamp");
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .expect("rfc3339")
        .unix_timestamp()
}
