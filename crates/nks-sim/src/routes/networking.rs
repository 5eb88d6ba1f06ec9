//! VPC mutations with their availability and cost twins, and firewall rules. VPC list and get
//! live with the other catalogue reads.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Uri};

use super::{accepted, body_object, json, may_view_billing, no_content, page, query, Reply};
use crate::cost::{self, Usage};
use crate::error::ApiError;
use crate::model::*;
use crate::state::AppState;
use crate::validate;
use crate::wire::{self, Wire};

type RulePath = Path<(String, String)>;

pub async fn create_vpc(State(s): State<AppState>, body: Bytes) -> Reply {
    let req = validate::vpc_create(&body_object(&body)?)?;
    Ok(accepted(s.world().create_vpc(req, s.now())?))
}

pub async fn update_vpc(State(s): State<AppState>, Path(id): Path<String>, body: Bytes) -> Reply {
    let obj = body_object(&body)?;
    let mut w = s.world();
    w.vpc(&id)?;
    let req = validate::vpc_update(&obj)?;
    Ok(accepted(w.update_vpc(&id, req, s.now())?))
}

pub async fn delete_vpc(State(s): State<AppState>, Path(id): Path<String>) -> Reply {
    Ok(accepted(s.world().delete_vpc(&id, s.now())?))
}

pub async fn vpc_availability_create(State(s): State<AppState>, body: Bytes) -> Reply {
    let req = validate::vpc_create(&body_object(&body)?)?;
    s.world().check_vpc_create(&req)?;
    Ok(no_content())
}

pub async fn vpc_availability_update(
    State(s): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Reply {
    let obj = body_object(&body)?;
    let w = s.world();
    w.vpc(&id)?;
    validate::vpc_update(&obj)?;
    w.ensure_idle(&[&id])?;
    Ok(no_content())
}

pub async fn vpc_cost_create(State(s): State<AppState>, headers: HeaderMap, body: Bytes) -> Reply {
    validate::vpc_create(&body_object(&body)?)?;
    let usage = Usage::vpc();
    let w = s.world();
    let summaries = may_view_billing(&headers).then(|| w.summaries(usage.total_e4()));
    Ok(json(&cost::quote(&usage, s.now(), summaries)))
}

/// Nothing a VPC update can change is priced, so before and after are equal.
pub async fn vpc_cost_update(
    State(s): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Reply {
    let obj = body_object(&body)?;
    let w = s.world();
    w.vpc(&id)?;
    validate::vpc_update(&obj)?;
    let usage = Usage::vpc();
    let summaries = may_view_billing(&headers).then(|| w.summaries(0));
    Ok(json(&cost::quote_update(
        &usage,
        &usage,
        s.now(),
        summaries,
    )))
}

/// Oldest first; the Go SDK's `name` (substring) and `protocol` filters.
pub async fn rules(State(s): State<AppState>, Path(vpc_id): Path<String>, uri: Uri) -> Reply {
    let q = query(&uri);
    let protocol = match q.get("protocol") {
        None => None,
        Some(p @ ("tcp" | "udp")) => Some(p.to_string()),
        Some(_) => return Err(ApiError::bad_request("protocol: must be one of tcp, udp")),
    };
    let name = q.get("name").map(str::to_lowercase);
    let w = s.world();
    let vpc = w.vpc(&vpc_id)?;
    let mut list: Vec<&FirewallRule> = vpc
        .firewall_rule_ids
        .iter()
        .filter_map(|id| w.firewall_rules.get(id))
        .filter(|r| protocol.as_deref().is_none_or(|p| r.protocol.as_str() == p))
        .filter(|r| {
            name.as_deref()
                .is_none_or(|n| r.name.to_lowercase().contains(n))
        })
        .collect();
    list.sort_by_key(|r| r.seq);
    page(&uri, wire::all(list))
}

pub async fn rule(State(s): State<AppState>, Path((vpc_id, rid)): RulePath) -> Reply {
    Ok(json(&s.world().firewall_rule(&vpc_id, &rid)?.wire()))
}

pub async fn create_rule(
    State(s): State<AppState>,
    Path(vpc_id): Path<String>,
    body: Bytes,
) -> Reply {
    let obj = body_object(&body)?;
    let mut w = s.world();
    w.vpc(&vpc_id)?;
    let req = validate::firewall_rule_create(&obj)?;
    Ok(accepted(w.create_firewall_rule(&vpc_id, req, s.now())?))
}

pub async fn update_rule(
    State(s): State<AppState>,
    Path((vpc_id, rid)): RulePath,
    body: Bytes,
) -> Reply {
    let obj = body_object(&body)?;
    let mut w = s.world();
    w.firewall_rule(&vpc_id, &rid)?;
    let req = validate::firewall_rule_update(&obj)?;
    Ok(accepted(w.update_firewall_rule(
        &vpc_id,
        &rid,
        req,
        s.now(),
    )?))
}

pub async fn delete_rule(State(s): State<AppState>, Path((vpc_id, rid)): RulePath) -> Reply {
    Ok(accepted(s.world().delete_firewall_rule(
        &vpc_id,
        &rid,
        s.now(),
    )?))
}
