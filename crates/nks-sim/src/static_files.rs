//! `--dist DIR`: serves the built console for every path outside `/v1` and `/_sim`, through
//! tower-http's `ServeDir`.
//!
//! Unknown paths get `DIR/index.html` so client-side routes survive a reload (SPA fallback),
//! except paths that name a missing asset (`.js`, `.wasm`, …), which get a 404: an HTML page
//! served as WebAssembly fails with a far more confusing error than a 404. A path that climbs
//! out of DIR is a 404 too, never the SPA page (ServeDir refuses it, but its refusal looks like
//! any other miss). `index.html` and `config.json` carry `Cache-Control: no-cache` so a
//! redeploy or a changed runtime config is picked up on the next load; content-hashed files
//! (`name-<16 hex>.js`, `_bg.wasm`, `.wasm`, `.css`) are cached for a year, `immutable`, as
//! `deploy/` configures nginx and Caddy (docs/self-hosting.md). As they do, it sends the `.br`
//! or `.gz` the release build writes beside each file to a browser that accepts it, with
//! `Vary: Accept-Encoding`, so `scripts/run.sh` serves what a deployment serves.

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

fn cache_control(mut resp: Response, value: &'static str) -> Response {
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    resp
}

fn no_cache(resp: Response) -> Response {
    cache_control(resp, "no-cache")
}

/// `stem-<16 hex>[_bg].(js|wasm|css)`: a name that never holds other content.
fn content_hashed(url_path: &str) -> bool {
    let Some((stem, ext)) = last_segment(url_path).rsplit_once('.') else {
        return false;
    };
    let stem = stem.strip_suffix("_bg").unwrap_or(stem);
    matches!(ext, "js" | "wasm" | "css")
        && stem.rsplit_once('-').is_some_and(|(_, hash)| {
            hash.len() == 16 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        })
}

/// The files the build writes a `.br` and a `.gz` beside: what is sent depends on
/// the request's `Accept-Encoding`.
fn compressible(url_path: &str) -> bool {
    last_segment(url_path)
        .rsplit_once('.')
        .is_some_and(|(_, ext)| matches!(ext, "js" | "wasm" | "css"))
}

pub async fn serve(root: &Path, req: Request) -> Response {
    let path = req.uri().path().to_string();
    if climbs(&path) {
        return not_found();
    }
    let files = ServeDir::new(root).precompressed_br().precompressed_gzip();
    let Ok(resp) = files.oneshot(req).await;
    let mut resp = resp.map(Body::new);
    if compressible(&path) {
        resp.headers_mut()
            .append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    if resp.status() != StatusCode::NOT_FOUND {
        let entry =
            path.ends_with('/') || matches!(last_segment(&path), "index.html" | "config.json");
        return if entry {
            no_cache(resp)
        } else if content_hashed(&path) && resp.status() == StatusCode::OK {
            cache_control(resp, "public, max-age=31536000, immutable")
        } else {
            resp
        };
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
