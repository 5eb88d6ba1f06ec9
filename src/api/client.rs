//! The one place that speaks HTTP: URLs, the `Authorization` header, retries,
//! decoding and error classification all happen here and nowhere else.
//!
//! The API key lives in a signal owned by the session; it is read at send time,
//! put only in the `Authorization` header, and only ever sent to the configured
//! base URL. It never appears in a URL, an error or a log line.

use std::sync::Arc;

use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::decode::{from_json, DecodeError};
use super::types::*;
use crate::rules::backoff;
use crate::rules::outcome::ApiError;
use crate::rules::paged::{Gap, Listing, Start};
use gloo_net::http::{Method, Request, RequestBuilder, Response};
use nks_api::mutation::{Mutation, Verb};
use wasm_bindgen::JsValue;

/// Runtime configuration, read from `config.json` beside `index.html`, so one
/// build serves many deployments. A missing or null key takes its default.
#[serde_with::apply(_ => #[serde(default, deserialize_with = "nullable")])]
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Config {
    /// Where the API lives: `""` for the page's own origin, a path such as
    /// `/nks-api` for a same-origin proxy, or an absolute `https://…` URL.
    pub api_base_url: String,
    /// `light`, `dark` or `system` (the default: follow the person's preference).
    pub theme: Option<String>,
    /// A denser layout for embedding in a portal's iframe.
    pub compact: bool,
    /// Origins of host pages allowed to hand the console an API key by
    /// `postMessage`. Empty: no handoff is accepted from anyone.
    pub embed_origins: Vec<String>,
    /// How long to follow an operation before saying "ran out of time":
    /// `{"cluster_create": 1800, "default": 600}` (seconds; either may be left out).
    pub operation_deadline_secs: Option<crate::rules::tracking::Deadlines>,
}

/// Reads `config.json`. This is not an API call (no key is sent), but it is
/// HTTP, so it lives here with the rest. index.html preloads the file, and the
/// browser answers this fetch with that preload (its `no-cache` header does not
/// stop the match); without the preload, `no-cache` keeps a changed file fresh.
pub async fn load_config() -> Result<Config, String> {
    let response = Request::get("config.json")
        .header("Cache-Control", "no-cache")
        .send()
        .await
        .map_err(|e| format!("config.json could not be fetched: {e}"))?;
    if !response.ok() {
        return Err(format!(
            "config.json answered {} {}",
            response.status(),
            response.status_text()
        ));
    }
    let text = response
        .text()
        .await
        .map_err(|e| format!("config.json could not be read: {e}"))?;
    let config: Config = from_json(&text).map_err(|e| format!("config.json is not valid: {e}"))?;
    if !(config.api_base_url.is_empty()
        || config.api_base_url.starts_with('/')
        || config.api_base_url.starts_with("https://")
        || config.api_base_url.starts_with("http://"))
    {
        return Err(
            "config.json: api_base_url must be empty, a path starting with /, or an http(s) URL"
                .into(),
        );
    }
    Ok(config)
}

/// How a call may be retried. Reads follow the SDKs; a create must never be
/// re-sent after a 5xx or a lost connection, because there is no idempotency
/// key and a second create makes a duplicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Retry {
    /// The SDK rule: 408, 409, 429, 5xx and no-response, up to two retries.
    Sdk,
    /// Only answers that prove the server did not act: 408 and 429.
    NotActed,
}

/// The typed client. Cheap to clone; shared through context.
#[derive(Clone)]
pub struct Client {
    base: Arc<str>,
    key: RwSignal<Option<String>>,
    /// Set when the API refuses the key (401), so the app can return to the
    /// connect screen without losing the page.
    refused: RwSignal<Option<String>>,
    /// Calls waiting to be tried again, so the page says why and until when
    /// instead of looking as if it were still loading.
    pub waiting: RwSignal<Vec<Waiting>>,
    /// Ends those waits early ("Retry now"): each resolves its wait's promise.
    wakers: StoredValue<Vec<(u64, js_sys::Function)>, LocalStorage>,
    /// Bumped by every "Retry now": failed reads shown beside the waits are
    /// tried again with them (`ErrorView`).
    pub retried: RwSignal<u64>,
}

