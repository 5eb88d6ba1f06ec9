use nks_sim::Seed;
use serde_json::Value;

use crate::common::*;

async fn large() -> (T, String, String) {
    let t = start_with(|c| c.seed = Seed::Large).await;
    let projects = t.ok("/v1/projects").await;
    let large = projects["items"]
        .as_array()
        .and_then(|a| a.iter().find(|p| p["name"] == "Large"))
        .and_then(|p| p["id"].as_str())
        .expect("Large project")
        .to_string();
    let clusters = t
        .ok(&format!("/v1/nks/clusters?project_id={large}&limit=100"))
        .await;
    let big = clusters["items"]
        .as_array()
        .and_then(|a| a.iter().find(|c| c["name"] == "big"))
        .and_then(|c| c["id"].as_str())
        .expect("big cluster")
        .to_string();
    (t, large, big)
}

/// Follows `next_cursor` to the end, returning every id and the number of pages.
async fn walk(t: &T, first: &str) -> (Vec<String>, usize, Value) {
    let mut ids = Vec::new();
    let mut pages = 0;
    let mut url = first.to_string();
    loop {
        let page = t.ok(&url).await;
        pages += 1;
        ids.extend(
            page["items"]
                .as_array()
                .expect("items")
                .iter()
                .filter_map(|i| i["id"].as_str().map(str::to_string)),
        );
        match page["pagination"]["next_cursor"].as_str() {
            Some(c) => {
                let sep = if first.contains('?') { '&' } else { '?' };
                url = format!("{first}{sep}cursor={c}");
            }
            None => return (ids, pages, page),
        }
    }
}

#[tokio::test]
async fn large_seed_lists_span_many_pages_and_end_with_a_null_cursor() {
    let (t, large, big) = large().await;
    let (ids, pages, last) = walk(&t, &format!("/v1/nks/clusters/{big}/pools?limit=100")).await;
    assert_eq!(ids.len(), 1000);
    assert_eq!(pages, 10);
    assert_eq!(last["pagination"]["total_count"], 1000);
    assert!(last["pagination"]["next_cursor"].is_null());
    assert!(last["pagination"]["previous_cursor"].is_string());
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 1000, "no item repeats across pages");

    let first = t.ok(&format!("/v1/nks/clusters/{big}/pools")).await;
    assert_eq!(
        first["items"].as_array().map(Vec::len),
        Some(20),
        "default limit is 20"
    );
    assert!(first["pagination"]["previous_cursor"].is_null());

    let clusters = t.ok(&format!("/v1/nks/clusters?project_id={large}")).await;
    assert_eq!(clusters["pagination"]["total_count"], 40);

    let (ops, op_pages, _) =
        walk(&t, &format!("/v1/operations?project_id={large}&limit=100")).await;
    assert!(ops.len() >= 2000, "{} operations", ops.len());
    assert!(op_pages >= 20);
}

#[tokio::test]
async fn limit_outside_10_to_100_and_foreign_or_garbled_cursors_are_400() {
    let (t, large, big) = large().await;
    for limit in ["9", "101", "0", "-5", "ten", "99999999999999999999999"] {
        let (status, body) = t
            .get(&format!("/v1/nks/clusters/{big}/pools?limit={limit}"))
            .await;
        assert_eq!(status, 400, "limit={limit}: {body}");
        assert_eq!(
            body["message"],
            "limit: must be an integer between 10 and 100"
        );
    }
    assert_eq!(
        t.get(&format!("/v1/nks/clusters/{big}/pools?limit=10"))
            .await
            .0,
        200
    );
    assert_eq!(
        t.get(&format!("/v1/nks/clusters/{big}/pools?limit=100"))
            .await
            .0,
        200
    );

    let page = t
        .ok(&format!("/v1/operations?project_id={large}&status=done"))
        .await;
    let cursor = page["pagination"]["next_cursor"]
        .as_str()
        .expect("cursor")
        .to_string();
    let (status, body) = t
        .get(&format!(
            "/v1/operations?project_id={large}&status=failed&cursor={cursor}"
        ))
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = t
        .get(&format!("/v1/nks/clusters/{big}/pools?cursor={cursor}"))
        .await;
    assert_eq!(status, 400, "a cursor belongs to its list");
    for bad in ["garbage", "%F0%9F%92%A9", "djE6MTA6eHl6"] {
        let (status, _) = t
            .get(&format!(
                "/v1/operations?project_id={large}&status=done&cursor={bad}"
            ))
            .await;
        assert_eq!(status, 400, "cursor {bad}");
    }
    let (status, _) = t
        .get(&format!(
            "/v1/operations?project_id={large}&status=done&cursor={cursor}&limit=50"
        ))
        .await;
    assert_eq!(status, 200, "limit may change between pages");
}

