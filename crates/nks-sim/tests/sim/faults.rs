use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::*;

async fn add(t: &T, spec: Value) -> String {
    let (status, body) = t.sim(Method::POST, "/_sim/faults", Some(spec)).await;
    assert_eq!(status, 201, "{body}");
    body["id"].as_str().expect("fault id").to_string()
}

#[tokio::test]
async fn status_fault_answers_with_retry_headers_for_the_next_n_matches() {
    let t = start().await;
    add(&t, json!({"match": {"method": "GET", "path_prefix": "/v1/user"}, "count": 2,
        "action": {"type": "status", "status": 429, "retry_after": "2", "retry_after_ms": "1500", "message": "slow down"}})).await;
    for _ in 0..2 {
        let resp = t
            .http
            .get(t.url("/v1/user"))
            .bearer_auth(KEY)
            .send()
            .await
            .expect("sent");
        assert_eq!(resp.status().as_u16(), 429);
        assert_eq!(resp.headers()["retry-after"], "2");
        assert_eq!(resp.headers()["retry-after-ms"], "1500");
        let body: Value = resp.json().await.expect("json");
        assert_eq!(body["message"], "slow down");
    }
    assert_eq!(t.get("/v1/user").await.0, 200, "expired after count");
    assert_eq!(
        t.sim(Method::GET, "/_sim/faults", None).await.1["items"],
        json!([])
    );

    // Without retry headers none are sent; an HTTP date is passed through verbatim.
    add(
        &t,
        json!({"count": 1, "action": {"type": "status", "status": 503}}),
    )
    .await;
    let resp = t
        .http
        .get(t.url("/v1/regions"))
        .bearer_auth(KEY)
        .send()
        .await
        .expect("sent");
    assert_eq!(resp.status().as_u16(), 503);
    assert!(
        resp.headers().get("retry-after").is_none()
            && resp.headers().get("retry-after-ms").is_none()
    );
    add(&t, json!({"count": 1, "action": {"type": "status", "status": 503, "retry_after": "Wed, 21 Oct 2026 07:28:00 GMT"}})).await;
    let resp = t
        .http
        .get(t.url("/v1/regions"))
        .bearer_auth(KEY)
        .send()
        .await
        .expect("sent");
    assert_eq!(
        resp.headers()["retry-after"],
        "Wed, 21 Oct 2026 07:28:00 GMT"
    );
}

#[tokio::test]
async fn faults_apply_before_authentication_and_only_to_matching_requests() {
    let t = start().await;
    add(
        &t,
        json!({"match": {"method": "POST"}, "action": {"type": "status", "status": 500}}),
    )
    .await;
    assert_eq!(t.get("/v1/user").await.0, 200);
    let resp = t
        .http
        .post(t.url("/v1/nks/clusters"))
        .json(&json!({}))
        .send()
        .await
        .expect("sent");
    assert_eq!(resp.status().as_u16(), 500, "fault wins even without a key");
    assert_eq!(t.sim(Method::DELETE, "/_sim/faults", None).await.0, 204);
    assert_eq!(t.post("/v1/nks/clusters", json!({})).await.0, 422);
}

#[tokio::test]
async fn latency_fault_delays_then_serves_normally() {
    let t = start().await;
    add(
        &t,
        json!({"count": 1, "action": {"type": "latency", "ms": 300}}),
    )
    .await;
    let started = Instant::now();
    let (status, body) = t.get("/v1/user").await;
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(
        (status, body["email"].as_str()),
        (200, Some("operator@example.com"))
    );
    let started = Instant::now();
    t.get("/v1/user").await;
    assert!(started.elapsed() < Duration::from_millis(300));
}

#[tokio::test]
async fn drop_fault_closes_the_connection_without_any_http_response() {
    let t = start().await;
    add(
        &t,
        json!({"match": {"path_prefix": "/v1/nks"}, "count": 2, "action": {"type": "drop"}}),
    )
    .await;
    let err = t
        .http
        .get(t.url("/v1/nks/kubernetes_versions"))
        .bearer_auth(KEY)
        .send()
        .await;
    let err = err.expect_err("no response at all");
    assert!(err.status().is_none() && err.is_request(), "{err:?}");

    // Raw TCP: the server closes after reading the request and writes zero bytes.
    let addr = t.base.trim_start_matches("http://").to_string();
    let mut stream = tokio::net::TcpStream::connect(&addr)
        .await
        .expect("connect");
    stream
        .write_all(b"GET /v1/nks/kubernetes_versions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer nks-demo-key\r\n\r\n")
        .await
        .expect("write");
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut buf))
        .await
        .expect("closed in time");
    assert!(
        read.is_err() || buf.is_empty(),
        "got bytes: {:?}",
        String::from_utf8_lossy(&buf)
    );
    assert_eq!(
        t.get("/v1/nks/kubernetes_versions").await.0,
        200,
        "expired after count"
    );
}

