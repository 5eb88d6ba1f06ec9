//! Views whose code is downloaded when first shown, not with the first page.
//!
//! Built with `--cfg nks_split` (scripts/split-build.sh), each function below
//! becomes a split point: its view, and whatever only that view uses (the forms,
//! the plan panel, the operations table), lands in its own wasm module, fetched on
//! the first use and kept after. Without the cfg (tests, `cargo check`) they are
//! ordinary functions and nothing is split.
//!
//! Besides the pages, a few parts of the always-present frame are split too,
//! because most visits never show them: the home redirect and "not found", the
//! notices of ended operations, the lookup of an operation a 409 named, and the
//! header's search. Pages opened together share one split ([`lazy_groups`]):
//! a cluster's and a pool's pages with their sections and the networking views,
//! and the create and edit forms.
//!
//! The connect screen is not split, though a kept key skips it: split, the code
//! it shares with the pages came to a new user as many small modules, each with
//! its own overhead (README, Benchmark).
//!
//! A view whose code does not arrive (network down, a deployment replaced under an
//! open tab) says so with a retry, instead of taking the console down with it.
//! While it is on its way, a page shows "Loading…"; the header stays usable.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::thread::LocalKey;

use leptos::prelude::*;

use super::clusters::{
    waiting_pool_link, ClusterFigures, ClusterPage, ControllerList, CreateClusterPage,
    EditClusterPage, LoadBalancerList, PvcList, ReachabilitySection,
};
use super::code::{export::ExportView, view::CodeView};
use super::components::{InTheWay, RetryLine};
use super::home::Home;
use super::networking::NetworkingPage;
use super::not_found::NotFound;
use super::operations::{NoticeList, OperationViews};
use super::pools::{CreatePoolPage, EditPoolPage, PoolPage, PoolVolumeList};
use super::search::SiteSearch;
use super::settings::SettingsPage;
use crate::SplitLoadError;

/// What a split module hands back: a function that lives in it and draws its view,
/// given what the view is about (the operation for [`InTheWay`], nothing for a page).
/// One signature for all, so one [`lazy_view`] serves every split view.
type Draw = fn(&str) -> AnyView;
type Fetched = Pin<Box<dyn Future<Output = Result<Draw, SplitLoadError>>>>;

/// Where a view sits, which decides what shows while its code is on its way and
/// how a failed download is shown.
#[derive(Clone, Copy)]
enum Place {
    /// A whole page, in the shell's `<main>`: "Loading…" meanwhile.
    Page,
    /// A part of a page that is still there around it: nothing meanwhile.
    Part,
    /// This many cells of a table's row: each says "…" meanwhile, so the row
    /// keeps its columns; a failed download spans them.
    Cells(usize),
}

macro_rules! lazy_views {
    ($($name:ident => $view:ident in $module:ident as $place:ident;)*) => {$(
        #[cfg_attr(nks_split, wasm_split_helpers::wasm_split($module, fallible))]
        fn $module() -> Result<Draw, SplitLoadError> {
            Ok(|_| view! { <$view /> }.into_any())
        }

        #[doc = concat!("[`", stringify!($view), "`], loaded on first use.")]
        pub fn $name() -> AnyView {
            thread_local!(static KEPT: Cell<Option<Draw>> = const { Cell::new(None) });
            lazy_view(Place::$place, &KEPT, || Box::pin(async { split_call!($module()) }), String::new())
        }
    )*};
}

lazy_views! {
    operations => OperationViews in operations_page as Page;
    settings => SettingsPage in settings_page as Page;
    home => Home in home_page as Page;
    not_found => NotFound in not_found_page as Page;
    notices => NoticeList in ops_notices as Part;
    retry_line => RetryLine in retry_wait as Part;
    site_search => SiteSearch in site_search_part as Part;
}

