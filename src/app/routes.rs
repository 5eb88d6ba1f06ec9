//! Every address of the console, in one place. Paths are in-app: the router
//! matches them under the base `<base href>` names (see `paths`).
//!
//! Pages other than the cluster list, the first page most visits open, are the
//! functions of `lazy`, so a page's code is fetched when its route is first shown.

use leptos::prelude::*;
use leptos_router::components::{Outlet, ParentRoute, Route, Routes};
use leptos_router::path;

use super::frame::Frame;
use super::{clusters, lazy};

/// What draws a page. Every route's view has this one type, so routes whose paths
/// have the same shape share the router's code for them (a route is compiled
/// once per path shape and view type).
type Page = fn() -> AnyView;

fn page(draw: Page) -> Page {
    draw
}

/// The cluster list, the one page not split off.
fn cluster_list() -> AnyView {
    view! { <clusters::ClusterList /> }.into_any()
}

#[component]
pub fn AppRoutes() -> impl IntoView {
    view! {
        // An unknown address keeps the frame, so the navigation is there to leave it.
        <Routes fallback=|| view! { <Frame>{lazy::not_found()}</Frame> }>
            <ParentRoute path=path!("") view=|| view! { <Frame><Outlet /></Frame> }>
                <Route path=path!("") view=page(lazy::home) />
                <Route path=path!("settings") view=page(lazy::settings) />
                <Route path=path!("projects/:project_id") view=page(lazy::home) />
                <Route path=path!("projects/:project_id/operations") view=page(lazy::operations) />
                <Route path=path!("projects/:project_id/networking") view=page(lazy::networking) />
                <Route path=path!("projects/:project_id/networking/vpcs/:vpc_id") view=page(lazy::networking) />
                <Route path=path!("projects/:project_id/operations/:operation_id") view=page(lazy::operations) />
                <Route path=path!("projects/:project_id/clusters") view=page(cluster_list) />
                <Route path=path!("projects/:project_id/clusters/new") view=page(lazy::create_cluster) />
                <Route path=path!("projects/:project_id/clusters/:cluster_id") view=page(lazy::cluster) />
                <Route
                    path=path!("projects/:project_id/clusters/:cluster_id/edit")
                    view=page(lazy::edit_cluster)
                />
                <Route
                    path=path!("projects/:project_id/clusters/:cluster_id/pools/new")
                    view=page(lazy::create_pool)
                />
                <Route
                    path=path!("projects/:project_id/clusters/:cluster_id/pools/:pool_id")
                    view=page(lazy::pool)
                />
                <Route
                    path=path!("projects/:project_id/clusters/:cluster_id/pools/:pool_id/edit")
                    view=page(lazy::edit_pool)
                />
            </ParentRoute>
        </Routes>
    }
}
