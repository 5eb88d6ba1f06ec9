//! Faults on demand, for tests of retry, timeout and error handling.
//!
//! A fault is registered with `POST /_sim/faults`:
//!
//! ```json
//! {"match": {"method": "GET", "path_prefix": "/v1/operations"},
//!  "count": 3, "fraction": 0.5,
//!  "action": {"type": "status", "status": 429, "retry_after": "2", "retry_after_ms": "1500"}}
//! ```
//!
//! - `match` and its fields are optional; absent means every `/v1` request (CORS preflights
//!   are never faulted, so a browser sees the faulted status rather than a CORS failure).
//!   `path` is one path exactly (the query aside): `/v1/nks/clusters` is the list and not
//!   `/v1/nks/clusters/{id}/pools`, which `path_prefix` would match too.
//! - `count`: fire on the next N matching requests, then expire.
//! - `fraction`: fire on that share of matching requests. Deterministic: the n-th match fires
//!   when ⌊n·f⌋ > ⌊(n−1)·f⌋, so 0.5 fires on the 2nd, 4th, 6th … match.
//! - neither: fire on every matching request until removed.
//!
//! Actions: `status` (that status, `{"message"}` body, `Retry-After` / `Retry-After-Ms` sent
//! verbatim only when given), `latency` (wait `ms`, then serve normally; several latency
//! faults add up), `drop` (close the connection without any response), `malformed` (200 with
//! a truncated JSON body), `page_fail` (list requests only: answer `status`, default 500, to
//! the request that would serve 1-based page `page`, i.e. cursor offset / limit + 1).
//! Faults are tried in creation order; latency faults accumulate and the first other fault
//! that fires decides the answer.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::pagination::{self, QueryParams};

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct Match {
    pub method: Option<String>,
    pub path_prefix: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    Status {
        status: u16,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after_ms: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    Latency {
        ms: u64,
    },
    Drop,
    Malformed,
    PageFail {
        page: usize,
        #[serde(default = "default_page_fail_status")]
        status: u16,
    },
}

fn default_page_fail_status() -> u16 {
    500
}

#[derive(Debug, Clone, Deserialize)]
pub struct FaultSpec {
    #[serde(default, rename = "match")]
    pub matcher: Option<Match>,
    pub count: Option<u64>,
    pub fraction: Option<f64>,
    pub action: Action,
}

#[derive(Debug, Clone, Serialize)]
pub struct Fault {
    pub id: String,
    #[serde(rename = "match")]
    pub matcher: Match,
    /// Firings left before the fault expires; `null` = unlimited.
    pub remaining: Option<u64>,
    pub fraction: Option<f64>,
    pub action: Action,
    pub matched: u64,
    pub fired: u64,
}

/// What the fault layer decided for one request.
#[derive(Debug, Clone, Default)]
pub struct Decision {
    pub latency_ms: u64,
    pub action: Option<Action>,
}

#[derive(Debug, Default)]
pub struct Faults {
    faults: Vec<Fault>,
    next_id: u64,
}

/// Header values are sent verbatim; a JSON number is written as the client would type it.
pub fn header_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

impl Faults {
    pub fn add(&mut self, spec: FaultSpec) -> Result<String, String> {
        if let Some(f) = spec.fraction {
            if !(0.0..=1.0).contains(&f) {
                return Err("fraction: must be between 0 and 1".into());
            }
        }
        match &spec.action {
            Action::Status { status, .. } | Action::PageFail { status, .. }
                if !(100..=599).contains(status) =>
            {
                return Err("action.status: must be an HTTP status between 100 and 599".into())
            }
            Action::PageFail { page: 0, .. } => {
                return Err("action.page: must be at least 1".into())
            }
            Action::Status {
                retry_after: Some(v),
                ..
            } if header_text(v).is_none() => {
                return Err("action.retry_after: must be a string or number".into())
            }
            Action::Status {
                retry_after_ms: Some(v),
                ..
            } if header_text(v).is_none() => {
                return Err("action.retry_after_ms: must be a string or number".into())
            }
            _ => {}
        }
        self.next_id += 1;
        let id = format!("fault-{}", self.next_id);
        self.faults.push(Fault {
            id: id.clone(),
            matcher: spec.matcher.unwrap_or_default(),
            remaining: spec.count,
            fraction: spec.fraction,
            action: spec.action,
            matched: 0,
            fired: 0,
        });
        Ok(id)
    }

    pub fn list(&self) -> &[Fault] {
        &self.faults
    }

    pub fn clear(&mut self) {
        self.faults.clear();
    }

    pub fn remove(&mut self, id: &str) -> bool {
        let before = self.faults.len();
        self.faults.retain(|f| f.id != id);
        self.faults.len() != before
    }

    /// `is_list` tells whether the request is a list endpoint (for `page_fail`).
    pub fn decide(
        &mut self,
        method: &str,
        path: &str,
        query: &QueryParams,
        is_list: bool,
    ) -> Decision {
        let mut decision = Decision::default();
        for fault in &mut self.faults {
            if fault.remaining == Some(0) {
                continue;
            }
            let m = &fault.matcher;
            if m.method
                .as_deref()
                .is_some_and(|want| !want.eq_ignore_ascii_case(method))
            {
                continue;
            }
            if m.path_prefix
                .as_deref()
                .is_some_and(|p| !path.starts_with(p))
                || m.path.as_deref().is_some_and(|p| p != path)
            {
                continue;
            }
            if let Action::PageFail { page, .. } = fault.action {
                let on_page = is_list
                    && pagination::parse_page(path, query).is_ok_and(|p| p.page_number() == page);
                if !on_page {
                    continue;
                }
            }
            fault.matched += 1;
            if let Some(f) = fault.fraction {
                let n = fault.matched as f64;
                if (n * f).floor() <= ((n - 1.0) * f).floor() {
                    continue;
                }
            }
            fault.fired += 1;
            if let Some(r) = fault.remaining.as_mut() {
                *r -= 1;
            }
            match &fault.action {
                Action::Latency { ms } => {
                    decision.latency_ms = decision.latency_ms.saturating_add(*ms)
                }
                other => {
                    decision.action = Some(other.clone());
                    break;
                }
            }
        }
        self.faults.retain(|f| f.remaining != Some(0));
        decision
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(v: Value) -> FaultSpec {
        serde_json::from_value(v).expect("valid spec")
    }

    #[test]
    fn counted_fault_expires_after_n_firings() {
        let mut f = Faults::default();
        f.add(spec(
            serde_json::json!({"count": 2, "action": {"type": "drop"}}),
        ))
        .expect("ok");
        let q = QueryParams::default();
        assert!(f.decide("GET", "/v1/user", &q, false).action.is_some());
        assert!(f.decide("GET", "/v1/user", &q, false).action.is_some());
        assert!(f.decide("GET", "/v1/user", &q, false).action.is_none());
        assert!(f.list().is_empty());
    }

    #[test]
    fn fraction_fires_on_that_share_of_matches() {
        let mut f = Faults::default();
        f.add(spec(
            serde_json::json!({"fraction": 0.25, "action": {"type": "malformed"}}),
        ))
        .expect("ok");
        let q = QueryParams::default();
        let fired = (0..100)
            .filter(|_| f.decide("GET", "/v1/x", &q, false).action.is_some())
            .count();
        assert_eq!(fired, 25);
    }

    #[test]
    fn match_filters_by_method_and_prefix() {
        let mut f = Faults::default();
        f.add(spec(
            serde_json::json!({"match": {"method": "post", "path_prefix": "/v1/nks"},
            "action": {"type": "status", "status": 503}}),
        ))
        .expect("ok");
        let q = QueryParams::default();
        assert!(f
            .decide("GET", "/v1/nks/clusters", &q, true)
            .action
            .is_none());
        assert!(f
            .decide("POST", "/v1/operations", &q, false)
            .action
            .is_none());
        assert!(f
            .decide("POST", "/v1/nks/clusters", &q, false)
            .action
            .is_some());
    }

    #[test]
    fn a_path_matches_that_path_only() {
        let mut f = Faults::default();
        f.add(spec(
            serde_json::json!({"match": {"path": "/v1/nks/clusters"},
            "action": {"type": "status", "status": 429}}),
        ))
        .expect("ok");
        let q = QueryParams::default();
        assert!(f
            .decide("GET", "/v1/nks/clusters", &q, true)
            .action
            .is_some());
        assert!(f
            .decide("GET", "/v1/nks/clusters/c1/pools", &q, true)
            .action
            .is_none());
        assert!(f
            .decide("GET", "/v1/nks/cluster", &q, true)
            .action
            .is_none());
    }
}
