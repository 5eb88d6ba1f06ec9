//! `/_sim`: the test-control API (no auth, JSON). The contract is documented in `--help`
//! and in `faults.rs`; tests in this crate and the console's end-to-end suite rely on it.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use super::{accepted, json, no_content, Reply};
use crate::error::ApiError;
use crate::faults::FaultSpec;
use crate::model::OpKind;
use crate::state::{fresh_world, lock, AppState};
use crate::world::{NextOutcome, Outcome, Seed};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/_sim/faults",
            post(add_fault).get(list_faults).delete(clear_faults),
        )
        .route("/_sim/faults/{id}", delete(remove_fault))
        .route("/_sim/operations/next", post(next_operation))
        .route("/_sim/operations/finish", post(finish_operations))
        .route("/_sim/clock", get(clock).post(advance_clock))
        .route("/_sim/requests", get(requests).delete(reset_requests))
        .route("/_sim/reset", post(reset))
        .route("/_sim/autoscaler", post(autoscaler))
        .route("/_sim/time-scale", post(time_scale))
        .route("/_sim/rename", post(rename))
        .route("/_sim/drain", post(drain))
}

/// Control bodies are small and typed; serde's own message is precise enough here.
fn parse<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Result<T, ApiError> {
    let text = if body.iter().all(u8::is_ascii_whitespace) {
        &b"{}"[..]
    } else {
        &body[..]
    };
    serde_json::from_slice(text)
        .map_err(|e| ApiError::bad_request(format!("invalid control body: {e}")))
}

async fn add_fault(State(s): State<AppState>, body: Bytes) -> Reply {
    let spec: FaultSpec = parse(&body)?;
    let id = lock(&s.faults).add(spec).map_err(ApiError::bad_request)?;
    Ok((StatusCode::CREATED, Json(json!({ "id": id }))).into_response())
}

async fn list_faults(State(s): State<AppState>) -> Reply {
    Ok(json(&json!({ "items": lock(&s.faults).list() })))
}

async fn clear_faults(State(s): State<AppState>) -> Reply {
    lock(&s.faults).clear();
    Ok(no_content())
}

async fn remove_fault(State(s): State<AppState>, Path(id): Path<String>) -> Reply {
    if lock(&s.faults).remove(&id) {
        Ok(no_content())
    } else {
        Err(ApiError::not_found("fault"))
    }
}

#[derive(Deserialize)]
struct NextBody {
    outcome: Outcome,
    kind: Option<String>,
    unknown_ms: Option<i64>,
}

async fn next_operation(State(s): State<AppState>, body: Bytes) -> Reply {
    let b: NextBody = parse(&body)?;
    let kind = kind_filter(b.kind.as_deref())?;
    let next = NextOutcome {
        outcome: b.outcome,
        kind,
        unknown_ms: b
            .unknown_ms
            .unwrap_or(crate::world::DEFAULT_UNKNOWN_MS)
            .max(0),
    };
    let mut w = s.world();
    w.next_outcomes.push(next.clone());
    Ok((
        StatusCode::CREATED,
        Json(json!({ "queued": next, "pending": w.next_outcomes.len() })),
    )
        .into_response())
}

#[derive(Deserialize)]
struct FinishBody {
    id: Option<String>,
    kind: Option<String>,
}

fn kind_filter(kind: Option<&str>) -> Result<Option<OpKind>, ApiError> {
    kind.map(|k| {
        OpKind::parse(k).ok_or_else(|| {
            ApiError::bad_request("kind: must be one of vpc, firewall_rule, nks_cluster, nks_node_pool, nks_node, nks_load_balancer")
        })
    })
    .transpose()
}

/// Test control: the in-flight operations named (by id, by kind, or all of them) end now,
/// as planned, so a test never waits out an operation's simulated duration.
async fn finish_operations(State(s): State<AppState>, body: Bytes) -> Reply {
    let b: FinishBody = parse(&body)?;
    let kind = kind_filter(b.kind.as_deref())?;
    let now = s.now();
    let mut w = s.world();
    let ended = w.finish_now(now, |op| {
        b.id.as_ref().is_none_or(|id| *id == op.id) && kind.is_none_or(|k| k == op.kind)
    });
    let items: Vec<Value> = ended
        .iter()
        .filter_map(|id| w.ops.get(id))
        .map(|op| json!({ "id": op.id, "kind": op.kind.as_str(), "status": op.status }))
        .collect();
    Ok(json(&json!({ "finished": items })))
}

fn clock_state(s: &AppState) -> Value {
    json!({ "now": crate::timefmt::format(s.now()), "now_ms": s.now(), "offset_ms": s.clock_offset() })
}

async fn clock(State(s): State<AppState>) -> Reply {
    Ok(json(&clock_state(&s)))
}

#[derive(Deserialize)]
struct ClockBody {
    advance_ms: i64,
}

