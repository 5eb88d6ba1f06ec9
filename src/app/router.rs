//! Client-side navigation: the browser's location as signals, links that change
//! pages without a reload, and the back and forward buttons.
//!
//! The console has a fixed set of pages (`rules::route`), so it needs no general
//! router: one signal holds the in-app path and query, memos derive the page, its
//! parameters and the query's pairs, and the shell shows the page. Paths given to
//! [`use_navigate`], [`A`] and [`Redirect`] are in-app paths (`/projects/…`); the
//! router base from `<base href>` (see `paths`) is put in front for the browser
//! and taken off what the browser reports.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::paths::{in_app, router_base, with_base};
use crate::rules::route::{route, Page, Params, Query};

/// The location, as the pages read it. Provided once by [`provide_router`].
#[derive(Clone, Copy)]
struct Router {
    /// In-app path and query string (with its `?`, or empty).
    url: RwSignal<(String, String)>,
    path: Memo<String>,
    page: Memo<Page>,
    params: Memo<Params>,
    query: Memo<Query>,
}

/// How [`use_navigate`]'s function changes the history.
#[derive(Clone, Copy, Debug, Default)]
pub struct NavigateOptions {
    /// Replace the current entry (filters typed into a page) instead of adding one.
    pub replace: bool,
}

/// Starts following the browser's location: reads it now, on back and forward,
/// and on clicks on in-app links, which it turns into client-side navigation.
pub fn provide_router() {
    let url = RwSignal::new(browser_url());
    let path = Memo::new(move |_| url.with(|(path, _)| path.clone()));
    let matched = Memo::new(move |_| path.with(|path| route(path)));
    let router = Router {
        url,
        path,
        page: Memo::new(move |_| matched.with(|(page, _)| *page)),
        params: Memo::new(move |_| matched.with(|(_, params)| params.clone())),
        query: Memo::new(move |_| url.with(|(_, search)| Query::parse(search))),
    };
    provide_context(router);

    let popstate = window_event_listener_untyped("popstate", move |_| url.set(browser_url()));
    let clicks = window_event_listener(leptos::ev::click, move |ev| {
        if let Some(target) = link_target(&ev) {
            ev.prevent_default();
            go(router, &target, NavigateOptions::default());
        }
    });
    on_cleanup(move || {
        popstate.remove();
        clicks.remove();
    });
}

fn router() -> Router {
    expect_context::<Router>()
}

/// The in-app path being shown (`/projects/p1/clusters`, without the router base).
pub fn use_path() -> Memo<String> {
    router().path
}

/// The location's named parts (`project_id`, `cluster_id`, `pool_id`), as the
/// page asking sees them (see [`routes`]).
pub fn use_params_map() -> Memo<Params> {
    use_context::<PageLocation>().map_or(router().params, |page| page.params)
}

/// The location's query string, decoded, as the page asking sees it.
pub fn use_query_map() -> Memo<Query> {
    use_context::<PageLocation>().map_or(router().query, |page| page.query)
}

/// The location as one page sees it: it follows the browser while that page is
/// shown, and stands still once another page is.
#[derive(Clone, Copy)]
struct PageLocation {
    params: Memo<Params>,
    query: Memo<Query>,
}

/// Shows the page the location names, built by `page_view`. Moving between two
/// addresses of the same page (one cluster to another) keeps the page and changes
/// its parameters; moving to another page builds that page. A page being left
/// never sees the next page's parameters: they would start its reads again (a
/// cluster list asked for a cluster's id) while it is being taken down.
pub fn routes(page_view: impl Fn(Page) -> AnyView + Send + Sync + 'static) -> impl IntoView {
    let router = router();
    move || {
        let page = router.page.get();
        provide_context(PageLocation {
            params: Memo::new(move |prev: Option<&Params>| {
                if router.page.get() == page {
                    router.params.get()
                } else {
                    prev.cloned().unwrap_or_default()
                }
            }),
            query: Memo::new(move |prev: Option<&Query>| {
                if router.page.get() == page {
                    router.query.get()
                } else {
                    prev.cloned().unwrap_or_default()
                }
            }),
        });
        untrack(|| page_view(page))
    }
}

/// A function that goes to an in-app path (`/projects/p1/clusters?sort=name`).
pub fn use_navigate() -> impl Fn(&str, NavigateOptions) + Clone {
    let router = router();
    move |target: &str, options: NavigateOptions| go(router, target, options)
}

