//! Views whose code is downloaded when first shown, not with the first page.
//!
//! Built with `--cfg nks_split` (scripts/split-build.sh), each function below
//! becomes a split point: its view, and whatever only that view uses (the forms,
//! the plan panel, the operations table), lands in its own wasm module, fetched on
//! the first use and kept after. Without the cfg (tests, `cargo check`) they are
//! ordinary functions and nothing is split.
//!
//! Besides the pages, a few parts of the always-present frame are split too,
//! because most visits never show them: the connect screen (a kept key skips
//! it), the home redirect and "not found", the notices of ended operations,
//! and the lookup of an operation a 409 named.
//!
//! A view whose code does not arrive (network down, a deployment replaced under an
//! open tab) says so with a retry, instead of taking the console down with it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use leptos::prelude::*;
use send_wrapper::SendWrapper;

use super::clusters::{ClusterPage, CreateClusterPage, EditClusterPage};
use super::components::InTheWay;
use super::connect::ConnectScreen;
use super::not_found::NotFound;
use super::operations::{NoticeList, OperationsPage};
use super::pools::{CreatePoolPage, EditPoolPage, PoolPage};
use super::settings::SettingsPage;
use super::shell::Home;

/// A view's code could not be fetched.
pub struct LoadError;

#[cfg(nks_split)]
impl From<wasm_split_helpers::SplitLoaderError> for LoadError {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        LoadError
    }
}

type Loaded = Result<AnyView, LoadError>;
type Load = Arc<dyn Fn() -> Pin<Box<dyn Future<Output = Loaded>>> + Send + Sync>;

/// Calls a split function: a download on first use when split, a plain call when not.
macro_rules! load {
    ($call:expr) => {{
        #[cfg(nks_split)]
        let loaded = $call.await;
        #[cfg(not(nks_split))]
        let loaded = $call;
        loaded
    }};
}

/// Where a view sits, which decides how a failed download is shown.
#[derive(Clone, Copy)]
enum Place {
    /// A whole page under the route's `<Transition>`, or the connect screen.
    Page,
    /// A part of a page that is still there around it.
    Part,
}

macro_rules! lazy_views {
    ($($name:ident => $view:ident in $module:ident as $place:ident;)*) => {$(
        #[cfg_attr(nks_split, wasm_split_helpers::wasm_split($module, fallible))]
        fn $module() -> Loaded {
            Ok(view! { <$view /> }.into_any())
        }

        #[doc = concat!("[`", stringify!($view), "`], loaded on first use.")]
        pub fn $name() -> impl IntoView {
            lazy_view(Place::$place, Arc::new(|| Box::pin(async { load!($module()) })))
        }
    )*};
}

lazy_views! {
    create_cluster => CreateClusterPage in create_cluster_page as Page;
    cluster => ClusterPage in cluster_page as Page;
    edit_cluster => EditClusterPage in edit_cluster_page as Page;
    create_pool => CreatePoolPage in create_pool_page as Page;
    pool => PoolPage in pool_page as Page;
    edit_pool => EditPoolPage in edit_pool_page as Page;
    operations => OperationsPage in operations_page as Page;
    settings => SettingsPage in settings_page as Page;
    home => Home in home_page as Page;
    not_found => NotFound in not_found_page as Page;
    connect => ConnectScreen in connect_screen as Page;
    notices => NoticeList in ops_notices as Part;
}

#[cfg_attr(nks_split, wasm_split_helpers::wasm_split(in_the_way_part, fallible))]
fn in_the_way_part(id: String) -> Loaded {
    Ok(view! { <InTheWay id /> }.into_any())
}

/// [`InTheWay`] for the operation `id`, loaded on first use.
pub fn in_the_way(id: String) -> impl IntoView {
    lazy_view(
        Place::Part,
        Arc::new(move || {
            let id = id.clone();
            Box::pin(async move { load!(in_the_way_part(id)) })
        }),
    )
}

/// Shows the view once its code is there. Under a `<Transition>` (the routes),
/// the previous page stays on screen meanwhile; elsewhere nothing is drawn until
/// the code arrives (from the browser's cache after the first time).
fn lazy_view(place: Place, load: Load) -> impl IntoView {
    let attempt = RwSignal::new(0_u32);
    move || {
        attempt.track();
        let load = load.clone();
        // The browser is single-threaded; Suspend asks for Send all the same.
        Suspend::new(SendWrapper::new(async move {
            load().await.unwrap_or_else(|LoadError| match place {
                Place::Page => view! { <LoadFailed attempt /> }.into_any(),
                Place::Part => view! { <PartLoadFailed attempt /> }.into_any(),
            })
        }))
    }
}

#[component]
fn LoadFailed(attempt: RwSignal<u32>) -> impl IntoView {
    super::boot_done();
    view! {
        <section class="page">
            <h1>"This page could not be loaded"</h1>
            <div class="alert alert-error outcome-unreachable" role="alert">
                <p>
                    "Its code did not arrive: the network or the server hosting the console did not answer. "
                    "Nothing was changed."
                </p>
                <button class="btn" on:click=move |_| attempt.update(|n| *n += 1)>"Try again"</button>
            </div>
        </section>
    }
}

#[component]
fn PartLoadFailed(attempt: RwSignal<u32>) -> impl IntoView {
    view! {
        <p class="alert alert-error outcome-unreachable" role="alert">
            "This part of the page could not be loaded: its code did not arrive. "
            <button class="btn btn-quiet" on:click=move |_| attempt.update(|n| *n += 1)>"Try again"</button>
        </p>
    }
}
