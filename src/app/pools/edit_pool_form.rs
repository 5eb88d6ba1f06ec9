//! "Edit pool": name, node count and tags change in place; the node configuration
//! is shown locked, because the API silently ignores it on update.

use crate::app::paths::params::{route, PoolRoute};
use crate::app::paths::to;
use crate::app::paths::A;
use leptos::prelude::*;
use nks_api::mutation::Mutation;

use super::edit_pool_state::{EditChecks, EditPlan};
use crate::api::client::Client;
use crate::api::types::{Cluster, InstanceType, Node, NodeConfig, Pool, PoolUpdate};
use crate::app::components::{described_by, tag_list, ErrorView, Field, Refusal, Submit};
use crate::app::context::{live, page_title};
use crate::app::drafts::Draft;
use crate::app::operations::follow_href;
use crate::app::plan::PlanPanel;
use crate::app::pools::scale_down_warning::ScaleDownWarning;
use crate::ops::Ops;
use crate::rules::capacity::ScaleChange;
use crate::rules::display;
use crate::rules::forms::message_for;
use crate::rules::gate::Gate;
use crate::rules::immutability::{FIXED_AT_CREATION, REPLACE_POOL_HINT};
use futures_util::future::try_join5;

type Loaded = (Cluster, Pool, Vec<Pool>, Vec<Node>, Vec<InstanceType>);

#[component]
pub fn EditPoolPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let route = route::<PoolRoute>();
    let project_id = move || route.read().project_id.clone();
    let cluster_id = move || route.read().cluster_id.clone();
    let pool_id = move || route.read().pool_id.clone();
    let loaded = LocalResource::new(move || {
        let client = client.clone();
        let (c, p) = (cluster_id(), pool_id());
        async move {
            // Five reads, none waiting for another.
            try_join5(
                client.cluster(&c),
                client.pool(&c, &p),
                client.pools(&c),
                client.nodes(&c, &p),
                client.instance_types::<InstanceType>(),
            )
            .await
        }
    });
    let pool_href = move || to::pool(&project_id(), &cluster_id(), &pool_id());
    let names = move || {
        loaded.with(|read| match read {
            Some(Ok((cluster, pool, ..))) => (pool.name.clone(), cluster.name.clone()),
            _ => Default::default(),
        })
    };
    page_title(move || {
        let (pool, cluster) = names();
        vec!["Edit pool".into(), pool, cluster]
    });
    view! {
        <section class="page">
            <p class="breadcrumb">
                <A href=pool_href>{move || format!("← {}", Some(names().0).filter(|n| !n.is_empty()).unwrap_or_else(|| "Pool".into()))}</A>
            </p>
            {move || match loaded.get() {
                None => view! { <p class="loading">"Loading pool…"</p> }.into_any(),
                Some(Err(error)) => view! { <ErrorView error retry=move |_| loaded.refetch() /> }.into_any(),
                Some(Ok(data)) => view! { <EditPoolForm data /> }.into_any(),
            }}
        </section>
    }
}

