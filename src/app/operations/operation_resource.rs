//! Where an operation's resource stands, read for its page: a cluster, or a
//! pool found in its cluster.

use crate::api::client::Client;
use crate::api::types::{Cluster, OperationKind, Pool};
use crate::app::paths::to;
use crate::rules::outcome::ApiError;

/// Where the operation's resource stands.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Place {
    /// It exists: its name, its page, and for a pool its cluster.
    Exists {
        name: String,
        href: String,
        cluster_id: Option<String>,
    },
    /// The API answered 404 for it.
    Gone,
    /// It could not be read just now.
    Unreadable(ApiError),
    /// A kind this console has no page for.
    Unlinked,
}

/// Reads the operation's resource: a cluster, or a pool (in the given cluster,
/// else looked for among the project's).
pub(super) async fn locate(
    client: &Client,
    project: &str,
    kind: &OperationKind,
    id: &str,
    cluster: Option<String>,
) -> Place {
    let answer = |result: Result<(String, String, Option<String>), ApiError>| match result {
        Ok((name, href, cluster_id)) => Place::Exists {
            name,
            href,
            cluster_id,
        },
        Err(error) if error.is_not_found() => Place::Gone,
        Err(error) => Place::Unreadable(error),
    };
    match kind {
        OperationKind::NksCluster => answer(
            client
                .cluster(id)
                .await
                .map(|c| (c.name, to::cluster(project, id), None)),
        ),
        OperationKind::NksNodePool => {
            let cluster = match cluster {
                Some(c) => c,
                None => match find_pool(client, project, id).await {
                    Ok(Some(c)) => c,
                    Ok(None) => return Place::Gone,
                    Err(error) => return Place::Unreadable(error),
                },
            };
            answer(client.pool(&cluster, id).await.map(|p| {
                (
                    p.name,
                    to::pool(project, &cluster, id),
                    Some(cluster.clone()),
                )
            }))
        }
        OperationKind::Vpc => answer(
            client
                .vpc(id)
                .await
                .map(|v| (v.name, to::vpc(project, id), None)),
        ),
        _ => Place::Unlinked,
    }
}

/// The cluster holding pool `id`, among the project's.
async fn find_pool(client: &Client, project: &str, id: &str) -> Result<Option<String>, ApiError> {
    for cluster in client.clusters::<Cluster>(project).await? {
        if client
            .pools::<Pool>(&cluster.id)
            .await?
            .iter()
            .any(|p| p.id == id)
        {
            return Ok(Some(cluster.id));
        }
    }
    Ok(None)
}
