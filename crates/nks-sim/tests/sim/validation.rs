use reqwest::Method;
use serde_json::{json, Value};

use crate::common::*;

fn valid_pool() -> Value {
    pool_body("valid", 1)
}

fn with(mut base: Value, pointer: &str, value: Value) -> Value {
    if let Some(slot) = base.pointer_mut(pointer) {
        *slot = value;
    }
    base
}

fn without(mut base: Value, field: &str) -> Value {
    if let Some(o) = base.as_object_mut() {
        o.remove(field);
    }
    base
}

#[tokio::test]
async fn invalid_pool_bodies_are_refused_with_the_field_named() {
    let t = start().await;
    let d = t.demo().await;
    let url = format!("/v1/nks/clusters/{}/pools", d.cluster);
    let cases: Vec<(Value, &str)> = vec![
        (without(valid_pool(), "name"), "name: is required"),
        (
            with(valid_pool(), "/name", json!("")),
            "name: must not be empty",
        ),
        (
            with(valid_pool(), "/name", json!("x".repeat(64))),
            "name: must be at most 63 characters",
        ),
        (
            with(valid_pool(), "/name", json!(7)),
            "name: must be a string",
        ),
        (
            with(valid_pool(), "/node_count", json!(101)),
            "node_count: must be between 0 and 100",
        ),
        (
            with(valid_pool(), "/node_count", json!(-1)),
            "node_count: must be between 0 and 100",
        ),
        (
            with(valid_pool(), "/node_count", json!(2.5)),
            "node_count: must be an integer",
        ),
        (
            with(valid_pool(), "/node_count", json!(1e30)),
            "node_count: must be an integer",
        ),
        (
            with(valid_pool(), "/node_count", json!(u64::MAX)),
            "node_count: is out of range",
        ),
        (
            without(valid_pool(), "node_config"),
            "node_config: is required",
        ),
        (
            with(valid_pool(), "/node_config", json!("big")),
            "node_config: must be an object",
        ),
        (
            with(
                valid_pool(),
                "/node_config/instance_type",
                json!("n9-giant"),
            ),
            "node_config.instance_type: unknown instance type n9-giant in us-sva-2",
        ),
        (
            with(valid_pool(), "/node_config/boot_volume/size", json!(63)),
            "node_config.boot_volume.size: must be between 64 and 512",
        ),
        (
            with(valid_pool(), "/node_config/boot_volume/size", json!(513)),
            "node_config.boot_volume.size: must be between 64 and 512",
        ),
        (
            with(valid_pool(), "/node_config/boot_volume/type", json!("ssd")),
            "node_config.boot_volume.type: must be one of nvme, abs",
        ),
        (
            with(
                valid_pool(),
                "/node_config/boot_volume",
                json!({"size": 64}),
            ),
            "node_config.boot_volume.type: is required",
        ),
        (
            with(valid_pool(), "/node_config/labels", json!(["novalue"])),
            "node_config.labels[0]: must be key=value",
        ),
        (
            with(valid_pool(), "/node_config/labels", json!(["ok=1", "=v"])),
            "node_config.labels[1]: must be key=value with a non-empty key",
        ),
        (
            with(
                valid_pool(),
                "/node_config/labels",
                json!(["kubernetes.io/arch=amd64"]),
            ),
            "node_config.labels[0]: label keys under kubernetes.io are reserved",
        ),
        (
            with(valid_pool(), "/node_config/labels", json!(["k8s.io=x"])),
            "node_config.labels[0]: label keys under k8s.io are reserved",
        ),
        (
            with(
                valid_pool(),
                "/node_config/labels",
                json!(["nirvanalabs.io/pool=x"]),
            ),
            "node_config.labels[0]: label keys under nirvanalabs.io are reserved",
        ),
        (
            with(valid_pool(), "/node_config/labels", json!([1])),
            "node_config.labels[0]: must be a string",
        ),
        (
            with(
                valid_pool(),
                "/node_config/taints",
                json!(["a=b:Sometimes"]),
            ),
            "node_config.taints[0]: effect must be one of NoSchedule, PreferNoSchedule, NoExecute",
        ),
        (
            with(valid_pool(), "/node_config/taints", json!(["a=b"])),
            "node_config.taints[0]: must be key=value:Effect",
        ),
        (
            with(
                valid_pool(),
                "/node_config/taints",
                json!(["=b:NoSchedule"]),
            ),
            "node_config.taints[0]: must be key=value:Effect with a non-empty key",
        ),
        (
            with(valid_pool(), "/tags", json!("prod")),
            "tags: must be an array of strings",
        ),
        (
            with(valid_pool(), "/name", json!("baseline")),
            "name: a node pool named baseline already exists in this cluster",
        ),
    ];
    for (body, expected) in cases {
        let (status, resp) = t.post(&url, body.clone()).await;
        assert_eq!(
            (status, resp["message"].as_str()),
            (422, Some(expected)),
            "body {body}"
        );
    }
    // Sub-domains of reserved prefixes and the alternate taint forms are accepted.
    let ok = with(
        with(
            valid_pool(),
            "/node_config/labels",
            json!(["node.kubernetes.io/role=web", "empty="]),
        ),
        "/node_config/taints",
        json!(["a=:NoExecute", "b:PreferNoSchedule", "c=d:NoSchedule"]),
    );
    let (status, resp) = t.post(&url, ok).await;
    assert_eq!(status, 202, "{resp}");
}

