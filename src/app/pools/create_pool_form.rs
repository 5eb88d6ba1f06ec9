//! "Create pool", and "Replace pool": the same form pre-filled with an existing
//! pool's shape, because a pool's node configuration can only change by replacing it.

use crate::app::paths::A;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};
use leptos_router::NavigateOptions;

use crate::api::client::Client;
use crate::api::types::{InstanceType, Pool};
use crate::app::components::{
    described_by, focus_first_error, follow_submission, CreateCheck, ErrorView, Field,
    UncertainCreate,
};
use crate::app::drafts::Draft;
use crate::app::operations::operation_href;
use crate::app::plan::PlanPanel;
use crate::app::shell::page_title;
use crate::rules::forms::{
    api_message_about, label_line_of, message_for_entries, pool_create, said, taint_row_errors,
    taint_row_of, unplaced, unsent_reason, FieldErrors, PoolForm,
};
use crate::rules::outcome::ApiError;
use crate::rules::plan::{Gate, PlanRequest, QuotaNeed};
use crate::rules::validation::TAINT_EFFECTS;

#[derive(Clone, Copy)]
struct TaintRow {
    id: usize,
    key: RwSignal<String>,
    value: RwSignal<String>,
    effect: RwSignal<String>,
}

impl TaintRow {
    fn new(id: usize, key: &str, value: &str, effect: &str) -> Self {
        TaintRow {
            id,
            key: RwSignal::new(key.to_string()),
            value: RwSignal::new(value.to_string()),
            effect: RwSignal::new(effect.to_string()),
        }
    }
}

