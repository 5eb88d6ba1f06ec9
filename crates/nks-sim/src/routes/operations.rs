//! `GET /v1/operations` with the Go SDK's filters (digest §2.2), newest first by default.

use axum::extract::{Path, State};
use axum::http::Uri;

use super::{json, page, query, Reply};
use crate::error::ApiError;
use crate::model::*;
use crate::state::AppState;
use crate::timefmt;
use crate::wire::{self, Wire};

fn one_of<'a>(
    value: Option<&'a str>,
    name: &str,
    allowed: &[&str],
) -> Result<Option<&'a str>, ApiError> {
    match value {
        Some(v) if !allowed.contains(&v) => Err(ApiError::bad_request(format!(
            "{name}: must be one of {}",
            allowed.join(", ")
        ))),
        other => Ok(other),
    }
}

fn instant(value: Option<&str>, name: &str) -> Result<Option<i64>, ApiError> {
    value
        .map(|v| {
            timefmt::parse(v).ok_or_else(|| {
                ApiError::bad_request(format!("{name}: must be an RFC 3339 date-time"))
            })
        })
        .transpose()
}

#[derive(Clone, Copy)]
struct SortTerm {
    updated: bool,
    descending: bool,
}

/// `sort` is comma-separated `field:asc|desc` terms; fields `created_at`, `updated_at`.
fn sort_terms(raw: Option<&str>) -> Result<Vec<SortTerm>, ApiError> {
    let Some(raw) = raw else {
        return Ok(vec![SortTerm {
            updated: false,
            descending: true,
        }]);
    };
    raw.split(',')
        .map(|term| {
            let (field, dir) = term.split_once(':').unwrap_or((term, "asc"));
            let updated = match field.trim() {
                "created_at" => false,
                "updated_at" => true,
                _ => {
                    return Err(ApiError::bad_request(
                        "sort: fields are created_at, updated_at",
                    ))
                }
            };
            let descending = match dir.trim() {
                "asc" => false,
                "desc" => true,
                _ => return Err(ApiError::bad_request("sort: direction must be asc or desc")),
            };
            Ok(SortTerm {
                updated,
                descending,
            })
        })
        .collect()
}

pub async fn list(State(s): State<AppState>, uri: Uri) -> Reply {
    let q = query(&uri);
    let project_id = q.required("project_id")?;
    let status = one_of(q.get("status"), "status", &OpStatus::ALL)?;
    let kind = one_of(q.get("kind"), "kind", &OpKind::FILTERABLE)?;
    let op_type = one_of(q.get("type"), "type", &OpType::FILTERABLE)?;
    let min = instant(q.get("created_at_min"), "created_at_min")?;
    let max = instant(q.get("created_at_max"), "created_at_max")?;
    let terms = sort_terms(q.get("sort"))?;
    let resource_id = q.get("resource_id");
    let w = s.world();
    let mut list: Vec<&Operation> = w
        .ops
        .values()
        .filter(|o| o.project_id == project_id)
        .filter(|o| resource_id.is_none_or(|r| o.resource_id == r))
        .filter(|o| status.is_none_or(|st| o.status.as_str() == st))
        .filter(|o| kind.is_none_or(|k| o.kind.as_str() == k))
        .filter(|o| op_type.is_none_or(|t| o.op_type.as_str() == t))
        .filter(|o| min.is_none_or(|m| o.created_at >= m))
        .filter(|o| max.is_none_or(|m| o.created_at <= m))
        .collect();
    // Creation sequence breaks ties so pages are stable when timestamps collide.
    list.sort_by(|a, b| {
        for t in &terms {
            let (x, y) = if t.updated {
                (a.updated_at, b.updated_at)
            } else {
                (a.created_at, b.created_at)
            };
            let ord = if t.descending { y.cmp(&x) } else { x.cmp(&y) };
            if ord.is_ne() {
                return ord;
            }
        }
        match terms.first() {
            Some(t) if !t.descending => a.seq.cmp(&b.seq),
            _ => b.seq.cmp(&a.seq),
        }
    });
    page(&uri, wire::all(list))
}

pub async fn read(State(s): State<AppState>, Path(id): Path<String>) -> Reply {
    Ok(json(&s.world().operation(&id)?.wire()))
}