#[tokio::test]
async fn invalid_pool_updates_are_refused_with_the_field_named() {
    let t = start().await;
    let d = t.demo().await;
    let url = format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.baseline);
    for (body, expected) in [
        (
            json!({"node_count": 101}),
            "node_count: must be between 0 and 100",
        ),
        (json!({"node_count": "3"}), "node_count: must be an integer"),
        (json!({"name": ""}), "name: must not be empty"),
        (
            json!({"name": "batch-zero"}),
            "name: a node pool named batch-zero already exists in this cluster",
        ),
        (json!({"tags": [""]}), "tags[0]: must not be empty"),
    ] {
        let (status, resp) = t.patch(&url, body.clone()).await;
        assert_eq!(
            (status, resp["message"].as_str()),
            (422, Some(expected)),
            "body {body}"
        );
    }
}

#[tokio::test]
async fn invalid_cluster_bodies_are_refused_with_the_field_named() {
    let t = start().await;
    let d = t.demo().await;
    let valid = json!({"name": "c", "project_id": d.production, "region": "us-sva-2", "vpc_id": d.spare_vpc,
                       "kubernetes_version": "v1.34.4", "autoscaling": true, "tags": []});
    let cases: Vec<(Value, String)> = vec![
        (without(valid.clone(), "name"), "name: is required".into()),
        (
            with(valid.clone(), "/name", json!(" ")),
            "name: must not be empty".into(),
        ),
        (
            without(valid.clone(), "project_id"),
            "project_id: is required".into(),
        ),
        (
            with(valid.clone(), "/project_id", json!("nope")),
            "project_id: project not found".into(),
        ),
        (
            with(valid.clone(), "/region", json!("us-east-1")),
            "region: must be us-sva-2".into(),
        ),
        (
            without(valid.clone(), "vpc_id"),
            "vpc_id: is required".into(),
        ),
        (
            with(valid.clone(), "/vpc_id", json!("nope")),
            "vpc_id: VPC not found".into(),
        ),
        (
            with(valid.clone(), "/vpc_id", json!(d.staging_vpc)),
            "vpc_id: VPC belongs to another project".into(),
        ),
        (
            with(
                valid.clone(),
                "/kubernetes_version",
                json!("Kubernetes 1.34.4"),
            ),
            "kubernetes_version: must be one of v1.34.4, v1.33.8, v1.32.12".into(),
        ),
        (
            without(valid.clone(), "kubernetes_version"),
            "kubernetes_version: is required".into(),
        ),
        (
            without(valid.clone(), "autoscaling"),
            "autoscaling: is required".into(),
        ),
        (
            with(valid.clone(), "/autoscaling", json!("yes")),
            "autoscaling: must be a boolean".into(),
        ),
        (
            with(valid.clone(), "/tags", json!([1])),
            "tags[0]: must be a string".into(),
        ),
    ];
    for (body, expected) in cases {
        let (status, resp) = t.post("/v1/nks/clusters", body.clone()).await;
        assert_eq!(
            (status, resp["message"].as_str()),
            (422, Some(expected.as_str())),
            "body {body}"
        );
    }
    let (status, resp) = t
        .post(
            "/v1/nks/clusters",
            with(valid, "/vpc_id", json!(d.prod_vpc)),
        )
        .await;
    assert_eq!(status, 422);
    assert!(
        resp["message"]
            .as_str()
            .is_some_and(|m| m.contains("only one cluster per VPC")),
        "{resp}"
    );
}