#[component]
pub fn CreatePoolPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let params = use_params_map();
    let query = use_query_map();
    let project_id = move || params.read().get("project_id").unwrap_or_default();
    let cluster_id = move || params.read().get("cluster_id").unwrap_or_default();
    let replacing = move || query.read().get("replace").filter(|r| !r.is_empty());
    let cluster_href = move || format!("/projects/{}/clusters/{}", project_id(), cluster_id());

    // Everything typed lives in these signals: nothing is lost on a rejection.
    let name = RwSignal::new(String::new());
    let instance_type = RwSignal::new(String::new());
    let boot_size = RwSignal::new("128".to_string());
    let boot_type = RwSignal::new("abs".to_string());
    let labels = RwSignal::new(String::new());
    let taints = RwSignal::new(Vec::<TaintRow>::new());
    let next_row = StoredValue::new(0usize);
    let node_count = RwSignal::new("1".to_string());
    let tags = RwSignal::new(String::new());
    let touched = RwSignal::new(false);

    let add_taint = move |key: &str, value: &str, effect: &str| {
        let id = next_row.get_value();
        next_row.set_value(id + 1);
        taints.update(|rows| rows.push(TaintRow::new(id, key, value, effect)));
    };

    let instance_types = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            async move { client.instance_types::<InstanceType>().await }
        })
    };
    let cluster = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let id = cluster_id();
            async move { client.cluster(&id).await }
        })
    };
    // Replace pool: the old pool's shape pre-fills the form, to be changed.
    let old_pool = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let (c, old) = (cluster_id(), replacing());
            async move {
                match old {
                    Some(p) => client.pool(&c, &p).await.map(Some),
                    None => Ok(None),
                }
            }
        })
    };
    // Back after a reconnect (or from elsewhere): what was typed comes back.
    let draft = Draft::here();
    let restored = draft.restore::<PoolForm>();
    if let Some(typed) = &restored {
        name.set(typed.name.clone());
        instance_type.set(typed.instance_type.clone());
        boot_size.set(typed.boot_size.clone());
        boot_type.set(typed.boot_type.clone());
        labels.set(typed.labels.clone());
        for (key, value, effect) in &typed.taints {
            add_taint(key, value, effect);
        }
        node_count.set(typed.node_count.clone());
        tags.set(typed.tags.clone());
    }
    // A restored draft wins over the old pool's shape.
    let had_draft = restored.is_some();
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) || had_draft {
            return true;
        }
        let Some(Ok(Some(pool))) = old_pool.get() else {
            return false;
        };
        prefill(
            &pool,
            name,
            instance_type,
            boot_size,
            boot_type,
            labels,
            node_count,
            tags,
        );
        for t in &pool.node_config.taints {
            if let Ok((k, v, e)) = crate::rules::validation::parse_taint(t) {
                add_taint(&k, &v, &e);
            }
        }
        true
    });

    let form = move || PoolForm {
        name: name.get(),
        instance_type: instance_type.get(),
        boot_size: boot_size.get(),
        boot_type: boot_type.get(),
        labels: labels.get(),
        taints: taints
            .get()
            .iter()
            .map(|r| (r.key.get(), r.value.get(), r.effect.get()))
            .collect(),
        node_count: node_count.get(),
        tags: tags.get(),
    };
    draft.keep(form);
    let checked = Memo::new(move |_| pool_create(&form()));
    let server_error = RwSignal::new(None::<ApiError>);
    let gate = RwSignal::new(Gate::Idle);
    // The API counts only what was sent; a person reads the labels' lines and the
    // taint rows as the form shows them.
    let entry = move |field: &str, index: usize| match field {
        "node_config.labels" => format!(
            "Line {}",
            labels.with_untracked(|text| label_line_of(text, index).unwrap_or(index + 1))
        ),
        "node_config.taints" => format!("Taint {}", taint_row_at(taints, index) + 1),
        _ => crate::rules::forms::by_position(field, index),
    };
    // Beside each field: the local check as the person types, else what the server said.
    let error_for = move |field: &'static str| {
        Signal::derive(move || {
            let local = checked.with(|c| {
                c.as_ref()
                    .err()
                    .and_then(|e: &FieldErrors| e.get(field).cloned())
            });
            let local = local.filter(|_| touched.get() || field_has_text(field, &form()));
            server_error.with(|rejected| {
                gate.with(|g| message_for_entries(field, local, rejected.as_ref(), g, &entry))
            })
        })
    };
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
            server_error.with(|rejected| {
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
        server_error.with(|rejected| {
            gate.with(|g| {
                api_message_about("node_config.taints", rejected.as_ref(), g)
                    .filter(|(_, index)| index.is_none())
                    .map(|(message, _)| said(message, &entry))
            })
        })
    };
    let form_el = NodeRef::<leptos::html::Form>::new();
    // A submit the API refused for a field: the focus goes to that field.
    Effect::new(move |_| {
        if server_error.with(|e| e.as_ref().and_then(ApiError::field).is_some()) {
            focus_first_error(form_el);
        }
    });

    // Why Create sends nothing: the fields whose problem is on screen.
    let unsent = Memo::new(move |_| {
        checked.with(|c| {
            let errors = c.as_ref().err()?;
            let labels: Vec<&str> = errors
                .keys()
                .filter(|f| touched.get() || field_has_text(f, &form()))
                .map(|f| field_label(f))
                .collect();
            unsent_reason(&labels)
        })
    });

    // A create that ended in a 5xx or no answer may have gone through: look for the
    // pool by name before anything is sent again.
    let check = {
        let client = client.clone();
        CreateCheck::new(server_error, move |name: String| {
            let client = client.clone();
            let cluster = cluster_id();
            async move {
                let pools = client.pools::<Pool>(&cluster).await?;
                Ok(pools
                    .into_iter()
                    .find(|p| p.name == name)
                    .map(|p| (p.id, p.status.as_str().to_string())))
            }
        })
    };
    let resend_blocked = move || check.resend_blocked();
    let attempted_name = check.attempted;

    let submit = Action::new_local(move |body: &crate::api::types::PoolCreate| {
        let client = client.clone();
        let body = body.clone();
        let cluster = cluster_id();
        async move { client.create_pool(&cluster, &body).await }
    });
    let submitted = follow_submission(move || submit.value().get(), server_error);
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        touched.set(true);
        if submit.pending().get_untracked()
            || submitted.get_untracked().is_some()
            || resend_blocked()
        {
            return; // no double submit, and no blind re-send of a create that may have happened
        }
        match checked.get_untracked() {
            Ok(body) => {
                if gate.with_untracked(Gate::allows_apply) {
                    attempted_name.set(body.name.clone());
                    server_error.set(None);
                    submit.dispatch(body);
                }
            }
            // Refused here: nothing is sent, and the focus goes to the first field in error.
            Err(_) => focus_first_error(form_el),
        }
    };
    let retry = Callback::new(move |_| {
        if let Ok(body) = checked.get_untracked() {
            attempted_name.set(body.name.clone());
            server_error.set(None);
            submit.dispatch(body);
        }
    });

    // Sent: the operation's own page follows it, and once done opens the new pool
    // (or, for a replacement, shows what to do with the old one). The draft stays
    // until then, for the way back from a failure.
    let navigate = use_navigate();
    Effect::new(move |_| {
        if let Some(id) = submitted.get() {
            let (cluster, old) = (cluster_id(), replacing());
            navigate(
                &operation_href(&project_id(), &id, Some(&cluster), old.as_deref()),
                NavigateOptions {
                    replace: true,
                    ..Default::default()
                },
            );
        }
    });

    // The plan: exactly the body Apply would send, its quota need and what it disrupts.
    let plan_request = Signal::derive(move || {
        checked.get().ok().map(|body| PlanRequest::CreatePool {
            cluster_id: cluster_id(),
            body,
        })
    });
    let region = Signal::derive(move || {
        cluster
            .get()
            .and_then(Result::ok)
            .map(|c| c.region)
            .unwrap_or_default()
    });
    let need = Signal::derive(move || {
        let count = i64::from(crate::rules::validation::node_count(&node_count.get()).unwrap_or(0));
        instance_types
            .get()
            .and_then(Result::ok)
            .and_then(|list| list.into_iter().find(|t| t.name == instance_type.get()))
            .map(|t| QuotaNeed::nodes(count, t.vcpu, t.memory_gb))
            .unwrap_or_default()
    });
    let disruption = Signal::derive(move || {
        if replacing().is_some() {
            vec!["Nothing is disrupted yet: the replacement is added beside the old pool, which keeps running until you drain and delete it.".to_string()]
        } else {
            Vec::new()
        }
    });

    // Which cluster the pool is for: in the heading, the way back and the tab.
    let cluster_name = move || {
        cluster.with(|read| match read {
            Some(Ok(c)) => c.name.clone(),
            _ => String::new(),
        })
    };
    let verb = move || {
        if replacing().is_some() {
            "Replace pool"
        } else {
            "Create pool"
        }
    };
    page_title(move || vec![verb().into(), cluster_name()]);

    let zero_hint = move || {
        (node_count.with(|n| n.trim() == "0")).then(|| {
            let autoscaling = cluster.get().and_then(|c| c.ok()).map(|c| c.autoscaling);
            let mut text = String::from("Node count 0 makes a scale-from-zero pool: it stays empty until a pod that tolerates its taints is pending, and only cluster autoscaling grows it. Pair it with a NoSchedule taint so only opted-in workloads land there.");
            if autoscaling == Some(false) {
                text.push_str(" This cluster has autoscaling off, so the pool would stay at 0 nodes.");
            }
            text
        })
    };

    view! {
        <section class="page">
            <p class="breadcrumb">
                <A href=cluster_href>{move || format!("← {}", Some(cluster_name()).filter(|n| !n.is_empty()).unwrap_or_else(|| "Cluster".into()))}</A>
            </p>
            <header class="page-header">
                <h1>{move || match cluster_name().as_str() {
                    "" => verb().to_string(),
                    name => format!("{} for {name}", verb()),
                }}</h1>
            </header>
            {move || replacing().map(|_| view! {
                <p class="alert alert-warning">
                    "A pool's instance type, boot volume, labels and taints are fixed at creation. "
                    "Change the shape below to create the replacement; when it is ready, drain the old pool's nodes and delete it."
                </p>
            })}
            <Show
                when=move || submitted.with(Option::is_none)
                fallback=|| view! { <p class="loading">"Sent. Opening its operation…"</p> }
            >
                <div class="with-plan">
                <form class="form card" on:submit=on_submit novalidate=true node_ref=form_el>
                    {move || server_error.get().filter(|e| e.field().is_none()).map(|error| view! { <ErrorView error /> })}
                    {move || server_error.with(|e| e.as_ref().and_then(|e| unplaced(e, &POOL_FIELDS))).map(|text| view! {
                        <p class="alert alert-error" role="alert">{text}</p>
                    })}
                    <Show when=move || check.uncertain.get()>
                        <UncertainCreate what="pool" name=attempted_name.get_untracked() found=check.found
                            href=Callback::new(move |id: String| format!("{}/pools/{id}", cluster_href()))
                            on_retry=retry />
                    </Show>
                    <Field id="pool-name" label="Name" hint="Lowercase letters, digits and '-'. Node names start with it." error=error_for("name")>
                        <input id="pool-name" aria-describedby=described_by("pool-name") prop:value=name
                            on:input=move |ev| name.set(event_target_value(&ev)) />
                    </Field>
                    <Field id="pool-instance-type" label="Instance type" error=error_for("node_config.instance_type")>
                        <select id="pool-instance-type" aria-describedby=described_by("pool-instance-type")
                            on:change=move |ev| instance_type.set(event_target_value(&ev))
                            prop:value=instance_type>
                            <option value="">"Choose an instance type"</option>
                            {move || match instance_types.get() {
                                None => view! { <option value="" disabled=true>"Loading…"</option> }.into_any(),
                                Some(Err(_)) => view! { <option value="" disabled=true>"Instance types unavailable"</option> }.into_any(),
                                Some(Ok(list)) => list.into_iter().map(|t| {
                                    let label = format!("{} — {} vCPU, {} GB memory", t.name, t.vcpu, t.memory_gb);
                                    let selected = instance_type.get_untracked() == t.name;
                                    view! { <option value=t.name selected=selected>{label}</option> }
                                }).collect_view().into_any(),
                            }}
                        </select>
                    </Field>
                    {move || instance_types.get().and_then(|r| r.err()).map(|error| view! { <ErrorView error retry=move |_| instance_types.refetch() /> })}
                    <div class="field-row">
                        <Field id="pool-boot-size" label="Boot volume size (GB)" hint="64 to 512 GB." error=error_for("node_config.boot_volume.size")>
                            <input id="pool-boot-size" type="number" min="64" max="512" inputmode="numeric"
                                aria-describedby=described_by("pool-boot-size") prop:value=boot_size
                                on:input=move |ev| boot_size.set(event_target_value(&ev)) />
                        </Field>
                        <Field id="pool-boot-type" label="Boot volume type" error=error_for("node_config.boot_volume.type")>
                            <select id="pool-boot-type" aria-describedby=described_by("pool-boot-type") prop:value=boot_type
                                on:change=move |ev| boot_type.set(event_target_value(&ev))>
                                <option value="abs" selected=move || boot_type.get() == "abs">"abs (Accelerated Block Storage)"</option>
                                <option value="nvme" selected=move || boot_type.get() == "nvme">"nvme (local NVMe)"</option>
                            </select>
                        </Field>
                    </div>
                    <Field id="pool-labels" label="Labels" hint="One key=value per line. Keys under kubernetes.io, k8s.io and nirvanalabs.io are reserved." error=error_for("node_config.labels")>
                        <textarea id="pool-labels" rows="3" aria-describedby=described_by("pool-labels") prop:value=labels
                            on:input=move |ev| labels.set(event_target_value(&ev))></textarea>
                    </Field>
                    <fieldset class="field taints">
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
                        <button type="button" class="btn" on:click=move |_| add_taint("", "", "NoSchedule")>"Add taint"</button>
                        {move || taints_error().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
                    </fieldset>
                    <Field id="pool-node-count" label="Node count" hint="0 to 100." error=error_for("node_count")>
                        <input id="pool-node-count" type="number" min="0" max="100" inputmode="numeric"
                            aria-describedby=described_by("pool-node-count") prop:value=node_count
                            on:input=move |ev| node_count.set(event_target_value(&ev)) />
                    </Field>
                    {move || zero_hint().map(|text| view! { <p class="alert alert-info">{text}</p> })}
                    <Field id="pool-tags" label="Tags" hint="Comma-separated." error=error_for("tags")>
                        <input id="pool-tags" aria-describedby=described_by("pool-tags") prop:value=tags
                            on:input=move |ev| tags.set(event_target_value(&ev)) />
                    </Field>
                    <div class="form-actions">
                        <button class="btn btn-primary" type="submit" disabled=move || submit.pending().get() || !gate.with(Gate::allows_apply) || resend_blocked()
                            aria-describedby=move || unsent.with(Option::is_some).then_some("pool-unsent")>
                            {move || if submit.pending().get() { "Creating…" } else { "Create pool" }}
                        </button>
                        <A href=cluster_href attr:class="btn btn-quiet" on:click=move |_| draft.discard()>"Cancel"</A>
                        {move || unsent.get().map(|why| view! { <span id="pool-unsent" class="field-hint">{why}</span> })}
                    </div>
                </form>
                <PlanPanel request=plan_request region need disruption gate />
                </div>
            </Show>
        </section>
    }
}

