//! `--dist DIR`: serves the built console for every path outside `/v1` and `/_sim`, through
//! tower-http's `ServeDir`.
//!
//! Unknown paths get `DIR/index.html` so client-side routes survive a reload (SPA fallback),
//! except paths that name a missing asset (`.js`, `.wasm`, …), which get a 404: an HTML page
//! served as WebAssembly fails with a far more confusing error than a 404. A path that climbs
//! out of DIR is a 404 too, never the SPA page (ServeDir refuses it, but its refusal looks like
//! any other miss). `index.html` and `config.json` carry `Cache-Control: no-cache` so a
//! redeploy or a changed runtime config is picked up on the next load.

use std::path::Path;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use percent_encoding::percent_decode_str;
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

const ASSET_EXTENSIONS: [&str; 14] = [
    "js", "mjs", "wasm", "css", "map", "json", "png", "jpg", "svg", "ico", "woff", "woff2", "ttf",
    "txt",
];

fn not_found() -> Response {
    crate::error::json_message(StatusCode::NOT_FOUND, "not found")
}

fn climbs(url_path: &str) -> bool {
    let decoded = percent_decode_str(url_path).decode_utf8_lossy();
    decoded.contains('\\') || decoded.contains('\0') || decoded.split('/').any(|s| s == "..")
}

fn last_segment(url_path: &str) -> &str {
    url_path.rsplit('/').next().unwrap_or("")
}

fn looks_like_asset(url_path: &str) -> bool {
    last_segment(url_path)
        .rsplit_once('.')
        .is_some_and(|(_, ext)| ASSET_EXTENSIONS.contains(&ext))
}

fn no_cache(mut resp: Response) -> Response {
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    resp
}

pub async fn serve(root: &Path, req: Request) -> Response {
    let path = req.uri().path().to_string();
    if climbs(&path) {
        return not_found();
    }
    let Ok(resp) = ServeDir::new(root).oneshot(req).await;
    let resp = resp.map(Body::new);
    if resp.status() != StatusCode::NOT_FOUND {
        let entry =
            path.ends_with('/') || matches!(last_segment(&path), "index.html" | "config.json");
        return if entry { no_cache(resp) } else { resp };
    }
    if looks_like_asset(&path) {
        return not_found();
    }
    let index = ServeFile::new(root.join("index.html"));
    let Ok(resp) = index.oneshot(Request::new(Body::empty())).await;
    if resp.status() == StatusCode::OK {
        no_cache(resp.map(Body::new))
    } else {
        not_found()
    }
}