#[tokio::test]
async fn malformed_fault_sends_200_json_that_does_not_parse() {
    let t = start().await;
    add(&t, json!({"count": 1, "action": {"type": "malformed"}})).await;
    let resp = t
        .http
        .get(t.url("/v1/regions"))
        .bearer_auth(KEY)
        .send()
        .await
        .expect("sent");
    assert_eq!(resp.status().as_u16(), 200);
    assert!(resp.headers()["content-type"]
        .to_str()
        .is_ok_and(|c| c.starts_with("application/json")));
    let text = resp.text().await.expect("text");
    assert!(serde_json::from_str::<Value>(&text).is_err(), "{text}");
}

#[tokio::test]
async fn page_fail_fails_only_the_request_for_that_page() {
    let t = start().await;
    let d = t.demo().await;
    add(
        &t,
        json!({"action": {"type": "page_fail", "page": 2, "status": 502}}),
    )
    .await;
    let first_url = format!("/v1/operations?project_id={}&limit=10", d.production);
    // Four demo operations plus enough new ones to need a second page of 10.
    for i in 0..4 {
        let (s, _) = t
            .post(
                &format!("/v1/nks/clusters/{}/pools", d.cluster),
                pool_body(&format!("p{i}"), 0),
            )
            .await;
        assert_eq!(s, 202);
    }
    for i in 0..4 {
        let (s, op) = t
            .patch(
                &format!("/v1/nks/clusters/{}", d.cluster),
                json!({"name": format!("n{i}")}),
            )
            .await;
        assert!(s == 202 || s == 409, "{op}");
        if s == 202 {
            t.wait_op(op["id"].as_str().expect("id")).await;
        }
    }
    let first = t.ok(&first_url).await;
    assert!(first["pagination"]["total_count"].as_u64() > Some(10));
    let cursor = first["pagination"]["next_cursor"]
        .as_str()
        .expect("second page")
        .to_string();
    let (status, body) = t.get(&format!("{first_url}&cursor={cursor}")).await;
    assert_eq!(status, 502, "{body}");
    // Non-list requests are never hit by page_fail.
    assert_eq!(
        t.get(&format!("/v1/nks/clusters/{}", d.cluster)).await.0,
        200
    );
}

#[tokio::test]
async fn fraction_fault_fires_on_that_share_of_requests() {
    let t = start().await;
    add(&t, json!({"match": {"path_prefix": "/v1/regions"}, "fraction": 0.5, "action": {"type": "status", "status": 500}})).await;
    let mut failures = 0;
    for _ in 0..10 {
        if t.get("/v1/regions").await.0 == 500 {
            failures += 1;
        }
    }
    assert_eq!(failures, 5);
}

#[tokio::test]
async fn faults_are_listed_and_removed_one_by_one() {
    let t = start().await;
    let a = add(&t, json!({"action": {"type": "latency", "ms": 1}})).await;
    let b = add(
        &t,
        json!({"match": {"path_prefix": "/v1/user"}, "action": {"type": "status", "status": 418}}),
    )
    .await;
    let list = t.sim(Method::GET, "/_sim/faults", None).await.1;
    let ids: Vec<&str> = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|f| f["id"].as_str())
        .collect();
    assert_eq!(ids, [a.as_str(), b.as_str()]);
    assert_eq!(t.get("/v1/user").await.0, 418);
    assert_eq!(
        t.sim(Method::DELETE, &format!("/_sim/faults/{b}"), None)
            .await
            .0,
        204
    );
    assert_eq!(
        t.sim(Method::DELETE, &format!("/_sim/faults/{b}"), None)
            .await
            .0,
        404
    );
    assert_eq!(t.get("/v1/user").await.0, 200);
    for bad in [
        json!({"action": {"type": "explode"}}),
        json!({"fraction": 2.0, "action": {"type": "drop"}}),
        json!({"action": {"type": "status", "status": 99}}),
        json!({"action": {"type": "page_fail", "page": 0}}),
    ] {
        assert_eq!(
            t.sim(Method::POST, "/_sim/faults", Some(bad.clone()))
                .await
                .0,
            400,
            "{bad}"
        );
    }
}
