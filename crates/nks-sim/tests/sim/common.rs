//! A started simulator plus a small client.

use std::time::{Duration, Instant};

use nks_sim::{Config, Seed, Sim};
use reqwest::{Client, Method};
use serde_json::Value;

pub const KEY: &str = "nks-demo-key";

pub struct T {
    _sim: Sim,
    pub base: String,
    pub http: Client,
}

/// Ids of the demo seed's named resources.
#[derive(Debug, Clone)]
pub struct Demo {
    pub production: String,
    pub staging: String,
    pub prod_vpc: String,
    pub spare_vpc: String,
    pub staging_vpc: String,
    pub cluster: String,
    pub baseline: String,
    pub batch_zero: String,
}

/// Operation durations are tiny so a cluster create takes well under a second.
pub const FAST: f64 = 0.0005;

pub async fn start() -> T {
    start_with(|_| {}).await
}

pub async fn start_with(tweak: impl FnOnce(&mut Config)) -> T {
    let mut config = Config {
        listen: "127.0.0.1:0".parse().expect("addr"),
        time_scale: FAST,
        seed: Seed::Demo,
        ..Config::default()
    };
    tweak(&mut config);
    let sim = nks_sim::start(config).await.expect("simulator starts");
    T {
        base: sim.url(),
        _sim: sim,
        http: Client::builder()
            .timeout(Duration::from_secs(20))
            .build()
            .expect("client"),
    }
}

impl T {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut req = self
            .http
            .request(method.clone(), self.url(path))
            .bearer_auth(KEY);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.expect("request sent");
        let status = resp.status().as_u16();
        let text = resp.text().await.expect("body");
        super::wire::check(&method, path, status, &text);
        let value = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        };
        (status, value)
    }

    pub async fn raw(&self, method: Method, path: &str, body: &str) -> (u16, Value) {
        let resp = self
            .http
            .request(method, self.url(path))
            .bearer_auth(KEY)
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("request sent");
        let status = resp.status().as_u16();
        let value = resp.json().await.unwrap_or(Value::Null);
        (status, value)
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        self.call(Method::GET, path, None).await
    }

    pub async fn ok(&self, path: &str) -> Value {
        let (status, v) = self.get(path).await;
        assert_eq!(status, 200, "GET {path}: {v}");
        v
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.call(Method::POST, path, Some(body)).await
    }

    pub async fn patch(&self, path: &str, body: Value) -> (u16, Value) {
        self.call(Method::PATCH, path, Some(body)).await
    }

    pub async fn delete(&self, path: &str) -> (u16, Value) {
        self.call(Method::DELETE, path, None).await
    }

    /// Unauthenticated control call.
    pub async fn sim(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut req = self.http.request(method, self.url(path));
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.expect("control request");
        let status = resp.status().as_u16();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    pub async fn demo(&self) -> Demo {
        let projects = self.ok("/v1/projects").await;
        let project = |name: &str| -> String {
            projects["items"]
                .as_array()
                .and_then(|a| a.iter().find(|p| p["name"] == name))
                .and_then(|p| p["id"].as_str())
                .map(str::to_string)
                .unwrap_or_default()
        };
        let (production, staging) = (project("Production"), project("Staging"));
        let vpcs = self
            .ok(&format!("/v1/networking/vpcs?project_id={production}"))
            .await;
        let svpcs = self
            .ok(&format!("/v1/networking/vpcs?project_id={staging}"))
            .await;
        let find = |list: &Value, name: &str| -> String {
            list["items"]
                .as_array()
                .and_then(|a| a.iter().find(|p| p["name"] == name))
                .and_then(|p| p["id"].as_str())
                .map(str::to_string)
                .unwrap_or_default()
        };
        let clusters = self
            .ok(&format!("/v1/nks/clusters?project_id={production}"))
            .await;
        let cluster = find(&clusters, "edge-prod");
        let pools = self.ok(&format!("/v1/nks/clusters/{cluster}/pools")).await;
        Demo {
            prod_vpc: find(&vpcs, "prod-vpc"),
            spare_vpc: find(&vpcs, "prod-spare-vpc"),
            staging_vpc: find(&svpcs, "staging-vpc"),
            baseline: find(&pools, "baseline"),
            batch_zero: find(&pools, "batch-zero"),
            cluster,
            production,
            staging,
        }
    }

    /// Polls an operation until it is `done` or `failed`, returning every status seen.
    pub async fn wait_op(&self, op_id: &str) -> (Value, Vec<String>) {
        let deadline = Instant::now() + Duration::from_secs(15);
        let mut seen: Vec<String> = Vec::new();
        loop {
            let op = self.ok(&format!("/v1/operations/{op_id}")).await;
            let status = op["status"].as_str().unwrap_or("").to_string();
            if seen.last() != Some(&status) {
                seen.push(status.clone());
            }
            if status == "done" || status == "failed" {
                return (op, seen);
            }
            assert!(
                Instant::now() < deadline,
                "operation {op_id} stuck in {status}"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
}

pub fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    k.sort();
    k
}

pub fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

pub fn pool_body(name: &str, count: i64) -> Value {
    serde_json::json!({
        "name": name,
        "node_count": count,
        "node_config": {
            "instance_type": "n1-standard-2",
            "boot_volume": {"size": 64, "type": "abs"},
            "labels": ["tier=web"],
            "taints": []
        },
        "tags": ["t"]
    })
}
