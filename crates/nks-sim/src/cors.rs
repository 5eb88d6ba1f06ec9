//! CORS for the origins given with `--allow-origin`, through tower-http's `CorsLayer`, so a
//! console served elsewhere (a dev server, a test page) can call the simulator directly.
//! Other origins get no CORS headers at all, which makes the browser refuse, the same as a
//! real API without CORS would.

use std::time::Duration;

use axum::extract::Request;
use axum::http::{header, HeaderName, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use tower_http::cors::{AllowOrigin, CorsLayer};

/// Preflights need no API key (browsers never send credentials on them), and the retry
/// headers are exposed, or a browser client could not honour `Retry-After`.
pub fn layer(allow_origins: &[String]) -> CorsLayer {
    let allowed = allow_origins.to_vec();
    CorsLayer::new()
        .allow_origin(AllowOrigin::predicate(move |origin, _| {
            origin
                .to_str()
                .is_ok_and(|o| allowed.iter().any(|a| a == o || a == "*"))
        }))
        .allow_methods([Method::GET, Method::POST, Method::PATCH, Method::DELETE])
        .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
        .expose_headers([
            HeaderName::from_static("retry-after"),
            HeaderName::from_static("retry-after-ms"),
        ])
        .max_age(Duration::from_secs(600))
}

/// `CorsLayer` answers every preflight 200 and lists the allowed methods and headers even to
/// an origin it refuses. The simulator answers 204 and, to a refused origin, no
/// `access-control-*` header at all, so a misconfigured origin fails as plainly as it would
/// against an API without CORS.
pub async fn tidy_preflight(req: Request, next: Next) -> Response {
    let preflight = req.method() == Method::OPTIONS;
    let mut resp = next.run(req).await;
    if preflight {
        *resp.status_mut() = StatusCode::NO_CONTENT;
        let h = resp.headers_mut();
        if !h.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN) {
            let names: Vec<HeaderName> = h
                .keys()
                .filter(|k| k.as_str().starts_with("access-control-"))
                .cloned()
                .collect();
            for name in names {
                h.remove(name);
            }
        }
    }
    resp
}
