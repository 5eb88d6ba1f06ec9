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

/// The params of the console's routes (routes.rs), typed: a page reads its
/// route with [`route`], never a param by its name.
pub mod params {
    use leptos::prelude::*;
    use leptos_router::hooks::use_params;
    use leptos_router::params::Params;

    /// `/projects/:project_id/…`
    #[derive(Params, Clone, Debug, Default, PartialEq)]
    pub struct ProjectRoute {
        pub project_id: String,
    }

    /// `/projects/:project_id/clusters/:cluster_id/…`
    #[derive(Params, Clone, Debug, Default, PartialEq)]
    pub struct ClusterRoute {
        pub project_id: String,
        pub cluster_id: String,
    }

    /// `/projects/:project_id/clusters/:cluster_id/pools/:pool_id/…`
    #[derive(Params, Clone, Debug, Default, PartialEq)]
    pub struct PoolRoute {
        pub project_id: String,
        pub cluster_id: String,
        pub pool_id: String,
    }

    /// `/projects/:project_id/networking`, and `…/vpcs/:vpc_id`.
    #[derive(Params, Clone, Debug, Default, PartialEq)]
    pub struct NetworkingRoute {
        pub project_id: String,
        pub vpc_id: Option<String>,
    }

    /// `/projects/:project_id/operations`, and `…/:operation_id`.
    #[derive(Params, Clone, Debug, Default, PartialEq)]
    pub struct OperationsRoute {
        pub project_id: String,
        pub operation_id: Option<String>,
    }

    /// The current route's params as `T`. A route matches only with its params,
    /// so a param `T` requires and the address lacks (never on a matched route)
    /// reads as empty.
    pub fn route<T>() -> Memo<T>
    where
        T: Params + Default + Clone + PartialEq + Send + Sync + 'static,
    {
        let params = use_params::<T>();
        Memo::new(move |_| params.get().unwrap_or_default())
    }
}

/// In-app paths, built in one place. Each is absolute in the app (`/projects/…`);
/// [`A`], [`href`], `use_navigate` and `<Redirect>` put the router base in front.
pub mod to {
    pub fn clusters(project: &str) -> String {
        format!("/projects/{project}/clusters")
    }
    pub fn new_cluster(project: &str) -> String {
        format!("/projects/{project}/clusters/new")
    }
    pub fn cluster(project: &str, cluster: &str) -> String {
        format!("/projects/{project}/clusters/{cluster}")
    }
    pub fn edit_cluster(project: &str, cluster: &str) -> String {
        format!("/projects/{project}/clusters/{cluster}/edit")
    }
    pub fn new_pool(project: &str, cluster: &str) -> String {
        format!("/projects/{project}/clusters/{cluster}/pools/new")
    }
    /// A new pool to replace `old` (its form starts from the old pool's fields).
    pub fn replacing_pool(project: &str, cluster: &str, old: &str) -> String {
        format!("/projects/{project}/clusters/{cluster}/pools/new?replace={old}")
    }
    pub fn pool(project: &str, cluster: &str, pool: &str) -> String {
        format!("/projects/{project}/clusters/{cluster}/pools/{pool}")
    }
    pub fn edit_pool(project: &str, cluster: &str, pool: &str) -> String {
        format!("/projects/{project}/clusters/{cluster}/pools/{pool}/edit")
    }
    pub fn operations(project: &str) -> String {
        format!("/projects/{project}/operations")
    }
    /// The operations list, filtered to one resource's.
    pub fn operations_of(project: &str, resource: &str) -> String {
        let resource = js_sys::encode_uri_component(resource);
        format!("/projects/{project}/operations?resource={resource}")
    }
    pub fn operation(project: &str, operation: &str) -> String {
        format!("/projects/{project}/operations/{operation}")
    }
    pub fn networking(project: &str) -> String {
        format!("/projects/{project}/networking")
    }
    pub fn vpc(project: &str, vpc: &str) -> String {
        format!("/projects/{project}/networking/vpcs/{vpc}")
    }
    pub const SETTINGS: &str = "/settings";
    pub const HOME: &str = "/";
}
