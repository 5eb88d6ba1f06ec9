//! The warning a manual scale-down needs before it is sent.

use leptos::prelude::*;

use crate::api::types::Node;
use crate::app::pools::drain_list::DrainCommands;
use crate::rules::capacity::nodes_at_risk;

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
    let names: Vec<String> = at_risk.iter().map(|n| n.name.clone()).collect();
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
            <p>"The platform picks which nodes go. The newest are the most likely; drain them first:"</p>
            <ul class="at-risk" aria-label="Nodes at risk">
                {names.into_iter().map(|n| view! { <li><code>{n}</code></li> }).collect_view()}
            </ul>
            <DrainCommands nodes=at_risk />
            <div class="field field-inline">
                <input id="confirm-scale-down" type="checkbox" prop:checked=confirmed
                    on:change=move |ev| confirmed.set(event_target_checked(&ev)) />
                <label for="confirm-scale-down">{format!("I understand {count} {plural} will be terminated without drain")}</label>
            </div>
        </section>
    }
}
