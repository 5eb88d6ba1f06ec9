//! The pool page's "Size history": the pool's node count over time as a small
//! step chart, a legend, and the same steps as a list. Rebuilt by
//! [`crate::rules::size_history`] from the pool's operations and the deletes
//! of nodes this page has seen in the pool; drawn in whole units as it says.

use leptos::prelude::*;

use crate::api::types::Operation;
use crate::app::components::{local_time, ErrorView, Time};
use crate::app::context::after_ops;
use crate::app::pools::kept_deletes::KeptDeletes;
use crate::rules::display;
use crate::rules::size_history::{
    chart, percent, rebuild, signed, Aside, Cause, History, Step, HEIGHT,
};

/// What the history is rebuilt for: the pool as last read.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolRead {
    pub project_id: String,
    pub pool_id: String,
    pub created_at: String,
    pub node_count: i64,
    pub status: String,
    pub updated_at: String,
}

const GAP_DOWN: &str =
    "nodes removed outside this pool's operations (the API does not name a node delete's pool)";
const GAP_UP: &str = "nodes added outside this pool's operations";

/// The section. `pool` is the pool as the page last read it (its operations
/// are read again when it reads differently, and when an operation ends);
/// `nodes` the ids of the nodes the page reads in it now. Every node the page
/// has seen in the pool is kept while it is open, and `kept` holds the nodes
/// this browser deleted from it: a delete of one of them is this pool's, even
/// after the node is gone.
#[component]
pub fn SizeHistory(
    pool: Memo<Option<PoolRead>>,
    nodes: Signal<Vec<String>>,
    kept: KeptDeletes,
) -> impl IntoView {
    let pool_id = Memo::new(move |_| pool.with(|p| p.as_ref().map(|p| p.pool_id.clone())));
    // The nodes seen in the pool, with the pool they were seen in.
    let known = RwSignal::new((None::<String>, Vec::<String>::new()));
    Effect::new(move |_| {
        let pool = pool_id.get();
        let ids = nodes.get();
        known.update(|(seen_in, k)| {
            // A pool being read again (None) is still the same pool.
            if pool.is_some() && *seen_in != pool {
                *seen_in = pool;
                k.clear();
            }
            for id in ids {
                if !k.contains(&id) {
                    k.push(id);
                }
            }
        });
    });
    let read = after_ops(
        move || pool.get(),
        |client, pool| async move {
            let Some(p) = pool else {
                return Ok(None);
            };
            // The pool's own operations, and node deletes (they name the node,
            // not the pool) since the pool's create, of which only the deletes
            // of its known nodes count: two reads, neither waiting for the other.
            let own_query = [
                ("resource_id", p.pool_id.clone()),
                ("sort", "created_at:desc".into()),
            ];
            let deletes_query = [
                ("kind", "nks_node".into()),
                ("type", "delete".into()),
                ("created_at_min", p.created_at.clone()),
                ("sort", "created_at:desc".into()),
            ];
            let (own, deletes) = futures_util::future::try_join(
                client.operations::<Operation>(&p.project_id, &own_query),
                client.operations::<Operation>(&p.project_id, &deletes_query),
            )
            .await?;
            Ok::<_, crate::rules::outcome::ApiError>(Some((p, own, deletes)))
        },
    );
    let history = move || {
        read.get().map(|result| {
            result.map(|read| {
                read.map(|(p, own, deletes)| {
                    let all: Vec<Operation> = own.into_iter().chain(deletes).collect();
                    let mut known = known.get();
                    known.1.extend(kept.nodes_of(&p.pool_id));
                    rebuild(
                        &p.pool_id,
                        &p.created_at,
                        p.node_count,
                        &p.updated_at,
                        &all,
                        &known.1,
                    )
                })
            })
        })
    };
    view! {
        <section class="size-history" aria-labelledby="size-history-heading">
            <h2 id="size-history-heading">"Size history"</h2>
            <Transition fallback=|| view! { <p class="loading">"Loading the size history…"</p> }>
                {move || history().map(|result| match result {
                    Err(error) => view! { <ErrorView error retry=move |_| read.refetch() /> }.into_any(),
                    // No pool read (yet, or it failed, which the page shows above).
                    Ok(None) => view! { <p class="muted">"Shown once the pool is read."</p> }.into_any(),
                    Ok(Some(h)) => view! { <HistoryView history=h /> }.into_any(),
                })}
            </Transition>
        </section>
    }
}