/// Views that share one split, each named by what its [`Draw`] is about: the
/// split draws the view of that name.
///
/// Every split point cuts the code it shares with the others into chunks, one
/// per set of split points that share it, each a file the browser fetches and
/// compiles on its own: a split point per view made hundreds of chunks, and the
/// cluster page alone fetched over a hundred files before its first read. Views
/// opened together are one split, so they are one module and a few chunks.
macro_rules! lazy_groups {
    ($(
        $(#[$doc:meta])* $module:ident kept in $kept:ident {
            $($name:ident => $view:ident as $place:ident;)*
        }
    )*) => {$(
        $(#[$doc])*
        #[cfg_attr(nks_split, wasm_split_helpers::wasm_split($module, fallible))]
        fn $module() -> Result<Draw, SplitLoadError> {
            Ok(|about| match about {
                $(stringify!($name) => view! { <$view /> }.into_any(),)*
                _ => ().into_any(),
            })
        }

        thread_local!(static $kept: Cell<Option<Draw>> = const { Cell::new(None) });

        $(
            #[doc = concat!("[`", stringify!($view), "`], loaded on first use with the rest of its group.")]
            pub fn $name() -> AnyView {
                lazy_view(
                    Place::$place,
                    &$kept,
                    || Box::pin(async { split_call!($module()) }),
                    stringify!($name).to_string(),
                )
            }
        )*
    )*};
}

lazy_groups! {
    /// A cluster's and a pool's pages with their parts, and the networking
    /// views (the cluster page's reachability reads the same rules with the
    /// same code as the Networking page).
    resource_views kept in RESOURCES {
        cluster => ClusterPage as Page;
        controllers => ControllerList as Part;
        load_balancers => LoadBalancerList as Part;
        pvcs => PvcList as Part;
        reachability => ReachabilitySection as Part;
        networking => NetworkingPage as Page;
        pool => PoolPage as Page;
        pool_volumes => PoolVolumeList as Part;
    }
    /// The forms that create and edit clusters and pools: they share their
    /// fields, checks and the plan panel.
    form_views kept in FORMS {
        create_cluster => CreateClusterPage as Page;
        edit_cluster => EditClusterPage as Page;
        create_pool => CreatePoolPage as Page;
        edit_pool => EditPoolPage as Page;
    }
    /// The change as code and the Terraform export: nks-code's writers,
    /// fetched when a code panel is first opened.
    code_views kept in CODE {
        code => CodeView as Part;
        terraform_export => ExportView as Part;
    }
}

#[cfg_attr(nks_split, wasm_split_helpers::wasm_split(in_the_way_part, fallible))]
fn in_the_way_part() -> Result<Draw, SplitLoadError> {
    Ok(|id| view! { <InTheWay id=id.to_string() /> }.into_any())
}

/// [`InTheWay`] for the operation `id`, loaded on first use.
pub fn in_the_way(id: String) -> impl IntoView {
    thread_local!(static KEPT: Cell<Option<Draw>> = const { Cell::new(None) });
    lazy_view(
        Place::Part,
        &KEPT,
        || Box::pin(async { split_call!(in_the_way_part()) }),
        id,
    )
}

#[cfg_attr(nks_split, wasm_split_helpers::wasm_split(waiting_pool_part, fallible))]
fn waiting_pool_part() -> Result<Draw, SplitLoadError> {
    Ok(|about| {
        let mut fields = about.split(FIGURES_SEP);
        let mut next = || fields.next().unwrap_or_default();
        let (project, cluster, href) = (next(), next(), next());
        waiting_pool_link(project, cluster, href)
    })
}

/// A first pool this tab keeps for the cluster named so, beside its pool count
/// in the list (see [`waiting_pool_link`]): asked for only when the tab keeps
/// one, which is rare, so the list's first load does not carry it.
pub fn waiting_pool(project: &str, cluster_name: &str, href: &str) -> impl IntoView {
    thread_local!(static KEPT: Cell<Option<Draw>> = const { Cell::new(None) });
    lazy_view(
        Place::Part,
        &KEPT,
        || Box::pin(async { split_call!(waiting_pool_part()) }),
        format!("{project}{FIGURES_SEP}{cluster_name}{FIGURES_SEP}{href}"),
    )
}

/// Separates a cluster's id from its region in what [`cluster_figures`] is
/// about (and the fields of what [`waiting_pool`] is about).
const FIGURES_SEP: char = '\u{1f}';

#[cfg_attr(
    nks_split,
    wasm_split_helpers::wasm_split(cluster_figures_part, fallible)
)]
fn cluster_figures_part() -> Result<Draw, SplitLoadError> {
    Ok(|about| {
        let (id, region) = about.split_once(FIGURES_SEP).unwrap_or((about, ""));
        view! { <ClusterFigures id=id.to_string() region=region.to_string() /> }.into_any()
    })
}

