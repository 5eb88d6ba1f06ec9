//! Reads of a cluster's parts (controllers and their volumes, load balancers, persistent
//! volume claims, pool and node volumes) and the one load balancer mutation.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::Uri;

use super::{accepted, body_object, json, page, Reply};
use crate::error::ApiError;
use crate::state::AppState;
use crate::wire::{self, Wire};

type Two = Path<(String, String)>;
type Three = Path<(String, String, String)>;

pub async fn controllers(State(s): State<AppState>, Path(cid): Path<String>, uri: Uri) -> Reply {
    let w = s.world();
    page(
        &uri,
        wire::all(w.cluster_controllers(&cid)?.iter().collect()),
    )
}

pub async fn controller(State(s): State<AppState>, Path((cid, id)): Two) -> Reply {
    Ok(json(&s.world().controller(&cid, &id)?.wire()))
}

pub async fn controller_volumes(
    State(s): State<AppState>,
    Path((cid, id)): Two,
    uri: Uri,
) -> Reply {
    let w = s.world();
    page(
        &uri,
        wire::all(w.controller(&cid, &id)?.volumes.iter().collect()),
    )
}

pub async fn controller_volume(State(s): State<AppState>, Path((cid, id, vid)): Three) -> Reply {
    Ok(json(&s.world().controller_volume(&cid, &id, &vid)?.wire()))
}

pub async fn load_balancers(State(s): State<AppState>, Path(cid): Path<String>, uri: Uri) -> Reply {
    let w = s.world();
    page(&uri, wire::all(w.cluster_load_balancers(&cid)?))
}

pub async fn load_balancer(State(s): State<AppState>, Path((cid, id)): Two) -> Reply {
    Ok(json(&s.world().load_balancer(&cid, &id)?.wire()))
}

/// LoadBalancerUpdate: `public_ip_enabled` (bool, required) is the only field.
pub async fn update_load_balancer(
    State(s): State<AppState>,
    Path((cid, id)): Two,
    body: Bytes,
) -> Reply {
    let obj = body_object(&body)?;
    let mut w = s.world();
    w.load_balancer(&cid, &id)?;
    let enabled = match obj.get("public_ip_enabled") {
        None | Some(serde_json::Value::Null) => {
            return Err(ApiError::field("public_ip_enabled", "is required"))
        }
        Some(v) => v
            .as_bool()
            .ok_or_else(|| ApiError::field("public_ip_enabled", "must be a boolean"))?,
    };
    Ok(accepted(w.update_load_balancer(
        &cid,
        &id,
        enabled,
        s.now(),
    )?))
}

pub async fn pvcs(State(s): State<AppState>, Path(cid): Path<String>, uri: Uri) -> Reply {
    let w = s.world();
    page(&uri, wire::all(w.cluster_pvcs(&cid)?))
}

pub async fn pvc(State(s): State<AppState>, Path((cid, id)): Two) -> Reply {
    Ok(json(&s.world().pvc(&cid, &id)?.wire()))
}

pub async fn pool_volumes(State(s): State<AppState>, Path((cid, pid)): Two, uri: Uri) -> Reply {
    let w = s.world();
    page(&uri, wire::all(w.pool_volumes(&cid, &pid)?))
}

pub async fn node_volumes(
    State(s): State<AppState>,
    Path((cid, pid, nid)): Three,
    uri: Uri,
) -> Reply {
    let w = s.world();
    page(&uri, wire::all(w.node_volumes(&cid, &pid, &nid)?))
}

pub async fn node_volume(
    State(s): State<AppState>,
    Path((cid, pid, nid, vid)): Path<(String, String, String, String)>,
) -> Reply {
    let w = s.world();
    let volume = w
        .node_volumes(&cid, &pid, &nid)?
        .into_iter()
        .find(|v| v.id == vid)
        .ok_or_else(|| ApiError::not_found("volume"))?;
    Ok(json(&volume.wire()))
}