/// The request fields this form shows beside a control; a rejection naming any
/// other is told above the form.
const POOL_FIELDS: [&str; 8] = [
    "name",
    "node_config.instance_type",
    "node_config.boot_volume.size",
    "node_config.boot_volume.type",
    "node_config.labels",
    "node_config.taints",
    "node_count",
    "tags",
];

/// The form row (0-based) the body's `index`-th taint came from.
fn taint_row_at(taints: RwSignal<Vec<TaintRow>>, index: usize) -> usize {
    taints.with_untracked(|rows| {
        let typed: Vec<(String, String, String)> = rows
            .iter()
            .map(|r| {
                (
                    r.key.get_untracked(),
                    r.value.get_untracked(),
                    r.effect.get_untracked(),
                )
            })
            .collect();
        taint_row_of(&typed, index).unwrap_or(index)
    })
}

/// A field shows its local problem once the person has typed into it.
fn field_has_text(field: &str, form: &PoolForm) -> bool {
    match field {
        "name" => !form.name.is_empty(),
        "node_config.boot_volume.size" => !form.boot_size.is_empty(),
        "node_config.labels" => !form.labels.is_empty(),
        "node_config.taints" => form
            .taints
            .iter()
            .any(|(k, v, _)| !k.is_empty() || !v.is_empty()),
        "node_count" => true,
        "tags" => !form.tags.is_empty(),
        _ => false,
    }
}

