//! Reads of what the console picks from: user, projects, VPCs, regions, instance types,
//! Kubernetes versions, quotas.

use axum::extract::{Path, State};
use axum::http::Uri;

use super::{json, page, query, Reply};
use crate::error::ApiError;
use crate::model::*;
use crate::pagination::QueryParams;
use crate::state::AppState;
use crate::wire::{self, Wire};

pub async fn user(State(s): State<AppState>) -> Reply {
    Ok(json(&s.world().user.wire()))
}

fn contains_ci(haystack: &str, needle: &str) -> bool {
    haystack.to_lowercase().contains(&needle.to_lowercase())
}

pub async fn projects(State(s): State<AppState>, uri: Uri) -> Reply {
    let q = query(&uri);
    let w = s.world();
    let mut list: Vec<&Project> = w
        .projects
        .values()
        .filter(|p| q.get("name").is_none_or(|n| contains_ci(&p.name, n)))
        .collect();
    list.sort_by_key(|p| p.seq);
    let answers = list.into_iter().map(|p| w.project_view(p).wire());
    page(&uri, answers.collect())
}

pub async fn project(State(s): State<AppState>, Path(id): Path<String>) -> Reply {
    let w = s.world();
    let p = w.project(&id)?;
    Ok(json(&w.project_view(p).wire()))
}

pub async fn vpcs(State(s): State<AppState>, uri: Uri) -> Reply {
    let q = query(&uri);
    let project_id = q.required("project_id")?;
    let w = s.world();
    let mut list: Vec<&Vpc> = w
        .vpcs
        .values()
        .filter(|v| v.project_id == project_id)
        .filter(|v| q.get("name").is_none_or(|n| contains_ci(&v.name, n)))
        .filter(|v| q.get("region").is_none_or(|r| v.region == r))
        .collect();
    list.sort_by_key(|v| v.seq);
    page(&uri, wire::all(list))
}

pub async fn vpc(State(s): State<AppState>, Path(id): Path<String>) -> Reply {
    Ok(json(&s.world().vpc(&id)?.wire()))
}

pub async fn regions(State(s): State<AppState>, uri: Uri) -> Reply {
    let w = s.world();
    page(&uri, wire::all(w.regions.iter().collect()))
}

pub async fn region(State(s): State<AppState>, Path(name): Path<String>) -> Reply {
    let w = s.world();
    let r = w
        .regions
        .iter()
        .find(|r| r.name == name)
        .ok_or_else(|| ApiError::not_found("region"))?;
    Ok(json(&r.wire()))
}

fn int_filter(q: &QueryParams, name: &str) -> Result<Option<i64>, ApiError> {
    q.get(name)
        .map(|v| {
            v.parse::<i64>()
                .map_err(|_| ApiError::bad_request(format!("{name}: must be an integer")))
        })
        .transpose()
}

pub async fn instance_types(State(s): State<AppState>, uri: Uri) -> Reply {
    let q = query(&uri);
    let bounds = [
        int_filter(&q, "vcpu_min")?,
        int_filter(&q, "vcpu_max")?,
        int_filter(&q, "memory_gb_min")?,
        int_filter(&q, "memory_gb_max")?,
    ];
    let w = s.world();
    let list: Vec<&InstanceType> = w
        .instance_types
        .iter()
        .filter(|t| q.get("region").is_none_or(|r| t.region == r))
        .filter(|t| q.get("name").is_none_or(|n| contains_ci(&t.name, n)))
        .filter(|t| q.get("series").is_none_or(|v| t.series == v))
        .filter(|t| q.get("family").is_none_or(|v| t.family == v))
        .filter(|t| q.get("chipset").is_none_or(|v| t.chipset == v))
        .filter(|t| bounds[0].is_none_or(|b| t.vcpu >= b) && bounds[1].is_none_or(|b| t.vcpu <= b))
        .filter(|t| {
            bounds[2].is_none_or(|b| t.memory_gb >= b) && bounds[3].is_none_or(|b| t.memory_gb <= b)
        })
        .collect();
    page(&uri, wire::all(list))
}

pub async fn instance_type(
    State(s): State<AppState>,
    Path((region, name)): Path<(String, String)>,
) -> Reply {
    let w = s.world();
    let t = w
        .instance_type(&region, &name)
        .ok_or_else(|| ApiError::not_found("instance type"))?;
    Ok(json(&t.wire()))
}

pub async fn versions(State(s): State<AppState>, uri: Uri) -> Reply {
    let w = s.world();
    page(&uri, wire::all(w.versions.iter().collect()))
}

pub async fn quotas(State(s): State<AppState>, uri: Uri) -> Reply {
    let w = s.world();
    page(&uri, vec![w.quota().wire()])
}

pub async fn quota(State(s): State<AppState>, Path(region): Path<String>) -> Reply {
    if region != REGION {
        return Err(ApiError::not_found("region"));
    }
    Ok(json(&s.world().quota().wire()))
}
