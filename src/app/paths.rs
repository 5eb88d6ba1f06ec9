//! Where the console lives on its host: at `/`, or under a prefix such as
//! `/tools/nks/`. The hosting server says which by writing `<base href>` into
//! `index.html` (docs/self-hosting.md); nothing is rebuilt per deployment.
//!
//! leptos_router is given that prefix as its `base`: it matches routes without
//! it, and `use_navigate` and `<Redirect>` put it in front of absolute paths.
//! Its `<A href="/projects/…">` does not (0.8 keeps an absolute href as it is),
//! so under a prefix such a link would leave the console: in-app links use this
//! module's [`A`], leptos_router's `<A>` with the base in front.

use leptos::prelude::*;
use leptos_router::components::ToHref;

/// The router base: the path of `document.baseURI` without its trailing slash
/// (and without a file name, as URL resolution drops it), `""` at the root.
/// Read once: `<base href>` does not change while the page lives, and a table of
/// a thousand links should not ask the DOM a thousand times.
pub fn router_base() -> String {
    thread_local! {
        static BASE: std::cell::OnceCell<String> = const { std::cell::OnceCell::new() };
    }
    BASE.with(|base| {
        base.get_or_init(|| {
            let path = document()
                .base_uri()
                .ok()
                .flatten()
                .and_then(|uri| web_sys::Url::new(&uri).ok())
                .map(|url| url.pathname())
                .unwrap_or_default();
            path[..path.rfind('/').unwrap_or(0)].to_string()
        })
        .clone()
    })
}

/// An absolute in-app path (`/projects/…`) under the router base, for a plain
/// `<a>` (leptos_router still handles its clicks); long tables use it instead of
/// [`A`] to stay light.
pub fn href(path: &str) -> String {
    format!("{}{path}", router_base())
}

/// leptos_router's `<A>` (client-side navigation, `aria-current`), with an
/// absolute in-app `href` such as `/projects/…` put under the router base.
#[component]
pub fn A<H>(
    /// An absolute in-app path (`/settings`), or a function returning one.
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
    let href = move || format!("{base}{}", href.to_href()());
    view! {
        <leptos_router::components::A href exact>
            {children()}
        </leptos_router::components::A>
    }
}
