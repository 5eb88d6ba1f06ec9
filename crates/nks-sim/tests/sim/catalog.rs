use serde_json::json;

use crate::common::*;

#[tokio::test]
async fn user_is_the_demo_operator() {
    let t = start().await;
    let u = t.ok("/v1/user").await;
    assert_eq!(
        keys(&u),
        sorted(&["id", "email", "first_name", "last_name"])
    );
    assert_eq!(u["email"], "operator@example.com");
    assert_eq!(u["first_name"], "Demo");
    assert_eq!(u["last_name"], "Operator");
}

#[tokio::test]
async fn projects_list_production_and_staging_with_resource_counts() {
    let t = start().await;
    let list = t.ok("/v1/projects").await;
    assert_eq!(keys(&list), sorted(&["items", "pagination"]));
    assert_eq!(
        keys(&list["pagination"]),
        sorted(&["next_cursor", "previous_cursor", "total_count"])
    );
    let names: Vec<&str> = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(names, ["Production", "Staging"]);
    let prod = &list["items"][0];
    assert_eq!(
        keys(prod),
        sorted(&[
            "id",
            "name",
            "tags",
            "created_at",
            "updated_at",
            "resources"
        ])
    );
    assert_eq!(prod["resources"]["cloud"]["nks_clusters"], 1);
    assert_eq!(prod["resources"]["cloud"]["nks_node_pools"], 2);
    assert_eq!(prod["resources"]["cloud"]["vpcs"], 2);
    assert_eq!(prod["resources"]["blockchain"]["rpc_nodes_flex"], 0);
    let id = prod["id"].as_str().expect("id");
    assert_eq!(
        t.ok(&format!("/v1/projects/{id}")).await["name"],
        "Production"
    );
    assert_eq!(t.get("/v1/projects/nope").await.0, 404);
}

#[tokio::test]
async fn vpcs_need_a_project_and_show_their_subnet() {
    let t = start().await;
    let d = t.demo().await;
    let (status, body) = t.get("/v1/networking/vpcs").await;
    assert_eq!(status, 400);
    assert_eq!(body["message"], "project_id: query parameter is required");
    let vpc = t.ok(&format!("/v1/networking/vpcs/{}", d.prod_vpc)).await;
    assert_eq!(
        keys(&vpc),
        sorted(&[
            "id",
            "name",
            "project_id",
            "region",
            "status",
            "subnet",
            "firewall_rule_ids",
            "tags",
            "created_at",
            "updated_at"
        ])
    );
    assert_eq!(
        keys(&vpc["subnet"]),
        sorted(&["id", "name", "cidr", "created_at", "updated_at"])
    );
    assert_eq!(vpc["subnet"]["cidr"], "10.20.0.0/24");
    let spare = t.ok(&format!("/v1/networking/vpcs/{}", d.spare_vpc)).await;
    assert_eq!(spare["subnet"]["cidr"], "10.21.0.0/24");
    assert!(!d.staging_vpc.is_empty());
    assert_eq!(t.get("/v1/networking/vpcs/unknown").await.0, 404);
}

#[tokio::test]
async fn region_catalogue_offers_nks_with_autoscaling() {
    let t = start().await;
    let list = t.ok("/v1/regions").await;
    assert_eq!(list["pagination"]["total_count"], 1);
    let r = t.ok("/v1/regions/us-sva-2").await;
    assert_eq!(
        keys(&r),
        sorted(&[
            "name",
            "availability",
            "compute",
            "networking",
            "nks",
            "storage"
        ])
    );
    assert_eq!(r["availability"], "live");
    assert_eq!(r["nks"], json!({"clusters": true, "autoscaling": true}));
    assert_eq!(r["storage"], json!({"abs": true, "local_nvme": true}));
    assert_eq!(t.get("/v1/regions/eu-west-9").await.0, 404);
}

#[tokio::test]
async fn instance_types_list_a_dozen_shapes_and_filter() {
    let t = start().await;
    let list = t.ok("/v1/instance_types?limit=100").await;
    assert_eq!(list["pagination"]["total_count"], 12);
    let it = t.ok("/v1/instance_types/us-sva-2/n1-standard-8").await;
    assert_eq!(
        keys(&it),
        sorted(&[
            "name",
            "region",
            "vcpu",
            "memory_gb",
            "network_bandwidth_gbps",
            "series",
            "family",
            "chipset",
            "created_at",
            "updated_at"
        ])
    );
    assert_eq!(
        (it["vcpu"].as_i64(), it["memory_gb"].as_i64()),
        (Some(8), Some(32))
    );
    assert_eq!(
        t.ok("/v1/instance_types/us-sva-2/n1-highmem-4").await["memory_gb"],
        32
    );
    assert_eq!(
        t.ok("/v1/instance_types/us-sva-2/n1-highcpu-16").await["memory_gb"],
        32
    );
    let highcpu = t.ok("/v1/instance_types?family=highcpu").await;
    assert_eq!(highcpu["pagination"]["total_count"], 4);
    assert_eq!(t.get("/v1/instance_types?vcpu_min=x").await.0, 400);
    assert_eq!(t.get("/v1/instance_types/us-sva-2/n9-giant").await.0, 404);
}