#[component]
fn HistoryView(history: History) -> impl IntoView {
    let now = js_sys::Date::now();
    let drawn = chart(&history, now);
    let created_at = history.steps.first().and_then(|s| s.at.clone());
    let markers = drawn
        .markers
        .iter()
        .map(|m| {
            let step = &history.steps[m.index];
            let label = describe(step);
            let name = label.clone();
            view! {
                <svg x=inset(m.x) y=m.y overflow="visible" role="img" aria-label=name>
                    <title>{label}</title>
                    {shape(step.cause)}
                </svg>
            }
        })
        .collect_view();
    let lines = drawn
        .segments
        .iter()
        .map(|s| {
            view! {
                <line
                    x1=inset(s.x1)
                    y1=s.y1
                    x2=inset(s.x2)
                    y2=s.y2
                    stroke="currentColor"
                    stroke-width="2"
                    stroke-dasharray=s.dashed.then_some("5 4")
                    stroke-opacity=if s.dashed { "0.55" } else { "1" }
                />
            }
        })
        .collect_view();
    let levels = drawn
        .levels
        .iter()
        .map(|&(count, x, y)| {
            view! {
                <text x=inset(x) y=y - 8 dx="6" font-size="12" fill="currentColor">
                    {count.to_string()}
                </text>
            }
        })
        .collect_view();
    let unchanged = history.unchanged();
    let steps = history.steps.clone();
    let aside = history.aside.clone();
    let left_out = history.unreadable;
    view! {
        <figure class="card">
            <figcaption class="visually-hidden">"The pool's node count over time"</figcaption>
            <svg
                role="group"
                aria-label="Node count over time"
                width="100%"
                height=HEIGHT
                overflow="visible"
            >
                <g aria-hidden="true">{lines}{levels}</g>
                {markers}
            </svg>
            <p class="ops-timeline-axis" aria-hidden="true">
                <span>{created_at.map(|at| view! { <Time at /> })}</span>
                <span>"now"</span>
            </p>
            <ul class="chips legend" aria-label="Legend">
                {[Cause::ScaleUp, Cause::ManualScaleDown, Cause::AutoscalerDrain, Cause::Unattributed]
                    .into_iter()
                    .map(|cause| view! {
                        <li class="chip">
                            <svg width="16" height="14" aria-hidden="true">
                                <svg x="7" y="7" overflow="visible">{shape(cause)}</svg>
                            </svg>
                            {cause.label()}
                        </li>
                    })
                    .collect_view()}
            </ul>
        </figure>
        {unchanged.then(|| view! { <p class="muted">"No size changes since it was created."</p> })}
        <ol class="size-steps" aria-label="Size changes">
            {steps.into_iter().map(|step| view! { <StepItem step changed=!unchanged /> }).collect_view()}
            {aside.into_iter().map(|a| view! { <AsideItem aside=a /> }).collect_view()}
        </ol>
        {(left_out > 0).then(|| view! {
            <p class="muted">{format!(
                "{} with an unreadable time {} left out.",
                display::counted(left_out, "size change", "size changes"),
                if left_out == 1 { "is" } else { "are" }
            )}</p>
        })}
    }
}

