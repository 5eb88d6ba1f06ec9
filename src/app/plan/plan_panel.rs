use leptos::prelude::*;
use leptos_use_signal_debounce_throttle::signal_debounced;

use super::ask::{make_plan, Cost, PoolPriced, PriceFirstPool, VpcPlanned};
use crate::api::client::Client;
use crate::api::types::{BillingSummary, DimensionDelta, PoolCreate, Quota, UsageDimension};
use crate::app::code::CodePanel;
use crate::app::components::{Column, Keyed, Table};
use crate::rules::as_code::change_of;
use crate::rules::forms::{by_position, said};
use crate::rules::gate::Gate;
use crate::rules::money;
use crate::rules::outcome::ApiError;
use crate::rules::plan::{headline, new_vpc_gate, quota_lines, PlanRequest, QuotaNeed};
use nks_code::Resource;

/// Wait this long after the last keystroke before asking the platform.
const DEBOUNCE_MS: f64 = 350.0;

/// Asks the platform, as the form changes (debounced; a stale request is dropped and
/// its fetch aborted), whether the change can be done and what it costs, and shows
/// that with the quota and the disruption. Writes the verdict for Apply to `gate`.
/// A failing or slow check never blocks editing.
#[component]
pub fn PlanPanel(
    /// Exactly the body Apply would send; `None` while the form is incomplete.
    #[prop(into)]
    request: Signal<Option<PlanRequest>>,
    /// The region whose quota applies (empty: no quota check).
    #[prop(into)]
    region: Signal<String>,
    /// What the change adds to the NKS pool quota.
    #[prop(into)]
    need: Signal<QuotaNeed>,
    /// What the change disrupts, in sentences.
    #[prop(into)]
    disruption: Signal<Vec<String>>,
    gate: RwSignal<Gate>,
    /// A pool sent once the cluster the request creates is made (Create cluster's
    /// first pool); its quota need is in `need`.
    #[prop(optional, into)]
    first_pool: Signal<Option<PoolCreate>>,
    /// A cluster of the same project and region (id, name) to price the first
    /// pool in: the API prices a pool only inside a cluster.
    #[prop(optional, into)]
    price_pool_in: Signal<Option<(String, String)>>,
    /// What an edit changes, as read: the code panel's Terraform writes it whole.
    #[prop(optional, into)]
    now: Signal<Option<Resource>>,
    /// What is wrong with the fields while `request` is `None` (for the Code panel).
    #[prop(optional, into)]
    problems: Signal<Vec<String>>,
) -> impl IntoView {
    let client = expect_context::<Client>();
    // What to ask about: the form's body (and a first pool to price), once it
    // has stopped changing.
    let price_pool = move || {
        let (cluster_id, cluster_name) = price_pool_in.get()?;
        first_pool.get().map(|pool| PriceFirstPool {
            cluster_id,
            cluster_name,
            pool,
        })
    };
    let asked = Signal::derive(move || (request.get(), price_pool()));
    let settled = signal_debounced(asked, DEBOUNCE_MS);
    let planned = LocalResource::new(move || {
        let client = client.clone();
        let (req, pool) = settled.get();
        let region = region.get_untracked();
        async move {
            match req {
                Some(req) => Some((make_plan(client, req, region, pool.clone()).await, pool)),
                None => None,
            }
        }
    });
    // The answer for what is on screen decides the gate; older answers are ignored.
    let current = Memo::new(move |_| {
        let (plan, pool) = planned.get().flatten()?;
        (request.with(|r| r.as_ref() == Some(&plan.request)) && pool == price_pool())
            .then_some(plan)
    });
    let new_vpc_name = move || current.with(|p| p.as_ref()?.vpc.as_ref().map(|v| v.name.clone()));
    // One place decides the gate, so a change and its answer cannot race:
    // the answer when it is for the body on screen, else "checking" while there
    // is a body to check.
    Effect::new(move |_| {
        gate.set(match current.get() {
            Some(plan) => plan.gate(),
            None if request.with(Option::is_some) => Gate::Checking,
            None => Gate::Idle,
        });
    });

    view! {
        <aside class="plan card" aria-label="Plan">
            <h2>"Plan"</h2>
            {move || match gate.get() {
                Gate::Idle => view! { <p class="muted">"Complete the form to check and price the change."</p> }.into_any(),
                Gate::Checking => view! { <p class="plan-status" role="status">"Checking with the platform…"</p> }.into_any(),
                Gate::Passed => match new_vpc_name() {
                    Some(name) => view! {
                        <p class="plan-status plan-ok" role="status">
                            "Availability: VPC " {name} " can be made; the cluster is checked when it is sent, once the VPC exists."
                        </p>
                    }.into_any(),
                    None => view! { <p class="plan-status plan-ok" role="status">"Availability: can be done."</p> }.into_any(),
                },
                Gate::Refused { reason, .. } => view! {
                    <p class="plan-status plan-refused" role="alert">"Availability: cannot be done. " {said(&reason, &by_position)}</p>
                }.into_any(),
                Gate::Unverified { why } => view! {
                    <p class="plan-status plan-unverified" role="status">
                        "Availability could not be checked; Apply is still possible. " {why}
                    </p>
                }.into_any(),
            }}
            {move || current.get().map(|plan| {
                let pool = first_pool.get();
                let whole = whole_total(&plan, pool.is_some());
                view! {
                    {whole.map(|(words, total)| view! { <p class="plan-total">{words} " " <strong>{total}</strong></p> })}
                    {match plan.vpc {
                        Some(vpc) => new_vpc_view(vpc, plan.cost).into_any(),
                        None => cost_view(plan.cost, "Cost", false),
                    }}
                    {pool.map(|pool| first_pool_view(pool, plan.first_pool))}
                    {plan.quota.map(|q| quota_view(q, need.get()))}
                }
            })}
            {move || {
                let items = disruption.get();
                (!items.is_empty()).then(|| view! {
                    <h3>"Disruption"</h3>
                    <ul class="plan-disruption">{items.into_iter().map(|d| view! { <li>{d}</li> }).collect_view()}</ul>
                })
            }}
            <CodePanel change=Signal::derive(move || {
                request.get().map(|r| change_of(&r, first_pool.get().as_ref(), now.get()))
            }) problems />
        </aside>
    }
}

