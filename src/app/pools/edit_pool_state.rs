//! What Edit pool makes of what is typed: its checks, the PATCH body, and what
//! the plan is asked about it.

use leptos::prelude::*;

use crate::api::types::{Cluster, InstanceType, Node, Pool, PoolUpdate};
use crate::rules::capacity::{
    leaves_no_baseline, nodes_at_risk, AtRisk, ScaleChange, BASELINE_REASON,
};
use crate::rules::display;
use crate::rules::immutability::{pool_update, PoolEdit};
use crate::rules::plan::{PlanRequest, QuotaNeed};
use crate::rules::validation as v;

/// Edit pool's checks of what is typed, and the PATCH body they make.
#[derive(Clone, Copy)]
pub(super) struct EditChecks {
    pub name_error: Memo<Option<String>>,
    pub tags_error: Memo<Option<String>>,
    pub count: Memo<v::Checked<u32>>,
    pub change: Memo<ScaleChange>,
    /// The new count would leave the cluster without a node to run on.
    pub no_baseline: Memo<bool>,
    pub count_error: Memo<Option<String>>,
    /// The PATCH body; `None` while a field has a problem.
    pub body: Memo<Option<PoolUpdate>>,
}

impl EditChecks {
    /// `pool` as read, among the cluster's `pools`; the rest is what is typed.
    pub fn new(
        pool: &Pool,
        pools: Vec<Pool>,
        name: RwSignal<String>,
        node_count: RwSignal<String>,
        tags: RwSignal<String>,
    ) -> Self {
        // A name the API already holds is kept whatever it holds; a new one must be a DNS label.
        let old_name = pool.name.clone();
        let checked_name = Memo::new(move |_| v::renamed(&name.get(), &old_name, "Name"));
        let name_error = Memo::new(move |_| checked_name.get().err());
        let tags_error = Memo::new(move |_| v::tags(&v::split_list(&tags.get())).err());
        let count = Memo::new(move |_| v::node_count(&node_count.get()));
        let current = pool.node_count;
        let change = Memo::new(move |_| {
            count
                .get()
                .map(|to| ScaleChange::of(current, to))
                .unwrap_or(ScaleChange::Same)
        });
        let no_baseline = {
            let id = pool.id.clone();
            Memo::new(move |_| {
                count
                    .get()
                    .is_ok_and(|to| leaves_no_baseline(&pools, &id, Some(to)))
            })
        };
        let count_error = Memo::new(move |_| match count.get() {
            Err(e) => Some(e),
            Ok(_) if no_baseline.get() => Some(BASELINE_REASON.to_string()),
            Ok(_) => None,
        });
        let body = {
            let pool = pool.clone();
            Memo::new(move |_| -> Option<PoolUpdate> {
                if name_error.get().is_some()
                    || tags_error.get().is_some()
                    || count_error.get().is_some()
                {
                    return None;
                }
                let edit = PoolEdit {
                    name: checked_name.get().ok()?,
                    node_count: count.get().ok()?,
                    tags: v::tags(&v::split_list(&tags.get())).ok()?,
                };
                Some(pool_update(&pool, &edit))
            })
        };
        EditChecks {
            name_error,
            tags_error,
            count,
            change,
            no_baseline,
            count_error,
            body,
        }
    }
}

/// What Edit pool asks the plan: the PATCH body as it stands, the quota it adds,
/// what it disrupts.
#[derive(Clone, Copy)]
pub(super) struct EditPlan {
    pub request: Signal<Option<PlanRequest>>,
    pub region: Signal<String>,
    pub need: Signal<QuotaNeed>,
    pub disruption: Signal<Vec<String>>,
}

impl EditPlan {
    /// `types`: the instance types, to price the pool's; `nodes`: the pool's nodes.
    pub fn new(
        checks: EditChecks,
        cluster: &Cluster,
        pool: &Pool,
        types: Vec<InstanceType>,
        nodes: Vec<Node>,
    ) -> Self {
        let EditChecks {
            count,
            change,
            body,
            ..
        } = checks;
        let request = {
            let (cluster_id, pool_id) = (pool.cluster_id.clone(), pool.id.clone());
            Signal::derive(move || {
                body.get()
                    .filter(|b| !b.is_empty())
                    .map(|body| PlanRequest::UpdatePool {
                        cluster_id: cluster_id.clone(),
                        pool_id: pool_id.clone(),
                        body,
                    })
            })
        };
        let region = Signal::stored(cluster.region.clone());
        let current = pool.node_count;
        let shape = types
            .into_iter()
            .find(|t| t.name == pool.node_config.instance_type);
        let need = Signal::derive(move || {
            let delta = count
                .get()
                .map(|to| i64::from(to) - i64::from(current))
                .unwrap_or(0);
            shape
                .as_ref()
                .map(|t| QuotaNeed::nodes(delta, t.vcpu, t.memory_gb))
                .unwrap_or_default()
        });
        let disruption = Signal::derive(move || match change.get() {
            ScaleChange::Down { from, to } => {
                let at_risk = nodes_at_risk(&nodes, from - to);
                let names: Vec<&str> = at_risk.nodes().iter().map(|n| n.name.as_str()).collect();
                let which = match &at_risk {
                    AtRisk::Known(_) => names.join(", "),
                    AtRisk::Among { .. } => {
                        format!("the platform chooses among {}", names.join(", "))
                    }
                };
                vec![format!(
                    "Manual scale-down: {} terminated without cordon or drain: {which}.",
                    display::counted((from - to) as usize, "node", "nodes")
                )]
            }
            ScaleChange::Up { from, to } => vec![format!(
                "Scale-up from {from} to {to}: nothing running is touched."
            )],
            ScaleChange::Same => Vec::new(),
        });
        EditPlan {
            request,
            region,
            need,
            disruption,
        }
    }
}