#[tokio::test]
async fn malformed_json_is_400_and_unknown_fields_are_ignored() {
    let t = start().await;
    let d = t.demo().await;
    let url = format!("/v1/nks/clusters/{}/pools", d.cluster);
    for bad in ["{", "", "[1,2]", "null", "\"str\"", "{\"name\": }", "\u{0}"] {
        let (status, body) = t.raw(Method::POST, &url, bad).await;
        assert_eq!(status, 400, "{bad:?} → {body}");
        assert!(body["message"].is_string());
    }
    let (status, body) = t
        .raw(
            Method::PATCH,
            &format!("/v1/nks/clusters/{}", d.cluster),
            "{not json",
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let mut extra = pool_body("extra", 1);
    extra["unexpected"] = json!({"deep": [1, 2, 3]});
    extra["node_config"]["gpu"] = json!(true);
    assert_eq!(t.post(&url, extra).await.0, 202);
}

#[tokio::test]
async fn growth_beyond_the_vcpu_quota_is_refused_naming_node_count_and_what_remains() {
    let t = start().await;
    let d = t.demo().await;
    let mut big = pool_body("huge", 10);
    big["node_config"]["instance_type"] = json!("n1-standard-32");
    let (status, body) = t
        .post(&format!("/v1/nks/clusters/{}/pools", d.cluster), big)
        .await;
    assert_eq!(status, 422);
    let msg = body["message"].as_str().unwrap_or_default();
    assert!(
        msg.starts_with("node_count: exceeds the nks.node_pool_vcpu quota"),
        "{msg}"
    );
    assert!(msg.contains("232"), "names the remaining amount: {msg}");
    // Scaling an existing pool past the quota is refused the same way; shrinking never is.
    let path = format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.batch_zero);
    let (status, body) = t.patch(&path, json!({"node_count": 15})).await;
    assert_eq!(status, 422, "{body}");
    assert!(body["message"]
        .as_str()
        .is_some_and(|m| m.starts_with("node_count: ")));
    let (status, _) = t.patch(&path, json!({"node_count": 14})).await;
    assert_eq!(status, 202);
    let q = t.ok("/v1/quotas/us-sva-2").await;
    assert_eq!(q["nks"]["node_pool_vcpu"]["remaining"], 8);
}

#[tokio::test]
async fn memory_quota_is_enforced_too() {
    let t = start().await;
    let d = t.demo().await;
    // n1-highmem-8: 8 vCPU, 64 GB; 15 nodes = 120 vCPU (fits 232) but 960 GB (over 928).
    let mut body = pool_body("mem", 15);
    body["node_config"]["instance_type"] = json!("n1-highmem-8");
    let (status, resp) = t
        .post(&format!("/v1/nks/clusters/{}/pools", d.cluster), body)
        .await;
    assert_eq!(status, 422);
    assert!(
        resp["message"].as_str().is_some_and(|m| m
            .starts_with("node_count: exceeds the nks.node_pool_memory_gb quota")
            && m.contains("928")),
        "{resp}"
    );
}