/// The whole request's monthly total, above its parts (a new VPC, the cluster,
/// the first pool), when it has more than one: the exact sum of their totals.
fn whole_total(plan: &super::ask::Planned, with_pool: bool) -> Option<(String, String)> {
    let Ok(Cost::Create(cluster)) = &plan.cost else {
        return None;
    };
    let currency = &cluster.currency;
    fn same<'a>(q: &'a crate::api::types::CostQuote, currency: &str) -> Option<&'a str> {
        (q.currency == currency).then_some(q.monthly_total.as_str())
    }
    let same = |q| same(q, currency);
    let vpc = plan
        .vpc
        .as_ref()
        .map(|v| v.cost.as_ref().ok().and_then(same));
    let pool = with_pool.then(|| {
        plan.first_pool
            .as_ref()
            .and_then(|p| p.cost.as_ref().ok().and_then(same))
    });
    let (words, sum) = headline(vpc, Some(&cluster.monthly_total), pool)?;
    Some((words, money::format(&sum, currency)))
}

/// A new VPC and the cluster to go in it: each part's availability and cost.
fn new_vpc_view(vpc: VpcPlanned, cluster_cost: Result<Cost, ApiError>) -> impl IntoView {
    let availability = match vpc.availability {
        Ok(()) => view! { <p class="plan-ok">"Availability: can be made."</p> }.into_any(),
        Err(error) => match new_vpc_gate(&Err(error), &vpc.name) {
            // The reason is the plan's own line above: said once.
            Gate::Refused { .. } => {
                view! { <p class="plan-refused">"Availability: cannot be made."</p> }.into_any()
            }
            Gate::Unverified { .. } => {
                view! { <p class="plan-unverified">"Availability could not be checked."</p> }
                    .into_any()
            }
            _ => ().into_any(),
        },
    };
    let vpc_cost = vpc.cost.map(Cost::Create);
    view! {
        <section class="plan-part" aria-label="New VPC">
            <h3>"New VPC " {vpc.name.clone()}</h3>
            {availability}
            {cost_view(vpc_cost, "VPC cost", true)}
        </section>
        <section class="plan-part" aria-label="Cluster">
            <h3>"Cluster"</h3>
            <p class="muted">"Availability: checked by the platform when the cluster is sent, after the VPC is made."</p>
            {cost_view(cluster_cost, "Cluster cost", true)}
        </section>
    }
}

