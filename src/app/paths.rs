//! Where the console lives on its host: at `/`, or under a prefix such as
//! `/tools/nks/`. The hosting server says which by writing `<base href>` into
//! `index.html` (docs/self-hosting.md); nothing is rebuilt per deployment.
//!
//! The router (`router.rs`) works in in-app paths (`/projects/…`): it puts the
//! base in front for the browser with [`with_base`] and takes it off what the
//! browser reports with [`in_app`]. The pure halves are in `rules::route`.

pub use crate::rules::route::with_base;
use crate::rules::route::{base_of, strip_base};

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
/// still handles its clicks); long tables use it instead of `router::A` to stay light.
pub fn href(path: &str) -> String {
    with_base(&router_base(), path.to_string())
}

/// The in-app path of a full browser path: `/tools/nks/projects/a` →
/// `/projects/a`. A path outside the base is returned unchanged.
pub fn in_app(pathname: &str) -> String {
    strip_base(&router_base(), pathname)
}
