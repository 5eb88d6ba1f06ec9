//! The console's addresses: which page an in-app path names, with its parameters,
//! the filters a query string carries, and the router base put on and taken off.
//! Kept pure so every route is tested on the host; `app::router` follows the
//! browser's location with it.

/// The pages of the console, one per route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// `/` and `/projects/{project}`: sent on to a project's clusters.
    Home,
    Clusters,
    CreateCluster,
    Cluster,
    EditCluster,
    CreatePool,
    Pool,
    EditPool,
    Operations,
    Settings,
    NotFound,
}

/// The named parts of a path (`project_id`, `cluster_id`, `pool_id`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Params(Vec<(&'static str, String)>);

impl Params {
    pub fn get(&self, key: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.clone())
    }
}

/// The page an in-app path (`/projects/p1/clusters`, no router base) names. A
/// trailing slash is ignored; anything unknown is [`Page::NotFound`].
pub fn route(path: &str) -> (Page, Params) {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let named = |names: &[&'static str], at: &[usize]| {
        Params(
            names
                .iter()
                .zip(at)
                .map(|(name, &i)| (*name, percent_decode(segments[i], false)))
                .collect(),
        )
    };
    const P: &[&str] = &["project_id"];
    const PC: &[&str] = &["project_id", "cluster_id"];
    const PCP: &[&str] = &["project_id", "cluster_id", "pool_id"];
    match segments.as_slice() {
        [] => (Page::Home, Params::default()),
        ["settings"] => (Page::Settings, Params::default()),
        ["projects", _] => (Page::Home, named(P, &[1])),
        ["projects", _, "clusters"] => (Page::Clusters, named(P, &[1])),
        ["projects", _, "operations"] => (Page::Operations, named(P, &[1])),
        ["projects", _, "clusters", "new"] => (Page::CreateCluster, named(P, &[1])),
        ["projects", _, "clusters", _] => (Page::Cluster, named(PC, &[1, 3])),
        ["projects", _, "clusters", _, "edit"] => (Page::EditCluster, named(PC, &[1, 3])),
        ["projects", _, "clusters", _, "pools", "new"] => (Page::CreatePool, named(PC, &[1, 3])),
        ["projects", _, "clusters", _, "pools", _] => (Page::Pool, named(PCP, &[1, 3, 5])),
        ["projects", _, "clusters", _, "pools", _, "edit"] => {
            (Page::EditPool, named(PCP, &[1, 3, 5]))
        }
        _ => (Page::NotFound, Params::default()),
    }
}

/// The pairs of a query string (with or without its `?`), decoded as the browser's
/// `URLSearchParams` decodes them (`+` is a space).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query(Vec<(String, String)>);

impl Query {
    pub fn parse(search: &str) -> Query {
        Query(
            search
                .trim_start_matches('?')
                .split('&')
                .filter(|pair| !pair.is_empty())
                .map(|pair| {
                    let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                    (percent_decode(key, true), percent_decode(value, true))
                })
                .collect(),
        )
    }

    /// The first value given for `key`.
    pub fn get(&self, key: &str) -> Option<String> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }
}

