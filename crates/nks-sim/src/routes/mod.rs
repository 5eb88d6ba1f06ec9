//! HTTP routes, split by area: catalogue reads, clusters, pools and nodes, operations, and the
//! `/_sim` control API. Handlers parse, call the world, and shape the answer; rules live in
//! `validate` and `world`.

mod catalog;
mod clusters;
mod control;
mod networking;
mod operations;
mod parts;
mod pools;

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{ApiError, ApiResult};
use crate::model::Operation;
use crate::pagination::{self, QueryParams};
use crate::state::AppState;
use crate::wire::Wire;

/// List routes, as the router spells them; the `page_fail` fault only hits these.
const LISTS: &[&str] = &[
    "/v1/projects",
    "/v1/networking/vpcs",
    "/v1/networking/vpcs/{vpc_id}/firewall_rules",
    "/v1/regions",
    "/v1/instance_types",
    "/v1/quotas",
    "/v1/nks/kubernetes_versions",
    "/v1/nks/clusters",
    "/v1/nks/clusters/{cluster_id}/controllers",
    "/v1/nks/clusters/{cluster_id}/controllers/{controller_id}/volumes",
    "/v1/nks/clusters/{cluster_id}/load_balancers",
    "/v1/nks/clusters/{cluster_id}/persistent_volume_claims",
    "/v1/nks/clusters/{cluster_id}/pools",
    "/v1/nks/clusters/{cluster_id}/pools/{pool_id}/volumes",
    "/v1/nks/clusters/{cluster_id}/pools/{pool_id}/nodes",
    "/v1/nks/clusters/{cluster_id}/pools/{pool_id}/nodes/{node_id}/volumes",
    "/v1/operations",
];

/// Whether a route (axum's `MatchedPath`, e.g. `/v1/nks/clusters/{cluster_id}/pools`) is a list.
pub fn is_list(route: &str) -> bool {
    LISTS.contains(&route)
}

