//! One operation's own page, where a submitted create or update lands: what it
//! does and to what, the statuses it was seen in, its changes, its time against
//! how long such operations usually take here, and once it ended, the way on:
//! the resource, or back to the form holding what was asked.
//!
//! The operation comes from the tracker, or, when the tracker does not follow
//! it (a reload, a shared link), is read once and handed to the tracker while it
//! has not ended: this page never polls. A pool's operation carries its cluster
//! in the address (`?cluster=`), and a replacement the pool it replaces
//! (`?replace=`), so a reload or a shared link finds them.

use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};

use super::indicator::describe;
use super::{change_text, clock, noun};
use crate::api::client::Client;
use crate::api::types::{Cluster, Operation, OperationKind, OperationStatus, OperationType, Pool};
use crate::app::components::{utc_time, ErrorView, OpProgress, StatusBadge, Time};
use crate::app::context::{page_title, Projects};
use crate::app::drafts::Draft;
use crate::app::paths::params::{route, OperationsRoute};
use crate::app::paths::to;
use crate::app::paths::A;
use crate::app::pools::DrainList;
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::history::{
    pace, past_usual_text, usual_duration, usual_text, Pace, Timeline, Usual,
};
use crate::rules::operation::{elapsed_secs, is_terminal};
use crate::rules::outcome::ApiError;

#[component]
pub fn OperationPage() -> impl IntoView {
    let route = route::<OperationsRoute>();
    let id = Memo::new(move |_| route.read().operation_id.clone().unwrap_or_default());
    move || view! { <OperationView id=id.get() /> }
}

/// Where the operation's resource stands.
#[derive(Clone, Debug, PartialEq)]
enum Place {
    /// It exists: its name, its page, and for a pool its cluster.
    Exists {
        name: String,
        href: String,
        cluster_id: Option<String>,
    },
    /// The API answered 404 for it.
    Gone,
    /// It could not be read just now.
    Unreadable(ApiError),
    /// A kind this console has no page for.
    Unlinked,
}

