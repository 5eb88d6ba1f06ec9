//! The cluster's first pool on Create cluster: on by default, removable, with
//! Create pool's fields and checks.

use leptos::prelude::*;

use super::state::State;
use crate::api::types::InstanceType;
use crate::app::pools::PoolFields;
use crate::rules::gate::Gate;
use crate::rules::outcome::ApiError;

#[component]
pub fn FirstPool(
    state: State,
    instance_types: LocalResource<Result<Vec<InstanceType>, ApiError>>,
) -> impl IntoView {
    let inputs = state.inputs;
    let with_pool = inputs.with_pool;
    let autoscaling = Signal::derive(move || inputs.autoscaling.get());
    view! {
        <Show when=move || with_pool.get() fallback=move || view! {
            <section class="field first-pool" aria-labelledby="first-pool-off">
                <h2 class="section-title" id="first-pool-off">"First pool"</h2>
                <p class="alert alert-warning" role="status">
                    "No pool: without a worker node the new cluster never finishes provisioning, and CoreDNS has nowhere to run. "
                    "Add a first pool here, or create one on the cluster's page as soon as the cluster is made."
                </p>
                <button type="button" class="btn" on:click=move |_| with_pool.set(true)>"Add a first pool"</button>
            </section>
        }>
            <fieldset class="field first-pool" aria-describedby="first-pool-hint">
                <legend>"First pool"</legend>
                <p class="field-hint" id="first-pool-hint">
                    "A new cluster never finishes provisioning without a worker node: this pool gives it one (1 node or more). "
                    "It is created as soon as the cluster's operation is done, with the same fields as Create pool."
                </p>
                <PoolFields inputs=inputs.pool checked=state.checks.pool rejected=state.refused.pool gate=Signal::stored(Gate::Idle)
                    touched=inputs.touched instance_types autoscaling name_label="Pool name" tags_label="Pool tags" />
                <button type="button" class="btn btn-quiet" on:click=move |_| with_pool.set(false)>"Remove first pool"</button>
            </fieldset>
        </Show>
    }
}
