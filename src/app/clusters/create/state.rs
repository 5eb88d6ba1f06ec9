//! What Create cluster's form holds, and what it makes of it as it is typed.

use leptos::prelude::*;

use super::flow::Plan;
use crate::api::types::{Cluster, ClusterCreate, PoolCreate, ResourceStatus, Vpc, VpcCreate};
use crate::app::pools::PoolInputs;
use crate::rules::first_pool::{first_pool_create, DEFAULT_NAME};
use crate::rules::forms::{
    cluster_create, message_for, problems, unsent_reason, ClusterForm, FieldErrors, PoolForm,
};
use crate::rules::gate::Gate;
use crate::rules::new_vpc::{in_new_vpc, vpc_create, vpc_message_for, VpcForm, NEW_VPC};
use crate::rules::outcome::ApiError;
use crate::rules::plan::PlanRequest;

/// What is typed: the cluster, the new VPC's and subnet's names, whether a
/// first pool is made, and that pool (a draft's shape).
pub type Typed = (ClusterForm, String, String, bool, PoolForm);

/// The form's controls.
#[derive(Clone, Copy)]
pub struct Inputs {
    pub project_id: Signal<String>,
    pub name: RwSignal<String>,
    pub version: RwSignal<String>,
    pub region: RwSignal<String>,
    /// A VPC's id, or [`NEW_VPC`].
    pub vpc: RwSignal<String>,
    pub autoscaling: RwSignal<Option<bool>>,
    pub tags: RwSignal<String>,
    pub vpc_name: RwSignal<String>,
    pub subnet_name: RwSignal<String>,
    /// The first pool: on by default, with Create pool's fields and a name.
    pub with_pool: RwSignal<bool>,
    pub pool: PoolInputs,
    /// A submit was tried: every problem shows, typed into or not.
    pub touched: RwSignal<bool>,
}

impl Inputs {
    pub fn new(project_id: Signal<String>, region: String) -> Self {
        let pool = PoolInputs::new();
        pool.name.set(DEFAULT_NAME.to_string());
        Inputs {
            project_id,
            name: RwSignal::new(String::new()),
            version: RwSignal::new(String::new()),
            region: RwSignal::new(region),
            vpc: RwSignal::new(String::new()),
            autoscaling: RwSignal::new(None),
            tags: RwSignal::new(String::new()),
            vpc_name: RwSignal::new(String::new()),
            subnet_name: RwSignal::new(String::new()),
            with_pool: RwSignal::new(true),
            pool,
            touched: RwSignal::new(false),
        }
    }

    pub fn cluster(&self) -> ClusterForm {
        ClusterForm {
            name: self.name.get(),
            project_id: self.project_id.get(),
            region: self.region.get(),
            vpc_id: self.vpc.get(),
            kubernetes_version: self.version.get(),
            autoscaling: self.autoscaling.get(),
            tags: self.tags.get(),
        }
    }

    pub fn typed(&self) -> Typed {
        (
            self.cluster(),
            self.vpc_name.get(),
            self.subnet_name.get(),
            self.with_pool.get(),
            self.pool.form(),
        )
    }

    pub fn restore(&self, typed: Typed) {
        let (cluster, vpc_name, subnet_name, with_pool, pool) = typed;
        self.name.set(cluster.name);
        self.region.set(cluster.region);
        self.vpc.set(cluster.vpc_id);
        self.version.set(cluster.kubernetes_version);
        self.autoscaling.set(cluster.autoscaling);
        self.tags.set(cluster.tags);
        self.vpc_name.set(vpc_name);
        self.subnet_name.set(subnet_name);
        self.with_pool.set(with_pool);
        self.pool.restore(&pool);
    }

    pub fn new_vpc(&self) -> bool {
        self.vpc.with(|v| v == NEW_VPC)
    }
}