#[component]
fn OperationView(id: String) -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let route = route::<OperationsRoute>();
    let query = use_query_map();
    let project_id = move || route.read().project_id.clone();
    let cluster_q = move || query.read().get("cluster").filter(|c| !c.is_empty());
    let replacing = move || query.read().get("replace").filter(|r| !r.is_empty());
    // Handed over by a form (`follow_href`): once done, it opens what it made.
    let opens_when_done = move || query.read().get("open").is_some_and(|v| v == "1");

    let tracked = {
        let id = id.clone();
        Memo::new(move |_| ops.get(&id))
    };
    // Not followed here yet: read once, and hand it to the tracker if it runs.
    let followed_at_start = untrack(|| ops.get(&id)).is_some();
    let fetched = {
        let (client, id) = (client.clone(), id.clone());
        LocalResource::new(move || {
            let (client, id) = (client.clone(), id.clone());
            async move {
                if followed_at_start {
                    None
                } else {
                    Some(client.operation(&id).await)
                }
            }
        })
    };
    {
        let id = id.clone();
        Effect::new(move |_| {
            if let Some(Some(Ok(op))) = fetched.get() {
                if !is_terminal(&op.status) && untrack(|| ops.get(&id)).is_none() {
                    ops.track(op);
                }
            }
        });
    }
    let op = Memo::new(move |_| {
        tracked
            .get()
            .map(|t| t.op)
            .or_else(|| fetched.get().flatten().and_then(Result::ok))
    });
    let fetch_error = Memo::new(move |_| fetched.get().flatten().and_then(Result::err));
    let lost = Memo::new(move |_| {
        tracked.get().is_some_and(|t| t.lost)
            || fetch_error.with(|e| e.as_ref().is_some_and(ApiError::is_not_found))
    });
    let is_tracked = Memo::new(move |_| tracked.with(Option::is_some));

    // The statuses it was seen in, and whether it was seen running here.
    let timeline = RwSignal::new(Timeline::default());
    let watching = StoredValue::new(false);
    Effect::new(move |_| {
        if let Some(op) = op.get() {
            if !is_terminal(&op.status) {
                watching.set_value(true);
            }
            timeline.update(|t| t.observe(&op, js_sys::Date::now()));
        }
    });
    Effect::new(move |_| {
        if lost.get() {
            timeline.update(|t| t.lost(js_sys::Date::now()));
        }
    });

    // The resource, read again whenever an operation ends (or "Check now").
    let target = Memo::new(move |_| {
        op.with(|o| o.as_ref().map(|o| (o.kind.clone(), o.resource_id.clone())))
    });
    let place = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let (target, cluster, project) = (target.get(), cluster_q(), project_id());
            ops.revision.track();
            async move {
                let (kind, id) = target?;
                Some(locate(&client, &project, &kind, &id, cluster).await)
            }
        })
    };
    let place_now = Memo::new(move |_| place.get().flatten());
    let resource_name = move || match place_now.get() {
        Some(Place::Exists { name, .. }) => Some(name),
        _ => None,
    };
    let cluster_id = move || {
        cluster_q().or_else(|| match place_now.get() {
            Some(Place::Exists { cluster_id, .. }) => cluster_id,
            _ => None,
        })
    };
    let title = move || match op.get() {
        Some(o) => match resource_name() {
            Some(name) => format!("{} {name}", describe(&o)),
            None => describe(&o),
        },
        None => "Operation".to_string(),
    };
    let projects = expect_context::<Projects>();
    page_title(move || vec![title(), projects.name(&project_id()).unwrap_or_default()]);
    let started = Memo::new(move |_| op.with(|o| o.as_ref().map(|o| o.created_at.clone())));
    let form = move || {
        op.with(|o| {
            o.as_ref()
                .and_then(|o| form_address(o, &project_id(), cluster_id(), replacing()))
        })
    };

    // Its end: the form's draft goes, and one watched to `done` opens what it made
    // or changed, as the forms did (a replacement shows what to do next instead).
    let navigate = use_navigate();
    let ended = StoredValue::new(false);
    Effect::new(move |_| {
        let Some(o) = op.get() else { return };
        if o.status != OperationStatus::Done || ended.get_value() {
            return;
        }
        let Some(open) = resource_href(&o, &project_id(), cluster_id()) else {
            return;
        };
        ended.set_value(true);
        if let Some(address) = form_address(&o, &project_id(), cluster_id(), replacing()) {
            Draft::at(&address).discard();
        }
        if watching.get_value() && opens_when_done() && replacing().is_none() {
            navigate(&open, Default::default());
        }
    });

    // Its time, and how long the same kind and type took in this project.
    let now = clock();
    let elapsed = move || {
        if lost.get() {
            return None;
        }
        let since = tracked.with(|t| t.as_ref().map(|t| t.since_ms));
        op.with(|o| o.as_ref().and_then(|o| elapsed_secs(o, since, now.get())))
    };
    let kind_type =
        Memo::new(move |_| op.with(|o| o.as_ref().map(|o| (o.kind.clone(), o.op_type.clone()))));
    let past = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let (kind_type, project) = (kind_type.get(), project_id());
            async move {
                let (kind, op_type) = kind_type?;
                let mut filters = Vec::new();
                // Only values the API lists as filters; the rest are sorted out here.
                if !matches!(kind, OperationKind::Unknown | OperationKind::Other(_)) {
                    filters.push(("kind", kind.as_str().to_string()));
                }
                if !matches!(op_type, OperationType::Unknown | OperationType::Other(_)) {
                    filters.push(("type", op_type.as_str().to_string()));
                }
                Some(client.operations::<Operation>(&project, &filters).await)
            }
        })
    };
    let usual = Memo::new(move |_| {
        let like = op.get()?;
        match past.get().flatten()? {
            Ok(list) => Some(Ok(usual_duration(&list, &like))),
            Err(error) => Some(Err(error)),
        }
    });

    let ops_href = move || to::operations(&project_id());
    let progress_title = move || {
        op.with_untracked(|o| o.as_ref().map(describe))
            .unwrap_or_default()
    };
    let status_id = id.clone();

    view! {
        <section class="page op-page">
            <p class="breadcrumb"><A href=ops_href>"← Operations"</A></p>
            <header class="page-header"><h1>{title}</h1></header>
            {move || {
                if op.with(Option::is_some) {
                    return ().into_any();
                }
                match fetch_error.get() {
                    Some(error) if error.is_not_found() => view! { <Unknown id=status_id.clone() /> }.into_any(),
                    Some(error) => view! { <ErrorView error retry=move |_| fetched.refetch() /> }.into_any(),
                    None => view! { <p class="loading">"Loading the operation…"</p> }.into_any(),
                }
            }}
            <Show when=move || op.with(Option::is_some)>
                {
                    let id = id.clone();
                    move || if is_tracked.get() {
                        view! { <OpProgress operation_id=id.clone() title=progress_title() /> }.into_any()
                    } else {
                        // Not followed (it had ended when read): its status as read.
                        let status = Signal::derive(move || op.with(|o| o.as_ref().map(|o| o.status.as_str().to_string())).unwrap_or_default());
                        view! {
                            <div class="op-progress" role="status">
                                <p>
                                    <strong>{progress_title()}</strong>" — operation "<code>{id.clone()}</code>
                                    {move || if op.with(|o| o.as_ref().is_some_and(|o| o.status == OperationStatus::Failed)) { " has " } else { " is " }}
                                    <StatusBadge status />
                                    {move || elapsed().map(|s| format!(" · {}", display::elapsed(s)))}
                                </p>
                            </div>
                        }.into_any()
                    }
                }
                {move || op.get().map(|o| view! {
                    <Outcome op=o place=place_now.get() form=form() opens=watching.get_value() && opens_when_done() replacing=replacing() cluster_id=cluster_id() />
                })}
                <dl class="fields">
                    <dt>"Kind"</dt>
                    <dd>{move || op.with(|o| o.as_ref().map(|o| noun(o).to_string()))}</dd>
                    <dt>"Type"</dt>
                    <dd>{move || op.with(|o| o.as_ref().map(|o| o.op_type.as_str().to_string()))}</dd>
                    <dt>"Resource"</dt>
                    <dd>{move || {
                        let id = op.with(|o| o.as_ref().map(|o| o.resource_id.clone())).unwrap_or_default();
                        match place_now.get() {
                            Some(Place::Exists { name, href, .. }) => view! { <A href=move || href.clone()>{name}</A> }.into_any(),
                            Some(Place::Gone) => view! {
                                <code>{id}</code>
                                " — no longer exists (the API answered 404)"
                            }.into_any(),
                            Some(Place::Unreadable(error)) => view! {
                                <code>{id}</code>
                                {format!(" — could not be read: {}", error.detail())}
                                " "
                                <button class="btn btn-quiet" on:click=move |_| place.refetch()>"Retry"</button>
                            }.into_any(),
                            _ => view! { <code>{id}</code> }.into_any(),
                        }
                    }}</dd>
                    <dt>"Started"</dt>
                    <dd>{move || started.get().map(|at| view! { <Time at /> })}</dd>
                </dl>
                <section class="op-time" aria-labelledby="op-time-heading">
                    <h2 id="op-time-heading">"Time"</h2>
                    <p>
                        {move || if op.with(|o| o.as_ref().is_some_and(|o| is_terminal(&o.status))) { "Took " } else { "Elapsed " }}
                        <strong>{move || elapsed().map(display::elapsed).unwrap_or_else(|| "not known".into())}</strong>
                        ". "
                        {move || match (usual.get(), kind_type.get()) {
                            (None, _) | (_, None) => "Reading the project's past operations…".to_string(),
                            (Some(Err(error)), _) => format!("No usual time: the project's past operations could not be read ({}).", error.detail()),
                            (Some(Ok(u)), Some((kind, op_type))) => usual_text(u, &kind, &op_type),
                        }}
                    </p>
                    {move || {
                        let running = op.with(|o| o.as_ref().is_some_and(|o| !is_terminal(&o.status))) && !lost.get();
                        let u = usual.get().and_then(Result::ok).flatten().filter(|_| running)?;
                        let spent = elapsed()?;
                        Some(view! { <UsualBar spent usual=u /> })
                    }}
                </section>
                <section aria-labelledby="op-timeline-heading">
                    <h2 id="op-timeline-heading">"Timeline"</h2>
                    <ol class="op-timeline" aria-label="Statuses seen">
                        <For
                            each=move || timeline.with(|t| t.steps.clone().into_iter().enumerate().collect::<Vec<_>>())
                            key=|(i, _)| *i
                            let:((_, step))
                        >
                            <li>
                                <StatusBadge status=step.status.clone() />
                                " "
                                {match (step.at_ms, step.unseen) {
                                    (_, true) => "not seen here; the API keeps no time for this step".to_string(),
                                    (Some(ms), false) => utc_time(ms),
                                    (None, false) => "time not known".to_string(),
                                }}
                            </li>
                        </For>
                    </ol>
                </section>
                <section aria-labelledby="op-changes-heading">
                    <h2 id="op-changes-heading">"Changes"</h2>
                    {move || {
                        let changes: Vec<(String, String)> = op.with(|o| {
                            o.iter().flat_map(|o| o.changes()).map(|(field, c)| (field.clone(), change_text(c))).collect()
                        });
                        if changes.is_empty() {
                            view! { <p class="muted">"The API records no field changes for it."</p> }.into_any()
                        } else {
                            view! {
                                <ul class="op-changes" aria-label="Changes">
                                    {changes.into_iter().map(|(field, text)| view! { <li><code>{field}</code>": "{text}</li> }).collect_view()}
                                </ul>
                            }.into_any()
                        }
                    }}
                </section>
            </Show>
        </section>
    }
}

