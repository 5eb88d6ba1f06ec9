//! The command line.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use crate::{Config, Seed, DEMO_API_KEY};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SeedArg {
    Demo,
    Empty,
    Large,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

const AFTER_HELP: &str = r#"API
  Every /v1 call needs `Authorization: Bearer <key>` (default key: nks-demo-key); missing or
  unknown keys get 401. Paths and JSON shapes follow the API digest (NIRVANA_API.md §2-§4).
  Errors: {"message": "<field path>: <reason>"} when one field is at fault, e.g.
  "node_config.boot_volume.size: must be between 64 and 512", else {"message": "<reason>"}.
  400 malformed JSON, missing required query parameter, bad cursor, limit outside 10-100;
  401 bad key; 404 unknown or deleted resource; 409 "another operation is in progress on this
  resource: <op id>"; 422 validation, quota and capacity refusals.
  Mutations answer 202 with an Operation: pending (5% of the time), running, then done.
  Durations at --time-scale 1: cluster create 20 min, update 1 min, delete 5 min; pool create
  8 min, update/scale 2 min, delete 3 min; node delete 2 min.
  Names: cluster and pool names must be DNS labels (lowercase letters, digits and '-', at most
  63, starting and ending with a letter or digit), as Kubernetes requires of the node names
  derived from them; other names are 422 "name: must be a DNS label: ...". The API digest
  leaves name rules UNCONFIRMED: this assumes the real API enforces Kubernetes' rule. VPC,
  firewall rule and project names: non-empty, at most 63 characters, no control characters.
  Names already stored (seeds, /_sim/rename) are served as they are, whatever they hold.
  Cluster private_ip/public_ip are strings, "" until the create operation is done (never null).
  Operation kinds: node deletes report kind "nks_node", which the SDKs' response enum lacks
  (their list filter has it) - UNCONFIRMED; clients must show kinds they do not know.
  VPCs: create/update/delete answer 202 with an Operation of kind "vpc" (create 1 min, update
  30 s, delete 1 min); a new VPC gets the first free 10.N.0.0/24 (N >= 40). Deleting a VPC that
  a cluster uses is 422 naming the cluster. Firewall rules under
  /v1/networking/vpcs/{vpc_id}/firewall_rules: kind "firewall_rule", 30 s; protocol tcp|udp;
  addresses canonical IPv4 CIDRs (0.0.0.0 only as 0.0.0.0/0), destination inside the VPC
  subnet; destination_ports non-empty, each "N" (1-65535) or "low-high".
  Every cluster has three controllers (one boot volume each), created and removed with it;
  each node has one boot volume. Load balancers and PVCs are discovered (seeded only);
  PATCH .../load_balancers/{id} {"public_ip_enabled": bool} answers an Operation of kind
  "nks_load_balancer" (UNCONFIRMED, 30 s); the public IP is assigned/removed when it is done.
  Manual scale-down (PATCH node_count lower) terminates the newest nodes without draining
  (by creation time; nodes created by one request share it, and among those the one added
  last goes first):
  details.changes.terminated_nodes = {"from": [node names], "to": []}. Autoscaler scale-down
  deletes a node after draining it: details.changes.drained = {"from": false, "to": true}.
  Cost quotes use the price table (USD per month): compute_vcpu 8.7600, compute_memory_gb
  1.1680, storage_abs_gb 0.1000, storage_nvme_gb 0.1500, nks_control_plane 73.0000; billing
  summaries are included for nks-demo-key only.