/// The pool sent once the new cluster is made: its shape, and its price as a
/// pool of another cluster of the project and region (the API quotes a pool
/// only inside an existing cluster), or why it has none.
fn first_pool_view(pool: PoolCreate, priced: Option<PoolPriced>) -> impl IntoView {
    let config = pool.node_config;
    let price = match priced {
        Some(PoolPriced { via, cost: Ok(q) }) => view! {
            <p class="muted">
                "Priced by the API as a pool of cluster " {via} ", in the same region: it prices a pool only inside an existing cluster. "
                "Availability is asked when the pool is sent, once the cluster is made. Its vCPU and memory count in the quota below."
            </p>
            {cost_view(Ok(Cost::Create(q)), "First pool cost", true)}
        }
        .into_any(),
        Some(PoolPriced { cost: Err(error), .. }) => view! {
            <p class="plan-status plan-unverified">"First pool cost unavailable: " {error.explain()}</p>
        }
        .into_any(),
        None => view! {
            <p class="muted">
                "Availability and cost: the API checks and prices a pool only inside an existing cluster, "
                "and this project has none in this region yet, so they are asked when the pool is sent, once the cluster is made. Its vCPU and memory count in the quota below."
            </p>
        }
        .into_any(),
    };
    view! {
        <section class="plan-part" aria-label="First pool">
            <h3>"First pool " {pool.name}</h3>
            <p>
                {pool.node_count} {if pool.node_count == 1 { " node of " } else { " nodes of " }}
                {config.instance_type} ", " {config.boot_volume.size} " GB "
                {config.boot_volume.volume_type.as_str().to_string()} " boot volume each"
            </p>
            {price}
        </section>
    }
}

/// A quote under its heading (`title`, also the table's name). A `nested` quote
/// is one part of a larger change: a lower heading, and no organisation billing
/// line (that line is the whole change's, which one part's quote cannot give).
fn cost_view(cost: Result<Cost, ApiError>, title: &'static str, nested: bool) -> AnyView {
    match cost {
        Err(error) => view! {
            <p class="plan-status plan-unverified">{title} " unavailable: " {error.explain()}</p>
        }
        .into_any(),
        Ok(Cost::Create(q)) => {
            let c = q.currency.clone();
            view! {
                {if nested { view! { <h4>{title}</h4> }.into_any() } else { view! { <h3>{title}</h3> }.into_any() }}
                <p class="plan-total">"Monthly total: " <strong>{money::format(&q.monthly_total, &c)}</strong></p>
                {quote_table(title, q.usage_dimensions, &c)}
                {(!nested).then(|| billing_view(q.current_summary, q.updated_summary, &c))}
            }.into_any()
        }
        Ok(Cost::Update(q)) => {
            let c = q.currency.clone();
            view! {
                <h3>"Cost"</h3>
                <p class="plan-total">
                    "Monthly: " {money::format(&q.before.monthly_total, &c)} " → "
                    <strong>{money::format(&q.after.monthly_total, &c)}</strong>
                    " (" {money::format_delta(&q.diff.monthly_total_delta, &c)} ")"
                </p>
                {(!q.diff.usage_dimensions.is_empty()).then(|| change_table(q.diff.usage_dimensions, &c))}
                {billing_view(q.current_summary, q.updated_summary, &c)}
            }.into_any()
        }
    }
}

