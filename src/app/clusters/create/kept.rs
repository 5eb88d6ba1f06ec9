//! The first pool kept in this tab between Apply and its send: read, sent into
//! its made cluster (the one way, from the flow and from the cluster's page),
//! or dropped.

use nks_api::mutation::Mutation;

use crate::api::client::Client;
use crate::api::types::PoolCreate;
use crate::app::drafts::{keep_tab_item, tab_item, Draft};
use crate::app::paths::to;
use crate::ops::Ops;
use crate::rules::first_pool::{create_pool_address, PendingPool, PoolFlowEnd, PENDING_ITEM};

/// Sends a first pool kept in this tab into its made cluster: the one way,
/// from the create flow and from the cluster's page. Its fields go to the
/// cluster's Create pool form first (the way on if it is not made), and the
/// Create cluster form is done with. Kept as sent until its answer is the last
/// word, so that nothing sends it twice. The pool's operation, followed, once
/// answered; else how it ended.
pub async fn send_kept_pool(
    client: &Client,
    ops: &Ops,
    kept: PendingPool,
    cluster_id: &str,
    body: PoolCreate,
) -> Result<String, PoolFlowEnd> {
    let project_id = kept.project_id.clone();
    let form = kept.pool.clone();
    let sent = PendingPool {
        sent_to: Some(cluster_id.to_string()),
        ..kept
    };
    keep_tab_item(PENDING_ITEM, &sent.to_text());
    Draft::at(&to::new_cluster(&project_id)).discard();
    Draft::at(&create_pool_address(&project_id, cluster_id)).put(form);
    let answer = client
        .apply(&Mutation::CreatePool {
            cluster_id: cluster_id.to_string(),
            body,
        })
        .await;
    match answer {
        Ok(op) => {
            keep_tab_item(PENDING_ITEM, "");
            let id = op.id.clone();
            ops.track(op);
            Ok(id)
        }
        Err(error) => {
            let end = PoolFlowEnd::PoolNotMade {
                cluster_id: cluster_id.to_string(),
                error,
            };
            // An answer that may not be the last word stays kept: a reload
            // then tells the pool as sent, and unseen.
            if end.is_final() {
                keep_tab_item(PENDING_ITEM, "");
            }
            Err(end)
        }
    }
}

/// Drops a first pool kept in this tab, and the Create cluster form it came from.
pub fn discard_kept_pool(project_id: &str) {
    keep_tab_item(PENDING_ITEM, "");
    Draft::at(&to::new_cluster(project_id)).discard();
}

/// The first pool kept in this tab and not yet sent, for a cluster of the project.
pub fn kept_unsent(project_id: &str) -> Option<PendingPool> {
    PendingPool::from_text(&tab_item(PENDING_ITEM))
        .filter(|k| k.project_id == project_id && k.sent_to.is_none())
}
