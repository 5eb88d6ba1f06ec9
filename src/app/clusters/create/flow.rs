//! The create itself, as one async function: a new VPC when one is asked for,
//! then the cluster in it, then the first pool in the cluster when one is asked
//! for. Each step waits for the one before to end `done`; any other end stops
//! the flow there, says why, and sends nothing after it.

use std::rc::Rc;

use leptos::prelude::*;
use nks_api::mutation::Mutation;

use super::kept::{discard_kept_pool, send_kept_pool};
use super::progress::Progress;
use crate::api::client::Client;
use crate::api::types::{ClusterCreate, Operation, PoolCreate, Vpc, VpcCreate};
use crate::app::drafts::{keep_tab_item, tab_item, Draft};
use crate::app::operations::follow_href;
use crate::app::paths::to;
use crate::ops::Ops;
use crate::rules::first_pool::{
    create_pool_address, first_pool_create, KeptCluster, PendingPool, PoolFlowEnd, PENDING_ITEM,
};
use crate::rules::forms::PoolForm;
use crate::rules::new_vpc::{in_new_vpc, Ended, FlowEnd};
use crate::rules::outcome::ApiError;

/// How long a resumed flow waits before reading its operation again, when the
/// API did not answer (the client's own retries spent).
const RESUME_READ_AGAIN: std::time::Duration = std::time::Duration::from_secs(5);

/// What Apply sends, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub vpc: Option<VpcCreate>,
    pub cluster: ClusterCreate,
    /// The first pool, and the form it came from (the way back if it is not made).
    pub pool: Option<(PoolCreate, PoolForm)>,
}

/// How the flow starts: Apply, or back on the page in this tab with a first
/// pool kept ([`PendingPool`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    Apply(Plan),
    Resume(PendingPool, PoolCreate),
    /// The person's answer to a first pool that waited ([`Progress::pool_waiting`]).
    Waiting(Answer),
}

/// Send or Discard, for a first pool whose cluster was made while no page of
/// its flow was open.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Answer {
    Send,
    Discard,
}

/// What the flow needs besides its progress: the API, the tracker, and the
/// form's parts it writes (each create's refusal, shown beside its fields; the
/// name a create was tried with; the VPC chosen; the draft).
#[derive(Clone)]
pub struct Flow {
    pub client: Client,
    pub ops: Ops,
    pub project_id: String,
    pub progress: RwSignal<Progress>,
    pub cluster_refused: RwSignal<Option<ApiError>>,
    pub vpc_refused: RwSignal<Option<ApiError>>,
    pub pool_refused: RwSignal<Option<ApiError>>,
    pub attempted_name: RwSignal<String>,
    pub vpc_choice: RwSignal<String>,
    /// Reads the project's VPCs again (the form's VPC list and name check).
    pub reread_vpcs: Action<(), Result<Vec<Vpc>, ApiError>>,
    pub draft: Draft,
    pub open: Rc<dyn Fn(&str)>,
}

impl Flow {
    pub async fn run(self, start: Start) {
        match start {
            Start::Apply(plan) => self.create(plan).await,
            Start::Resume(kept, pool) => self.resume(kept, pool).await,
            Start::Waiting(answer) => self.answer(answer).await,
        }
    }

    /// Apply: VPC, cluster, first pool, each sent once the one before is done.
    async fn create(&self, plan: Plan) {
        let Plan { vpc, cluster, pool } = plan;
        self.set(|p| {
            *p = Progress {
                vpc_name: vpc.as_ref().map(|v| v.name.clone()).unwrap_or_default(),
                cluster_name: cluster.name.clone(),
                pool_name: pool
                    .as_ref()
                    .map(|(b, _)| b.name.clone())
                    .unwrap_or_default(),
                ..Progress::default()
            }
        });
        let cluster = match vpc {
            None => cluster,
            Some(vpc) => match self.new_vpc(vpc).await {
                Some(vpc_id) => in_new_vpc(&cluster, &vpc_id),
                None => return,
            },
        };
        let kept_cluster = KeptCluster::of(&cluster);
        let Some(cluster_op) = self.send_cluster(cluster).await else {
            return;
        };
        match pool {
            // The operation's own page follows the cluster and opens it once done.
            None => (self.open)(&follow_href(&self.project_id, &cluster_op, None, None)),
            Some((body, form)) => {
                self.first_pool(cluster_op, Some(kept_cluster), body, form)
                    .await
            }
        }
    }