/// `%XX` escapes decoded as UTF-8 (and `+` as a space in a query); a malformed
/// escape is kept as written, as browsers keep it.
fn percent_decode(text: &str, plus_is_space: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(hi), Some(lo)) => {
                    out.push((hi * 16 + lo) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' if plus_is_space => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `/tools/nks/` → `/tools/nks`; `/` → `""`; a file name is dropped, as URL
/// resolution drops it (`/tools/nks/index.html` → `/tools/nks`).
pub fn base_of(path: &str) -> String {
    match path.rfind('/') {
        Some(end) => path[..end].to_string(),
        None => String::new(),
    }
}

/// `pathname` without the router `base`; unchanged when it is outside the base.
pub fn strip_base(base: &str, pathname: &str) -> String {
    match pathname.strip_prefix(base) {
        Some("") => "/".to_string(),
        Some(rest) if rest.starts_with('/') => rest.to_string(),
        _ => pathname.to_string(),
    }
}

/// `href` under the router base, for absolute in-app paths; anything else
/// (relative, `?query`, another origin) is returned as it is.
pub fn with_base(base: &str, href: String) -> String {
    if base.is_empty() || !href.starts_with('/') || href.starts_with("//") {
        href
    } else if href == "/" {
        format!("{base}/")
    } else {
        format!("{base}{href}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&'static str, &str)]) -> Params {
        Params(pairs.iter().map(|(k, v)| (*k, v.to_string())).collect())
    }

    #[test]
    fn every_page_has_its_route() {
        let cases = [
            ("/", Page::Home, params(&[])),
            ("", Page::Home, params(&[])),
            ("/projects/p1", Page::Home, params(&[("project_id", "p1")])),
            (
                "/projects/p1/clusters",
                Page::Clusters,
                params(&[("project_id", "p1")]),
            ),
            (
                "/projects/p1/clusters/",
                Page::Clusters,
                params(&[("project_id", "p1")]),
            ),
            (
                "/projects/p1/clusters/new",
                Page::CreateCluster,
                params(&[("project_id", "p1")]),
            ),
            (
                "/projects/p1/clusters/c1",
                Page::Cluster,
                params(&[("project_id", "p1"), ("cluster_id", "c1")]),
            ),
            (
                "/projects/p1/clusters/c1/edit",
                Page::EditCluster,
                params(&[("project_id", "p1"), ("cluster_id", "c1")]),
            ),
            (
                "/projects/p1/clusters/c1/pools/new",
                Page::CreatePool,
                params(&[("project_id", "p1"), ("cluster_id", "c1")]),
            ),
            (
                "/projects/p1/clusters/c1/pools/n1",
                Page::Pool,
                params(&[
                    ("project_id", "p1"),
                    ("cluster_id", "c1"),
                    ("pool_id", "n1"),
                ]),
            ),
            (
                "/projects/p1/clusters/c1/pools/n1/edit",
                Page::EditPool,
                params(&[
                    ("project_id", "p1"),
                    ("cluster_id", "c1"),
                    ("pool_id", "n1"),
                ]),
            ),
            (
                "/projects/p1/operations",
                Page::Operations,
                params(&[("project_id", "p1")]),
            ),
            ("/settings", Page::Settings, params(&[])),
        ];
        for (path, page, expected) in cases {
            assert_eq!(route(path), (page, expected), "{path}");
        }
    }

    #[test]
    fn unknown_paths_are_not_found() {
        for path in [
            "/projects",
            "/clusters",
            "/projects/p1/nodes",
            "/projects/p1/clusters/c1/pools",
            "/projects/p1/clusters/c1/pools/n1/edit/more",
            "/settings/x",
        ] {
            assert_eq!(route(path).0, Page::NotFound, "{path}");
        }
    }

    #[test]
    fn params_are_decoded() {
        assert_eq!(
            route("/projects/a%20b/clusters")
                .1
                .get("project_id")
                .as_deref(),
            Some("a b")
        );
    }

    #[test]
    fn queries_decode_as_the_browser_does() {
        let q = Query::parse("?name=web%20tier&status=ready&tag=a+b&empty=&flag&name=second");
        assert_eq!(q.get("name").as_deref(), Some("web tier"));
        assert_eq!(q.get("status").as_deref(), Some("ready"));
        assert_eq!(q.get("tag").as_deref(), Some("a b"));
        assert_eq!(q.get("empty").as_deref(), Some(""));
        assert_eq!(q.get("flag").as_deref(), Some(""));
        assert_eq!(q.get("sort"), None);
        assert_eq!(Query::parse(""), Query::default());
        assert_eq!(
            Query::parse("t=%C3%A9t%C3%A9").get("t").as_deref(),
            Some("été")
        );
        // Malformed escapes are kept as written.
        assert_eq!(
            Query::parse("t=100%&u=%zz&v=%4").get("t").as_deref(),
            Some("100%")
        );
        assert_eq!(Query::parse("u=%zz").get("u").as_deref(), Some("%zz"));
        assert_eq!(Query::parse("v=%4").get("v").as_deref(), Some("%4"));
    }

    #[test]
    fn the_router_base_is_put_on_and_taken_off() {
        assert_eq!(base_of("/tools/nks/"), "/tools/nks");
        assert_eq!(base_of("/tools/nks/index.html"), "/tools/nks");
        assert_eq!(base_of("/"), "");
        for base in ["", "/tools/nks"] {
            for path in ["/", "/projects/p1/clusters", "/settings"] {
                let full = with_base(base, path.to_string());
                assert_eq!(strip_base(base, &full), path, "{base} {path}");
            }
        }
        assert_eq!(with_base("/tools/nks", "/".into()), "/tools/nks/");
        assert_eq!(with_base("/tools/nks", "?sort=name".into()), "?sort=name");
        assert_eq!(
            with_base("/tools/nks", "//elsewhere/x".into()),
            "//elsewhere/x"
        );
        assert_eq!(strip_base("/tools/nks", "/tools/nks"), "/");
        // Outside the base, or a longer name that only starts like it: unchanged.
        assert_eq!(strip_base("/tools/nks", "/other"), "/other");
        assert_eq!(strip_base("/tools/nks", "/tools/nksx/a"), "/tools/nksx/a");
    }
}
