//! Pages whose code is downloaded when first opened, not with the first page.
//!
//! Built with `--cfg nks_split` (scripts/split-build.sh), each function below
//! becomes a split point: its page, and whatever only that page uses (the forms,
//! the plan panel, the operations table), lands in its own wasm module, fetched on
//! the first visit and kept after. Without the cfg (tests, `cargo check`) they are
//! ordinary functions and nothing is split.
//!
//! A page whose code does not arrive (network down, a deployment replaced under an
//! open tab) says so with a retry, instead of taking the console down with it.

use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;
use send_wrapper::SendWrapper;

use super::clusters::{ClusterPage, CreateClusterPage, EditClusterPage};
use super::operations::OperationsPage;
use super::pools::{CreatePoolPage, EditPoolPage, PoolPage};
use super::settings::SettingsPage;

/// A page's code could not be fetched.
pub struct PageLoadError;

#[cfg(nks_split)]
impl From<wasm_split_helpers::SplitLoaderError> for PageLoadError {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        PageLoadError
    }
}

type Loaded = Result<AnyView, PageLoadError>;
type Load = fn() -> Pin<Box<dyn Future<Output = Loaded>>>;

macro_rules! lazy_pages {
    ($($route:ident => $page:ident in $module:ident;)*) => {$(
        #[cfg_attr(nks_split, wasm_split_helpers::wasm_split($module, fallible))]
        fn $module() -> Loaded {
            Ok(view! { <$page /> }.into_any())
        }

        #[doc = concat!("The route's view: [`", stringify!($page), "`], loaded on first use.")]
        pub fn $route() -> impl IntoView {
            lazy_page(|| {
                Box::pin(async {
                    #[cfg(nks_split)]
                    let loaded = $module().await;
                    #[cfg(not(nks_split))]
                    let loaded = $module();
                    loaded
                })
            })
        }
    )*};
}

lazy_pages! {
    create_cluster => CreateClusterPage in create_cluster_page;
    cluster => ClusterPage in cluster_page;
    edit_cluster => EditClusterPage in edit_cluster_page;
    create_pool => CreatePoolPage in create_pool_page;
    pool => PoolPage in pool_page;
    edit_pool => EditPoolPage in edit_pool_page;
    operations => OperationsPage in operations_page;
    settings => SettingsPage in settings_page;
}

/// Shows the page once its code is there; the route's `<Transition>` keeps the
/// previous page on screen meanwhile.
fn lazy_page(load: Load) -> impl IntoView {
    let attempt = RwSignal::new(0_u32);
    move || {
        attempt.track();
        // The browser is single-threaded; Suspend asks for Send all the same.
        Suspend::new(SendWrapper::new(async move {
            load()
                .await
                .unwrap_or_else(|PageLoadError| view! { <LoadFailed attempt /> }.into_any())
        }))
    }
}

#[component]
fn LoadFailed(attempt: RwSignal<u32>) -> impl IntoView {
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
