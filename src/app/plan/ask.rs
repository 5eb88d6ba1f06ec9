//! What the plan asks the platform about a change: its availability, its cost,
//! the quota of its region, and for a cluster in a new VPC the VPC's own. One
//! answer for one request, so an answer for an older body is never shown.

use futures_util::future::{join, join3};

use crate::api::client::Client;
use crate::api::types::{CostQuote, CostQuoteUpdate, PoolCreate, Quota};
use crate::rules::gate::Gate;
use crate::rules::outcome::ApiError;
use crate::rules::plan::{new_vpc_gate, PlanRequest};

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Cost {
    Create(CostQuote),
    Update(CostQuoteUpdate),
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct Planned {
    /// The request this answers, so a late answer for an older body is never shown
    /// as the plan of the current one.
    pub(super) request: PlanRequest,
    /// `None` when it cannot be asked yet (a cluster whose VPC is still to be made).
    pub(super) availability: Option<Result<(), ApiError>>,
    pub(super) cost: Result<Cost, ApiError>,
    pub(super) quota: Option<Result<Quota, ApiError>>,
    /// The VPC made first, when there is one.
    pub(super) vpc: Option<VpcPlanned>,
    /// Create cluster's first pool, priced in another cluster of the project and
    /// region (named here): the API prices a pool only inside a cluster.
    pub(super) first_pool: Option<PoolPriced>,
}

/// A first pool's price, asked of a cluster that exists.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PoolPriced {
    pub(super) via: String,
    pub(super) cost: Result<CostQuote, ApiError>,
}

/// What a first pool is priced in: a cluster of the same project and region
/// (its id and name), and the pool as it would be sent.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PriceFirstPool {
    pub(super) cluster_id: String,
    pub(super) cluster_name: String,
    pub(super) pool: PoolCreate,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) struct VpcPlanned {
    pub(super) name: String,
    pub(super) availability: Result<(), ApiError>,
    pub(super) cost: Result<CostQuote, ApiError>,
}

impl Planned {
    /// Apply's verdict: the VPC's availability when one is made first (the
    /// cluster's cannot be asked before the VPC has an id), else the change's own.
    pub(super) fn gate(&self) -> Gate {
        match (&self.vpc, &self.availability) {
            (Some(vpc), _) => new_vpc_gate(&vpc.availability, &vpc.name),
            (None, Some(answer)) => Gate::from_availability(answer),
            (None, None) => Gate::Idle,
        }
    }
}

/// Asks every question of `request` at once: none waits for another's answer.
pub(super) async fn make_plan(
    client: Client,
    request: PlanRequest,
    region: String,
    first_pool: Option<PriceFirstPool>,
) -> Planned {
    let quota = async {
        match region.is_empty() {
            true => None,
            false => Some(client.quota(&region).await),
        }
    };
    let pool = async {
        let price = first_pool?;
        let cost = client.pool_cost(&price.cluster_id, &price.pool).await;
        Some(PoolPriced {
            via: price.cluster_name,
            cost,
        })
    };
    let ((availability, cost, vpc), quota, first_pool) =
        join3(ask(&client, &request), quota, pool).await;
    Planned {
        request,
        availability,
        cost,
        quota,
        vpc,
        first_pool,
    }
}

/// The change's availability and cost, and the new VPC's when one is made first.
async fn ask(
    client: &Client,
    request: &PlanRequest,
) -> (
    Option<Result<(), ApiError>>,
    Result<Cost, ApiError>,
    Option<VpcPlanned>,
) {
    match request {
        PlanRequest::CreateCluster(body) => {
            let (availability, cost) =
                join(client.cluster_availability(body), client.cluster_cost(body)).await;
            (Some(availability), cost.map(Cost::Create), None)
        }
        PlanRequest::CreateClusterWithNewVpc { vpc, cluster } => {
            let (availability, vpc_cost, cost) = join3(
                client.vpc_availability(vpc),
                client.vpc_cost(vpc),
                client.cluster_cost(cluster),
            )
            .await;
            let vpc = VpcPlanned {
                name: vpc.name.clone(),
                availability,
                cost: vpc_cost,
            };
            (None, cost.map(Cost::Create), Some(vpc))
        }
        PlanRequest::UpdateCluster { cluster_id, body } => {
            let (availability, cost) = join(
                client.cluster_update_availability(cluster_id, body),
                client.cluster_update_cost(cluster_id, body),
            )
            .await;
            (Some(availability), cost.map(Cost::Update), None)
        }
        PlanRequest::CreatePool { cluster_id, body } => {
            let (availability, cost) = join(
                client.pool_availability(cluster_id, body),
                client.pool_cost(cluster_id, body),
            )
            .await;
            (Some(availability), cost.map(Cost::Create), None)
        }
        PlanRequest::UpdatePool {
            cluster_id,
            pool_id,
            body,
        } => {
            let (availability, cost) = join(
                client.pool_update_availability(cluster_id, pool_id, body),
                client.pool_update_cost(cluster_id, pool_id, body),
            )
            .await;
            (Some(availability), cost.map(Cost::Update), None)
        }
    }
}