/// The operation's end, and the way on.
#[component]
fn Outcome(
    op: Operation,
    place: Option<Place>,
    form: Option<String>,
    /// Watched to its end after a form's send: it opens the resource itself.
    opens: bool,
    replacing: Option<String>,
    cluster_id: Option<String>,
) -> impl IntoView {
    let route = route::<OperationsRoute>();
    let project = route.read_untracked().project_id.clone();
    let what = noun(&op).to_string();
    match op.status {
        OperationStatus::Failed => {
            let error = ApiError::OperationFailed {
                operation_id: op.id.clone(),
                what: describe(&op),
            };
            view! {
                <ErrorView error />
                <p class="muted">
                    "The API gives no reason for a failed operation; the " {what.clone()}
                    "'s own status may say more. Nothing was sent again."
                </p>
                {form.map(|address| view! {
                    <p><A href=move || address.clone() attr:class="btn">"Back to the form, with what was asked"</A></p>
                })}
            }
            .into_any()
        }
        OperationStatus::Done => {
            if let (Some(old), Some(cluster), OperationType::Create) =
                (replacing, cluster_id.clone(), &op.op_type)
            {
                return view! {
                    <ReplacementReady project cluster_id=cluster old_pool_id=old new_pool_id=op.resource_id.clone() />
                }
                .into_any();
            }
            let opens = opens && resource_href(&op, &project, cluster_id).is_some();
            match place {
                _ if opens => view! { <p role="status">{format!("Done. Opening the {what}…")}</p> }.into_any(),
                Some(Place::Exists { name, href, .. }) => view! {
                    <p>"Done. " <A href=move || href.clone()>{format!("Open the {what} {name}")}</A></p>
                }
                .into_any(),
                Some(Place::Gone) => view! { <p>{format!("Done. The {what} no longer exists.")}</p> }.into_any(),
                _ => view! { <p>"Done."</p> }.into_any(),
            }
        }
        _ => ().into_any(),
    }
}

