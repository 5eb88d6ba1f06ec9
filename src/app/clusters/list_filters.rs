//! The clusters list's filter controls, and the URL they write to.

use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use leptos_router::params::ParamsMap;
use leptos_router::NavigateOptions;

use crate::api::decode::Sourced;
use crate::api::types::ClusterSummary;
use crate::app::paths::to;
use crate::rules::listing::{all_tags, ClusterQuery};
use crate::rules::outcome::ApiError;

/// The clusters list's read, which the filters offer their choices from.
pub(super) type Clusters = LocalResource<Result<Vec<Sourced<ClusterSummary>>, ApiError>>;

const STATUSES: [&str; 7] = [
    "pending", "creating", "updating", "ready", "deleting", "deleted", "error",
];

/// Sets one of the list's URL parameters (a filter, the sort or `figures`),
/// keeping the others.
pub(super) fn param_setter(
    current: Memo<ClusterQuery>,
    query: Memo<ParamsMap>,
    project_id: impl Fn() -> String + Copy + Send + Sync + 'static,
) -> impl Fn(&str, String) + Clone + Send + Sync + 'static {
    let navigate = use_navigate();
    move |key: &str, value: String| {
        let mut q = current.get_untracked();
        // What the link says of the columns stays, unless that is the change.
        let mut shown = query.read_untracked().get("figures").unwrap_or_default();
        match key {
            "name" => q.name = value,
            "status" => q.status = value,
            "tag" => q.tag = value,
            "figures" => shown = value,
            _ => q.sort = value,
        }
        let pairs: Vec<String> = [
            ("name", &q.name),
            ("status", &q.status),
            ("tag", &q.tag),
            ("sort", &q.sort),
            ("figures", &shown),
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
            &(to::clusters(&project_id()) + &search),
            NavigateOptions {
                replace: true,
                scroll: false,
                ..Default::default()
            },
        );
    }
}

/// The name, status, tag and sort controls, each named by its id (`filter-…`)
/// for the one listener around them.
#[component]
pub(super) fn FilterControls(
    clusters: Clusters,
    current: Memo<ClusterQuery>,
    /// The choices the page opens with.
    shown_first: ClusterQuery,
) -> impl IntoView {
    view! {
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
                {move || clusters.with(|read| read.as_ref().and_then(|read| read.as_ref().ok()).map(|list| all_tags(list))).unwrap_or_default().into_iter().map(|t| {
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
                <option value="-name" selected=shown_first.sort == "-name">"Name, Z to A"</option>
                <option value="-status" selected=shown_first.sort == "-status">"Status, Z to A"</option>
                <option value="-created" selected=shown_first.sort == "-created">"Oldest"</option>
            </select>
        </div>
    }
}
