use crate::app::paths::A;
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_params_map, use_query_map};
use leptos_router::NavigateOptions;

use crate::api::client::Client;
use crate::api::types::Cluster;
use crate::app::components::ErrorView;
use crate::app::load::Load;
use crate::app::shell::Refresh;
use crate::ops::Ops;
use crate::rules::display;
use crate::rules::listing::{all_tags, filter_and_sort, ClusterQuery};

const STATUSES: [&str; 7] = [
    "pending", "creating", "updating", "ready", "deleting", "deleted", "error",
];

/// Every cluster of the project (all pages), filtered and sorted as the URL says,
/// or the reason they could not be read: a failure is never shown as an empty list.
#[component]
pub fn ClusterList() -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let Refresh(refresh) = expect_context::<Refresh>();
    let params = use_params_map();
    let query = use_query_map();
    let project_id = move || params.read().get("project_id").unwrap_or_default();
    let clusters = Load::new(move || {
        let client = client.clone();
        let project = project_id();
        ops.revision.track();
        refresh.track();
        async move { client.clusters(&project).await }
    });
    // Filters live in the URL, so a filtered list can be reloaded and shared.
    let current = Memo::new(move |_| {
        let q = query.read();
        ClusterQuery {
            name: q.get("name").unwrap_or_default(),
            status: q.get("status").unwrap_or_default(),
            tag: q.get("tag").unwrap_or_default(),
            sort: q.get("sort").unwrap_or_default(),
        }
    });
    let navigate = use_navigate();
    let set_param = move |key: &str, value: String| {
        let mut q = current.get_untracked();
        match key {
            "name" => q.name = value,
            "status" => q.status = value,
            "tag" => q.tag = value,
            _ => q.sort = value,
        }
        let pairs: Vec<String> = [
            ("name", &q.name),
            ("status", &q.status),
            ("tag", &q.tag),
            ("sort", &q.sort),
        ]
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}={}", String::from(js_sys::encode_uri_component(v))))
        .collect();
        let search = if pairs.is_empty() {
            String::new()
        } else {
            format!("?{}", pairs.join("&"))
        };
        // A filter replaces the entry, so Back leaves the list, and keeps the
        // reader where they are on the page.
        navigate(
            &format!("/projects/{}/clusters{search}", project_id()),
            NavigateOptions {
                replace: true,
                scroll: false,
                ..Default::default()
            },
        );
    };
    let create_href = move || format!("/projects/{}/clusters/new", project_id());
    // The choices the page opens with; each select's `prop:value` follows the URL after.
    let shown_first = current.get_untracked();

    view! {
        <section class="page">
            <header class="page-header">
                <h1>"Clusters"</h1>
                <A href=create_href attr:class="btn btn-primary">"Create cluster"</A>
            </header>
            <div class="filters" role="search" on:input=move |ev| {
                // One listener for the four controls: each is named by its id.
                if let Some(key) = event_target::<web_sys::Element>(&ev).id().strip_prefix("filter-") {
                    set_param(key, event_target_value(&ev));
                }
            }>
                <div class="filter"><label for="filter-name">"Filter by name"</label>
                    <input id="filter-name" type="search" prop:value=move || current.get().name />
                </div>
                <div class="filter"><label for="filter-status">"Status"</label>
                    <select id="filter-status" prop:value=move || current.get().status>
                        <option value="">"Any"</option>
                        {STATUSES.iter().map(|s| view! { <option value=*s selected=shown_first.status == *s>{*s}</option> }).collect_view()}
                    </select>
                </div>
                <div class="filter"><label for="filter-tag">"Tag"</label>
                    <select id="filter-tag" prop:value=move || current.get().tag>
                        <option value="">"Any"</option>
                        // The choices come with the list; until then, only "Any".
                        {move || clusters.get().as_deref().and_then(|read| read.as_ref().ok()).map(|list| all_tags(list)).unwrap_or_default().into_iter().map(|t| {
                            let selected = current.get_untracked().tag == t;
                            view! { <option value=t.clone() selected=selected>{t.clone()}</option> }
                        }).collect_view()}
                    </select>
                </div>
                <div class="filter"><label for="filter-sort">"Sort by"</label>
                    <select id="filter-sort" prop:value=move || current.get().sort>
                        <option value="">"API order"</option>
                        <option value="name" selected=shown_first.sort == "name">"Name"</option>
                        <option value="status" selected=shown_first.sort == "status">"Status"</option>
                        <option value="created" selected=shown_first.sort == "created">"Newest"</option>
                    </select>
                </div>
            </div>
            {move || {
                match clusters.get().as_deref() {
                    None => view! { <p class="loading">"Loading clusters…"</p> }.into_any(),
                    Some(Err(error)) => view! { <ErrorView error=error.clone() retry=move |_| clusters.refetch() /> }.into_any(),
                    Some(Ok(list)) if list.is_empty() => view! {
                        <div class="empty">
                            <p>"No clusters in this project yet."</p>
                            <A href=create_href attr:class="btn btn-primary">"Create cluster"</A>
                        </div>
                    }
                        .into_any(),
                    Some(Ok(list)) => {
                        let shown = filter_and_sort(list, &current.get());
                        if shown.is_empty() {
                            view! { <p class="empty">{format!("None of the {} clusters match these filters.", list.len())}</p> }.into_any()
                        } else {
                            crate::app::perf::mark_after_render("nks:clusters-rendered");
                            view! { <ClusterTable clusters=shown project=project_id() /> }.into_any()
                        }
                    }
                }
            }}
        </section>
    }
}

#[component]
fn ClusterTable(clusters: Vec<Cluster>, project: String) -> impl IntoView {
    view! {
        <table class="table" aria-label="Clusters">
            <thead>
                <tr>
                    <th scope="col">"Name"</th>
                    <th scope="col">"Status"</th>
                    <th scope="col">"Kubernetes"</th>
                    <th scope="col">"Autoscaling"</th>
                    <th scope="col">"Pools"</th>
                    <th scope="col">"Tags"</th>
                    <th scope="col">"Created"</th>
                </tr>
            </thead>
            <tbody>
                {clusters
                    .into_iter()
                    .map(|c| {
                        let href = format!("/projects/{project}/clusters/{}", c.id);
                        let status = c.status.as_str();
                        view! {
                            <tr>
                                <td><A href=href>{c.name}</A></td>
                                <td><span class=format!("badge badge-{status}")>{status}</span></td>
                                <td>{c.kubernetes_version}</td>
                                <td>{display::on_off(c.autoscaling)}</td>
                                <td>{c.pool_ids.len()}</td>
                                <td>{crate::app::components::tag_list(&c.tags)}</td>
                                <td>{display::timestamp(&c.created_at)}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}