/// A quote's rows, one a dimension, as a table named `title`.
fn quote_table(title: &'static str, rows: Vec<UsageDimension>, currency: &str) -> impl IntoView {
    type Row = Keyed<String, UsageDimension>;
    let rows = Keyed::all(rows, |d| d.dimension.clone());
    let (unit, monthly) = (currency.to_string(), currency.to_string());
    let columns = vec![
        Column::new("Dimension", |d: &Row| {
            d.dimension_display_name.clone().into_any()
        }),
        Column::new("Quantity", |d: &Row| d.quantity.into_any()),
        Column::new("Unit price", move |d: &Row| {
            money::format(&d.unit_price, &unit).into_any()
        }),
        Column::new("Monthly", move |d: &Row| {
            money::format(&d.monthly_amount, &monthly).into_any()
        }),
    ];
    view! { <Table label=title rows columns class="table plan-rows" /> }
}

/// An update's rows, one a dimension: before → after, and the monthly change.
fn change_table(rows: Vec<DimensionDelta>, currency: &str) -> impl IntoView {
    type Row = Keyed<String, DimensionDelta>;
    let rows = Keyed::all(rows, |d| d.dimension.clone());
    let (monthly, change) = (currency.to_string(), currency.to_string());
    let columns = vec![
        Column::new("Dimension", |d: &Row| d.dimension_display_name.clone().into_any()),
        Column::new("Quantity", |d: &Row| {
            view! { <span class="amount">{d.before.quantity}</span>" → "<span class="amount">{d.after.quantity}</span> }
                .into_any()
        })
        .class("change"),
        Column::new("Monthly", move |d: &Row| {
            view! {
                <span class="amount">{money::format(&d.before.monthly_amount, &monthly)}</span>" → "
                <span class="amount">{money::format(&d.after.monthly_amount, &monthly)}</span>
            }
            .into_any()
        })
        .class("change"),
        Column::new("Change", move |d: &Row| {
            money::format_delta(&d.monthly_amount_delta, &change).into_any()
        }),
    ];
    view! { <Table label="Cost change" rows columns class="table plan-rows" /> }
}

/// The organisation's billing now and after, when the quote carries it.
fn billing_view(
    current: Option<BillingSummary>,
    updated: Option<BillingSummary>,
    currency: &str,
) -> Option<AnyView> {
    let (now, after) = (current?, updated?);
    let c = currency.to_string();
    Some(
        view! {
            <p class="plan-billing">
                "Organisation: " {money::format(&now.monthly_cost, &c)} " a month now → "
                {money::format(&after.monthly_cost, &c)} " after; daily "
                {money::format(&now.daily_cost, &c)} " → " {money::format(&after.daily_cost, &c)}
            </p>
        }
        .into_any(),
    )
}

fn quota_view(quota: Result<Quota, ApiError>, need: QuotaNeed) -> AnyView {
    match quota {
        Err(error) => {
            view! { <p class="muted">"Quota unavailable: " {error.explain()}</p> }.into_any()
        }
        Ok(q) => {
            let lines = quota_lines(&q, need);
            view! {
                <h3>"Quota"</h3>
                <ul class="plan-quota" aria-label="Quota">
                    {lines.into_iter().map(|l| {
                        let fits = l.fits();
                        let text = l.text();
                        view! { <li class:quota-over=!fits>{text}{(!fits).then_some(" — exceeds the quota")}</li> }
                    }).collect_view()}
                </ul>
            }.into_any()
        }
    }
}