/// The edit itself: the editable fields, the locked ones, Save and the plan.
#[component]
fn EditPoolForm(data: Loaded) -> impl IntoView {
    let (cluster, pool, pools, nodes, types) = data;
    let now = Signal::stored(Some(nks_code::Resource::Pool(pool.clone())));
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let route = route::<PoolRoute>();

    let name = RwSignal::new(pool.name.clone());
    let node_count = RwSignal::new(pool.node_count.to_string());
    let tags = RwSignal::new(pool.tags.join(", "));
    let confirmed = RwSignal::new(false);
    // Back after a reconnect: what was typed comes back (a scale-down is confirmed again).
    let draft = Draft::here();
    if let Some((n, c, t)) = draft.restore::<(String, String, String)>() {
        name.set(n);
        node_count.set(c);
        tags.set(t);
    }
    draft.keep(move || (name.get(), node_count.get(), tags.get()));
    // Sent: the operation's own page follows it, opens the pool once done, and
    // leads back here, to this draft, if it fails.
    let submit = Submit::opening(
        draft,
        move |body: PoolUpdate| {
            let client = client.clone();
            let (cluster, pool) =
                route.with_untracked(|r| (r.cluster_id.clone(), r.pool_id.clone()));
            async move {
                let update = Mutation::UpdatePool {
                    cluster_id: cluster,
                    pool_id: pool,
                    body,
                };
                client.apply(&update).await
            }
        },
        move |id| {
            route.with_untracked(|r| follow_href(&r.project_id, id, Some(&r.cluster_id), None))
        },
    );
    let (server_error, gate) = (submit.refused, submit.gate);

    let checks = EditChecks::new(&pool, pools, name, node_count, tags);
    let EditChecks {
        name_error,
        tags_error,
        change,
        no_baseline,
        count_error,
        body,
        ..
    } = checks;
    let current = pool.node_count;
    let message = move |field: &'static str, local: Option<String>| {
        server_error.with(|rejected| gate.with(|g| message_for(field, local, rejected.as_ref(), g)))
    };

    let pool_id = pool.id.clone();
    let in_flight = {
        let id = pool_id.clone();
        Memo::new(move |_| ops.in_flight_on(&id))
    };
    // The pool's status as it is now, not as the form was loaded: read again when
    // an operation ends and on the refresh tick, so "updating" gives way to "ready"
    // (and Save comes back) without a reload, and nothing typed is lost.
    let status = {
        let loaded = pool.status.clone();
        let read = live(
            move || route.with(|r| (r.cluster_id.clone(), r.pool_id.clone())),
            |client, (cluster, pool)| async move { client.pool(&cluster, &pool).await },
        );
        Memo::new(move |_| {
            read.with(|r| match r {
                Some(Ok(p)) => p.status.clone(),
                _ => loaded.clone(),
            })
        })
    };
    let busy_on_server = move || status.with(|s| s.is_busy());

    let can_save = move || {
        body.with(|b| b.as_ref().is_some_and(|b| !b.is_empty()))
            && (change.get().terminated() == 0 || confirmed.get())
            && in_flight.with(Option::is_none)
            && !busy_on_server()
            && !submit.pending()
            && gate.with(Gate::allows_apply)
    };
    // Why Save is disabled when only the scale-down's acknowledgement is missing.
    let unacknowledged = move || {
        let terminated = change.get().terminated();
        (terminated > 0 && !confirmed.get() && body.with(Option::is_some)).then(|| {
            format!(
                "Save is disabled until you tick \"I understand {} will be terminated without drain\" above.",
                display::counted(terminated as usize, "node", "nodes")
            )
        })
    };
    let on_submit = submit.on_submit(move || body.get_untracked(), move || !can_save());

    // The plan: the PATCH body as it stands, the quota it adds, what it disrupts.
    let plan = EditPlan::new(checks, &cluster, &pool, types, nodes.clone());

    let autoscaling = cluster.autoscaling;
    let config = StoredValue::new(pool.node_config.clone());
    let nodes = StoredValue::new(nodes);
    let ops_href = move || route.with(|r| to::operations(&r.project_id));

    view! {
        <header class="page-header"><h1>{format!("Edit pool {}", pool.name)}</h1></header>
        <Show when=move || !submit.is_sent() fallback=|| view! {
            <p class="loading">"Sent. Opening its operation…"</p>
        }>
            <div class="with-plan">
            <form class="form card" on:submit=on_submit novalidate=true node_ref=submit.form>
                <Refusal refused=server_error refused_before=submit.refused_before fields=&["name", "node_count", "tags"] button="Save" />
                {move || in_flight.get().map(|t| view! {
                    <p class="alert alert-warning">
                        "An operation is in flight on this pool (" {t.op.op_type.as_str()} ", " {t.op.status.as_str()} "). "
                        "Saving is disabled until it ends, so no 409 is provoked. "
                        <A href=ops_href>"See the operation"</A>
                    </p>
                })}
                {move || busy_on_server().then(|| view! {
                    <p class="alert alert-warning">{format!("This pool is {} on the platform; wait for it to be ready before editing.", status.with(|s| s.as_str().to_string()))}</p>
                })}
                <h2>"Editable"</h2>
                <Field id="pool-name" label="Name" error=Signal::derive(move || message("name", name_error.get()))>
                    <input id="pool-name" aria-describedby=described_by("pool-name") prop:value=name
                        on:input=move |ev| name.set(event_target_value(&ev)) />
                </Field>
                <Field id="pool-node-count" label="Node count" hint=format!("0 to 100. Now {current}.")
                    error=Signal::derive(move || message("node_count", count_error.get()))>
                    <input id="pool-node-count" type="number" min="0" max="100" inputmode="numeric"
                        aria-describedby=described_by("pool-node-count") prop:value=node_count
                        on:input=move |ev| { node_count.set(event_target_value(&ev)); confirmed.set(false); } />
                </Field>
                <ScaleNotice change no_baseline nodes autoscaling confirmed />
                <Field id="pool-tags" label="Tags" hint="Comma-separated." error=Signal::derive(move || message("tags", tags_error.get()))>
                    <input id="pool-tags" aria-describedby=described_by("pool-tags") prop:value=tags
                        on:input=move |ev| tags.set(event_target_value(&ev)) />
                </Field>

                <FixedAtCreation config=config.get_value() pool_id=pool_id.clone() route />

                <div class="form-actions">
                    <button class="btn btn-primary" type="submit" disabled=move || !can_save()
                        aria-describedby=move || unacknowledged().map(|_| "save-why")>
                        {move || if submit.pending() { "Saving…" } else { "Save" }}
                    </button>
                    {move || body.with(|b| b.as_ref().is_some_and(PoolUpdate::is_empty)).then(|| view! { <span class="muted">"Nothing changed yet."</span> })}
                    {move || unacknowledged().map(|why| view! { <span class="field-hint" id="save-why">{why}</span> })}
                </div>
            </form>
            <PlanPanel request=plan.request region=plan.region need=plan.need disruption=plan.disruption gate now
                problems=Signal::derive(move || [name_error.get(), count_error.get(), tags_error.get()].into_iter().flatten().collect::<Vec<_>>()) />
            </div>
        </Show>
    }
}