/// What the form makes of what is typed.
#[derive(Clone, Copy)]
pub struct Checks {
    pub cluster: Memo<Result<ClusterCreate, FieldErrors>>,
    pub pool: Memo<Result<PoolCreate, FieldErrors>>,
    /// The first pool Apply would send after the cluster, if one is asked for and valid.
    pub pool_body: Memo<Option<PoolCreate>>,
    pub vpc: Memo<Result<VpcCreate, FieldErrors>>,
    /// What Apply would send, once everything checks.
    pub plan: Memo<Option<Plan>>,
    /// What is wrong, in words, in the parts Apply would send.
    pub problems: Memo<Vec<String>>,
}

impl Checks {
    /// `vpcs`: the project's VPCs, whose names a new VPC must not take.
    pub fn new(inputs: Inputs, vpcs: Memo<Vec<Vpc>>) -> Self {
        let cluster = Memo::new(move |_| cluster_create(&inputs.cluster()));
        let pool = Memo::new(move |_| first_pool_create(&inputs.pool.form()));
        let with_pool = inputs.with_pool;
        let pool_body = Memo::new(move |_| with_pool.get().then(|| pool.get().ok()).flatten());
        let vpc = Memo::new(move |_| {
            let taken: Vec<String> = vpcs.with(|v| v.iter().map(|v| v.name.clone()).collect());
            let form = VpcForm {
                name: inputs.vpc_name.get(),
                subnet_name: inputs.subnet_name.get(),
                project_id: inputs.project_id.get(),
                region: inputs.region.get(),
            };
            vpc_create(&form, &taken)
        });
        let plan = Memo::new(move |_| {
            let cluster = cluster.get().ok()?;
            if with_pool.get() && pool.with(Result::is_err) {
                return None;
            }
            let (vpc, cluster) = if inputs.new_vpc() {
                (Some(vpc.get().ok()?), in_new_vpc(&cluster, ""))
            } else {
                (None, cluster)
            };
            let pool = pool_body.get().map(|body| (body, inputs.pool.form()));
            Some(Plan { vpc, cluster, pool })
        });
        let problems = Memo::new(move |_| {
            let mut all = problems(&cluster.get());
            if inputs.new_vpc() {
                all.extend(problems(&vpc.get()));
            }
            if with_pool.get() {
                all.extend(problems(&pool.get()));
            }
            all
        });
        Checks {
            cluster,
            pool,
            pool_body,
            vpc,
            plan,
            problems,
        }
    }

    /// What the plan is asked about.
    pub fn plan_request(&self) -> Option<PlanRequest> {
        self.plan.get().map(|plan| match plan.vpc {
            Some(vpc) => PlanRequest::CreateClusterWithNewVpc {
                vpc,
                cluster: plan.cluster,
            },
            None => PlanRequest::CreateCluster(plan.cluster),
        })
    }
}

/// What came back about the form: each create's refusal, and the plan's verdict.
#[derive(Clone, Copy)]
pub struct Refusals {
    pub cluster: RwSignal<Option<ApiError>>,
    pub vpc: RwSignal<Option<ApiError>>,
    pub pool: RwSignal<Option<ApiError>>,
    pub gate: RwSignal<Gate>,
}

impl Refusals {
    pub fn new() -> Self {
        Refusals {
            cluster: RwSignal::new(None),
            vpc: RwSignal::new(None),
            pool: RwSignal::new(None),
            gate: RwSignal::new(Gate::Idle),
        }
    }
}

/// The form as a whole: what is typed, what it makes, what came back.
#[derive(Clone, Copy)]
pub struct State {
    pub inputs: Inputs,
    pub checks: Checks,
    pub refused: Refusals,
}

