//! What every page shares, provided by the shell: the projects the key sees,
//! the project the address names, the refresh tick, the reads that follow
//! them, and the tab's title.

use std::future::Future;

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use super::paths::router_base;
use crate::api::client::Client;
use crate::api::types::ProjectSummary;
use crate::ops::Ops;
use crate::rules::outcome::{is_retryable_status, ApiError, Outcome};

/// The projects the key can see, loaded once for the whole shell, and the one
/// last shown.
#[derive(Clone, Copy)]
pub struct Projects {
    pub list: LocalResource<Result<Vec<ProjectSummary>, ApiError>>,
    /// The project last shown, kept in `localStorage` (an id, not a secret) so
    /// the brand link, `/` and the navigation of a page outside any project lead
    /// back to it. Empty when none was; kept as the address named it, so read it
    /// through [`Projects::default_id`].
    pub last: Signal<String>,
}

impl Projects {
    /// The project `id` as the key sees it, once the list is read: its name,
    /// or `Some(None)` when the key sees no such project; `None` until the
    /// list is read (or when it could not be).
    /// (The list is cloned, as the header reads it: a few projects, and no
    /// second way of reading the resource in the first page's code.)
    pub fn lookup(&self, id: &str) -> Option<Option<String>> {
        match self.list.get()? {
            Ok(list) => Some(list.into_iter().find(|p| p.id == id).map(|p| p.name)),
            Err(_) => None,
        }
    }

    /// The project to open when the address names none: the last one shown if
    /// the key still sees it, else the first; `None` until the list is read.
    /// (`last` is read untracked: it only changes as the address names a
    /// project, which those who ask track already.)
    pub fn default_id(&self) -> Option<String> {
        let list = self.list.get()?.ok()?;
        let last = self.last.get_untracked();
        if list.iter().any(|p| p.id == last) {
            Some(last)
        } else {
            list.into_iter().next().map(|p| p.id)
        }
    }

    /// The project's name, once the list is read. (Inlined: only lazily loaded
    /// pages ask, and a shared function would be a wasm chunk of its own.)
    #[inline(always)]
    pub fn name(&self, id: &str) -> Option<String> {
        self.lookup(id).flatten()
    }
}

pub(super) const LAST_PROJECT_ITEM: &str = "nks-console.last-project";

/// Names the tab after the page shown: its parts, most specific first, as they
/// become known (`baseline · edge-prod · NKS Console`).
pub fn page_title(parts: impl Fn() -> Vec<String> + 'static) {
    title_from(Box::new(parts));
}

/// One effect for every page's title (a generic one would be built per page).
fn title_from(parts: Box<dyn Fn() -> Vec<String>>) {
    Effect::new(move |_| {
        let parts = parts();
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        document().set_title(&crate::rules::display::title(&parts));
    });
}

/// The project named by the current URL (`/projects/{id}/…` under the router
/// base), if any. Read from the location, not from a route's params: the header
/// and the tracker sit above the page's route and never see its params.
pub fn current_project_id() -> Memo<Option<String>> {
    let location = use_location();
    let base = router_base();
    Memo::new(move |_| {
        location.pathname.with(|path| {
            let rest = path
                .strip_prefix(base.as_str())?
                .strip_prefix("/projects/")?;
            let id = rest.split('/').next()?;
            (!id.is_empty()).then(|| id.to_string())
        })
    })
}

/// Bumped every few seconds while the tab is visible, so lists follow changes made
/// behind the person's back (the autoscaler moves node counts on its own). It is
/// the console's one shared tick: relative times ("3 min ago") move on it too.
#[derive(Clone, Copy)]
pub struct Refresh(pub RwSignal<u64>);

/// A read of what operations and the autoscaler change: it runs again when
/// `key` changes, when an operation ends (whose end is shown once this read is
/// in) and on the refresh tick. `fetch` reads `key` with the client.
pub fn live<K: 'static, T: 'static, F: Future<Output = T> + 'static>(
    key: impl Fn() -> K + 'static,
    fetch: impl Fn(Client, K) -> F + 'static,
) -> LocalResource<T> {
    let (client, ops) = (expect_context::<Client>(), expect_context::<Ops>());
    let Refresh(refresh) = expect_context::<Refresh>();
    LocalResource::new(move || {
        let read = fetch(client.clone(), key());
        let reading = ops.read();
        refresh.track();
        async move {
            let _reading = reading;
            read.await
        }
    })
}

/// A read kept for a while (the projects, the instance types for a visit, names
/// until an operation ends) that failed for a reason that passes (a 429, a 5xx,
/// no answer) is read again when the wait the API asked for ends, and on the
/// refresh tick until it is in, as the live reads are: a page seen during an
/// outage recovers without a reload. A refusal (a 4xx) is not read again on its
/// own: it waits for the person's Retry.
pub fn read_again_while_failing<T: Send + Sync + 'static>(
    read: LocalResource<Result<T, ApiError>>,
) {
    let Refresh(refresh) = expect_context::<Refresh>();
    let passing = move || {
        read.with_untracked(
            |r| matches!(r, Some(Err(e)) if !matches!(e.outcome(), Outcome::Rejected)),
        )
    };
    Effect::new(move |first: Option<()>| {
        refresh.track();
        if first.is_some() && passing() {
            read.refetch();
        }
    });
    Effect::new(move |_| {
        let wait = read.with(|r| match r {
            Some(Err(ApiError::Status {
                status,
                retry_after_ms: Some(ms),
                ..
            })) if is_retryable_status(*status) => Some(*ms),
            _ => None,
        });
        if let Some(ms) = wait {
            set_timeout(
                move || {
                    if passing() {
                        read.refetch();
                    }
                },
                std::time::Duration::from_millis(ms),
            );
        }
    });
}

/// A read of what only an operation changes (names, a history): it runs again
/// when `key` changes and when an operation ends, not on the tick.
pub fn after_ops<K: 'static, T: 'static, F: Future<Output = T> + 'static>(
    key: impl Fn() -> K + 'static,
    fetch: impl Fn(Client, K) -> F + 'static,
) -> LocalResource<T> {
    let (client, ops) = (expect_context::<Client>(), expect_context::<Ops>());
    LocalResource::new(move || {
        let read = fetch(client.clone(), key());
        ops.revision.track();
        read
    })
}
