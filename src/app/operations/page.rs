use std::collections::BTreeMap;

use crate::app::paths::A;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};
use leptos_router::NavigateOptions;

use super::indicator::describe;
use super::{change_text, clock, operation_href};
use crate::api::client::Client;
use crate::api::types::{Cluster, Operation, OperationKind, OperationStatus, Pool};
use crate::app::components::{ErrorView, StatusBadge, Time};
use crate::app::shell::{page_title, Projects};
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::operation::elapsed_secs;
use crate::rules::outcome::ApiError;
use crate::rules::tracking::feed::FeedFilter;

/// A resource as the feed names it: its name and the page it lives on.
#[derive(Clone, Debug, PartialEq)]
struct Named {
    name: String,
    href: String,
    /// A pool's cluster, which its operation's page needs.
    cluster_id: Option<String>,
}

const STATUSES: [OperationStatus; 5] = [
    OperationStatus::Pending,
    OperationStatus::Running,
    OperationStatus::Unknown,
    OperationStatus::Done,
    OperationStatus::Failed,
];

const KINDS: [OperationKind; 3] = [
    OperationKind::NksCluster,
    OperationKind::NksNodePool,
    OperationKind::NksNode,
];

/// Every operation of the project (all pages), newest first, with the changes each
/// carried; filtered by status, kind and resource through the URL query, so a
/// reload or a shared link keeps the filters. Statuses of operations in flight
/// come live from the tracker; this page never polls.
#[component]
pub fn OperationsPage() -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let params = use_params_map();
    let query = use_query_map();
    let project_id = move || params.read().get("project_id").unwrap_or_default();
    let filter = Memo::new(move |_| {
        let q = query.read();
        FeedFilter {
            status: q.get("status").unwrap_or_default(),
            kind: q.get("kind").unwrap_or_default(),
            resource: q.get("resource").unwrap_or_default(),
        }
    });

    let operations = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let project = project_id();
            ops.revision.track();
            async move {
                client
                    .operations::<Operation>(&project, &[("sort", "created_at:desc".to_string())])
                    .await
            }
        })
    };
    // Names and links of the project's clusters and pools; refreshed when an
    // operation ends (a create adds one). Missing names fall back to the id.
    let names = LocalResource::new(move || {
        let client = client.clone();
        let project = project_id();
        ops.revision.track();
        async move { resource_names(&client, &project).await }
    });

    let now = clock();
    let projects = expect_context::<Projects>();
    page_title(move || {
        vec![
            "Operations".into(),
            projects.name(&project_id()).unwrap_or_default(),
        ]
    });
    let navigate = use_navigate();
    let set_filter = move |key: &'static str, value: String| {
        let mut current = filter.get_untracked();
        match key {
            "status" => current.status = value,
            "kind" => current.kind = value,
            _ => current.resource = value,
        }
        let mut parts = Vec::new();
        for (k, v) in [
            ("status", &current.status),
            ("kind", &current.kind),
            ("resource", &current.resource),
        ] {
            if !v.is_empty() {
                parts.push(format!("{k}={}", js_sys::encode_uri_component(v)));
            }
        }
        let search = if parts.is_empty() {
            String::new()
        } else {
            format!("?{}", parts.join("&"))
        };
        // A filter replaces the entry, so Back leaves the page, and keeps the
        // reader where they are on it.
        navigate(
            &format!("/projects/{}/operations{search}", project_id()),
            NavigateOptions {
                replace: true,
                scroll: false,
                ..Default::default()
            },
        );
    };
    let set_status = {
        let set = set_filter.clone();
        move |ev| set("status", event_target_value(&ev))
    };
    let set_kind = {
        let set = set_filter.clone();
        move |ev| set("kind", event_target_value(&ev))
    };
    let set_resource = move |ev| set_filter("resource", event_target_value(&ev));

    let name_of = move |id: &str| -> Option<Named> {
        names
            .get()
            .and_then(|r| r.ok())
            .and_then(|m| m.get(id).cloned())
    };
    let resource_options = move || {
        let mut seen: BTreeMap<String, String> = BTreeMap::new();
        if let Some(Ok(list)) = operations.get() {
            for op in list {
                let label = name_of(&op.resource_id)
                    .map(|n| n.name)
                    .unwrap_or_else(|| op.resource_id.clone());
                seen.insert(op.resource_id, label);
            }
        }
        let selected = filter.get().resource;
        if !selected.is_empty() && !seen.contains_key(&selected) {
            seen.insert(selected.clone(), selected);
        }
        seen
    };

    view! {
        <section class="page">
            <header class="page-header">
                <h1>"Operations"</h1>
            </header>
            <form class="ops-filters" aria-label="Filter operations" on:submit=|ev| ev.prevent_default()>
                <label>
                    "Status"
                    <select on:change=set_status prop:value=move || filter.get().status>
                        <option value="" selected=move || filter.get().status.is_empty()>"Any"</option>
                        {STATUSES
                            .iter()
                            .map(|s| {
                                let v = s.as_str();
                                view! { <option value=v selected=move || filter.get().status == v>{v}</option> }
                            })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    "Kind"
                    <select on:change=set_kind prop:value=move || filter.get().kind>
                        <option value="" selected=move || filter.get().kind.is_empty()>"Any"</option>
                        {KINDS
                            .iter()
                            .map(|k| {
                                let v = k.as_str();
                                view! { <option value=v selected=move || filter.get().kind == v>{kind_label(k)}</option> }
                            })
                            .collect_view()}
                    </select>
                </label>
                <label>
                    "Resource"
                    <select on:change=set_resource prop:value=move || filter.get().resource>
                        <option value="" selected=move || filter.get().resource.is_empty()>"Any"</option>
                        {move || {
                            resource_options()
                                .into_iter()
                                .map(|(id, label)| {
                                    let selected = filter.get_untracked().resource == id;
                                    view! { <option value=id selected=selected>{label}</option> }
                                })
                                .collect_view()
                        }}
                    </select>
                </label>
            </form>
            <Transition fallback=|| view! { <p class="loading">"Loading operations…"</p> }>
                {move || {
                    operations
                        .get()
                        .map(|result| match result {
                            Err(error) => view! { <ErrorView error retry=move |_| operations.refetch() /> }.into_any(),
                            Ok(list) => {
                                let feed = ops.with_tracker(|t| filter.get().apply(&list, t));
                                if list.is_empty() {
                                    view! { <p class="empty">"No operations in this project yet."</p> }.into_any()
                                } else if feed.is_empty() {
                                    view! { <p class="empty">"No operation matches these filters."</p> }.into_any()
                                } else {
                                    view! {
                                        <table class="table" aria-label="Operations">
                                            <thead>
                                                <tr>
                                                    <th scope="col">"Operation"</th>
                                                    <th scope="col">"Kind"</th>
                                                    <th scope="col">"Type"</th>
                                                    <th scope="col">"Resource"</th>
                                                    <th scope="col">"Status"</th>
                                                    <th scope="col">"Started"</th>
                                                    <th scope="col">"Elapsed"</th>
                                                    <th scope="col">"Changes"</th>
                                                </tr>
                                            </thead>
                                            <tbody>
                                                // An operation's row is drawn again when its status moves.
                                                <For
                                                    each=move || feed.clone()
                                                    key=|op| (op.id.clone(), op.status.clone(), op.updated_at.clone())
                                                    children=move |op| row(op, name_of, now)
                                                />
                                            </tbody>
                                        </table>
                                    }
                                        .into_any()
                                }
                            }
                        })
                }}
            </Transition>
        </section>
    }
}