/// Test control: moves the simulator's clock forward. Operations, the autoscaler and every
/// timestamp follow it, so what was due in that time has happened when this answers.
async fn advance_clock(State(s): State<AppState>, body: Bytes) -> Reply {
    let b: ClockBody = parse(&body)?;
    if !(0..=366 * 86_400_000).contains(&b.advance_ms) {
        return Err(ApiError::bad_request(
            "advance_ms: must be between 0 and a year, in milliseconds",
        ));
    }
    s.advance_clock(b.advance_ms);
    drop(s.world());
    Ok(json(&clock_state(&s)))
}

async fn requests(State(s): State<AppState>) -> Reply {
    Ok(json(&*lock(&s.counters)))
}

async fn reset_requests(State(s): State<AppState>) -> Reply {
    *lock(&s.counters) = Default::default();
    Ok(no_content())
}

#[derive(Deserialize)]
struct ResetBody {
    seed: Option<String>,
    time_scale: Option<f64>,
    autoscaler: Option<bool>,
}

fn check_time_scale(ts: f64) -> Result<f64, ApiError> {
    if ts.is_finite() && (0.0..=1000.0).contains(&ts) {
        Ok(ts)
    } else {
        Err(ApiError::bad_request(
            "time_scale: must be a number between 0 and 1000",
        ))
    }
}

/// Back to a freshly seeded world, no faults, zeroed counters; time scale and autoscaler
/// return to their command-line values unless the body says otherwise.
async fn reset(State(s): State<AppState>, body: Bytes) -> Reply {
    let b: ResetBody = parse(&body)?;
    let seed = match b.seed.as_deref() {
        None => s.settings.seed,
        Some(name) => Seed::parse(name)
            .ok_or_else(|| ApiError::bad_request("seed: must be one of demo, empty, large"))?,
    };
    let ts = check_time_scale(b.time_scale.unwrap_or(s.settings.time_scale))?;
    let autoscaler = b.autoscaler.unwrap_or(s.settings.autoscaler);
    s.replace_world(fresh_world(seed, ts, autoscaler));
    lock(&s.faults).clear();
    *lock(&s.counters) = Default::default();
    Ok(json(
        &json!({ "seed": seed.as_str(), "time_scale": ts, "autoscaler": autoscaler }),
    ))
}

#[derive(Deserialize)]
struct AutoscalerBody {
    on: bool,
}

async fn autoscaler(State(s): State<AppState>, body: Bytes) -> Reply {
    let b: AutoscalerBody = parse(&body)?;
    let mut w = s.world();
    w.autoscaler.set(b.on);
    Ok(json(
        &json!({ "on": b.on, "period_ms": w.autoscaler_period_ms() }),
    ))
}

#[derive(Deserialize)]
struct TimeScaleBody {
    time_scale: Value,
}

async fn time_scale(State(s): State<AppState>, body: Bytes) -> Reply {
    let b: TimeScaleBody = parse(&body)?;
    let ts = check_time_scale(b.time_scale.as_f64().unwrap_or(f64::NAN))?;
    s.world().time_scale = ts;
    Ok(json(&json!({ "time_scale": ts })))
}

#[derive(Deserialize)]
struct RenameBody {
    kind: String,
    id: String,
    name: String,
}

/// Test control, not API: stores any name on a cluster, pool, node or VPC, unchecked, as
/// data written before the naming rule (or by another tool) would be. No operation, no
/// update time: the resource reads back exactly as before but for its name.
async fn rename(State(s): State<AppState>, body: Bytes) -> Reply {
    let b: RenameBody = parse(&body)?;
    let mut w = s.world();
    let slot = match b.kind.as_str() {
        "cluster" => w.clusters.get_mut(&b.id).map(|c| &mut c.name),
        "pool" => w.pools.get_mut(&b.id).map(|p| &mut p.name),
        "vpc" => w.vpcs.get_mut(&b.id).map(|v| &mut v.name),
        "node" => w
            .nodes
            .values_mut()
            .flat_map(|nodes| nodes.iter_mut())
            .find(|n| n.id == b.id)
            .map(|n| &mut n.name),
        _ => {
            return Err(ApiError::bad_request(
                "kind: must be one of cluster, pool, node, vpc",
            ))
        }
    };
    let Some(slot) = slot else {
        return Err(ApiError::not_found(&b.kind));
    };
    *slot = b.name.clone();
    Ok(json(&json!({ "kind": b.kind, "id": b.id, "name": b.name })))
}

#[derive(Deserialize)]
struct DrainBody {
    cluster_id: String,
    pool_id: String,
    node_id: String,
}

/// Test control: deletes one node the way the autoscaler scales down (cordon and drain
/// first), through a real `nks_node`/`delete` operation that records
/// `details.changes.drained`, so a test need not wait for the autoscaler's die.
async fn drain(State(s): State<AppState>, body: Bytes) -> Reply {
    let b: DrainBody = parse(&body)?;
    let op = s
        .world()
        .delete_node(&b.cluster_id, &b.pool_id, &b.node_id, true, s.now())?;
    Ok(accepted(op))
}