TEST CONTROL (/_sim, no auth, JSON)
  POST   /_sim/faults   {"match": {"method": "GET", "path_prefix": "/v1/operations"},
                         "count": 3, "fraction": 0.5, "action": {...}}   -> 201 {"id": "..."}
         match/method/path_prefix/path optional (absent = every /v1 request, preflights
         excepted; path = that path exactly, the query aside);
         count = next N matching requests then expire; fraction = that share of matches
         (deterministic); neither = until removed. Actions:
           {"type": "status", "status": 429, "retry_after": "2", "retry_after_ms": "1500",
            "message": "..."}      headers only when given, sent verbatim
           {"type": "latency", "ms": 2000}          then serve normally
           {"type": "drop"}                         close the connection, no response at all
           {"type": "malformed"}                    200 application/json, invalid JSON body
           {"type": "page_fail", "page": 3, "status": 500}   list requests serving page 3
  GET    /_sim/faults              -> {"items": [fault, ...]}
  DELETE /_sim/faults              clear all (204);  DELETE /_sim/faults/{id}  remove one
  POST   /_sim/operations/next {"outcome": "failed"|"unknown", "kind": "nks_node_pool",
         "unknown_ms": 30000}      the next created operation (of that kind) fails (resource
                                   -> error) or sits in unknown that long, then done
  POST   /_sim/operations/finish {"id": "...", "kind": "nks_node_pool"}   both optional
                                   every in-flight operation named (by id, by kind, or all)
                                   reaches its planned end now -> {"finished": [{id, kind, status}]}
  GET    /_sim/clock               -> {"now", "now_ms", "offset_ms"}
  POST   /_sim/clock {"advance_ms": 600000}   moves the simulator's clock forward: what was due
                                   in that time (transitions, the autoscaler's turn) has happened
                                   when it answers, and later timestamps carry the offset
  GET    /_sim/requests            -> {"total", "by_route": {"GET /v1/operations/{operation_id}": n},
                                       "by_path": {"GET /v1/operations/<id>": n}}
  DELETE /_sim/requests            reset the counters
  POST   /_sim/reset {"seed": "demo"}      re-seed; clear faults and counters; clock back to the wall
  POST   /_sim/autoscaler {"on": true}      toggle the autoscaler
  POST   /_sim/time-scale {"time_scale": 0.01}   for operations created from now on
  POST   /_sim/drain {"cluster_id": "...", "pool_id": "...", "node_id": "..."}
         deletes the node as the autoscaler does (drained first): 202 with its operation
  POST   /_sim/rename {"kind": "cluster"|"pool"|"node"|"vpc", "id": "...", "name": "..."}
         test control, not API: stores any name unchecked (no operation), as old data or
         another tool might hold; for testing how clients show names the API now refuses
"#;

/// Simulates the Nirvana Labs Cloud API (NKS) for console development and tests.
#[derive(Debug, Parser)]
#[command(name = "nks-sim", version, after_long_help = AFTER_HELP, after_help = "Run with --help for the API and test-control contract.")]
pub struct Cli {
    /// Address to listen on; port 0 picks a free port. The first stdout line is
    /// `nks-sim listening on http://IP:PORT`.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// Accepted API key (repeatable). Default: the documented demo key `nks-demo-key`.
    #[arg(long = "api-key", value_name = "KEY")]
    pub api_keys: Vec<String>,

    /// Starting world: demo (one cluster edge-prod), empty (one free VPC), large (many pages).
    #[arg(long, value_enum, default_value = "demo")]
    pub seed: SeedArg,

    /// Multiplier on every operation duration; 0.01 makes a 20-minute cluster create take 12 s.
    #[arg(long, default_value_t = 1.0)]
    pub time_scale: f64,

    /// Serve static files from DIR for every path outside /v1 and /_sim, falling back to
    /// DIR/index.html for unknown paths (index.html and config.json sent with no-cache).
    #[arg(long, value_name = "DIR")]
    pub dist: Option<PathBuf>,

    /// Origin allowed to call the API from a browser (repeatable); others get no CORS headers.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origins: Vec<String>,

    /// Let the simulated autoscaler move autoscaling clusters' pools by ±1 node now and then.
    #[arg(long, value_enum, default_value = "off")]
    pub autoscaler: Switch,
}

impl Cli {
    pub fn into_config(self) -> Config {
        Config {
            listen: self.listen,
            api_keys: if self.api_keys.is_empty() {
                vec![DEMO_API_KEY.to_string()]
            } else {
                self.api_keys
            },
            seed: match self.seed {
                SeedArg::Demo => Seed::Demo,
                SeedArg::Empty => Seed::Empty,
                SeedArg::Large => Seed::Large,
            },
            time_scale: self.time_scale,
            dist: self.dist,
            allow_origins: self.allow_origins,
            autoscaler: matches!(self.autoscaler, Switch::On),
        }
    }
}