fn row(
    op: Operation,
    name_of: impl Fn(&str) -> Option<Named> + Copy + Send + Sync + 'static,
    now: RwSignal<f64>,
) -> impl IntoView {
    let status = op.status.as_str().to_string();
    let changes: Vec<String> = op
        .changes()
        .map(|(field, c)| format!("{field}: {}", change_text(c)))
        .collect();
    let timed = op.clone();
    let elapsed = move || {
        elapsed_secs(&timed, None, now.get())
            .map(display::elapsed)
            .unwrap_or_default()
    };
    // Its own page; a pool's carries the pool's cluster once the names are read.
    let page = {
        let (project, id, resource_id) =
            (op.project_id.clone(), op.id.clone(), op.resource_id.clone());
        move || {
            let cluster = name_of(&resource_id).and_then(|n| n.cluster_id);
            crate::app::paths::href(&operation_href(&project, &id, cluster.as_deref(), None))
        }
    };
    let title = describe(&op);
    let resource_id = op.resource_id.clone();
    let resource = move || match name_of(&resource_id) {
        Some(named) => view! { <A href=named.href>{named.name}</A> }.into_any(),
        None => view! { <code>{resource_id.clone()}</code> }.into_any(),
    };
    view! {
        <tr>
            <td><a href=page>{title}</a></td>
            <td>{kind_label(&op.kind)}</td>
            <td>{op.op_type.as_str()}</td>
            <td>{resource}</td>
            <td><StatusBadge status /></td>
            <td><Time at=op.created_at.clone() /></td>
            <td>{elapsed}</td>
            <td class="ops-changes">{changes.join("; ")}</td>
        </tr>
    }
}

fn kind_label(kind: &OperationKind) -> String {
    match kind {
        OperationKind::NksCluster => "cluster".into(),
        OperationKind::NksNodePool => "pool".into(),
        OperationKind::NksNode => "node".into(),
        other => other.as_str().into(),
    }
}

/// Every cluster and pool of the project by id. A failure leaves names out
/// rather than failing the feed: the ids still identify the resources.
async fn resource_names(
    client: &Client,
    project: &str,
) -> Result<BTreeMap<String, Named>, ApiError> {
    let mut names = BTreeMap::new();
    for cluster in client.clusters::<Cluster>(project).await? {
        let cluster_href = format!("/projects/{project}/clusters/{}", cluster.id);
        if let Ok(pools) = client.pools::<Pool>(&cluster.id).await {
            for pool in pools {
                names.insert(
                    pool.id.clone(),
                    Named {
                        name: format!("{} / {}", cluster.name, pool.name),
                        href: format!("{cluster_href}/pools/{}", pool.id),
                        cluster_id: Some(cluster.id.clone()),
                    },
                );
            }
        }
        names.insert(
            cluster.id.clone(),
            Named {
                name: cluster.name,
                href: cluster_href,
                cluster_id: None,
            },
        );
    }
    Ok(names)
}
