//! Serving connections by hand with hyper rather than `axum::serve`, for one reason: the
//! `drop` fault must close the TCP connection without writing any HTTP response, so that a
//! browser `fetch` rejects with a network error. A hyper service that returns `Err` does
//! exactly that; an axum handler cannot.
//!
//! Everything else is one axum router (`app`). Its layers run, outermost first: count the
//! request by its route (`/v1` only, through axum's `MatchedPath`), answer CORS preflights
//! (tower-http), apply faults, check the API key, then the handler; CORS headers go on every
//! answer. A `drop` fault marks its response and `handle` turns the mark into a dropped
//! connection.

use std::fmt;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{MatchedPath, State};
use axum::http::{header, HeaderValue, Method, Request, Response, StatusCode};
use axum::middleware::{self, Next};
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::cors;
use crate::error::json_message;
use crate::faults::{header_text, Action};
use crate::pagination::QueryParams;
use crate::routes;
use crate::state::{lock, AppState};

/// The `drop` fault: hyper aborts the connection when the service fails.
#[derive(Debug, Clone, Copy)]
pub struct DropConnection;

impl fmt::Display for DropConnection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("connection dropped by a simulated fault")
    }
}

impl std::error::Error for DropConnection {}

pub async fn accept_loop(listener: TcpListener, shared: AppState) {
    let router = app(shared.clone());
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(conn) => conn,
            // Running out of file descriptors must not end the server; back off and retry.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        tokio::spawn(async move {
            let service = service_fn(move |req| handle(router.clone(), req));
            // Errors here are clients hanging up or our own drop fault; nothing to report.
            let _ = http1::Builder::new()
                .keep_alive(true)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

/// The router with its layers; `Router::layer` wraps every route and the fallback, so each
/// layer sees the `MatchedPath` of the route the request was routed to.
pub fn app(shared: AppState) -> Router {
    routes::router(shared.clone())
        .layer(middleware::from_fn_with_state(shared.clone(), api_gate))
        .layer(cors::layer(&shared.settings.allow_origins))
        .layer(middleware::from_fn(cors::tidy_preflight))
        .layer(middleware::from_fn_with_state(shared, count))
}

fn is_api(path: &str) -> bool {
    path == "/v1" || path.starts_with("/v1/")
}

fn route_of<B>(req: &Request<B>) -> Option<String> {
    req.extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_string())
}

/// `GET /_sim/requests`: every `/v1` request, preflights and refusals included, by route
/// (unrouted paths count as themselves) and by path.
async fn count(State(shared): State<AppState>, req: Request<Body>, next: Next) -> Response<Body> {
    let path = req.uri().path();
    if is_api(path) {
        let route = route_of(&req).unwrap_or_else(|| path.to_string());
        lock(&shared.counters).record(req.method().as_str(), &route, path);
    }
    next.run(req).await
}

fn bearer<B>(req: &Request<B>) -> Option<&str> {
    let value = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, key) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| key.trim())
}

fn fault_response(action: Action) -> Result<Response<Body>, DropConnection> {
    match action {
        Action::Drop => Err(DropConnection),
        Action::Malformed => {
            let mut resp = Response::new(Body::from(r#"{"items": [{"id": "#));
            resp.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            Ok(resp)
        }
        Action::Status {
            status,
            retry_after,
            retry_after_ms,
            message,
        } => {
            let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let text = message.unwrap_or_else(|| {
                format!(
                    "simulated fault: {}",
                    code.canonical_reason().unwrap_or("error")
                )
            });
            let mut resp = json_message(code, &text);
            let h = resp.headers_mut();
            for (name, value) in [
                ("retry-after", retry_after),
                ("retry-after-ms", retry_after_ms),
            ] {
                if let Some(v) = value
                    .as_ref()
                    .and_then(header_text)
                    .and_then(|t| HeaderValue::from_str(&t).ok())
                {
                    h.insert(name, v);
                }
            }
            Ok(resp)
        }
        Action::PageFail { page, status } => {
            let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            Ok(json_message(
                code,
                &format!("simulated failure serving page {page}"),
            ))
        }
        // Latency never ends a request; `decide` only returns terminal actions.
        Action::Latency { .. } => Ok(json_message(
            StatusCode::INTERNAL_SERVER_ERROR,
            "unexpected latency fault",
        )),
    }
}

async fn handle(router: Router, req: Request<Incoming>) -> Result<Response<Body>, DropConnection> {
    let Ok(resp) = router.oneshot(req.map(Body::new)).await;
    match resp.extensions().get::<DropConnection>() {
        Some(drop) => Err(*drop),
        None => Ok(resp),
    }
}

/// Faults, then authentication, for `/v1` requests.
async fn api_gate(
    State(shared): State<AppState>,
    req: Request<Body>,
    next: Next,
) -> Response<Body> {
    let path = req.uri().path();
    if !is_api(path) {
        return next.run(req).await;
    }
    let query = QueryParams::parse(req.uri().query());
    let decision = {
        let is_list =
            *req.method() == Method::GET && route_of(&req).is_some_and(|r| routes::is_list(&r));
        lock(&shared.faults).decide(req.method().as_str(), path, &query, is_list)
    };
    if decision.latency_ms > 0 {
        tokio::time::sleep(Duration::from_millis(decision.latency_ms)).await;
    }
    if let Some(action) = decision.action {
        return match fault_response(action) {
            Ok(resp) => resp,
            Err(drop) => {
                let mut resp = Response::new(Body::empty());
                resp.extensions_mut().insert(drop);
                resp
            }
        };
    }
    match bearer(&req) {
        Some(key) if shared.key_allowed(key) => next.run(req).await,
        Some(_) => json_message(StatusCode::UNAUTHORIZED, "invalid API key"),
        None => json_message(
            StatusCode::UNAUTHORIZED,
            "missing API key: send Authorization: Bearer <API key>",
        ),
    }
}