/// What a new node count does: a scale-up's notice, or a scale-down's warning to confirm.
#[component]
fn ScaleNotice(
    change: Memo<ScaleChange>,
    no_baseline: Memo<bool>,
    nodes: StoredValue<Vec<Node>>,
    autoscaling: bool,
    confirmed: RwSignal<bool>,
) -> impl IntoView {
    move || {
        match change.get() {
            ScaleChange::Up { from, to } => view! {
                <p class="alert alert-info">{format!("Scaling up from {from} to {to}: safe, new nodes join; nothing running is touched.")}</p>
            }
            .into_any(),
            ScaleChange::Down { from, to } if !no_baseline.get() => view! {
                <ScaleDownWarning from to nodes=nodes.get_value() autoscaling confirmed />
            }
            .into_any(),
            _ => ().into_any(),
        }
    }
}

/// The node configuration, shown locked: it changes only by replacing the pool.
#[component]
fn FixedAtCreation(config: NodeConfig, pool_id: String, route: Memo<PoolRoute>) -> impl IntoView {
    let replace_href =
        move || route.with(|r| to::replacing_pool(&r.project_id, &r.cluster_id, &pool_id));
    view! {
        <h2>"Fixed at creation"</h2>
        // Said once for the section; each locked control points at it.
        <p class="muted" id="locked-why">{FIXED_AT_CREATION} " " {REPLACE_POOL_HINT}</p>
        <Field id="pool-instance-type" label="Instance type">
            <input id="pool-instance-type" disabled=true aria-describedby="locked-why" prop:value=config.instance_type.clone() />
        </Field>
        <Field id="pool-boot-size" label="Boot volume size (GB)">
            <input id="pool-boot-size" disabled=true aria-describedby="locked-why" prop:value=format!("{} GB", config.boot_volume.size) />
        </Field>
        <Field id="pool-boot-type" label="Boot volume type">
            <input id="pool-boot-type" disabled=true aria-describedby="locked-why" prop:value=config.boot_volume.volume_type.as_str().to_string() />
        </Field>
        <Field id="pool-labels" label="Labels">
            <textarea id="pool-labels" disabled=true rows="2" aria-describedby="locked-why" prop:value=config.labels.join("\n")></textarea>
        </Field>
        <div class="field">
            <span class="label" id="pool-taints-label">"Taints"</span>
            <div aria-labelledby="pool-taints-label" aria-describedby="locked-why">{tag_list(&config.taints)}</div>
        </div>
        <p><A href=replace_href attr:class="btn">"Replace pool"</A></p>
    }
}
