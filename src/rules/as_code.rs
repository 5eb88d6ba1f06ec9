//! What the code panel writes: the plan's request (exactly the body Apply
//! sends) as the change of nks-code, with the steps that follow it.

use nks_api::mutation::Mutation;
use nks_api::types::PoolCreate;
use nks_code::{Change, Resource};

use super::plan::PlanRequest;

/// The change a form would make. `first_pool` is Create cluster's pool, sent
/// once the cluster is made; `now` is what an edit changes, as it was read.
pub fn change_of(
    request: &PlanRequest,
    first_pool: Option<&PoolCreate>,
    now: Option<Resource>,
) -> Change {
    let change = match request.clone() {
        PlanRequest::CreateCluster(body) => Change::one(Mutation::CreateCluster(body), None),
        PlanRequest::CreateClusterWithNewVpc { vpc, cluster } => {
            Change::one(Mutation::CreateVpc(vpc), None).then(Mutation::CreateCluster(cluster))
        }
        PlanRequest::UpdateCluster { cluster_id, body } => {
            return Change::one(Mutation::UpdateCluster { cluster_id, body }, now)
        }
        PlanRequest::CreatePool { cluster_id, body } => {
            return Change::one(Mutation::CreatePool { cluster_id, body }, None)
        }
        PlanRequest::UpdatePool {
            cluster_id,
            pool_id,
            body,
        } => {
            return Change::one(
                Mutation::UpdatePool {
                    cluster_id,
                    pool_id,
                    body,
                },
                now,
            )
        }
    };
    match first_pool {
        Some(pool) => change.then(Mutation::CreatePool {
            cluster_id: String::new(),
            body: pool.clone(),
        }),
        None => change,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nks_api::types::{ClusterCreate, PoolUpdate, VpcCreate};

    #[test]
    fn a_new_vpc_cluster_and_first_pool_are_three_steps_in_order() {
        let request = PlanRequest::CreateClusterWithNewVpc {
            vpc: VpcCreate {
                name: "edge".into(),
                ..Default::default()
            },
            cluster: ClusterCreate {
                name: "prod".into(),
                ..Default::default()
            },
        };
        let pool = PoolCreate {
            name: "web".into(),
            ..Default::default()
        };
        let change = change_of(&request, Some(&pool), None);
        let calls: Vec<&str> = change.steps.iter().map(|s| s.mutation.call()).collect();
        assert_eq!(calls, ["Create VPC", "Create cluster", "Create pool"]);
        assert_eq!(
            change.steps[2].mutation.body(),
            Mutation::CreatePool {
                cluster_id: String::new(),
                body: pool
            }
            .body()
        );
    }

    #[test]
    fn an_edit_carries_what_it_changes() {
        let request = PlanRequest::UpdatePool {
            cluster_id: "c".into(),
            pool_id: "p".into(),
            body: PoolUpdate {
                node_count: Some(4),
                ..Default::default()
            },
        };
        let now = Resource::Pool(Default::default());
        let change = change_of(&request, None, Some(now.clone()));
        assert_eq!(change.steps.len(), 1);
        assert_eq!(change.steps[0].now, Some(now));
        assert_eq!(
            change.steps[0].mutation.body().as_deref(),
            Some(r#"{"node_count":4}"#)
        );
    }
}
