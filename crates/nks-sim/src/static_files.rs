//! `--dist DIR`: serves the built console for every path outside `/v1` and `/_sim`.
//!
//! Unknown paths get `DIR/index.html` so client-side routes survive a reload (SPA fallback),
//! except paths that name a missing asset (`.js`, `.wasm`, …), which get a 404: an HTML page
//! served as WebAssembly fails with a far more confusing error than a 404.
//! `index.html` and `config.json` carry `Cache-Control: no-cache` so a redeploy or a changed
//! runtime config is picked up on the next load.

use std::path::{Component, Path, PathBuf};

use axum::body::Body;
use axum::http::{header, HeaderValue, Response, StatusCode};

const ASSET_EXTENSIONS: [&str; 14] = [
    "js", "mjs", "wasm", "css", "map", "json", "png", "jpg", "svg", "ico", "woff", "woff2", "ttf",
    "txt",
];

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Maps a URL path into `root`, refusing anything that could climb out of it.
fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(url_path)?;
    if decoded.contains('\0') || decoded.contains('\\') {
        return None;
    }
    let relative = Path::new(decoded.trim_start_matches('/'));
    let mut out = root.to_path_buf();
    for part in relative.components() {
        match part {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(out)
}

fn no_cache(path: &Path) -> bool {
    matches!(
        path.file_name().and_then(|n| n.to_str()),
        Some("index.html" | "config.json")
    )
}

async fn file_response(path: &Path) -> Option<Response<Body>> {
    let meta = tokio::fs::metadata(path).await.ok()?;
    if !meta.is_file() {
        return None;
    }
    let bytes = tokio::fs::read(path).await.ok()?;
    let mut resp = Response::new(Body::from(bytes));
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(path)),
    );
    if no_cache(path) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    }
    Some(resp)
}

fn not_found() -> Response<Body> {
    crate::error::json_message(StatusCode::NOT_FOUND, "not found")
}

pub async fn serve(root: &Path, url_path: &str) -> Response<Body> {
    let Some(mut path) = resolve(root, url_path) else {
        return not_found();
    };
    if url_path.ends_with('/') || path == root {
        path.push("index.html");
    }
    if let Some(resp) = file_response(&path).await {
        return resp;
    }
    if path.is_dir() {
        if let Some(resp) = file_response(&path.join("index.html")).await {
            return resp;
        }
    }
    let looks_like_asset = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ASSET_EXTENSIONS.contains(&e));
    if looks_like_asset {
        return not_found();
    }
    file_response(&root.join("index.html"))
        .await
        .unwrap_or_else(not_found)
}
