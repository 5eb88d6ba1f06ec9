//! The warning a manual scale-down needs before it is sent.

use leptos::prelude::*;

use crate::api::types::Node;
use crate::app::pools::drain_list::DrainCommands;
use crate::rules::capacity::{nodes_at_risk, AtRisk};

/// Says that the platform terminates nodes without cordon or drain, recommends the
/// autoscaler when the cluster has it, lists the nodes at risk with their drain
/// commands, and asks for an explicit confirmation.
#[component]
pub fn ScaleDownWarning(
    from: u32,
    to: u32,
    nodes: Vec<Node>,
    autoscaling: bool,
    confirmed: RwSignal<bool>,
) -> impl IntoView {
    let count = from.saturating_sub(to);
    let at_risk = nodes_at_risk(&nodes, count);
    let names: Vec<String> = at_risk.nodes().iter().map(|n| n.name.clone()).collect();
    // Only what is known is said: the exact nodes, or every node that could go.
    let which = match &at_risk {
        AtRisk::Known(_) => {
            "The platform terminates the newest nodes: these go. Drain them first:".to_string()
        }
        AtRisk::Among { count, candidates } => format!(
            "The platform terminates the newest nodes, and these {} are equally new (or their creation times are unknown): it chooses {count} of them. Any of them could go; drain them all first:",
            candidates.len()
        ),
    };
    let plural = if count == 1 { "node" } else { "nodes" };
    view! {
        <section class="alert alert-warning scale-down" aria-labelledby="scale-down-title">
            <h3 id="scale-down-title">{format!("Scaling down terminates {count} {plural} without draining")}</h3>
            <p>
                "Lowering the node count makes the platform terminate nodes without cordon, drain, "
                "PodDisruptionBudgets or volume detach: anything running on them is killed abruptly."
            </p>
            {autoscaling.then(|| view! {
                <p><strong>"This cluster has autoscaling on."</strong>
                " Prefer leaving scale-down to the autoscaler: it cordons and drains nodes gracefully before removing them."</p>
            })}
            <p>{which}</p>
            <ul class="at-risk" aria-label="Nodes at risk">
                {names.into_iter().map(|n| view! { <li><code>{n}</code></li> }).collect_view()}
            </ul>
            <DrainCommands nodes=at_risk.nodes().to_vec() />
            <div class="field field-inline">
                <input id="confirm-scale-down" type="checkbox" prop:checked=confirmed
                    on:change=move |ev| confirmed.set(event_target_checked(&ev)) />
                <label for="confirm-scale-down">{format!("I understand {count} {plural} will be terminated without drain")}</label>
            </div>
        </section>
    }
}
