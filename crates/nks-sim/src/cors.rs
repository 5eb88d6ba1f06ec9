//! CORS for the origins given with `--allow-origin`, so a console served elsewhere (a dev
//! server, a test page) can call the simulator directly. Other origins get no CORS headers at
//! all, which makes the browser refuse, the same as a real API without CORS would.

use axum::http::{header, HeaderMap, HeaderValue, Response, StatusCode};

use crate::state::Shared;

/// The request's origin when it is one of the allowed ones.
pub fn allowed_origin(shared: &Shared, headers: &HeaderMap) -> Option<HeaderValue> {
    let origin = headers.get(header::ORIGIN)?;
    let text = origin.to_str().ok()?;
    shared
        .settings
        .allow_origins
        .iter()
        .any(|o| o == text || o == "*")
        .then(|| origin.clone())
}

/// Preflights need no API key: browsers never send credentials on them.
pub fn preflight<B: Default>(origin: Option<HeaderValue>) -> Response<B> {
    let mut resp = Response::new(B::default());
    *resp.status_mut() = StatusCode::NO_CONTENT;
    let h = resp.headers_mut();
    h.insert(
        header::ALLOW,
        HeaderValue::from_static("GET, POST, PATCH, DELETE, OPTIONS"),
    );
    if let Some(origin) = origin {
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        h.insert(
            header::ACCESS_CONTROL_ALLOW_METHODS,
            HeaderValue::from_static("GET, POST, PATCH, DELETE"),
        );
        h.insert(
            header::ACCESS_CONTROL_ALLOW_HEADERS,
            HeaderValue::from_static("Authorization, Content-Type"),
        );
        h.insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("600"),
        );
        h.insert(header::VARY, HeaderValue::from_static("Origin"));
    }
    resp
}

/// Expose the retry headers too, or a browser client cannot honour `Retry-After`.
pub fn decorate<B>(resp: &mut Response<B>, origin: Option<HeaderValue>) {
    if let Some(origin) = origin {
        let h = resp.headers_mut();
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        h.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static("Retry-After, Retry-After-Ms"),
        );
        h.append(header::VARY, HeaderValue::from_static("Origin"));
    }
}