    /// The new VPC's id once its operation is done; else the flow ends here.
    async fn new_vpc(&self, body: VpcCreate) -> Option<String> {
        self.vpc_refused.set(None);
        let op = match self.client.apply(&Mutation::CreateVpc(body)).await {
            Ok(op) => op,
            Err(error) => {
                // It may have gone through: the name check must know its VPC.
                if error.may_have_acted() {
                    self.reread_vpcs.dispatch(());
                }
                self.vpc_refused.try_set(Some(error.clone()));
                self.set(|p| p.vpc_end = Some(FlowEnd::VpcNotSent(error)));
                return None;
            }
        };
        let id = self.follow(op);
        self.set(|p| {
            p.vpc_op = Some(id.clone());
            p.vpc_waiting = true;
        })?;
        let step = self.ended(&id).await?;
        self.reread_vpcs.dispatch(());
        match step {
            Ended::Ready {
                resource_id: vpc_id,
            } => {
                // From here on the form picks this VPC: it exists now.
                self.vpc_choice.try_set(vpc_id.clone());
                self.set(|p| p.made_vpc = Some(vpc_id.clone()))?;
                Some(vpc_id)
            }
            step => {
                self.set(|p| {
                    p.vpc_waiting = false;
                    p.vpc_end = Some(FlowEnd::VpcEnded {
                        operation_id: id,
                        step,
                    });
                });
                None
            }
        }
    }

    /// The cluster's operation once its create is answered. A refusal goes back
    /// to the form, which then holds the VPC made on the way.
    async fn send_cluster(&self, body: ClusterCreate) -> Option<String> {
        self.attempted_name.set(body.name.clone());
        self.cluster_refused.set(None);
        self.set(|p| p.cluster_sending = true)?;
        let answer = self.client.apply(&Mutation::CreateCluster(body)).await;
        match answer {
            Ok(op) => {
                let id = self.follow(op);
                self.set(|p| {
                    p.cluster_sending = false;
                    p.vpc_waiting = false;
                    p.cluster_op = Some(id.clone());
                })?;
                Some(id)
            }
            Err(error) => {
                self.cluster_refused.try_set(Some(error));
                self.set(|p| {
                    p.cluster_sending = false;
                    p.vpc_waiting = false;
                    p.vpc_end = p
                        .made_vpc
                        .clone()
                        .map(|vpc_id| FlowEnd::ClusterNotMade { vpc_id })
                });
                None
            }
        }
    }

    /// The first pool goes into the cluster once the cluster's operation is
    /// done. It is kept in this tab until its create is answered: a reload on
    /// the way resumes here ([`Flow::resume`]), and never sends it twice.
    async fn first_pool(
        &self,
        cluster_op: String,
        cluster: Option<KeptCluster>,
        body: PoolCreate,
        form: PoolForm,
    ) {
        let kept = |sent_to: Option<String>| {
            let cluster_name = self.progress.with_untracked(|p| p.cluster_name.clone());
            PendingPool {
                project_id: self.project_id.clone(),
                operation_id: cluster_op.clone(),
                cluster_name,
                cluster: cluster.clone(),
                pool: form.clone(),
                sent_to,
            }
        };
        keep_tab_item(PENDING_ITEM, &kept(None).to_text());
        let Some(step) = self.ended(&cluster_op).await else {
            return;
        };
        let Ended::Ready {
            resource_id: cluster_id,
        } = step
        else {
            keep_tab_item(PENDING_ITEM, "");
            self.set(|p| {
                p.cluster_op = None;
                p.pool_end = Some(PoolFlowEnd::ClusterEnded {
                    operation_id: cluster_op.clone(),
                    step,
                });
            });
            return;
        };
        self.send_pool(kept(None), cluster_id, body).await;
    }

    /// The pool's create: its operation's page once answered; a refusal is said,
    /// with the cluster's Create pool form as the way on.
    async fn send_pool(&self, kept: PendingPool, cluster_id: String, body: PoolCreate) {
        self.pool_refused.set(None);
        self.draft.discard();
        self.set(|p| {
            p.pool_cluster = Some(cluster_id.clone());
            p.pool_waiting = false;
            p.pool_sending = true;
        });
        let answer = send_kept_pool(&self.client, &self.ops, kept, &cluster_id, body).await;
        self.set(|p| p.pool_sending = false);
        match answer {
            Ok(id) => {
                if self.set(|p| p.pool_op = Some(id.clone())).is_some() {
                    let href = follow_href(&self.project_id, &id, Some(&cluster_id), None);
                    (self.open)(&href);
                }
            }
            Err(end) => {
                if let PoolFlowEnd::PoolNotMade { error, .. } = &end {
                    self.pool_refused.try_set(Some(error.clone()));
                }
                self.set(|p| p.pool_end = Some(end));
            }
        }
    }

