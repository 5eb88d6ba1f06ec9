//! Where the console lives on its host: at `/`, or under a prefix such as
//! `/tools/nks/`. The hosting server says which by writing `<base href>` into
//! `index.html` (docs/self-hosting.md); nothing is rebuilt per deployment.
//!
//! leptos_router 0.8 puts the base in front of absolute paths given to
//! `use_navigate` and `<Redirect>`, and strips it when matching routes. Two
//! things it leaves to us:
//! - its `<A href="/projects/…">` keeps an absolute href as it is, so under a
//!   prefix the link would leave the console: views use this module's [`A`],
//!   the same component with the base put in front;
//! - `use_location().pathname` is the browser's full path: code that parses the
//!   URL itself goes through [`in_app`], and must not hand that full path back to
//!   `navigate` (which would add the base a second time).

use leptos::prelude::*;
use leptos_router::components::ToHref;

/// The router base: the directory of `document.baseURI` without its trailing
/// slash, `""` at the root. Read once: `<base href>` does not change while the
/// page lives, and a table of a thousand links should not ask the DOM a thousand times.
pub fn router_base() -> String {
    thread_local! {
        static BASE: std::cell::OnceCell<String> = const { std::cell::OnceCell::new() };
    }
    BASE.with(|base| {
        base.get_or_init(|| {
            web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.base_uri().ok().flatten())
                .and_then(|uri| web_sys::Url::new(&uri).ok())
                .map(|url| base_of(&url.pathname()))
                .unwrap_or_default()
        })
        .clone()
    })
}

/// An absolute in-app path under the router base, for a plain `<a>` (the router
/// still handles its clicks); long tables use it instead of [`A`] to stay light.
pub fn href(path: &str) -> String {
    with_base(&router_base(), path.to_string())
}

/// `/tools/nks/` → `/tools/nks`; `/` → `""`; a file name is dropped, as URL
/// resolution drops it (`/tools/nks/index.html` → `/tools/nks`).
fn base_of(path: &str) -> String {
    match path.rfind('/') {
        Some(end) => path[..end].to_string(),
        None => String::new(),
    }
}

/// The in-app path of a full browser path: `/tools/nks/projects/a` →
/// `/projects/a`. A path outside the base is returned unchanged.
pub fn in_app(pathname: &str) -> String {
    strip_base(&router_base(), pathname)
}

fn strip_base(base: &str, pathname: &str) -> String {
    match pathname.strip_prefix(base) {
        Some("") => "/".to_string(),
        Some(rest) if rest.starts_with('/') => rest.to_string(),
        _ => pathname.to_string(),
    }
}

/// `href` under the router base, for absolute in-app paths; anything else
/// (relative, `?query`, another origin) is returned as it is.
fn with_base(base: &str, href: String) -> String {
    if base.is_empty() || !href.starts_with('/') || href.starts_with("//") {
        href
    } else if href == "/" {
        format!("{base}/")
    } else {
        format!("{base}{href}")
    }
}

/// leptos_router's `<A>` (the same props, `aria-current`, client-side
/// navigation), with an absolute `href` such as `/projects/…` put under the
/// router base. Use it for every in-app link.
#[component]
pub fn A<H>(
    /// An in-app path (`/settings`), or a function returning one.
    href: H,
    /// Marked current only when the location is exactly this path.
    #[prop(optional)]
    exact: bool,
    children: Children,
) -> impl IntoView
where
    H: ToHref + Send + Sync + 'static,
{
    let base = router_base();
    let href = move || with_base(&base, href.to_href()());
    view! {
        <leptos_router::components::A href exact>
            {children()}
        </leptos_router::components::A>
    }
}
