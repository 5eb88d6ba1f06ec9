//! Clusters: CRUD, the availability and cost pre-flights, kubeconfig.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Uri};
use serde_json::json;

use super::{accepted, body_object, json, may_view_billing, no_content, page, query, Reply};
use crate::cost::{self, Usage};
use crate::model::*;
use crate::state::AppState;
use crate::validate;
use crate::wire::{self, Wire};

pub async fn create(State(s): State<AppState>, body: Bytes) -> Reply {
    let req = validate::cluster_create(&body_object(&body)?)?;
    Ok(accepted(s.world().create_cluster(req, s.now())?))
}

pub async fn list(State(s): State<AppState>, uri: Uri) -> Reply {
    let q = query(&uri);
    let project_id = q.required("project_id")?;
    let w = s.world();
    let mut list: Vec<&Cluster> = w
        .clusters
        .values()
        .filter(|c| c.project_id == project_id)
        .collect();
    list.sort_by_key(|c| c.seq);
    page(&uri, wire::all(list))
}

pub async fn read(State(s): State<AppState>, Path(id): Path<String>) -> Reply {
    Ok(json(&s.world().cluster(&id)?.wire()))
}

pub async fn update(State(s): State<AppState>, Path(id): Path<String>, body: Bytes) -> Reply {
    let obj = body_object(&body)?;
    let mut w = s.world();
    w.cluster(&id)?;
    let req = validate::cluster_update(&obj)?;
    Ok(accepted(w.update_cluster(&id, req, s.now())?))
}

pub async fn delete(State(s): State<AppState>, Path(id): Path<String>) -> Reply {
    Ok(accepted(s.world().delete_cluster(&id, s.now())?))
}

pub async fn availability_create(State(s): State<AppState>, body: Bytes) -> Reply {
    let req = validate::cluster_create(&body_object(&body)?)?;
    s.world().check_cluster_create(&req)?;
    Ok(no_content())
}

pub async fn availability_update(
    State(s): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Reply {
    let obj = body_object(&body)?;
    let w = s.world();
    w.cluster(&id)?;
    validate::cluster_update(&obj)?;
    w.ensure_idle(&[&id])?;
    Ok(no_content())
}

/// A new cluster costs its control plane; pools are priced when they are added.
pub async fn cost_create(State(s): State<AppState>, headers: HeaderMap, body: Bytes) -> Reply {
    validate::cluster_create(&body_object(&body)?)?;
    let usage = Usage::control_plane();
    let w = s.world();
    let summaries = may_view_billing(&headers).then(|| w.summaries(usage.total_e4()));
    Ok(json(&cost::quote(&usage, s.now(), summaries)))
}

/// Nothing a cluster update can change is priced, so before and after are equal.
pub async fn cost_update(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Reply {
    let obj = body_object(&body)?;
    let w = s.world();
    let cluster = w.cluster(&id)?;
    validate::cluster_update(&obj)?;
    let usage = w.cluster_usage(cluster);
    let summaries = may_view_billing(&headers).then(|| w.summaries(0));
    Ok(json(&cost::quote_update(
        &usage,
        &usage,
        s.now(),
        summaries,
    )))
}

pub async fn kubeconfig(State(s): State<AppState>, Path(id): Path<String>) -> Reply {
    let text = s.world().kubeconfig(&id)?;
    Ok(json(&json!({ "kubeconfig": text })))
}
