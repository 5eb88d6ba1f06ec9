use reqwest::Method;

use crate::common::*;

const ALLOWED: &str = "http://localhost:3000";

/// A comma-separated header value as a list, case-folded: `GET,POST` equals `GET, POST`.
fn list(v: &reqwest::header::HeaderValue) -> Vec<String> {
    v.to_str()
        .unwrap_or_default()
        .split(',')
        .map(|s| s.trim().to_ascii_lowercase())
        .collect()
}

#[tokio::test]
async fn preflight_from_an_allowed_origin_is_answered_without_auth() {
    let t = start_with(|c| c.allow_origins = vec![ALLOWED.into()]).await;
    let resp = t
        .http
        .request(Method::OPTIONS, t.url("/v1/nks/clusters"))
        .header("Origin", ALLOWED)
        .header("Access-Control-Request-Method", "POST")
        .header(
            "Access-Control-Request-Headers",
            "authorization, content-type",
        )
        .send()
        .await
        .expect("sent");
    assert_eq!(resp.status().as_u16(), 204);
    let h = resp.headers();
    assert_eq!(h["access-control-allow-origin"], ALLOWED);
    assert_eq!(
        list(&h["access-control-allow-methods"]),
        ["get", "post", "patch", "delete"]
    );
    assert_eq!(
        list(&h["access-control-allow-headers"]),
        ["authorization", "content-type"]
    );
    assert!(h.contains_key("access-control-max-age"));

    let resp = t
        .http
        .get(t.url("/v1/user"))
        .bearer_auth(KEY)
        .header("Origin", ALLOWED)
        .send()
        .await
        .expect("sent");
    assert_eq!(resp.headers()["access-control-allow-origin"], ALLOWED);
    assert_eq!(
        list(&resp.headers()["access-control-expose-headers"]),
        ["retry-after", "retry-after-ms"]
    );
    // Errors carry CORS headers too, or the browser could not read them.
    let resp = t
        .http
        .get(t.url("/v1/user"))
        .header("Origin", ALLOWED)
        .send()
        .await
        .expect("sent");
    assert_eq!(resp.status().as_u16(), 401);
    assert_eq!(resp.headers()["access-control-allow-origin"], ALLOWED);
}