/// The cells of [`cluster_figures`].
const FIGURE_CELLS: usize = 4;

/// The clusters list's figures for one cluster (nodes, vCPU, memory, monthly
/// cost: four cells), loaded after the list: the first page does not carry
/// their code, and the cells fill in when it is here.
pub fn cluster_figures(id: &str, region: &str) -> impl IntoView {
    thread_local!(static KEPT: Cell<Option<Draw>> = const { Cell::new(None) });
    lazy_view(
        Place::Cells(FIGURE_CELLS),
        &KEPT,
        || Box::pin(async { split_call!(cluster_figures_part()) }),
        format!("{id}{FIGURES_SEP}{region}"),
    )
}

/// The cells of [`cluster_figures`] before it is asked for: each "…".
pub fn figures_pending() -> AnyView {
    pending_cells(FIGURE_CELLS)
}

/// `n` cells still being read, as the figures say it.
fn pending_cells(n: usize) -> AnyView {
    (0..n)
        .map(|_| {
            view! {
                <td class="figure">
                    <span title="Being read">"…"</span>
                    <span class="visually-hidden">" being read"</span>
                </td>
            }
        })
        .collect_view()
        .into_any()
}

/// Shows the view once its code is here: at once when an earlier view fetched it
/// (`kept`), else after `fetch`, with a retry if the download fails.
///
/// No `<Suspense>` is involved, so that machinery is not on the first page: the
/// split module returns a plain function ([`Draw`]) that draws its view.
fn lazy_view(
    place: Place,
    kept: &'static LocalKey<Cell<Option<Draw>>>,
    fetch: fn() -> Fetched,
    about: String,
) -> AnyView {
    let here = kept.get();
    let state = RwSignal::new_local(here.map(Ok));
    let attempt = RwSignal::new(0_u32);
    if here.is_none() {
        Effect::new(move |_| {
            attempt.track();
            leptos::task::spawn_local(async move {
                let fetched = fetch().await;
                if let Ok(code) = fetched {
                    kept.set(Some(code));
                }
                let _ = state.try_set(Some(fetched));
            });
        });
    }
    (move || match state.with(|now| now.as_ref().map(|fetched| fetched.as_ref().ok().copied())) {
        Some(Some(draw)) => draw(&about),
        Some(None) => match place {
            Place::Page => view! { <LoadFailed attempt /> }.into_any(),
            Place::Part => view! { <PartLoadFailed attempt /> }.into_any(),
            Place::Cells(n) => {
                view! { <td colspan=n.to_string()><PartLoadFailed attempt /></td> }.into_any()
            }
        },
        None => match place {
            Place::Page => view! { <p class="loading">"Loading…"</p> }.into_any(),
            Place::Part => ().into_any(),
            Place::Cells(n) => pending_cells(n),
        },
    })
    .into_any()
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

/// No role of its own: a part sits in a live region already (the 409's alert, the
/// notices' polite region), which announces it; an alert inside an alert would be
/// announced twice.
#[component]
fn PartLoadFailed(attempt: RwSignal<u32>) -> impl IntoView {
    view! {
        <p class="alert alert-error outcome-unreachable">
            "This part of the page could not be loaded: its code did not arrive. "
            <button class="btn btn-quiet" on:click=move |_| attempt.update(|n| *n += 1)>"Try again"</button>
        </p>
    }
}