/// The one route table: paths use the SDKs' parameter names, and `GET /_sim/requests` reports
/// them as they are written here (through axum's `MatchedPath`).
pub fn router(state: AppState) -> Router {
    const VPC: &str = "/v1/networking/vpcs/{vpc_id}";
    const CLUSTER: &str = "/v1/nks/clusters/{cluster_id}";
    const POOL: &str = "/v1/nks/clusters/{cluster_id}/pools/{pool_id}";
    Router::new()
        .route("/v1/user", get(catalog::user))
        .route("/v1/projects", get(catalog::projects))
        .route("/v1/projects/{project_id}", get(catalog::project))
        .route(
            "/v1/networking/vpcs",
            get(catalog::vpcs).post(networking::create_vpc),
        )
        .route(
            "/v1/networking/vpcs/availability",
            post(networking::vpc_availability_create),
        )
        .route(
            "/v1/networking/vpcs/cost",
            post(networking::vpc_cost_create),
        )
        .route(
            VPC,
            get(catalog::vpc)
                .patch(networking::update_vpc)
                .delete(networking::delete_vpc),
        )
        .route(
            &format!("{VPC}/availability"),
            patch(networking::vpc_availability_update),
        )
        .route(&format!("{VPC}/cost"), patch(networking::vpc_cost_update))
        .route(
            &format!("{VPC}/firewall_rules"),
            get(networking::rules).post(networking::create_rule),
        )
        .route(
            &format!("{VPC}/firewall_rules/{{firewall_rule_id}}"),
            get(networking::rule)
                .patch(networking::update_rule)
                .delete(networking::delete_rule),
        )
        .route("/v1/regions", get(catalog::regions))
        .route("/v1/regions/{name}", get(catalog::region))
        .route("/v1/instance_types", get(catalog::instance_types))
        .route(
            "/v1/instance_types/{region}/{name}",
            get(catalog::instance_type),
        )
        .route("/v1/quotas", get(catalog::quotas))
        .route("/v1/quotas/{region}", get(catalog::quota))
        .route("/v1/nks/kubernetes_versions", get(catalog::versions))
        .route(
            "/v1/nks/clusters",
            post(clusters::create).get(clusters::list),
        )
        .route(
            "/v1/nks/clusters/availability",
            post(clusters::availability_create),
        )
        .route("/v1/nks/clusters/cost", post(clusters::cost_create))
        .route(
            CLUSTER,
            get(clusters::read)
                .patch(clusters::update)
                .delete(clusters::delete),
        )
        .route(
            &format!("{CLUSTER}/availability"),
            patch(clusters::availability_update),
        )
        .route(&format!("{CLUSTER}/cost"), patch(clusters::cost_update))
        .route(&format!("{CLUSTER}/kubeconfig"), get(clusters::kubeconfig))
        .route(&format!("{CLUSTER}/controllers"), get(parts::controllers))
        .route(
            &format!("{CLUSTER}/controllers/{{controller_id}}"),
            get(parts::controller),
        )
        .route(
            &format!("{CLUSTER}/controllers/{{controller_id}}/volumes"),
            get(parts::controller_volumes),
        )
        .route(
            &format!("{CLUSTER}/controllers/{{controller_id}}/volumes/{{volume_id}}"),
            get(parts::controller_volume),
        )
        .route(
            &format!("{CLUSTER}/load_balancers"),
            get(parts::load_balancers),
        )
        .route(
            &format!("{CLUSTER}/load_balancers/{{load_balancer_id}}"),
            get(parts::load_balancer).patch(parts::update_load_balancer),
        )
        .route(
            &format!("{CLUSTER}/persistent_volume_claims"),
            get(parts::pvcs),
        )
        .route(
            &format!("{CLUSTER}/persistent_volume_claims/{{persistent_volume_claim_id}}"),
            get(parts::pvc),
        )
        .route(
            &format!("{CLUSTER}/pools"),
            post(pools::create).get(pools::list),
        )
        .route(
            &format!("{CLUSTER}/pools/availability"),
            post(pools::availability_create),
        )
        .route(&format!("{CLUSTER}/pools/cost"), post(pools::cost_create))
        .route(
            POOL,
            get(pools::read).patch(pools::update).delete(pools::delete),
        )
        .route(
            &format!("{POOL}/availability"),
            patch(pools::availability_update),
        )
        .route(&format!("{POOL}/cost"), patch(pools::cost_update))
        .route(&format!("{POOL}/volumes"), get(parts::pool_volumes))
        .route(&format!("{POOL}/nodes"), get(pools::nodes))
        .route(
            &format!("{POOL}/nodes/{{node_id}}/volumes"),
            get(parts::node_volumes),
        )
        .route(
            &format!("{POOL}/nodes/{{node_id}}/volumes/{{volume_id}}"),
            get(parts::node_volume),
        )
        .route(
            &format!("{POOL}/nodes/{{node_id}}"),
            get(pools::node).delete(pools::delete_node),
        )
        .route("/v1/operations", get(operations::list))
        .route("/v1/operations/{operation_id}", get(operations::read))
        .merge(control::routes())
        .fallback(fallback)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state)
}

async fn fallback(State(state): State<AppState>, req: Request) -> Response {
    let path = req.uri().path();
    let api = path.starts_with("/v1/") || path == "/v1" || path.starts_with("/_sim");
    match (&state.settings.dist, api) {
        (Some(dir), false) => crate::static_files::serve(dir, req).await,
        _ => ApiError::not_found("route").into_response(),
    }
}

async fn method_not_allowed() -> Response {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed on this route",
    )
    .into_response()
}

// ---- helpers shared by the handlers ----------------------------------------------------

pub(crate) fn json<T: Serialize>(value: &T) -> Response {
    Json(value).into_response()
}

/// A change's answer: its operation, as the API writes it.
pub(crate) fn accepted(op: Operation) -> Response {
    (StatusCode::ACCEPTED, Json(op.wire())).into_response()
}

pub(crate) fn no_content() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

pub(crate) fn body_object(body: &Bytes) -> ApiResult<Map<String, Value>> {
    crate::validate::parse_object(body)
}

/// One page of an already filtered and ordered list.
pub(crate) fn page<T: Serialize>(uri: &Uri, items: Vec<T>) -> ApiResult<Response> {
    let query = QueryParams::parse(uri.query());
    let page = pagination::parse_page(uri.path(), &query)?;
    Ok(json(&pagination::paginate(items, &page)))
}

pub(crate) fn query(uri: &Uri) -> QueryParams {
    QueryParams::parse(uri.query())
}

/// The caller may see billing summaries in cost quotes: the simulator grants that to the
/// documented demo key only, so the "summaries omitted" branch can be exercised with any
/// other key.
pub(crate) fn may_view_billing(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .is_some_and(|(_, key)| key.trim() == crate::seed::DEMO_API_KEY)
}

pub(crate) type Reply = Result<Response, ApiError>;
