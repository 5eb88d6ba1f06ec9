//! What the plan asks the platform about a change: its availability, its cost,
//! the quota of its region, and for a cluster in a new VPC the VPC's own. One
//! answer for one request, so an answer for an older body is never shown.

use futures_util::future::{join, join3};

use crate::api::client::Client;
use crate::api::types::{CostQuote, CostQuoteUpdate, Quota};
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
pub(super) async fn make_plan(client: Client, request: PlanRequest, region: String) -> Planned {
    let quota = async {
        match region.is_empty() {
            true => None,
            false => Some(client.quota(&region).await),
        }
    };
    let ((availability, cost, vpc), quota) = join(ask(&client, &request), quota).await;
    Planned {
        request,
        availability,
        cost,
        quota,
        vpc,
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
