//! Every address of the console, in one place. Paths are in-app: the router
//! matches them under the base `<base href>` names (see `paths`).
//!
//! Pages other than the cluster list, the first page most visits open, are the
//! functions of `lazy`, so a page's code is fetched when its route is first shown.

use leptos::prelude::*;
use leptos_router::components::{Outlet, ParentRoute, Route, Routes};
use leptos_router::path;

use super::shell::Frame;
use super::{clusters, lazy};

#[component]
pub fn AppRoutes() -> impl IntoView {
    view! {
        // An unknown address keeps the frame, so the navigation is there to leave it.
        <Routes fallback=|| view! { <Frame>{lazy::not_found()}</Frame> }>
            <ParentRoute path=path!("") view=|| view! { <Frame><Outlet /></Frame> }>
                <Route path=path!("") view=lazy::home />
                <Route path=path!("settings") view=lazy::settings />
                <Route path=path!("projects/:project_id") view=lazy::home />
                <Route path=path!("projects/:project_id/operations") view=lazy::operations />
                <Route path=path!("projects/:project_id/networking") view=lazy::networking />
                <Route path=path!("projects/:project_id/networking/vpcs/:vpc_id") view=lazy::networking />
                <Route path=path!("projects/:project_id/operations/:operation_id") view=lazy::operations />
                <Route path=path!("projects/:project_id/clusters") view=clusters::ClusterList />
                <Route path=path!("projects/:project_id/clusters/new") view=lazy::create_cluster />
                <Route path=path!("projects/:project_id/clusters/:cluster_id") view=lazy::cluster />
                <Route
                    path=path!("projects/:project_id/clusters/:cluster_id/edit")
                    view=lazy::edit_cluster
                />
                <Route
                    path=path!("projects/:project_id/clusters/:cluster_id/pools/new")
                    view=lazy::create_pool
                />
                <Route
                    path=path!("projects/:project_id/clusters/:cluster_id/pools/:pool_id")
                    view=lazy::pool
                />
                <Route
                    path=path!("projects/:project_id/clusters/:cluster_id/pools/:pool_id/edit")
                    view=lazy::edit_pool
                />
            </ParentRoute>
        </Routes>
    }
}