#[tokio::test]
async fn other_origins_get_no_cors_headers() {
    let t = start_with(|c| c.allow_origins = vec![ALLOWED.into()]).await;
    let resp = t
        .http
        .request(Method::OPTIONS, t.url("/v1/nks/clusters"))
        .header("Origin", "http://evil.example")
        .header("Access-Control-Request-Method", "POST")
        .send()
        .await
        .expect("sent");
    assert!(
        resp.headers()
            .keys()
            .all(|k| !k.as_str().starts_with("access-control-")),
        "{:?}",
        resp.headers()
    );
    let resp = t
        .http
        .get(t.url("/v1/user"))
        .bearer_auth(KEY)
        .header("Origin", "http://evil.example")
        .send()
        .await
        .expect("sent");
    assert_eq!(resp.status().as_u16(), 200);
    assert!(resp.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn dist_serves_the_console_with_spa_fallback_and_no_cache_entry_points() {
    let dir = std::env::temp_dir().join(format!("nks-sim-dist-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("assets")).expect("mkdir");
    std::fs::write(
        dir.join("index.html"),
        "<!doctype html><title>console</title>",
    )
    .expect("write");
    std::fs::write(dir.join("config.json"), r#"{"api_base": "/"}"#).expect("write");
    std::fs::write(dir.join("assets/app.js"), "console.log(1)").expect("write");
    std::fs::write(dir.join("app-0123456789abcdef.js"), "console.log(2)").expect("write");
    std::fs::write(dir.join("app-0123456789abcdef_bg.wasm"), b"\0asm").expect("write");
    std::fs::write(dir.join("app-0123456789abcdeX.js"), "console.log(3)").expect("write");
    let d2 = dir.clone();
    let t = start_with(move |c| c.dist = Some(d2)).await;

    let get = |path: &str| t.http.get(t.url(path)).send();
    let root = get("/").await.expect("sent");
    assert_eq!(root.status().as_u16(), 200);
    assert_eq!(root.headers()["cache-control"], "no-cache");
    assert!(root.headers()["content-type"]
        .to_str()
        .is_ok_and(|c| c.starts_with("text/html")));
    let cfg = get("/config.json").await.expect("sent");
    assert_eq!(cfg.headers()["cache-control"], "no-cache");
    assert_eq!(cfg.text().await.expect("text"), r#"{"api_base": "/"}"#);
    let js = get("/assets/app.js").await.expect("sent");
    assert!(js.headers().get("cache-control").is_none());
    // Content-hashed names never change content: a year, as deploy/ caches them.
    for hashed in ["/app-0123456789abcdef.js", "/app-0123456789abcdef_bg.wasm"] {
        let resp = get(hashed).await.expect("sent");
        assert_eq!(
            resp.headers()["cache-control"],
            "public, max-age=31536000, immutable",
            "{hashed}"
        );
    }
    let not_hex = get("/app-0123456789abcdeX.js").await.expect("sent");
    assert!(not_hex.headers().get("cache-control").is_none());
    assert!(js.headers()["content-type"]
        .to_str()
        .is_ok_and(|c| c.contains("javascript")));
    let spa = get("/clusters/abc/pools").await.expect("sent");
    assert_eq!(spa.status().as_u16(), 200);
    assert_eq!(spa.headers()["cache-control"], "no-cache");
    assert!(spa
        .text()
        .await
        .expect("text")
        .contains("<title>console</title>"));
    assert_eq!(
        get("/assets/missing.js")
            .await
            .expect("sent")
            .status()
            .as_u16(),
        404
    );
    // Clients normalise dot segments; a raw request keeps them and is refused.
    for path in ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd"] {
        let body = get(path).await.expect("sent").text().await.expect("text");
        assert!(!body.contains("root:"), "{path} escaped the dist directory");
    }
    let raw = raw_get(&t.base, "/assets/../../../../etc/passwd").await;
    assert!(raw.starts_with("HTTP/1.1 404"), "{raw}");
    // The API and control paths are not shadowed by the fallback.
    assert_eq!(get("/v1/user").await.expect("sent").status().as_u16(), 401);
    assert_eq!(get("/v1/nope").await.expect("sent").status().as_u16(), 401);
    assert_eq!(
        get("/_sim/nope").await.expect("sent").status().as_u16(),
        404
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The release build writes a `.br` and a `.gz` beside each file: `--dist` sends
/// the one the request accepts, as it is, with `Vary: Accept-Encoding`, as the
/// shipped nginx and Caddy configurations do.
#[tokio::test]
async fn dist_sends_the_builds_own_br_or_gz_as_accepted() {
    let dir = std::env::temp_dir().join(format!("nks-sim-dist-br-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("index.html"), "<!doctype html>").expect("write");
    let file = "app-0123456789abcdef_bg.wasm";
    std::fs::write(dir.join(file), b"\0asm plain").expect("write");
    std::fs::write(dir.join(format!("{file}.br")), b"as brotli").expect("write");
    std::fs::write(dir.join(format!("{file}.gz")), b"as gzip").expect("write");
    let d2 = dir.clone();
    let t = start_with(move |c| c.dist = Some(d2)).await;

    for (accept, encoding, body) in [
        ("gzip, deflate, br, zstd", Some("br"), &b"as brotli"[..]),
        ("br", Some("br"), b"as brotli"),
        ("gzip", Some("gzip"), b"as gzip"),
        ("identity", None, b"\0asm plain"),
    ] {
        let resp = t
            .http
            .get(t.url(&format!("/{file}")))
            .header("accept-encoding", accept)
            .send()
            .await
            .expect("sent");
        assert_eq!(resp.status().as_u16(), 200, "{accept}");
        let headers = resp.headers().clone();
        assert_eq!(
            headers.get("content-encoding").map(|v| v.to_str().unwrap()),
            encoding,
            "{accept}"
        );
        assert_eq!(headers["content-type"], "application/wasm", "{accept}");
        assert_eq!(headers["vary"], "accept-encoding", "{accept}");
        assert_eq!(
            headers["cache-control"],
            "public, max-age=31536000, immutable"
        );
        assert_eq!(&resp.bytes().await.expect("body")[..], body, "{accept}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

async fn raw_get(base: &str, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(base.trim_start_matches("http://"))
        .await
        .expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut buf = Vec::new();
    let _ = stream.read_to_end(&mut buf).await;
    String::from_utf8_lossy(&buf).into_owned()
}