fn go(router: Router, target: &str, options: NavigateOptions) {
    let (path, search) = match target.find('?') {
        Some(at) => (&target[..at], &target[at..]),
        None => (target, ""),
    };
    let next = (path.to_string(), search.to_string());
    let same_page = router.url.with_untracked(|(now, _)| *now == next.0);
    if router.url.with_untracked(|now| *now == next) {
        return;
    }
    if let Ok(history) = window().history() {
        let full = with_base(&router_base(), format!("{path}{search}"));
        let _ = if options.replace {
            history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&full))
        } else {
            history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&full))
        };
    }
    router.url.set(next);
    // A new page starts at its top, as after a page load; a new query (a filter)
    // keeps the reader where they are.
    if !same_page {
        window().scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// Goes to `path` (in-app) as soon as it is shown, replacing the current entry.
#[component]
pub fn Redirect(path: String) -> impl IntoView {
    let navigate = use_navigate();
    Effect::new(move |_| navigate(&path, NavigateOptions { replace: true }));
}

/// What [`A`] links to: an in-app path, or a function returning one. Kept as it
/// is given, not in a signal, so a link being torn down with its page never reads
/// a value its page has already dropped.
pub trait ToHref {
    fn to_href(&self) -> String;
}

impl ToHref for &'static str {
    fn to_href(&self) -> String {
        self.to_string()
    }
}

impl ToHref for String {
    fn to_href(&self) -> String {
        self.clone()
    }
}

impl<F: Fn() -> String> ToHref for F {
    fn to_href(&self) -> String {
        self()
    }
}

/// A link to an in-app path, put under the router base, marked
/// `aria-current="page"` while it is the page shown (or, unless `exact`, while a
/// page under it is). Use it for every in-app link of the navigation and pages;
/// long tables use plain `<a href=paths::href(…)>`, which navigates the same way.
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
    // Every kind of `href` shares one link view; only this line is per kind.
    link(std::sync::Arc::new(href), exact, children)
}

fn link(
    href: std::sync::Arc<dyn ToHref + Send + Sync>,
    exact: bool,
    children: Children,
) -> AnyView {
    let path = use_path();
    let target = href.clone();
    let current = move || {
        let target = target.to_href();
        let target = target
            .split('?')
            .next()
            .unwrap_or_default()
            .trim_end_matches('/');
        path.with(|path| {
            let path = path.trim_end_matches('/');
            let under = !exact
                && path
                    .strip_prefix(target)
                    .is_some_and(|rest| rest.starts_with('/'));
            (path == target || under).then_some("page")
        })
    };
    view! {
        <a href=move || with_base(&router_base(), href.to_href()) aria-current=current>
            {children()}
        </a>
    }
    .into_any()
}

/// The browser's location as the router keeps it: in-app path, query.
fn browser_url() -> (String, String) {
    let location = window().location();
    (
        in_app(&location.pathname().unwrap_or_default()),
        location.search().unwrap_or_default(),
    )
}

/// The in-app path and query a click on a link should go to without a reload, or
/// `None` when the browser must handle it: another button or a modifier (new tab,
/// download), a `target` or `download` attribute, another origin, a path outside
/// the router base, or a jump within the page.
fn link_target(ev: &web_sys::MouseEvent) -> Option<String> {
    if ev.default_prevented()
        || ev.button() != 0
        || ev.meta_key()
        || ev.ctrl_key()
        || ev.shift_key()
        || ev.alt_key()
    {
        return None;
    }
    let anchor = ev
        .target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("a[href]")
        .ok()??
        .dyn_into::<web_sys::HtmlAnchorElement>()
        .ok()?;
    if !matches!(anchor.target().as_str(), "" | "_self") || anchor.has_attribute("download") {
        return None;
    }
    let location = window().location();
    if anchor.origin() != location.origin().ok()? {
        return None;
    }
    let pathname = anchor.pathname();
    let path = in_app(&pathname);
    if path == pathname && !router_base().is_empty() {
        return None; // outside the console's base
    }
    let search = anchor.search();
    if !anchor.hash().is_empty()
        && location.pathname().ok()? == pathname
        && location.search().ok()? == search
    {
        return None; // a jump within the page
    }
    Some(format!("{path}{search}"))
}
