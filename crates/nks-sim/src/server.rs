//! Serving connections by hand with hyper rather than `axum::serve`, for one reason: the
//! `drop` fault must close the TCP connection without writing any HTTP response, so that a
//! browser `fetch` rejects with a network error. A hyper service that returns `Err` does
//! exactly that; an axum handler cannot.
//!
//! Per request, in order: count it (`/v1` only), answer CORS preflights, apply faults,
//! check the API key, then hand over to the axum router; CORS headers go on every answer.

use std::fmt;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderValue, Method, Request, Response, StatusCode};
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
#[derive(Debug)]
pub struct DropConnection;

impl fmt::Display for DropConnection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("connection dropped by a simulated fault")
    }
}

impl std::error::Error for DropConnection {}

pub async fn accept_loop(listener: TcpListener, shared: AppState) {
    let router = routes::router(shared.clone());
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
        let shared = shared.clone();
        let router = router.clone();
        tokio::spawn(async move {
            let service = service_fn(move |req| handle(shared.clone(), router.clone(), req));
            // Errors here are clients hanging up or our own drop fault; nothing to report.
            let _ = http1::Builder::new()
                .keep_alive(true)
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

fn bearer(req: &Request<Incoming>) -> Option<&str> {
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

async fn handle(
    shared: AppState,
    router: Router,
    req: Request<Incoming>,
) -> Result<Response<Body>, DropConnection> {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let origin = cors::allowed_origin(&shared, req.headers());
    let is_api = path == "/v1" || path.starts_with("/v1/");

    if is_api {
        let route = routes::template(&path).unwrap_or(&path).to_string();
        lock(&shared.counters).record(method.as_str(), &route, &path);
    }

    if method == Method::OPTIONS {
        return Ok(cors::preflight(origin));
    }

    let mut resp = match api_gate(&shared, &method, &path, &req).await? {
        Some(early) => early,
        None => match router.oneshot(req.map(Body::new)).await {
            Ok(resp) => resp,
            Err(never) => match never {},
        },
    };
    cors::decorate(&mut resp, origin);
    Ok(resp)
}

/// Faults, then authentication, for `/v1` requests; `None` lets the request through.
async fn api_gate(
    shared: &AppState,
    method: &Method,
    path: &str,
    req: &Request<Incoming>,
) -> Result<Option<Response<Body>>, DropConnection> {
    if !(path == "/v1" || path.starts_with("/v1/")) {
        return Ok(None);
    }
    let query = QueryParams::parse(req.uri().query());
    let decision = {
        let is_list = *method == Method::GET && routes::is_list(path);
        lock(&shared.faults).decide(method.as_str(), path, &query, is_list)
    };
    if decision.latency_ms > 0 {
        tokio::time::sleep(Duration::from_millis(decision.latency_ms)).await;
    }
    if let Some(action) = decision.action {
        return fault_response(action).map(Some);
    }
    match bearer(req) {
        Some(key) if shared.key_allowed(key) => Ok(None),
        Some(_) => Ok(Some(json_message(
            StatusCode::UNAUTHORIZED,
            "invalid API key",
        ))),
        None => Ok(Some(json_message(
            StatusCode::UNAUTHORIZED,
            "missing API key: send Authorization: Bearer <API key>",
        ))),
    }
}
