//! Node pools and their nodes.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Uri};

use super::{accepted, body_object, json, may_view_billing, no_content, page, Reply};
use crate::cost;
use crate::model::*;
use crate::state::AppState;
use crate::validate;
use crate::wire::{self, Wire};

type PoolPath = Path<(String, String)>;

pub async fn create(State(s): State<AppState>, Path(cid): Path<String>, body: Bytes) -> Reply {
    let obj = body_object(&body)?;
    let mut w = s.world();
    w.cluster(&cid)?;
    let req = validate::pool_create(&obj)?;
    Ok(accepted(w.create_pool(&cid, req, s.now())?))
}

pub async fn list(State(s): State<AppState>, Path(cid): Path<String>, uri: Uri) -> Reply {
    let w = s.world();
    let cluster = w.cluster(&cid)?;
    page(&uri, wire::all(w.cluster_pools(cluster)))
}

pub async fn read(State(s): State<AppState>, Path((cid, pid)): PoolPath) -> Reply {
    Ok(json(&s.world().pool(&cid, &pid)?.wire()))
}

pub async fn update(State(s): State<AppState>, Path((cid, pid)): PoolPath, body: Bytes) -> Reply {
    let obj = body_object(&body)?;
    let mut w = s.world();
    w.pool(&cid, &pid)?;
    let req = validate::pool_update(&obj)?;
    Ok(accepted(w.update_pool(&cid, &pid, req, s.now())?))
}

pub async fn delete(State(s): State<AppState>, Path((cid, pid)): PoolPath) -> Reply {
    Ok(accepted(s.world().delete_pool(&cid, &pid, s.now())?))
}

pub async fn availability_create(
    State(s): State<AppState>,
    Path(cid): Path<String>,
    body: Bytes,
) -> Reply {
    let obj = body_object(&body)?;
    let w = s.world();
    let cluster = w.cluster(&cid)?;
    let req = validate::pool_create(&obj)?;
    w.ensure_idle(&[&cid])?;
    w.check_pool_create(cluster, &req)?;
    Ok(no_content())
}

pub async fn availability_update(
    State(s): State<AppState>,
    Path((cid, pid)): PoolPath,
    body: Bytes,
) -> Reply {
    let obj = body_object(&body)?;
    let w = s.world();
    let pool = w.pool(&cid, &pid)?;
    let cluster = w.cluster(&cid)?;
    let req = validate::pool_update(&obj)?;
    w.ensure_idle(&[&cid, &pid])?;
    w.check_pool_update(cluster, pool, &req)?;
    Ok(no_content())
}

pub async fn cost_create(
    State(s): State<AppState>,
    Path(cid): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Reply {
    let obj = body_object(&body)?;
    let w = s.world();
    w.cluster(&cid)?;
    let req = validate::pool_create(&obj)?;
    if w.instance_type(REGION, &req.node_config.instance_type)
        .is_none()
    {
        return Err(crate::error::ApiError::field(
            "node_config.instance_type",
            format!(
                "unknown instance type {} in {REGION}",
                req.node_config.instance_type
            ),
        ));
    }
    let usage = w.pool_usage_with(&req.node_config, req.node_count);
    let summaries = may_view_billing(&headers).then(|| w.summaries(usage.total_e4()));
    Ok(json(&cost::quote(&usage, s.now(), summaries)))
}

pub async fn cost_update(
    State(s): State<AppState>,
    Path((cid, pid)): PoolPath,
    headers: HeaderMap,
    body: Bytes,
) -> Reply {
    let obj = body_object(&body)?;
    let w = s.world();
    let pool = w.pool(&cid, &pid)?;
    let req = validate::pool_update(&obj)?;
    let before = w.pool_usage_with(&pool.node_config, pool.node_count);
    let after = w.pool_usage_with(&pool.node_config, req.node_count.unwrap_or(pool.node_count));
    let delta = after.total_e4() - before.total_e4();
    let summaries = may_view_billing(&headers).then(|| w.summaries(delta));
    Ok(json(&cost::quote_update(
        &before,
        &after,
        s.now(),
        summaries,
    )))
}

pub async fn nodes(State(s): State<AppState>, Path((cid, pid)): PoolPath, uri: Uri) -> Reply {
    let w = s.world();
    w.pool(&cid, &pid)?;
    page(&uri, wire::all(w.pool_nodes(&pid).iter().collect()))
}

pub async fn node(
    State(s): State<AppState>,
    Path((cid, pid, nid)): Path<(String, String, String)>,
) -> Reply {
    Ok(json(&s.world().node(&cid, &pid, &nid)?.wire()))
}

pub async fn delete_node(
    State(s): State<AppState>,
    Path((cid, pid, nid)): Path<(String, String, String)>,
) -> Reply {
    Ok(accepted(s.world().delete_node(
        &cid,
        &pid,
        &nid,
        false,
        s.now(),
    )?))
}
