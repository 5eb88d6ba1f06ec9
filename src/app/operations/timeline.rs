//! The operations page's picture: one bar per operation of the page over the
//! last hours, coloured by status, each a link to its operation's page.
//! Overlap and duration read faster here than in rows. Laid out by
//! [`crate::rules::timeline`]; drawn as it says, in whole units.

use leptos::prelude::*;

use super::indicator::describe;
use crate::api::types::Operation;
use crate::app::components::local_time;
use crate::rules::display;
use crate::rules::operation::elapsed_secs;
use crate::rules::timeline::{layout, Bar, WIDTH};
use crate::rules::times;

/// How far back the picture reaches.
const WINDOW_MS: f64 = 6.0 * 3_600_000.0;
/// A lane's height and the gap under it, in the picture's units, which are
/// pixels in height (the picture is as tall as its lanes).
const LANE: u32 = 14;
const GAP: u32 = 4;

/// What the picture draws: each bar with its operation's id, the lanes, the
/// window's start, and how many operations are only in the table.
#[derive(Clone, PartialEq)]
struct Drawn {
    bars: Vec<(String, Bar)>,
    lanes: u32,
    start_ms: f64,
    left_out: usize,
}

/// The timeline of `ops` (those the page shows, with the tracker's newer
/// states), as of `now`; `about` gives an operation's page and the name of its
/// resource (reactively: names arrive after the operations). A bar is keyed by its operation and moves in place as time
/// passes, so focus on it stays.
#[component]
pub fn OpsTimeline<F>(ops: Memo<Vec<Operation>>, now: RwSignal<f64>, about: F) -> impl IntoView
where
    F: Fn(&Operation) -> (String, String) + Copy + Send + Sync + 'static,
{
    let drawn = Memo::new(move |_| {
        ops.with(|ops| {
            let l = layout(ops, now.get(), WINDOW_MS);
            Drawn {
                bars: l
                    .bars
                    .into_iter()
                    .map(|bar| (ops[bar.index].id.clone(), bar))
                    .collect(),
                lanes: l.lanes,
                start_ms: l.start_ms,
                left_out: l.left_out,
            }
        })
    });
    let place = move |id: &str| {
        drawn.with(|d| {
            d.bars
                .iter()
                .find(|(bar_id, _)| bar_id == id)
                .map(|(_, bar)| bar.clone())
        })
    };
    let height = move || drawn.with(|d| d.lanes * (LANE + GAP));
    let shown = move || {
        ops.with(|ops| {
            drawn.with(|d| {
                d.bars
                    .iter()
                    .filter_map(|(id, _)| ops.iter().find(|op| &op.id == id).cloned())
                    .collect::<Vec<_>>()
            })
        })
    };
    let bar = move |op: Operation| {
        let id = op.id.clone();
        let at = move |f: fn(&Bar) -> u32| {
            let id = id.clone();
            move || place(&id).map(|b| f(&b)).unwrap_or_default()
        };
        let status = op.status.as_str().to_string();
        let class = format!("bar bar-{status}");
        // Both read the names as they arrive.
        let link = {
            let op = op.clone();
            move || about(&op).0
        };
        let started =
            local_time(&op.created_at).map_or_else(|| op.created_at.clone(), |(_, text)| text);
        let label = {
            let op = op.clone();
            move || {
                let took = elapsed_secs(&op, None, now.get())
                    .map(display::elapsed)
                    .unwrap_or_default();
                let resource = about(&op).1;
                format!(
                    "{} · {status} · {took} · {resource} · started {started}",
                    describe(&op),
                )
            }
        };
        let title = label.clone();
        view! {
            <g>
                <a href=link aria-label=label>
                    <rect
                        x=at(|b| b.x)
                        y=at(|b| b.lane * (LANE + GAP))
                        width=at(|b| b.width)
                        height=LANE
                        rx="2"
                        class=class
                    >
                        <title>{title}</title>
                    </rect>
                </a>
            </g>
        }
    };
    let left_out = move || {
        drawn.with(|d| {
            (d.left_out > 0).then(|| {
                format!(
                    "{} of this page's operations ended more than 6 hours ago: they are in the table only.",
                    display::count(d.left_out)
                )
            })
        })
    };
    let since = move || {
        let start = drawn.with(|d| d.start_ms);
        times::relative(now.get() as i64, start as i64)
    };
    view! {
        <figure class="card ops-timeline">
            <figcaption>"This page's operations over time (up to 6 hours back)"</figcaption>
            <Show
                when=move || drawn.with(|d| !d.bars.is_empty())
                fallback=|| view! { <p class="empty">"None of this page's operations ran in the last 6 hours."</p> }
            >
                <svg
                    role="group"
                    aria-label="Operations over time"
                    viewBox=move || format!("0 0 {WIDTH} {}", height())
                    preserveAspectRatio="none"
                    height=height
                >
                    <For each=shown key=|op| (op.id.clone(), op.status.clone()) children=bar />
                </svg>
                <p class="ops-timeline-axis" aria-hidden="true">
                    <span>{since}</span>
                    <span>"now"</span>
                </p>
            </Show>
            {move || left_out().map(|text| view! { <p class="muted">{text}</p> })}
        </figure>
    }
}
