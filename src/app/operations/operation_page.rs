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
use leptos_router::params::ParamsMap;

use super::clock;
use super::indicator::describe;
use super::operation_details::{OpChanges, OpFields, OpStatus, OpTime, OpTimeline};
use super::operation_next::{form_address, resource_href, Outcome, Unknown};
use super::operation_resource::{locate, Place};
use crate::api::client::Client;
use crate::api::types::{Operation, OperationKind, OperationStatus, OperationType};
use crate::app::components::ErrorView;
use crate::app::context::{after_ops, page_title, Projects};
use crate::app::drafts::Draft;
use crate::app::paths::params::{route, OperationsRoute};
use crate::app::paths::to;
use crate::app::paths::A;
use crate::ops::Ops;
use crate::rules::history::{usual_duration, Timeline, Usual};
use crate::rules::operation::{elapsed_secs, is_terminal};
use crate::rules::outcome::ApiError;
use crate::rules::tracking::tracker::Tracked;

#[component]
pub fn OperationPage() -> impl IntoView {
    let route = route::<OperationsRoute>();
    let id = Memo::new(move |_| route.read().operation_id.clone().unwrap_or_default());
    move || view! { <OperationView id=id.get() /> }
}

/// Operation `id`'s page: its state is built by the helpers below, its
/// sections are in `operation_details` and its way on in `operation_next`.
#[component]
fn OperationView(id: String) -> impl IntoView {
    let client = expect_context::<Client>();
    let ops = expect_context::<Ops>();
    let here = Here::new();
    let Followed {
        tracked,
        fetched,
        op,
        fetch_error,
        lost,
        is_tracked,
    } = follow(id.clone(), &client, ops);
    let (timeline, watching) = record(op, lost);

    let (place, place_now) = place_of(here, op);
    let resource_name = move || match place_now.get() {
        Some(Place::Exists { name, .. }) => Some(name),
        _ => None,
    };
    let cluster_id = move || {
        here.cluster().or_else(|| match place_now.get() {
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
    page_title(move || {
        vec![
            title(),
            projects.name(&here.project_id()).unwrap_or_default(),
        ]
    });
    let started = Memo::new(move |_| op.with(|o| o.as_ref().map(|o| o.created_at.clone())));
    let form = move || {
        op.with(|o| {
            o.as_ref()
                .and_then(|o| form_address(o, &here.project_id(), cluster_id(), here.replacing()))
        })
    };
    on_end(op, watching, here, cluster_id);

    // Its time, and how long the same kind and type took in this project.
    let now = clock();
    let elapsed = move || {
        if lost.get() {
            return None;
        }
        let since = tracked.with(|t| t.as_ref().map(|t| t.since_ms));
        op.with(|o| o.as_ref().and_then(|o| elapsed_secs(o, since, now.get())))
    };
    let UsualTime { kind_type, usual } = usual_time(&client, op, here);

    let ops_href = move || to::operations(&here.project_id());
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
                <OpStatus id=id.clone() op is_tracked elapsed />
                {move || op.get().map(|o| view! {
                    <Outcome op=o place=place_now.get() form=form() opens=watching.get_value() && here.opens_when_done() replacing=here.replacing() cluster_id=cluster_id() />
                })}
                <OpFields op place place_now started />
                <OpTime op lost elapsed usual kind_type />
                <OpTimeline timeline />
                <OpChanges op />
            </Show>
        </section>
    }
}

/// The page's address: the route's project, and in the query the pool's
/// cluster, the pool a replacement replaces, and a form's hand-over.
#[derive(Clone, Copy)]
struct Here {
    route: Memo<OperationsRoute>,
    query: Memo<ParamsMap>,
}

impl Here {
    fn new() -> Self {
        Here {
            route: route::<OperationsRoute>(),
            query: use_query_map(),
        }
    }

    fn project_id(self) -> String {
        self.route.read().project_id.clone()
    }

    fn cluster(self) -> Option<String> {
        self.query.read().get("cluster").filter(|c| !c.is_empty())
    }

    fn replacing(self) -> Option<String> {
        self.query.read().get("replace").filter(|r| !r.is_empty())
    }

    /// Handed over by a form (`follow_href`): once done, it opens what it made.
    fn opens_when_done(self) -> bool {
        self.query.read().get("open").is_some_and(|v| v == "1")
    }
}

/// The operation as the tracker follows it, or as read once.
#[derive(Clone, Copy)]
struct Followed {
    tracked: Memo<Option<Tracked>>,
    fetched: LocalResource<Option<Result<Operation, ApiError>>>,
    op: Memo<Option<Operation>>,
    fetch_error: Memo<Option<ApiError>>,
    lost: Memo<bool>,
    is_tracked: Memo<bool>,
}

/// Follows operation `id`: from the tracker, or, not followed here yet, read
/// once and handed to the tracker if it runs.
fn follow(id: String, client: &Client, ops: Ops) -> Followed {
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
    Followed {
        tracked,
        fetched,
        op,
        fetch_error,
        lost,
        is_tracked,
    }
}

/// The statuses it was seen in, and whether it was seen running here.
fn record(
    op: Memo<Option<Operation>>,
    lost: Memo<bool>,
) -> (RwSignal<Timeline>, StoredValue<bool>) {
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
    (timeline, watching)
}

/// The resource, read again whenever an operation ends (or "Check now"), and
/// where it stands as last read.
fn place_of(
    here: Here,
    op: Memo<Option<Operation>>,
) -> (LocalResource<Option<Place>>, Memo<Option<Place>>) {
    let target = Memo::new(move |_| {
        op.with(|o| o.as_ref().map(|o| (o.kind.clone(), o.resource_id.clone())))
    });
    let place = after_ops(
        move || (target.get(), here.cluster(), here.project_id()),
        |client, (target, cluster, project)| async move {
            let (kind, id) = target?;
            Some(locate(&client, &project, &kind, &id, cluster).await)
        },
    );
    let place_now = Memo::new(move |_| place.get().flatten());
    (place, place_now)
}

/// Its end: the form's draft goes, and one watched to `done` opens what it made
/// or changed, as the forms did (a replacement shows what to do next instead).
fn on_end(
    op: Memo<Option<Operation>>,
    watching: StoredValue<bool>,
    here: Here,
    cluster_id: impl Fn() -> Option<String> + 'static,
) {
    let navigate = use_navigate();
    let ended = StoredValue::new(false);
    Effect::new(move |_| {
        let Some(o) = op.get() else { return };
        if o.status != OperationStatus::Done || ended.get_value() {
            return;
        }
        let Some(open) = resource_href(&o, &here.project_id(), cluster_id()) else {
            return;
        };
        ended.set_value(true);
        if let Some(address) = form_address(&o, &here.project_id(), cluster_id(), here.replacing())
        {
            Draft::at(&address).discard();
        }
        if watching.get_value() && here.opens_when_done() && here.replacing().is_none() {
            navigate(&open, Default::default());
        }
    });
}

/// The operation's kind and type, and how long such operations usually take.
#[derive(Clone, Copy)]
struct UsualTime {
    kind_type: Memo<Option<(OperationKind, OperationType)>>,
    /// From the project's past operations of that kind and type, once read.
    usual: Memo<Option<Result<Option<Usual>, ApiError>>>,
}

/// How long the same kind and type took in this project.
fn usual_time(client: &Client, op: Memo<Option<Operation>>, here: Here) -> UsualTime {
    let kind_type =
        Memo::new(move |_| op.with(|o| o.as_ref().map(|o| (o.kind.clone(), o.op_type.clone()))));
    let past = {
        let client = client.clone();
        LocalResource::new(move || {
            let client = client.clone();
            let (kind_type, project) = (kind_type.get(), here.project_id());
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
    UsualTime { kind_type, usual }
}
