//! A new pool's taints: one row per taint, each with its own problem, and what
//! the API said about the taints as a whole.

use leptos::prelude::*;

use super::pool_inputs::PoolInputs;
use crate::app::components::focus_once_drawn;
use crate::rules::forms::{api_message_about, said, taint_row_errors, taint_row_of};
use crate::rules::gate::Gate;
use crate::rules::outcome::ApiError;
use crate::rules::validation::TAINT_EFFECTS;

/// The taints fieldset of a new pool's fields: rows to add, change and remove.
#[component]
pub(super) fn PoolTaints(
    inputs: PoolInputs,
    /// The pool create's rejection.
    rejected: RwSignal<Option<ApiError>>,
    /// The plan's verdict on the pool.
    gate: Signal<Gate>,
) -> impl IntoView {
    let taints = inputs.taints;
    let taints_el = NodeRef::<leptos::html::Fieldset>::new();
    let entry = move |field: &str, index: usize| inputs.entry(field, index);
    // Each taint row's problem, in its row: the local check, else the API's
    // message naming the entry sent from this row.
    let row_error = move |id: usize| {
        let rows = taints.get();
        let position = rows.iter().position(|r| r.id == id)?;
        let typed: Vec<(String, String, String)> = rows
            .iter()
            .map(|r| (r.key.get(), r.value.get(), r.effect.get()))
            .collect();
        taint_row_errors(&typed).swap_remove(position).or_else(|| {
            rejected.with(|rejected| {
                gate.with(|g| {
                    api_message_about("node_config.taints", rejected.as_ref(), g)
                        .filter(|(_, index)| {
                            index.and_then(|i| taint_row_of(&typed, i)) == Some(position)
                        })
                        .map(|(message, _)| said(message, &entry))
                })
            })
        })
    };
    // What the API said about the taints as a whole (no row named).
    let taints_error = move || {
        rejected.with(|rejected| {
            gate.with(|g| {
                api_message_about("node_config.taints", rejected.as_ref(), g)
                    .filter(|(_, index)| index.is_none())
                    .map(|(message, _)| said(message, &entry))
            })
        })
    };
    view! {
        <fieldset class="field taints" node_ref=taints_el>
            <legend>"Taints"</legend>
            <For each=move || taints.get() key=|row| row.id let:row>
                {
                    let number = move || taints.with(|rows| rows.iter().position(|r| r.id == row.id).map_or(0, |p| p + 1));
                    let error = Memo::new(move |_| row_error(row.id));
                    let error_id = format!("taint-{}-error", row.id);
                    let described = error_id.clone();
                    view! {
                        <div class="taint-row" role="group" aria-label=move || format!("Taint {}", number())
                            class:field-invalid=move || error.with(Option::is_some)>
                            <label>"Key" <input prop:value=row.key aria-describedby=described.clone()
                                on:input=move |ev| row.key.set(event_target_value(&ev)) /></label>
                            <label>"Value" <input prop:value=row.value aria-describedby=described.clone()
                                on:input=move |ev| row.value.set(event_target_value(&ev)) /></label>
                            <label>"Effect"
                                <select prop:value=row.effect aria-describedby=described.clone() on:change=move |ev| row.effect.set(event_target_value(&ev))>
                                    {TAINT_EFFECTS.iter().map(|e| view! { <option value=*e selected=move || row.effect.get() == *e>{*e}</option> }).collect_view()}
                                </select>
                            </label>
                            <button type="button" class="btn btn-quiet" aria-label=move || format!("Remove taint {}", number())
                                on:click=move |_| taints.update(|rows| rows.retain(|r| r.id != row.id))>
                                "Remove taint"
                            </button>
                            {move || error.get().map(|e| view! { <p class="field-error" id=error_id.clone() role="alert">{e}</p> })}
                        </div>
                    }
                }
            </For>
            <button type="button" class="btn" on:click=move |_| {
                inputs.add_taint("", "", "NoSchedule");
                focus_once_drawn(taints_el, ".taint-row:last-of-type input");
            }>"Add taint"</button>
            {move || taints_error().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
        </fieldset>
    }
}