/// A marker's shape, centred on (0, 0): the kind reads from its shape as well
/// as its colour.
fn shape(cause: Cause) -> AnyView {
    match cause {
        Cause::Create => view! {
            <circle r="5" fill="var(--color-idle)" />
        }
        .into_any(),
        Cause::ScaleUp => view! {
            <polygon points="0,-7 7,5 -7,5" fill="var(--color-ok)" />
        }
        .into_any(),
        Cause::ManualScaleDown | Cause::NodeDelete => view! {
            <rect x="-5" y="-5" width="10" height="10" fill="var(--color-bad)" />
        }
        .into_any(),
        Cause::AutoscalerDrain => view! {
            <polygon points="0,-7 7,0 0,7 -7,0" fill="var(--color-busy)" />
        }
        .into_any(),
        Cause::Unattributed => view! {
            <circle r="5" stroke-width="2" stroke-dasharray="2 2" fill="none" stroke="currentColor" />
        }
        .into_any(),
    }
}

/// A place on the chart, kept 2% in from either edge so the markers at its
/// ends are whole. (No style attributes: the page's CSP refuses them.)
fn inset(units: u32) -> String {
    percent(20 + units * 96 / 100)
}

fn when(at: &str) -> String {
    local_time(at).map_or_else(|| at.to_string(), |(_, text)| text)
}

/// A step in words, for its marker's name.
fn describe(step: &Step) -> String {
    let counts = format!("{} → {}", step.from, step.to);
    match step.cause {
        Cause::Create => format!(
            "Created{}",
            step.at
                .as_deref()
                .map(|at| format!(", {}", when(at)))
                .unwrap_or_default()
        ),
        Cause::Unattributed => format!(
            "Unattributed change: {} between {} and {}",
            signed(step.from, step.to),
            step.since
                .as_deref()
                .map(when)
                .unwrap_or_else(|| "its create".into()),
            step.at.as_deref().map(when).unwrap_or_else(|| "now".into()),
        ),
        cause => {
            let label = cause.title();
            format!(
                "{label}: {counts}{}{}",
                step.at
                    .as_deref()
                    .map(|at| format!(", {}", when(at)))
                    .unwrap_or_default(),
                status_note(step)
            )
        }
    }
}

fn status_note(step: &Step) -> String {
    if step.failed {
        format!(" (failed, yet the pool reads {} since)", step.to)
    } else if step.in_flight {
        " (in progress)".into()
    } else {
        String::new()
    }
}

#[component]
fn StepItem(step: Step, changed: bool) -> impl IntoView {
    let counts = format!("{} → {}", step.from, step.to);
    match step.cause {
        Cause::Create => {
            // The create operation records no count.
            let what = if changed {
                format!(
                    " · created (its first count is not recorded; the first recorded change started from {})",
                    step.to
                )
            } else {
                format!(
                    " · created; {} now",
                    display::counted(step.to.max(0) as usize, "node", "nodes")
                )
            };
            view! {
                <li>
                    {step.at.map(|at| view! { <Time at /> })}
                    {what}
                </li>
            }
            .into_any()
        }
        Cause::Unattributed => {
            let what = if step.to < step.from {
                GAP_DOWN
            } else {
                GAP_UP
            };
            view! {
                <li>
                    "between "
                    {step.since.map(|at| view! { <Time at /> })}
                    " and "
                    {match step.at {
                        Some(at) => view! { <Time at /> }.into_any(),
                        None => "now".into_any(),
                    }}
                    {format!(" · {counts} · {}: {what}", signed(step.from, step.to))}
                </li>
            }
            .into_any()
        }
        cause => {
            let note = status_note(&step);
            let node = step
                .node_id
                .map(|id| format!(" (node {id})"))
                .unwrap_or_default();
            view! {
                <li>
                    {step.at.map(|at| view! { <Time at /> })}
                    {format!(" · {counts} · {}{node}{note}", cause.label())}
                </li>
            }
            .into_any()
        }
    }
}

#[component]
fn AsideItem(aside: Aside) -> impl IntoView {
    let what = if aside.failed {
        "failed, no change"
    } else {
        "in progress: the count drops when it ends"
    };
    view! {
        <li>
            <Time at=aside.at />
            {format!(" · {} → {} · {}: {what}", aside.from, aside.to, aside.cause.label())}
        </li>
    }
}