#[tokio::test]
async fn kubernetes_versions_list_three_releases_newest_first() {
    let t = start().await;
    let list = t.ok("/v1/nks/kubernetes_versions").await;
    let names: Vec<&str> = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|v| v["name"].as_str())
        .collect();
    assert_eq!(names, ["v1.34.4", "v1.33.8", "v1.32.12"]);
    assert_eq!(list["items"][0]["display_name"], "Kubernetes 1.34.4");
    assert_eq!(
        keys(&list["items"][0]),
        sorted(&["name", "display_name", "created_at"])
    );
}

#[tokio::test]
async fn quota_used_reflects_the_current_world() {
    let t = start().await;
    let q = t.ok("/v1/quotas/us-sva-2").await;
    assert_eq!(
        keys(&q),
        sorted(&["region", "compute", "networking", "nks", "storage"])
    );
    assert_eq!(
        keys(&q["nks"]),
        sorted(&[
            "clusters",
            "node_pool_vcpu",
            "node_pool_memory_gb",
            "public_ips"
        ])
    );
    assert_eq!(
        q["nks"]["clusters"],
        json!({"limit": 5, "used": 1, "remaining": 4})
    );
    assert_eq!(
        q["nks"]["node_pool_vcpu"],
        json!({"limit": 256, "used": 24, "remaining": 232})
    );
    assert_eq!(
        q["nks"]["node_pool_memory_gb"],
        json!({"limit": 1024, "used": 96, "remaining": 928})
    );
    assert_eq!(q["nks"]["public_ips"]["limit"], 16);
    assert_eq!(
        keys(&q["networking"]),
        sorted(&["connect_connections", "public_ips", "vpcs"])
    );
    assert_eq!(
        q["networking"]["connect_connections"],
        json!({"limit": 10, "used": 0, "remaining": 10})
    );

    let d = t.demo().await;
    let (s, op) = t
        .patch(
            &format!("/v1/nks/clusters/{}/pools/{}", d.cluster, d.baseline),
            json!({"node_count": 5}),
        )
        .await;
    assert_eq!(s, 202, "{op}");
    let q = t.ok("/v1/quotas/us-sva-2").await;
    assert_eq!(q["nks"]["node_pool_vcpu"]["used"], 40);
    assert_eq!(t.get("/v1/quotas/mars-1").await.0, 404);
}

#[tokio::test]
async fn missing_or_unknown_api_key_is_401() {
    let t = start_with(|c| c.api_keys = vec!["nks-demo-key".into(), "second-key".into()]).await;
    let no_key = t.http.get(t.url("/v1/user")).send().await.expect("sent");
    assert_eq!(no_key.status().as_u16(), 401);
    let body: serde_json::Value = no_key.json().await.expect("json");
    assert!(body["message"]
        .as_str()
        .is_some_and(|m| m.contains("API key")));
    let wrong = t
        .http
        .get(t.url("/v1/user"))
        .bearer_auth("nope")
        .send()
        .await
        .expect("sent");
    assert_eq!(wrong.status().as_u16(), 401);
    let second = t
        .http
        .get(t.url("/v1/user"))
        .bearer_auth("second-key")
        .send()
        .await
        .expect("sent");
    assert_eq!(second.status().as_u16(), 200);
}

#[tokio::test]
async fn unknown_routes_are_json_404s() {
    let t = start().await;
    let (status, body) = t.get("/v1/nks/clusters/x/bogus").await;
    assert_eq!(status, 404);
    assert!(body["message"].is_string());
}

#[tokio::test]
async fn binary_prints_its_address_first_and_documents_the_contract() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let exe = env!("CARGO_BIN_EXE_nks-sim");
    let help = Command::new(exe).arg("--help").output().expect("help runs");
    let text = String::from_utf8_lossy(&help.stdout);
    for needle in [
        "--listen",
        "--api-key",
        "--seed",
        "--time-scale",
        "--dist",
        "--allow-origin",
        "--autoscaler",
        "/_sim/faults",
        "page_fail",
        "/_sim/operations/next",
        "/_sim/requests",
        "/_sim/reset",
        "{\"message\"",
    ] {
        assert!(text.contains(needle), "--help lacks {needle}");
    }
    let mut child = Command::new(exe)
        .args(["--listen", "127.0.0.1:0", "--seed", "empty"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("first line");
    let url = line
        .trim()
        .strip_prefix("nks-sim listening on ")
        .map(str::to_string);
    let alive = match &url {
        Some(url) => reqwest::Client::new()
            .get(format!("{url}/v1/user"))
            .bearer_auth(KEY)
            .send()
            .await
            .map(|r| r.status().as_u16()),
        None => Ok(0),
    };
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        url.as_deref()
            .is_some_and(|u| u.starts_with("http://127.0.0.1:")),
        "{line}"
    );
    assert_eq!(alive.ok(), Some(200));
}