/// An operation the API does not know (404) and this tab never followed.
#[component]
fn Unknown(id: String) -> impl IntoView {
    view! {
        <div class="op-progress" role="status">
            <p>"Operation " <code>{id}</code> " is " <span class="badge badge-unknown">"no longer known"</span></p>
            <p class="alert alert-warning">
                "This operation is no longer known to the API (it answered 404): the API may have been "
                "restarted, or the operation dropped. Nothing was sent again. Check whether what it was "
                "changing exists before trying again: see the project's clusters and operations."
            </p>
        </div>
    }
}

/// The time spent against the usual time, and a word when it runs past it.
#[component]
fn UsualBar(spent: u64, usual: Usual) -> impl IntoView {
    let (max, value) = (usual.secs.max(1), spent.min(usual.secs.max(1)));
    view! {
        <progress class="op-bar" max=max.to_string() value=value.to_string()
            aria-label="Time so far against the usual time"></progress>
        {match pace(spent, usual) {
            Pace::Past(over) => Some(view! { <p class="alert alert-info">{past_usual_text(over, usual)}</p> }),
            Pace::Within(_) => None,
        }}
    }
}

/// After a replacement pool is ready: the old pool's drain commands, then its deletion.
#[component]
fn ReplacementReady(
    project: String,
    cluster_id: String,
    old_pool_id: String,
    new_pool_id: String,
) -> impl IntoView {
    let new_href = to::pool(&project, &cluster_id, &new_pool_id);
    let old_href = to::pool(&project, &cluster_id, &old_pool_id) + "#delete";
    view! {
        <section class="card replacement">
            <h2>"The replacement pool is ready"</h2>
            <p><A href=move || new_href.clone()>"Open the new pool"</A></p>
            <p>"Move workloads off the old pool gracefully, node by node, before deleting it:"</p>
            <DrainList cluster_id pool_id=old_pool_id />
            <p><A href=move || old_href.clone()>"Then delete the old pool"</A></p>
        </section>
    }
}