#[tokio::test]
async fn operations_filter_and_sort_as_the_go_sdk_documents() {
    let t = start().await;
    let d = t.demo().await;
    let all = t
        .ok(&format!("/v1/operations?project_id={}", d.production))
        .await;
    assert_eq!(all["pagination"]["total_count"], 4);
    let created: Vec<&str> = all["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|o| o["created_at"].as_str())
        .collect();
    let mut desc = created.clone();
    desc.sort_by(|a, b| b.cmp(a));
    assert_eq!(created, desc, "newest first by default");
    let asc = t
        .ok(&format!(
            "/v1/operations?project_id={}&sort=created_at:asc",
            d.production
        ))
        .await;
    assert_eq!(asc["items"][0]["type"], "create");
    assert_eq!(asc["items"][0]["kind"], "nks_cluster");

    let update = t
        .ok(&format!(
            "/v1/operations?project_id={}&type=update",
            d.production
        ))
        .await;
    assert_eq!(update["pagination"]["total_count"], 1);
    assert_eq!(
        update["items"][0]["details"]["changes"]["node_count"],
        serde_json::json!({"from": 2, "to": 3})
    );
    assert_eq!(update["items"][0]["resource_id"], d.baseline.as_str());
    let pools = t
        .ok(&format!(
            "/v1/operations?project_id={}&kind=nks_node_pool",
            d.production
        ))
        .await;
    assert_eq!(pools["pagination"]["total_count"], 3);
    let by_res = t
        .ok(&format!(
            "/v1/operations?project_id={}&resource_id={}",
            d.production, d.cluster
        ))
        .await;
    assert_eq!(by_res["pagination"]["total_count"], 1);
    let window = t
        .ok(&format!("/v1/operations?project_id={}&created_at_min=2026-05-04T09:32:00Z&created_at_max=2026-05-05T00:00:00Z", d.production))
        .await;
    assert_eq!(window["pagination"]["total_count"], 2);
    let vm = t
        .ok(&format!(
            "/v1/operations?project_id={}&kind=vm",
            d.production
        ))
        .await;
    assert_eq!(vm["pagination"]["total_count"], 0);
    let staging = t
        .ok(&format!("/v1/operations?project_id={}", d.staging))
        .await;
    assert_eq!(staging["pagination"]["total_count"], 0);

    for bad in [
        "status=finished",
        "kind=cluster",
        "type=restartx",
        "sort=name:asc",
        "sort=created_at:up",
        "created_at_min=yesterday",
    ] {
        let (status, body) = t
            .get(&format!("/v1/operations?project_id={}&{bad}", d.production))
            .await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    let (status, body) = t.get("/v1/operations").await;
    assert_eq!(
        (status, body["message"].as_str()),
        (400, Some("project_id: query parameter is required"))
    );

    // A new operation shows up first and can be filtered by status.
    let (_, op) = t
        .patch(
            &format!("/v1/nks/clusters/{}", d.cluster),
            serde_json::json!({"name": "n"}),
        )
        .await;
    let list = t
        .ok(&format!("/v1/operations?project_id={}", d.production))
        .await;
    assert_eq!(list["items"][0]["id"], op["id"]);
    let by_updated = t
        .ok(&format!(
            "/v1/operations?project_id={}&sort=updated_at:desc",
            d.production
        ))
        .await;
    assert_eq!(by_updated["items"][0]["id"], op["id"]);
    assert_eq!(t.get("/v1/operations/nope").await.0, 404);
}
