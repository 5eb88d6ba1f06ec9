//! The operations page's filters: status, kind and type, and the resource by
//! name or id; each choice goes into the URL.

use leptos::prelude::*;

use super::results::kind_label;
use crate::api::types::{OperationKind, OperationStatus};
use crate::app::components::{label_of, NameSearch};
use crate::rules::operations_list::{CursorTrail, Known};
use crate::rules::tracking::feed::{FeedFilter, TYPES};

const STATUSES: [OperationStatus; 5] = [
    OperationStatus::Pending,
    OperationStatus::Running,
    OperationStatus::Unknown,
    OperationStatus::Done,
    OperationStatus::Failed,
];

const KINDS: [OperationKind; 6] = [
    OperationKind::NksCluster,
    OperationKind::NksNodePool,
    OperationKind::NksNode,
    OperationKind::NksLoadBalancer,
    OperationKind::Vpc,
    OperationKind::FirewallRule,
];

/// The filter form; `go` opens the filters chosen (replacing the entry) at the
/// first page.
#[component]
pub(super) fn OpsFilters<G>(
    filter: Memo<FeedFilter>,
    known: Memo<Vec<Known>>,
    go: G,
) -> impl IntoView
where
    G: Fn(FeedFilter, CursorTrail, bool) + Clone + Send + Sync + 'static,
{
    // The selects' own values, not the URL's: a change made before the URL
    // caught up with the one before it must not undo that one.
    let status_el = NodeRef::<leptos::html::Select>::new();
    let kind_el = NodeRef::<leptos::html::Select>::new();
    let type_el = NodeRef::<leptos::html::Select>::new();
    let set_filter = move |resource: Option<String>| {
        let value = |el: NodeRef<leptos::html::Select>| {
            el.get_untracked().map(|s| s.value()).unwrap_or_default()
        };
        let mut next = filter.get_untracked();
        next.status = value(status_el);
        next.kind = value(kind_el);
        next.op_type = value(type_el);
        if let Some(resource) = resource {
            next.resource = resource;
        }
        go(next, CursorTrail::default(), true);
    };
    let on_select = {
        let set = set_filter.clone();
        move |_| set(None)
    };
    let set_resource = Callback::new(move |id: String| set_filter(Some(id)));

    view! {
        <form class="ops-filters" aria-label="Filter operations" on:submit=|ev| ev.prevent_default()>
            <label>
                "Status"
                <select node_ref=status_el on:change=on_select.clone() prop:value=move || filter.get().status>
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
                <select node_ref=kind_el on:change=on_select.clone() prop:value=move || filter.get().kind>
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
                "Type"
                <select node_ref=type_el on:change=on_select prop:value=move || filter.get().op_type>
                    <option value="" selected=move || filter.get().op_type.is_empty()>"Any"</option>
                    {TYPES
                        .iter()
                        .map(|&v| view! { <option value=v selected=move || filter.get().op_type == v>{v}</option> })
                        .collect_view()}
                </select>
            </label>
            <NameSearch
                id="ops-resource"
                label="Resource"
                list_label="Resources"
                placeholder="Name or id"
                known
                selected=Signal::derive(move || filter.get().resource)
                on_choose=set_resource
                no_match="No resource this console knows matches. Press Enter to filter by it as an id."
                any_id=true
            >
                {move || {
                    let id = filter.get().resource;
                    if id.is_empty() {
                        "Any resource. Type a name or an id.".to_string()
                    } else {
                        format!("Showing operations of {}.", known.with(|k| label_of(k, &id)))
                    }
                }}
                {move || (!filter.get().resource.is_empty()).then(|| view! {
                    " "
                    <button type="button" class="btn btn-quiet" on:click=move |_| set_resource.run(String::new())>
                        "Show every resource"
                    </button>
                })}
            </NameSearch>
        </form>
    }
}
