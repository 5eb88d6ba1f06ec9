//! What the plan asks the platform about a change: its availability, its cost,
//! the quota of its region, and for a cluster in a new VPC the VPC's own. One
//! answer for one request, so an answer for an older body is never shown.

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

pub(super) async fn make_plan(client: Client, request: PlanRequest, region: String) -> Planned {
    let mut vpc = None;
    let (availability, cost) = match &request {
        PlanRequest::CreateCluster(body) => (
            Some(client.cluster_availability(body).await),
            client.cluster_cost(body).await.map(Cost::Create),
        ),
        PlanRequest::CreateClusterWithNewVpc { vpc: body, cluster } => {
            vpc = Some(VpcPlanned {
                name: body.name.clone(),
                availability: client.vpc_availability(body).await,
                cost: client.vpc_cost(body).await,
            });
            (None, client.cluster_cost(cluster).await.map(Cost::Create))
        }
        PlanRequest::UpdateCluster { cluster_id, body } => (
            Some(client.cluster_update_availability(cluster_id, body).await),
            client
                .cluster_update_cost(cluster_id, body)
                .await
                .map(Cost::Update),
        ),
        PlanRequest::CreatePool { cluster_id, body } => (
            Some(client.pool_availability(cluster_id, body).await),
            client.pool_cost(cluster_id, body).await.map(Cost::Create),
        ),
        PlanRequest::UpdatePool {
            cluster_id,
            pool_id,
            body,
        } => (
            Some(
                client
                    .pool_update_availability(cluster_id, pool_id, body)
                    .await,
            ),
            client
                .pool_update_cost(cluster_id, pool_id, body)
                .await
                .map(Cost::Update),
        ),
    };
    let quota = if region.is_empty() {
        None
    } else {
        Some(client.quota(&region).await)
    };
    Planned {
        request,
        availability,
        cost,
        quota,
        vpc,
    }
}