    /// Send or Discard, for the pool that waited.
    async fn answer(&self, answer: Answer) {
        let Some(cluster_id) = self.progress.with_untracked(|p| p.pool_cluster.clone()) else {
            return;
        };
        let kept = PendingPool::from_text(&tab_item(PENDING_ITEM))
            .filter(|k| k.project_id == self.project_id && k.sent_to.is_none());
        let body = kept.as_ref().and_then(|k| first_pool_create(&k.pool).ok());
        match (answer, kept, body) {
            (Answer::Send, Some(kept), Some(body)) => self.send_pool(kept, cluster_id, body).await,
            // Discarded, or already answered in another page of this tab: the
            // cluster's page is where it stands now.
            _ => {
                discard_kept_pool(&self.project_id);
                (self.open)(&to::cluster(&self.project_id, &cluster_id));
            }
        }
    }

    /// Back on this page in this tab with a first pool kept: the flow goes on
    /// where it was, and a pool already sent is not sent again.
    async fn resume(&self, kept: PendingPool, body: PoolCreate) {
        self.set(|p| *p = Progress::resumed(&kept, &body));
        if let Some(cluster_id) = kept.sent_to {
            Draft::at(&create_pool_address(&kept.project_id, &cluster_id)).put(kept.pool);
            keep_tab_item(PENDING_ITEM, "");
            self.set(|p| {
                p.pool_cluster = Some(cluster_id.clone());
                p.pool_end = Some(PoolFlowEnd::PoolAnswerUnseen { cluster_id });
            });
            return;
        }
        // Followed by the tracker (it resumes what it followed), or read and handed to it.
        let id = kept.operation_id;
        while untrack(|| self.ops.get(&id)).is_none() {
            match self.client.operation(&id).await {
                Ok(op) => {
                    if untrack(|| self.ops.get(&id)).is_none() {
                        self.ops.track(op);
                    }
                }
                // Gone (the API lost it, or it is another API now): the flow ends
                // as the operation's page says, and the form is offered again with
                // what was typed, instead of waiting for an end that cannot come.
                Err(error) if error.is_not_found() => {
                    keep_tab_item(PENDING_ITEM, "");
                    self.set(|p| {
                        p.cluster_op = None;
                        p.pool_end = Some(PoolFlowEnd::ClusterEnded {
                            operation_id: id.clone(),
                            step: Ended::Lost,
                        });
                    });
                    return;
                }
                // Not answered (the client's own retries spent): read again a little
                // later, for as long as the page is open.
                Err(_) => {
                    gloo_timers::future::sleep(RESUME_READ_AGAIN).await;
                    if self.progress.try_with_untracked(|_| ()).is_none() {
                        return;
                    }
                }
            }
        }
        // Made while no page of the flow was open: the person may have moved on
        // (the cluster's page and the list say that a pool waits), so nothing is
        // sent without a click that says so.
        if let Ended::Ready { resource_id } = Ended::of(untrack(|| self.ops.get(&id)).as_ref()) {
            self.set(|p| {
                p.pool_cluster = Some(resource_id);
                p.pool_waiting = true;
            });
            return;
        }
        self.first_pool(id, kept.cluster, body, kept.pool).await;
    }

    /// Hands an operation to the tracker, the one poller.
    fn follow(&self, op: Operation) -> String {
        let id = op.id.clone();
        self.ops.track(op);
        id
    }

    /// How a followed operation ended, as a step; `None` once the page has gone.
    async fn ended(&self, id: &str) -> Option<Ended> {
        let _ = self.ops.until_ended(id).await;
        let step = Ended::of(untrack(|| self.ops.get(id)).as_ref());
        self.progress.try_with_untracked(|_| ())?;
        (step != Ended::Waiting).then_some(step)
    }

    /// Moves the progress on; `None` once the page has gone (the flow ends with it).
    fn set(&self, change: impl FnOnce(&mut Progress)) -> Option<()> {
        self.progress.try_update(change)
    }
}