/// A call waiting before its next attempt.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    pub id: u64,
    /// What went wrong on the last attempt.
    pub error: ApiError,
    /// When the next attempt goes out (ms since the epoch).
    pub retry_at_ms: f64,
}

/// Takes a finished (or abandoned) wait off the list.
struct WaitEntry {
    id: u64,
    waiting: RwSignal<Vec<Waiting>>,
    wakers: StoredValue<Vec<(u64, js_sys::Function)>, LocalStorage>,
}

impl Drop for WaitEntry {
    fn drop(&mut self) {
        let id = self.id;
        self.waiting.try_update(|w| w.retain(|x| x.id != id));
        self.wakers
            .try_update_value(|w| w.retain(|(x, _)| *x != id));
    }
}

struct Answer {
    status: u16,
    text: String,
}

/// Aborts the fetch if the future awaiting it is dropped (a page left, a
/// resource refetched), so no stale request keeps running.
struct AbortOnDrop(Option<web_sys::AbortController>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        if let Some(controller) = self.0.take() {
            controller.abort();
        }
    }
}

impl Client {
    pub fn new(
        config: &Config,
        key: RwSignal<Option<String>>,
        refused: RwSignal<Option<String>>,
    ) -> Self {
        let base = config.api_base_url.trim_end_matches('/').to_string();
        Client {
            base: base.into(),
            key,
            refused,
            waiting: RwSignal::new(Vec::new()),
            wakers: StoredValue::new_local(Vec::new()),
            retried: RwSignal::new(0),
        }
    }

    /// The API's base URL in full, as a snippet of code needs it: the
    /// configured one, or this page's origin before a path.
    pub fn base_url(&self) -> String {
        if self.base.starts_with("http://") || self.base.starts_with("https://") {
            return self.base.to_string();
        }
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        format!("{origin}{}", self.base)
    }

    /// Ends every wait now: the waiting calls are tried again at once.
    pub fn retry_now(&self) {
        self.retried.update(|n| *n += 1);
        let wakers = self
            .wakers
            .try_update_value(std::mem::take)
            .unwrap_or_default();
        for (_, wake) in wakers {
            let _ = wake.call0(&JsValue::UNDEFINED);
        }
    }