/// The label a person sees for a field the form checks.
fn field_label(field: &str) -> &'static str {
    match field {
        "name" => "Name",
        "node_config.instance_type" => "Instance type",
        "node_config.boot_volume.size" => "Boot volume size",
        "node_config.boot_volume.type" => "Boot volume type",
        "node_config.labels" => "Labels",
        "node_config.taints" => "Taints",
        "node_count" => "Node count",
        "tags" => "Tags",
        _ => "a field",
    }
}

#[allow(clippy::too_many_arguments)]
fn prefill(
    pool: &Pool,
    name: RwSignal<String>,
    instance_type: RwSignal<String>,
    boot_size: RwSignal<String>,
    boot_type: RwSignal<String>,
    labels: RwSignal<String>,
    node_count: RwSignal<String>,
    tags: RwSignal<String>,
) {
    name.set(format!("{}-v2", pool.name));
    instance_type.set(pool.node_config.instance_type.clone());
    boot_size.set(pool.node_config.boot_volume.size.to_string());
    boot_type.set(
        pool.node_config
            .boot_volume
            .volume_type
            .as_str()
            .to_string(),
    );
    labels.set(pool.node_config.labels.join("\n"));
    node_count.set(pool.node_count.to_string());
    tags.set(pool.tags.join(", "));
}
