//! `nks-sim`: a native HTTP simulator of the Nirvana Labs Cloud API for NKS (managed
//! Kubernetes), faithful to the API digest (`shared/api/NIRVANA_API.md`), for developing and
//! testing the console without a real account.
//!
//! Errors answer `{"message": "<field path>: <reason>"}` when one request field is at fault
//! (e.g. `"node_count: must be between 0 and 100"`), else `{"message": "<reason>"}`; see
//! [`error`](crate::error) for the status codes.
//!
//! Integration tests start it in-process with [`start`] on `127.0.0.1:0`.

mod cli;
mod cors;
mod cost;
mod error;
mod faults;
mod ids;
mod model;
mod pagination;
mod routes;
mod seed;
mod server;
mod state;
mod static_files;
mod timefmt;
mod validate;
mod wire;
mod world;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::task::JoinHandle;

pub use cli::Cli;
pub use seed::DEMO_API_KEY;
pub use world::Seed;

/// Everything the simulator needs to start; `Cli` converts into it.
#[derive(Debug, Clone)]
pub struct Config {
    pub listen: SocketAddr,
    pub api_keys: Vec<String>,
    pub seed: Seed,
    pub time_scale: f64,
    pub dist: Option<PathBuf>,
    pub allow_origins: Vec<String>,
    pub autoscaler: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            api_keys: vec![DEMO_API_KEY.to_string()],
            seed: Seed::Demo,
            time_scale: 1.0,
            dist: None,
            allow_origins: Vec::new(),
            autoscaler: false,
        }
    }
}

/// A running simulator. Dropping it stops accepting connections and the background tick.
pub struct Sim {
    addr: SocketAddr,
    server: Option<JoinHandle<()>>,
    ticker: Option<JoinHandle<()>>,
}

impl Sim {
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://IP:PORT`, no trailing slash.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Serves until the process ends.
    pub async fn run(mut self) {
        if let Some(server) = self.server.take() {
            let _ = server.await;
        }
    }
}

impl Drop for Sim {
    fn drop(&mut self) {
        for task in [self.server.take(), self.ticker.take()]
            .into_iter()
            .flatten()
        {
            task.abort();
        }
    }
}

/// Binds, seeds the world and starts serving; returns once the socket is listening.
pub async fn start(config: Config) -> std::io::Result<Sim> {
    if !(config.time_scale.is_finite() && config.time_scale >= 0.0) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "time scale must be a finite number >= 0",
        ));
    }
    let listener = TcpListener::bind(config.listen).await?;
    let addr = listener.local_addr()?;
    let shared = state::Shared::new(state::Settings {
        api_keys: config.api_keys,
        allow_origins: config.allow_origins,
        dist: config.dist,
        seed: config.seed,
        time_scale: config.time_scale,
        autoscaler: config.autoscaler,
    });
    let server = tokio::spawn(server::accept_loop(listener, shared.clone()));
    let ticker = tokio::spawn(async move {
        loop {
            // Requests advance the world themselves; the tick exists so the autoscaler and
            // lifecycle move while nobody is asking.
            let pause = {
                let w = shared.world();
                if w.autoscaler.on {
                    (w.autoscaler_period_ms() / 2).clamp(20, 1000) as u64
                } else {
                    500
                }
            };
            tokio::time::sleep(Duration::from_millis(pause)).await;
        }
    });
    Ok(Sim {
        addr,
        server: Some(server),
        ticker: Some(ticker),
    })
}

/// Entry points for property tests: run a request body through the same parse, validation and
/// world rules as the real endpoint, against a fresh demo world, and report the status the
/// endpoint would answer. Not part of the simulator's contract.
#[doc(hidden)]
pub mod fuzz {
    use crate::seed;
    use crate::world::Seed;

    #[derive(Debug, Clone, Copy)]
    pub enum Target {
        ClusterCreate,
        ClusterUpdate,
        PoolCreate,
        PoolUpdate,
    }

    pub fn decide(target: Target, body: &[u8]) -> u16 {
        let mut w = seed::build(Seed::Demo);
        w.time_scale = 0.0;
        let cluster = w
            .clusters
            .values()
            .find(|c| c.name == "edge-prod")
            .map(|c| {
                (
                    c.id.clone(),
                    c.pool_ids.first().cloned().unwrap_or_default(),
                )
            });
        let Some((cid, pid)) = cluster else {
            return 500;
        };
        let now = crate::timefmt::now_ms();
        let result =
            crate::validate::parse_object(body).and_then(|obj| match target {
                Target::ClusterCreate => {
                    crate::validate::cluster_create(&obj).and_then(|r| w.create_cluster(r, now))
                }
                Target::ClusterUpdate => crate::validate::cluster_update(&obj)
                    .and_then(|r| w.update_cluster(&cid, r, now)),
                Target::PoolCreate => {
                    crate::validate::pool_create(&obj).and_then(|r| w.create_pool(&cid, r, now))
                }
                Target::PoolUpdate => crate::validate::pool_update(&obj)
                    .and_then(|r| w.update_pool(&cid, &pid, r, now)),
            });
        w.advance(now + 1);
        match result {
            Ok(_) => 202,
            Err(e) => e.status.as_u16(),
        }
    }
}