    /// Waits `wait_ms` before the next attempt. A wait worth telling about is
    /// listed in [`Client::waiting`] (with why and until when) and can be cut
    /// short by [`Client::retry_now`].
    async fn pause(&self, error: ApiError, wait_ms: u64, announce: bool) {
        let wait_ms = wait_ms.min(i32::MAX as u64);
        if !announce {
            gloo_timers::future::TimeoutFuture::new(wait_ms as u32).await;
            return;
        }
        thread_local!(static NEXT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) });
        let id = NEXT.with(|n| {
            n.set(n.get() + 1);
            n.get()
        });
        let wakers = self.wakers;
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            let _ = window()
                .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, wait_ms as i32);
            let _ = wakers.try_update_value(|w| w.push((id, resolve)));
        });
        self.waiting.update(|w| {
            w.push(Waiting {
                id,
                error,
                retry_at_ms: js_sys::Date::now() + wait_ms as f64,
            })
        });
        let _entry = WaitEntry {
            id,
            waiting: self.waiting,
            wakers,
        };
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }

    fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// One attempt. `Err`, with the browser's reason, only when no response came
    /// at all.
    async fn attempt(
        &self,
        method: Method,
        path: &str,
        key: &str,
        body: Option<&str>,
    ) -> Result<Response, String> {
        let mut guard = AbortOnDrop(web_sys::AbortController::new().ok());
        let signal = guard.0.as_ref().map(web_sys::AbortController::signal);
        let request = RequestBuilder::new(&self.url(path))
            .method(method)
            .header("Accept", "application/json")
            .header("Authorization", &format!("Bearer {key}"))
            .abort_signal(signal.as_ref());
        let request = match body {
            Some(body) => request
                .header("Content-Type", "application/json")
                .body(body),
            None => request.build(),
        }
        .map_err(|e| e.to_string())?;
        let result = request.send().await.map_err(|e| e.to_string());
        guard.0 = None; // answered: nothing left to abort
        result
    }

    /// Sends with retries and turns every failure into an [`ApiError`].
    async fn send(
        &self,
        call: &str,
        method: Method,
        path: &str,
        body: Option<String>,
        retry: Retry,
        key_override: Option<&str>,
    ) -> Result<Answer, ApiError> {
        let key = match key_override {
            Some(k) => k.to_string(),
            None => self.key.get_untracked().unwrap_or_default(),
        };
        let mut retries_done = 0;
        loop {
            let outcome = self
                .attempt(method.clone(), path, &key, body.as_deref())
                .await;
            let (status, wait_hint, x_should_retry, response) = match outcome {
                Ok(response) => {
                    let status = response.status();
                    let hint = backoff::server_delay_ms(
                        response.headers().get("retry-after-ms").as_deref(),
                        response.headers().get("retry-after").as_deref(),
                        js_sys::Date::now(),
                    );
                    (
                        Some(status),
                        hint,
                        response.headers().get("x-should-retry"),
                        Ok(response),
                    )
                }
                Err(detail) => (None, None, None, Err(detail)),
            };
            let response = match response {
                Ok(response) if response.ok() => {
                    let text = response.text().await.map_err(|e| ApiError::Unreachable {
                        call: call.to_string(),
                        detail: format!("the connection closed while reading the answer ({e})"),
                    })?;
                    return Ok(Answer {
                        status: response.status(),
                        text,
                    });
                }
                other => other,
            };
            let error = match response {
                Ok(response) => {
                    let status = response.status();
                    let text = response.text().await.unwrap_or_default();
                    let mut message = said(&text).await;
                    if message.is_empty() {
                        message = response.status_text();
                    }
                    ApiError::Status {
                        call: call.to_string(),
                        status,
                        message,
                        retry_after_ms: wait_hint,
                    }
                }
                Err(detail) => ApiError::Unreachable {
                    call: call.to_string(),
                    detail: format!("no response ({detail}); the network may be down, or the API refused this origin"),
                },
            };
            let may_retry = match retry {
                Retry::Sdk => backoff::should_retry(status, x_should_retry.as_deref()),
                Retry::NotActed => matches!(status, Some(408 | 429)),
            };
            if may_retry && retries_done < backoff::MAX_RETRIES {
                let wait = wait_hint
                    .map(|ms| ms + backoff::SERVER_DELAY_GUARD_MS)
                    .unwrap_or_else(|| {
                        backoff::retry_delay_ms(retries_done, js_sys::Math::random())
                    });
                let announce = backoff::announce_wait(retries_done, wait);
                self.pause(error, wait, announce).await;
                retries_done += 1;
                continue;
            }
            if let ApiError::Status {
                status: 401,
                message,
                ..
            } = &error
            {
                if key_override.is_none() {
                    // Back to the connect screen, on a task of its own: that
                    // unmounts the page whose read is being answered here, and
                    // doing it from inside this future would dispose what the
                    // page's render task is still reading.
                    let (refused, key, message) = (self.refused, self.key, message.clone());
                    set_timeout(
                        move || {
                            refused.set(Some(message));
                            key.set(None);
                        },
                        std::time::Duration::ZERO,
                    );
                }
            }
            return Err(error);
        }
    }

    async fn get<T: DeserializeOwned>(&self, call: &str, path: &str) -> Result<T, ApiError> {
        let answer = self
            .send(call, Method::GET, path, None, Retry::Sdk, None)
            .await?;
        decode(call, &answer)
    }

    /// A mutation: the body goes out once, and again only when the server proves
    /// it did not act (408, 429). The answer is the Operation to follow.
    /// Sends a change: the one path every mutation takes, as the request
    /// [`Mutation`] describes (the code panel writes the same value as code).
    pub async fn apply(&self, mutation: &Mutation) -> Result<Operation, ApiError> {
        let method = match mutation.verb() {
            Verb::Post => Method::POST,
            Verb::Patch => Method::PATCH,
            Verb::Delete => Method::DELETE,
        };
        let call = mutation.call();
        let answer = self
            .send(
                call,
                method,
                &mutation.path(),
                mutation.body(),
                Retry::NotActed,
                None,
            )
            .await?;
        decode(call, &answer)
    }

    /// Every page of a list, following `next_cursor` to the end. Any failing page
    /// fails the whole call: a partial list would read as "these are all", and an
    /// empty one as "there are none" (an autoscaler's cue to scale everything up).
    /// `T` is the item type, or [`super::decode::Sourced`] of it for a table that
    /// compares each read with the last.
    async fn list_all<T: DeserializeOwned>(
        &self,
        call: &str,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<Vec<T>, ApiError> {
        let mut items = Vec::new();
        self.walk_pages(call, path, query, &mut |answer| {
            let page: Page<T> = decode(call, answer)?;
            let next = page.next_cursor().map(str::to_string);
            items.extend(page.items);
            Ok(next)
        })
        .await?;
        Ok(items)
    }

    /// The walk of [`Client::list_all`], the same for every item type, so its
    /// code is there once rather than once per type: `read` decodes a page's
    /// answer, keeps its items and gives the next cursor.
    async fn walk_pages(
        &self,
        call: &str,
        path: &str,
        query: &[(&str, String)],
        read: &mut dyn FnMut(&Answer) -> Result<Option<String>, ApiError>,
    ) -> Result<(), ApiError> {
        let mut cursor: Option<String> = None;
        loop {
            let mut params: Vec<(&str, String)> = query.to_vec();
            params.push(("limit", "100".into()));
            if let Some(c) = &cursor {
                params.push(("cursor", c.clone()));
            }
            let answer = self
                .send(
                    call,
                    Method::GET,
                    &with_query(path, &params),
                    None,
                    Retry::Sdk,
                    None,
                )
                .await?;
            match read(&answer)? {
                Some(c) if Some(&c) != cursor.as_ref() => cursor = Some(c),
                _ => return Ok(()),
            }
        }
    }

    /// A list's pages from `from` (the first page, or a gap's) to the end,
    /// where a page that still fails after the usual retries does not fail the
    /// list: the pages read come back with a typed gap (that page, its cursor,
    /// the error). Every page after it is unread too: only its cursor reaches
    /// them. For a view that shows what loaded and marks what did not, and
    /// never presents the pages read as all (see `rules::paged`).
    async fn pages_from<T: DeserializeOwned>(
        &self,
        call: &str,
        path: &str,
        query: &[(&str, String)],
        from: &Start,
    ) -> Listing<T> {
        let mut listing = Listing::default();
        let mut page = from.page.max(1);
        let mut cursor = from.cursor.clone();
        loop {
            let mut params: Vec<(&str, String)> = query.to_vec();
            params.push(("limit", "100".into()));
            if let Some(c) = &cursor {
                params.push(("cursor", c.clone()));
            }
            let read = match self
                .send(
                    call,
                    Method::GET,
                    &with_query(path, &params),
                    None,
                    Retry::Sdk,
                    None,
                )
                .await
            {
                Ok(answer) => decode::<Page<T>>(call, &answer),
                Err(error) => Err(error),
            };
            let read = match read {
                Ok(read) => read,
                Err(error) => {
                    listing.gap = Some(Gap {
                        page,
                        cursor,
                        error,
                    });
                    return listing;
                }
            };
            let next = read.next_cursor().map(str::to_string);
            if let Some(pagination) = &read.pagination {
                listing.total = Some(pagination.total_count as usize);
            }
            listing.items.extend(read.items);
            match next {
                Some(c) if Some(&c) != cursor.as_ref() => {
                    cursor = Some(c);
                    page += 1;
                }
                _ => return listing,
            }
        }
    }

    // ----- reads -----

    /// Tests a key with a real call before it is kept.
    pub async fn check_key(&self, key: &str) -> Result<User, ApiError> {
        let answer = self
            .send(
                "Check API key",
                Method::GET,
                "/v1/user",
                None,
                Retry::Sdk,
                Some(key),
            )
            .await?;
        decode("Check API key", &answer)
    }

    /// The projects the key can see, as `Project`s, or as `ProjectSummary`s for
    /// the shell, which shows only their names.
    pub async fn projects<T: DeserializeOwned>(&self) -> Result<Vec<T>, ApiError> {
        self.list_all("List projects", "/v1/projects", &[]).await
    }

    /// A project's clusters, as `Cluster`s, or as `Sourced<Cluster>`s for the list
    /// that keys its rows by what each cluster was read as.
    pub async fn clusters<T: DeserializeOwned>(
        &self,
        project_id: &str,
    ) -> Result<Vec<T>, ApiError> {
        self.list_all(
            "List clusters",
            "/v1/nks/clusters",
            &[("project_id", project_id.to_string())],
        )
        .await
    }

    pub async fn cluster(&self, cluster_id: &str) -> Result<Cluster, ApiError> {
        self.get(
            "Get cluster",
            &format!("/v1/nks/clusters/{}", seg(cluster_id)),
        )
        .await
    }

    /// A cluster's pools, as `Pool`s, or as `Sourced<Pool>`s for a table that
    /// compares each read with the last.
    pub async fn pools<T: DeserializeOwned>(&self, cluster_id: &str) -> Result<Vec<T>, ApiError> {
        self.list_all(
            "List pools",
            &format!("/v1/nks/clusters/{}/pools", seg(cluster_id)),
            &[],
        )
        .await
    }

    /// A cluster's pools from `from` (page 1, or the page of a gap) to the end:
    /// the pages read, and the page that could not be read, if one could not
    /// (see [`Client::pages_from`]). For the cluster page, which shows the pools
    /// read, marks the gap and retries from it alone.
    pub async fn pools_from<T: DeserializeOwned>(
        &self,
        cluster_id: &str,
        from: &Start,
    ) -> Listing<T> {
        let path = format!("/v1/nks/clusters/{}/pools", seg(cluster_id));
        self.pages_from("List pools", &path, &[], from).await
    }

    /// One page of a cluster's pools (the first when `cursor` is `None`), for a
    /// reader that sums them as they come and says so while more are to come
    /// (the clusters list's figures). The caller follows `next_cursor`.
    pub async fn pools_page<T: DeserializeOwned>(
        &self,
        cluster_id: &str,
        cursor: Option<&str>,
    ) -> Result<Page<T>, ApiError> {
        let mut params = vec![("limit", "100".to_string())];
        if let Some(c) = cursor {
            params.push(("cursor", c.to_string()));
        }
        let path = format!("/v1/nks/clusters/{}/pools", seg(cluster_id));
        self.get("List pools", &with_query(&path, &params)).await
    }

    pub async fn pool(&self, cluster_id: &str, pool_id: &str) -> Result<Pool, ApiError> {
        self.get(
            "Get pool",
            &format!(
                "/v1/nks/clusters/{}/pools/{}",
                seg(cluster_id),
                seg(pool_id)
            ),
        )
        .await
    }

    pub async fn nodes(&self, cluster_id: &str, pool_id: &str) -> Result<Vec<Node>, ApiError> {
        let path = format!(
            "/v1/nks/clusters/{}/pools/{}/nodes",
            seg(cluster_id),
            seg(pool_id)
        );
        self.list_all("List nodes", &path, &[]).await
    }

    pub async fn controllers(&self, cluster_id: &str) -> Result<Vec<Controller>, ApiError> {
        let path = format!("/v1/nks/clusters/{}/controllers", seg(cluster_id));
        self.list_all("List controllers", &path, &[]).await
    }

    pub async fn controller_volumes(
        &self,
        cluster_id: &str,
        controller_id: &str,
    ) -> Result<Vec<Volume>, ApiError> {
        let path = format!(
            "/v1/nks/clusters/{}/controllers/{}/volumes",
            seg(cluster_id),
            seg(controller_id)
        );
        self.list_all("List controller volumes", &path, &[]).await
    }

    pub async fn load_balancers(&self, cluster_id: &str) -> Result<Vec<LoadBalancer>, ApiError> {
        let path = format!("/v1/nks/clusters/{}/load_balancers", seg(cluster_id));
        self.list_all("List load balancers", &path, &[]).await
    }

    pub async fn load_balancer(
        &self,
        cluster_id: &str,
        load_balancer_id: &str,
    ) -> Result<LoadBalancer, ApiError> {
        let path = format!(
            "/v1/nks/clusters/{}/load_balancers/{}",
            seg(cluster_id),
            seg(load_balancer_id)
        );
        self.get("Get load balancer", &path).await
    }

    pub async fn persistent_volume_claims(
        &self,
        cluster_id: &str,
    ) -> Result<Vec<PersistentVolumeClaim>, ApiError> {
        let path = format!(
            "/v1/nks/clusters/{}/persistent_volume_claims",
            seg(cluster_id)
        );
        self.list_all("List persistent volume claims", &path, &[])
            .await
    }

    /// The volumes of every node in a pool (the SDK has no get by id here: a
    /// volume is read by id under its node).
    pub async fn pool_volumes(
        &self,
        cluster_id: &str,
        pool_id: &str,
    ) -> Result<Vec<Volume>, ApiError> {
        let path = format!(
            "/v1/nks/clusters/{}/pools/{}/volumes",
            seg(cluster_id),
            seg(pool_id)
        );
        self.list_all("List pool volumes", &path, &[]).await
    }

    pub async fn node_volumes(
        &self,
        cluster_id: &str,
        pool_id: &str,
        node_id: &str,
    ) -> Result<Vec<Volume>, ApiError> {
        let path = format!(
            "/v1/nks/clusters/{}/pools/{}/nodes/{}/volumes",
            seg(cluster_id),
            seg(pool_id),
            seg(node_id)
        );
        self.list_all("List node volumes", &path, &[]).await
    }

    pub async fn vpcs(&self, project_id: &str) -> Result<Vec<Vpc>, ApiError> {
        self.list_all(
            "List VPCs",
            "/v1/networking/vpcs",
            &[("project_id", project_id.to_string())],
        )
        .await
    }

    pub async fn kubernetes_versions(&self) -> Result<Vec<KubernetesVersion>, ApiError> {
        self.list_all(
            "List Kubernetes versions",
            "/v1/nks/kubernetes_versions",
            &[],
        )
        .await
    }

    /// The instance types, as `InstanceType`s, or as `InstanceSize`s for the
    /// capacity figures, which read only their sizes.
    pub async fn instance_types<T: DeserializeOwned>(&self) -> Result<Vec<T>, ApiError> {
        self.list_all("List instance types", "/v1/instance_types", &[])
            .await
    }

    pub async fn regions(&self) -> Result<Vec<Region>, ApiError> {
        self.list_all("List regions", "/v1/regions", &[]).await
    }

    /// The project's operations, as `Operation`s, or left as JSON (`RawValue`):
    /// the tracker's search for operations in flight only reads them into
    /// `Operation`s when there are any, in code loaded for that.
    pub async fn operations<T: DeserializeOwned>(
        &self,
        project_id: &str,
        filters: &[(&str, String)],
    ) -> Result<Vec<T>, ApiError> {
        self.list_all(
            "List operations",
            "/v1/operations",
            &in_project(project_id, filters),
        )
        .await
    }

    /// One page of the project's operations: `limit` of them from `cursor` (the
    /// first page without one), with the cursor of the next and the total. A
    /// failed read fails this page alone; the pages already shown stay valid.
    pub async fn operations_page(
        &self,
        project_id: &str,
        filters: &[(&str, String)],
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<Page<Operation>, ApiError> {
        let mut query = in_project(project_id, filters);
        query.push(("limit", limit.to_string()));
        if let Some(cursor) = cursor {
            query.push(("cursor", cursor.to_string()));
        }
        self.get("List operations", &with_query("/v1/operations", &query))
            .await
    }

    pub async fn operation(&self, operation_id: &str) -> Result<Operation, ApiError> {
        self.get(
            "Get operation",
            &format!("/v1/operations/{}", seg(operation_id)),
        )
        .await
    }

    pub async fn kubeconfig(&self, cluster_id: &str) -> Result<Kubeconfig, ApiError> {
        self.get(
            "Get kubeconfig",
            &format!("/v1/nks/clusters/{}/kubeconfig", seg(cluster_id)),
        )
        .await
    }

    pub async fn quota(&self, region: &str) -> Result<Quota, ApiError> {
        self.get("Get quota", &format!("/v1/quotas/{}", seg(region)))
            .await
    }

    // ----- plans: the same bodies as the mutations, checked and priced, nothing changed -----

    /// A pre-flight call: side-effect free, so it may be retried like a read.
    async fn plan(
        &self,
        call: &str,
        method: Method,
        path: &str,
        body: &impl Serialize,
    ) -> Result<Answer, ApiError> {
        self.send(call, method, path, Some(json_body(body)), Retry::Sdk, None)
            .await
    }

    /// `Ok` when the platform would accept this create; a refusal carries its reason.
    pub async fn cluster_availability(&self, body: &ClusterCreate) -> Result<(), ApiError> {
        self.plan(
            "Check cluster availability",
            Method::POST,
            "/v1/nks/clusters/availability",
            body,
        )
        .await
        .map(drop)
    }

    pub async fn cluster_update_availability(
        &self,
        cluster_id: &str,
        body: &ClusterUpdate,
    ) -> Result<(), ApiError> {
        let path = format!("/v1/nks/clusters/{}/availability", seg(cluster_id));
        self.plan("Check cluster update", Method::PATCH, &path, body)
            .await
            .map(drop)
    }

    pub async fn pool_availability(
        &self,
        cluster_id: &str,
        body: &PoolCreate,
    ) -> Result<(), ApiError> {
        let path = format!("/v1/nks/clusters/{}/pools/availability", seg(cluster_id));
        self.plan("Check pool availability", Method::POST, &path, body)
            .await
            .map(drop)
    }

    pub async fn pool_update_availability(
        &self,
        cluster_id: &str,
        pool_id: &str,
        body: &PoolUpdate,
    ) -> Result<(), ApiError> {
        let path = format!(
            "/v1/nks/clusters/{}/pools/{}/availability",
            seg(cluster_id),
            seg(pool_id)
        );
        self.plan("Check pool update", Method::PATCH, &path, body)
            .await
            .map(drop)
    }

    pub async fn cluster_cost(&self, body: &ClusterCreate) -> Result<CostQuote, ApiError> {
        let answer = self
            .plan("Price cluster", Method::POST, "/v1/nks/clusters/cost", body)
            .await?;
        decode("Price cluster", &answer)
    }

    /// The quote of a cluster update, as a `CostQuoteUpdate`, or as a
    /// `PriceNow` for the capacity figures (an unchanged cluster's price).
    pub async fn cluster_update_cost<T: DeserializeOwned>(
        &self,
        cluster_id: &str,
        body: &ClusterUpdate,
    ) -> Result<T, ApiError> {
        let path = format!("/v1/nks/clusters/{}/cost", seg(cluster_id));
        let answer = self
            .plan("Price cluster update", Method::PATCH, &path, body)
            .await?;
        decode("Price cluster update", &answer)
    }

    pub async fn pool_cost(
        &self,
        cluster_id: &str,
        body: &PoolCreate,
    ) -> Result<CostQuote, ApiError> {
        let path = format!("/v1/nks/clusters/{}/pools/cost", seg(cluster_id));
        let answer = self.plan("Price pool", Method::POST, &path, body).await?;
        decode("Price pool", &answer)
    }

    /// The quote of a pool update, as a `CostQuoteUpdate`, or as a `PriceNow`.
    pub async fn pool_update_cost<T: DeserializeOwned>(
        &self,
        cluster_id: &str,
        pool_id: &str,
        body: &PoolUpdate,
    ) -> Result<T, ApiError> {
        let path = format!(
            "/v1/nks/clusters/{}/pools/{}/cost",
            seg(cluster_id),
            seg(pool_id)
        );
        let answer = self
            .plan("Price pool update", Method::PATCH, &path, body)
            .await?;
        decode("Price pool update", &answer)
    }

    // ----- mutations: each answers with an Operation, never the resource -----

    // ----- new VPC from the create-cluster form -----

    /// `Ok` when the platform would accept this VPC create; a refusal carries its reason.
    pub async fn vpc_availability(&self, body: &VpcCreate) -> Result<(), ApiError> {
        self.plan(
            "Check VPC availability",
            Method::POST,
            "/v1/networking/vpcs/availability",
            body,
        )
        .await
        .map(drop)
    }

    pub async fn vpc_cost(&self, body: &VpcCreate) -> Result<CostQuote, ApiError> {
        let answer = self
            .plan("Price VPC", Method::POST, "/v1/networking/vpcs/cost", body)
            .await?;
        decode("Price VPC", &answer)
    }

    // ----- networking: one VPC, its firewall rules, and their mutations -----

    pub async fn vpc(&self, vpc_id: &str) -> Result<Vpc, ApiError> {
        self.get("Get VPC", &format!("/v1/networking/vpcs/{}", seg(vpc_id)))
            .await
    }

    /// Every firewall rule of a VPC, oldest first. The platform denies what no
    /// rule allows, so a partial list would understate what is open: a failing
    /// page fails the whole read (see `list_all`).
    pub async fn firewall_rules(&self, vpc_id: &str) -> Result<Vec<FirewallRule>, ApiError> {
        let path = format!("/v1/networking/vpcs/{}/firewall_rules", seg(vpc_id));
        self.list_all("List firewall rules", &path, &[]).await
    }
}

/// What an error answer's body says ([`error_message`]). Reading any JSON takes
/// serde_json's `Value` (its parser, map and writer), which only a refused or
/// failed call needs, so in the split build that code is fetched with the first
/// such answer, and kept. Should that fetch fail too, the
/// body is shown as text, as a body that is not JSON is.
async fn said(body: &str) -> String {
    match split_call!(error_reader()) {
        Ok(read) => read(body),
        Err(crate::SplitLoadError) => error_text(body),
    }
}

/// The split point of [`said`].
#[cfg_attr(nks_split, wasm_split_helpers::wasm_split(error_body, fallible))]
fn error_reader() -> Result<fn(&str) -> String, crate::SplitLoadError> {
    Ok(error_message)
}

fn decode<T: DeserializeOwned>(call: &str, answer: &Answer) -> Result<T, ApiError> {
    from_json(&answer.text).map_err(|e| malformed(call, answer, e))
}

/// An answer that could not be read as what the call expects. One function,
/// not a copy per type [`decode`] reads.
fn malformed(call: &str, answer: &Answer, e: DecodeError) -> ApiError {
    ApiError::Malformed {
        call: call.to_string(),
        detail: format!("status {}, {e}", answer.status),
    }
}

/// A request body as JSON text. The bodies are plain structs of strings,
/// numbers and lists, which always serialise.
fn json_body(body: &impl Serialize) -> String {
    serde_json::to_string(body).unwrap_or_default()
}

/// `project_id` first, then `filters`.
fn in_project<'a>(project_id: &str, filters: &[(&'a str, String)]) -> Vec<(&'a str, String)> {
    let mut query = vec![("project_id", project_id.to_string())];
    query.extend(filters.iter().cloned());
    query
}

/// A path segment or query value, percent-encoded as a change's path is
/// (`nks_api::mutation::segment`): ids come from URLs the user can edit.
fn seg(value: &str) -> String {
    nks_api::mutation::segment(value)
}

fn with_query(path: &str, params: &[(&str, String)]) -> String {
    if params.is_empty() {
        return path.to_string();
    }
    let query: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{k}={}", seg(v)))
        .collect();
    format!("{path}?{}", query.join("&"))
}