impl State {
    /// Beside a cluster field: what is wrong with what was typed (once typed
    /// into, or after a submit), the create's refusal, or the plan's.
    pub fn error_for(&self, field: &'static str) -> Signal<Option<String>> {
        let (inputs, checks) = (self.inputs, self.checks);
        let typed = move || match field {
            "name" => !inputs.name.with(String::is_empty),
            "tags" => !inputs.tags.with(String::is_empty),
            _ => false,
        };
        let local = move || checks.cluster.with(|c| at(c, field));
        self.beside(field, local, typed, self.refused.cluster, message_for)
    }

    /// Beside a new VPC's field: the same, for the VPC create.
    pub fn vpc_error_for(&self, field: &'static str) -> Signal<Option<String>> {
        let (inputs, checks) = (self.inputs, self.checks);
        let typed = move || match field {
            "name" => !inputs.vpc_name.with(String::is_empty),
            "subnet_name" => !inputs.subnet_name.with(String::is_empty),
            _ => false,
        };
        let local = move || checks.vpc.with(|c| at(c, field));
        self.beside(field, local, typed, self.refused.vpc, vpc_message_for)
    }

    /// The message beside `field`: its `local` problem once `typed` into (or
    /// after a submit), else the create's refusal, else the plan's; `say` words it.
    fn beside(
        &self,
        field: &'static str,
        local: impl Fn() -> Option<String> + Send + Sync + 'static,
        typed: impl Fn() -> bool + Send + Sync + 'static,
        refusal: RwSignal<Option<ApiError>>,
        say: fn(&str, Option<String>, Option<&ApiError>, &Gate) -> Option<String>,
    ) -> Signal<Option<String>> {
        let (touched, gate) = (self.inputs.touched, self.refused.gate);
        Signal::derive(move || {
            let local = local().filter(|_| touched.get() || typed());
            refusal.with(|rejected| gate.with(|g| say(field, local, rejected.as_ref(), g)))
        })
    }

    /// Why Apply sends nothing: the fields whose problem is on screen.
    pub fn unsent(&self) -> Option<String> {
        let State { inputs, checks, .. } = *self;
        let touched = inputs.touched.get();
        let mut labels: Vec<&str> = checks.cluster.with(|c| {
            let Err(errors) = c else {
                return Vec::new();
            };
            errors
                .keys()
                .filter(|f| {
                    touched
                        || (**f == "name" && !inputs.name.with(String::is_empty))
                        || (**f == "tags" && !inputs.tags.with(String::is_empty))
                })
                .map(|f| match *f {
                    "name" => "Name",
                    "tags" => "Tags",
                    "project_id" => "Project",
                    "vpc_id" => "VPC",
                    "kubernetes_version" => "Kubernetes version",
                    "autoscaling" => "Autoscaling",
                    _ => "a field",
                })
                .collect()
        });
        if inputs.with_pool.get() {
            labels.extend(inputs.pool.unsent_labels(checks.pool, touched, "Pool name"));
        }
        unsent_reason(&labels)
    }
}

/// A checked part's problem with `field`, if it has one.
fn at<T>(checked: &Result<T, FieldErrors>, field: &str) -> Option<String> {
    checked.as_ref().err().and_then(|e| e.get(field).cloned())
}

/// The cluster the first pool is priced in (id, name): one of the project's in
/// the chosen region, a ready one first, since the API prices a pool only
/// inside a cluster.
pub fn price_pool_in(inputs: Inputs, clusters: &[Cluster]) -> Signal<Option<(String, String)>> {
    let clusters: Vec<(String, String, String, bool)> = clusters
        .iter()
        .map(|c| {
            (
                c.id.clone(),
                c.name.clone(),
                c.region.clone(),
                c.status == ResourceStatus::Ready,
            )
        })
        .collect();
    Signal::derive(move || {
        let region = inputs.region.get();
        let mut in_region = clusters.iter().filter(|(_, _, r, _)| *r == region);
        let first = in_region.clone().next();
        in_region
            .find(|(_, _, _, ready)| *ready)
            .or(first)
            .map(|(id, name, _, _)| (id.clone(), name.clone()))
    })
}
