//! How the cluster page reads its pools: every page from the first, a gap kept
//! where a page could not be read, and a Retry that reads from that gap on.

use leptos::prelude::*;
use std::sync::Arc;

use crate::api::client::Client;
use crate::api::decode::Sourced;
use crate::api::types::Pool;
use crate::app::clusters::figures;
use crate::app::context::live;
use crate::rules::paged::{Gap, Listing, Shown, Start};

/// The pools shown: each with its text, so a row is keyed by what its pool was
/// read as, and shared, so the rows shown hold them without copying.
pub(super) type Pools = figures::PoolsRead;
pub(super) type PoolListing = figures::PoolListing;

/// The cluster's pools as the page holds them: the read shown (which may have
/// a gap: a page that could not be read), and a newer read that stopped short
/// of it, held until Retry reads its gap. Of one cluster: another's reads are
/// not mixed in.
#[derive(Clone, Default)]
pub(super) struct PoolReads {
    pub(super) cluster: String,
    pub(super) reads: Shown<Arc<PoolListing>>,
}

impl PoolReads {
    /// Takes a read of `cluster`'s pools (from page 1, or a gap continued).
    fn take(&mut self, cluster: &str, read: Arc<PoolListing>) {
        if self.cluster != cluster {
            *self = PoolReads {
                cluster: cluster.to_string(),
                reads: Shown::default(),
            };
        }
        self.reads.take(read);
    }
}

/// A read of pools as the page keeps them: each in an `Arc`.
fn shared(read: Listing<Sourced<Pool>>) -> Arc<PoolListing> {
    Arc::new(Listing {
        items: read.items.into_iter().map(Arc::new).collect(),
        total: read.total,
        gap: read.gap,
    })
}

/// The pools' reads with their Retry, as [`read_pools`] builds them once per page.
#[derive(Clone, Copy)]
pub(super) struct PoolSource {
    pub(super) reads: RwSignal<PoolReads>,
    pub(super) retry: Callback<()>,
    pub(super) retrying: RwSignal<bool>,
    pub(super) pools: Pools,
}

/// Reads the pools of the cluster `cluster_id` names, again when an operation
/// ends and on each `refresh`.
pub(super) fn read_pools(
    client: &Client,
    cluster_id: impl Fn() -> String + Copy + Send + Sync + 'static,
) -> PoolSource {
    // The pools, every page from the first. A page that cannot be read leaves
    // a gap after the pages read (not an error in place of them all), and a
    // read that stops short of the list shown does not replace it.
    let fresh = live(cluster_id, |client, id| async move {
        let read = client
            .pools_from::<Sourced<Pool>>(&id, &Start::first_page())
            .await;
        (id, shared(read))
    });
    let reads = RwSignal::new(PoolReads::default());
    // Another cluster's pools are not shown while this one's are read.
    Effect::watch(
        cluster_id,
        move |id, _, _| {
            if reads.with_untracked(|r| &r.cluster != id) {
                reads.set(PoolReads {
                    cluster: id.clone(),
                    reads: Shown::default(),
                });
            }
        },
        false,
    );
    Effect::new(move |_| {
        if let Some((id, read)) = fresh.get() {
            reads.update(|r| r.take(&id, read));
        }
    });
    // Retry reads from the gap's page alone (its cursor), to the end, and puts
    // those pages after the ones already read. (`retrying` is read through
    // `with`: `get` on a bool signal is code the connect screen has too, and
    // sharing it would add a chunk to the first load.)
    let retrying = RwSignal::new(false);
    let retry = {
        let client = client.clone();
        Callback::new(move |()| {
            if retrying.with_untracked(|busy| *busy) {
                return;
            }
            let Some((id, base)) =
                reads.with_untracked(|r| Some((r.cluster.clone(), r.reads.to_retry()?.clone())))
            else {
                return;
            };
            let Some(from) = base.gap.as_ref().map(Gap::from) else {
                return;
            };
            retrying.set(true);
            let client = client.clone();
            leptos::task::spawn_local(async move {
                let more = client.pools_from::<Sourced<Pool>>(&id, &from).await;
                let more = Arc::unwrap_or_clone(shared(more));
                let read = Arc::new(base.continued(more));
                reads.try_update(|r| r.take(&id, read));
                retrying.try_set(false);
            });
        })
    };
    let pools: Pools = Signal::derive(move || {
        reads.with(|r| match (&r.reads.shown, &r.reads.held) {
            (Some(shown), _) => Some(Ok(shown.clone())),
            (None, Some(held)) => held.gap.as_ref().map(|g| Err(g.error.clone())),
            (None, None) => None,
        })
    });
    PoolSource {
        reads,
        retry,
        retrying,
        pools,
    }
}
