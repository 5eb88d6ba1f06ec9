//! Measures the request rate the simulator sustains on loopback.
//!
//! `cargo run -p nks-sim --release --example load -- [clients] [seconds]`
//!
//! Starts a simulator in-process on 127.0.0.1 (never anything else), then `clients`
//! keep-alive connections issue `GET /v1/nks/clusters/{id}` back to back for `seconds`
//! (default 16 clients, 3 s, hard-capped at 30 s and 5,000,000 requests). Client and server
//! share the machine, so the figure is a floor for the server alone.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use nks_sim::{Config, DEMO_API_KEY};

const MAX_REQUESTS: u64 = 5_000_000;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let clients: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(16)
        .clamp(1, 256);
    let seconds: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(3)
        .clamp(1, 30);

    let sim = nks_sim::start(Config {
        listen: "127.0.0.1:0".parse()?,
        ..Config::default()
    })
    .await?;
    let base = sim.url();
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(clients)
        .build()?;
    let projects: serde_json::Value = http
        .get(format!("{base}/v1/projects"))
        .bearer_auth(DEMO_API_KEY)
        .send()
        .await?
        .json()
        .await?;
    let project = projects["items"][0]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let clusters: serde_json::Value = http
        .get(format!("{base}/v1/nks/clusters?project_id={project}"))
        .bearer_auth(DEMO_API_KEY)
        .send()
        .await?
        .json()
        .await?;
    let cluster = clusters["items"][0]["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let url = format!("{base}/v1/nks/clusters/{cluster}");

    let ok = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let (http, url, ok, failed) = (http.clone(), url.clone(), ok.clone(), failed.clone());
        tasks.push(tokio::spawn(async move {
            while Instant::now() < deadline && ok.load(Ordering::Relaxed) < MAX_REQUESTS {
                let result = http.get(&url).bearer_auth(DEMO_API_KEY).send().await;
                match result {
                    Ok(resp) if resp.status().is_success() => {
                        let _ = resp.bytes().await;
                        ok.fetch_add(1, Ordering::Relaxed);
                    }
                    _ => {
                        failed.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }));
    }
    for t in tasks {
        t.await?;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let ok = ok.load(Ordering::Relaxed);
    println!(
        "{clients} clients, {elapsed:.1} s: {ok} ok, {} failed, {:.0} requests/s",
        failed.load(Ordering::Relaxed),
        ok as f64 / elapsed
    );
    Ok(())
}