/// Reads the operation's resource: a cluster, or a pool (in the given cluster,
/// else looked for among the project's).
async fn locate(
    client: &Client,
    project: &str,
    kind: &OperationKind,
    id: &str,
    cluster: Option<String>,
) -> Place {
    let answer = |result: Result<(String, String, Option<String>), ApiError>| match result {
        Ok((name, href, cluster_id)) => Place::Exists {
            name,
            href,
            cluster_id,
        },
        Err(error) if error.is_not_found() => Place::Gone,
        Err(error) => Place::Unreadable(error),
    };
    match kind {
        OperationKind::NksCluster => answer(
            client
                .cluster(id)
                .await
                .map(|c| (c.name, to::cluster(project, id), None)),
        ),
        OperationKind::NksNodePool => {
            let cluster = match cluster {
                Some(c) => c,
                None => match find_pool(client, project, id).await {
                    Ok(Some(c)) => c,
                    Ok(None) => return Place::Gone,
                    Err(error) => return Place::Unreadable(error),
                },
            };
            answer(client.pool(&cluster, id).await.map(|p| {
                (
                    p.name,
                    to::pool(project, &cluster, id),
                    Some(cluster.clone()),
                )
            }))
        }
        _ => Place::Unlinked,
    }
}

/// The cluster holding pool `id`, among the project's.
async fn find_pool(client: &Client, project: &str, id: &str) -> Result<Option<String>, ApiError> {
    for cluster in client.clusters::<Cluster>(project).await? {
        if client
            .pools::<Pool>(&cluster.id)
            .await?
            .iter()
            .any(|p| p.id == id)
        {
            return Ok(Some(cluster.id));
        }
    }
    Ok(None)
}

/// The page a done create or update opens, as its form did.
fn resource_href(op: &Operation, project: &str, cluster: Option<String>) -> Option<String> {
    let id = &op.resource_id;
    match (&op.kind, &op.op_type) {
        (OperationKind::NksCluster, OperationType::Create | OperationType::Update) => {
            Some(to::cluster(project, id))
        }
        (OperationKind::NksNodePool, OperationType::Create | OperationType::Update) => {
            Some(to::pool(project, &cluster?, id))
        }
        _ => None,
    }
}

/// The address of the form that sends such an operation, where its draft lives.
fn form_address(
    op: &Operation,
    project: &str,
    cluster: Option<String>,
    replacing: Option<String>,
) -> Option<String> {
    let id = &op.resource_id;
    match (&op.kind, &op.op_type) {
        (OperationKind::NksCluster, OperationType::Create) => Some(to::new_cluster(project)),
        (OperationKind::NksCluster, OperationType::Update) => Some(to::edit_cluster(project, id)),
        (OperationKind::NksNodePool, OperationType::Create) => {
            let cluster = cluster?;
            Some(match replacing {
                Some(old) => to::replacing_pool(project, &cluster, &old),
                None => to::new_pool(project, &cluster),
            })
        }
        (OperationKind::NksNodePool, OperationType::Update) => {
            Some(to::edit_pool(project, &cluster?, id))
        }
        _ => None,
    }
}
