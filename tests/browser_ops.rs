//! The operations tracker in a real browser: its timers end with it, and trackers
//! of several tabs (here: two in one page, on the same channel and lock) share
//! one poller. Also the client's walk through a list's pages, which the
//! tracker's searches use.
#![cfg(target_arch = "wasm32")]

use std::future::Future;
use std::time::Duration;

use leptos::prelude::*;
use nks_console::api::client::{Client, Config};
use nks_console::api::types::{Operation, OperationKind, OperationStatus, OperationType};
use nks_console::ops::Ops;
use nks_console::rules::outcome::ApiError;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Wraps `setTimeout`/`clearTimeout` so the page knows which timers are still
/// pending (scheduled, neither fired nor cleared).
fn count_timers() {
    js_sys::eval(
        r#"
        if (!window.__pendingTimers) {
          const pending = new Set();
          const set = window.setTimeout.bind(window);
          const clear = window.clearTimeout.bind(window);
          window.__pendingTimers = pending;
          window.setTimeout = function (fn, ms, ...args) {
            const id = set(function () {
              pending.delete(id);
              if (typeof fn === 'function') fn.apply(this, args);
            }, ms);
            pending.add(id);
            return id;
          };
          window.clearTimeout = function (id) {
            pending.delete(id);
            clear(id);
          };
        }
        "#,
    )
    .expect("the timer counter installs");
}

/// A count the page keeps in a global (0 when it is not there).
fn page_count(expression: &str) -> u32 {
    js_sys::eval(expression)
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(-1.0) as u32
}

fn pending_timers() -> u32 {
    page_count("window.__pendingTimers.size")
}

/// Lets already-queued microtasks run (a dropped task is collected there), without
/// scheduling a timer of our own.
async fn settle() {
    for _ in 0..3 {
        let _ =
            wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&JsValue::NULL)).await;
    }
}

async fn sleep(ms: u64) {
    gloo_timers::future::sleep(Duration::from_millis(ms)).await;
}

/// Waits until `done` holds, checking every 20 ms, for at most `limit_ms`; tells
/// whether it came to hold. The browser grants a lock in its own time, which on
/// a busy machine can take longer than a fixed sleep.
async fn until(limit_ms: u64, done: impl Fn() -> bool) -> bool {
    until_answered(limit_ms, || std::future::ready(done())).await
}

/// [`until`], for a check that has to wait for its answer.
async fn until_answered<F: Future<Output = bool>>(limit_ms: u64, done: impl Fn() -> F) -> bool {
    let mut waited = 0;
    while !done().await {
        if waited >= limit_ms {
            return false;
        }
        sleep(20).await;
        waited += 20;
    }
    true
}

/// Who holds and who waits for the tracker's lock in this page, as the browser
/// reports it (`navigator.locks.query()`).
async fn lock_holders() -> (u32, u32) {
    let query = js_sys::eval(
        "navigator.locks.query().then(s => [\
           s.held.filter(l => l.name === 'nks-console.ops-leader').length,\
           s.pending.filter(l => l.name === 'nks-console.ops-leader').length])",
    )
    .expect("the lock query starts");
    let answer = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(query))
        .await
        .expect("the lock query answers");
    let count = |i| {
        js_sys::Reflect::get_u32(&answer, i)
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(-1.0) as u32
    };
    (count(0), count(1))
}

/// Waits, for at most `limit_ms`, until the lock has `held` holders and waiters.
async fn locks_come_to(limit_ms: u64, held: (u32, u32)) -> bool {
    until_answered(limit_ms, || async move { lock_holders().await == held }).await
}

/// Every tracker test starts with nobody holding or waiting for the lock. The
/// browser releases it a moment after the holder lets go, so this waits for it.
async fn no_tracker_left() {
    assert!(
        locks_come_to(5_000, (0, 0)).await,
        "a tracker of an earlier test still holds or waits for the lock: {:?}",
        lock_holders().await
    );
}

/// Ends a tracker test: its owner goes, and with it the lock.
async fn lock_released() {
    assert!(
        locks_come_to(5_000, (0, 0)).await,
        "the lock is released once every tracker's owner is gone: {:?}",
        lock_holders().await
    );
}

/// A client for an address where nothing answers: every poll fails transiently.
fn unreachable_client() -> Client {
    Client::new(
        &Config {
            api_base_url: "http://127.0.0.1:9".into(),
            ..Config::default()
        },
        RwSignal::new(Some("test-key".into())),
        RwSignal::new(None),
    )
}

fn running(id: &str) -> Operation {
    Operation {
        id: id.into(),
        kind: OperationKind::NksNodePool,
        op_type: OperationType::Update,
        status: OperationStatus::Running,
        resource_id: format!("pool-{id}"),
        project_id: "p1".into(),
        ..Operation::default()
    }
}

fn clear_saved() {
    if let Ok(Some(storage)) = web_sys::window().unwrap().local_storage() {
        let _ = storage.remove_item("nks-console.operations");
    }
}

fn start_tracker() -> (Owner, Ops) {
    // Mounting is what starts Leptos' executor, on which the tracker's requests run.
    let document = web_sys::window().unwrap().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    leptos::mount::mount_to(host, || ()).forget();
    let owner = Owner::new();
    let ops = owner.with(|| Ops::provide(unreachable_client()));
    (owner, ops)
}

#[wasm_bindgen_test]
async fn no_timer_of_the_tracker_outlives_it() {
    no_tracker_left().await;
    clear_saved();
    count_timers();
    let before = pending_timers();
    let (owner, ops) = start_tracker();
    ops.track(running("op-1"));
    assert!(until(5_000, || ops.is_leader()).await, "alone, it leads");
    assert_eq!(lock_holders().await, (1, 0), "it holds the lock");
    assert!(
        until(5_000, || pending_timers() > before || ops.timer_scheduled()).await,
        "following an operation keeps a timer (the next poll or a retry's backoff)"
    );
    owner.cleanup();
    assert!(!ops.timer_scheduled());
    settle().await;
    assert_eq!(
        pending_timers(),
        before,
        "the next poll and any retry wait are cleared with the owner"
    );
    // The poll that was in flight was dropped too: nothing reschedules later.
    sleep(2500).await;
    assert_eq!(pending_timers(), before);
    lock_released().await;
}

#[wasm_bindgen_test]
async fn a_tracker_with_nothing_to_follow_sets_no_timer() {
    no_tracker_left().await;
    clear_saved();
    count_timers();
    let before = pending_timers();
    let (owner, ops) = start_tracker();
    assert!(until(5_000, || ops.is_leader()).await, "alone, it leads");
    sleep(200).await;
    assert!(!ops.timer_scheduled());
    assert_eq!(pending_timers(), before);
    owner.cleanup();
    lock_released().await;
}

#[wasm_bindgen_test]
async fn a_second_tracker_follows_the_first_and_takes_over_when_it_goes() {
    no_tracker_left().await;
    clear_saved();
    let (first_owner, first) = start_tracker();
    assert!(until(5_000, || first.is_leader()).await, "alone, it leads");
    let (second_owner, second) = start_tracker();
    assert!(
        locks_come_to(5_000, (1, 1)).await,
        "the second queues for the lock"
    );
    assert!(!second.is_leader(), "one poller for all tabs");
    assert!(!second.timer_scheduled());

    // A mutation answered in the follower is followed by the leader.
    second.track(running("op-2"));
    assert!(
        until(5_000, || first.get("op-2").is_some()).await,
        "the leader follows it"
    );
    assert!(
        !second.timer_scheduled(),
        "the follower still does not poll"
    );

    first_owner.cleanup();
    assert!(
        until(5_000, || second.is_leader()).await,
        "the lock passed on when the leader went away"
    );
    assert_eq!(lock_holders().await, (1, 0));
    assert_eq!(second.active_count(), 1);
    second_owner.cleanup();
    lock_released().await;
}

/// Answers `GET http://pages.test/v1/nks/clusters` from the page itself, in two
/// pages; the second page's second item has a number for a name when `bad`.
fn serve_two_pages(bad: bool) {
    js_sys::eval(&format!(
        r#"
        window.__realFetch = window.__realFetch || window.fetch;
        window.__pagesAsked = [];
        window.fetch = function (input, init) {{
          const url = new URL(typeof input === 'string' ? input : input.url);
          if (url.host !== 'pages.test') return window.__realFetch(input, init);
          window.__pagesAsked.push(url.search);
          const second = url.searchParams.get('cursor') === 'p2';
          const body = second
            ? {{ items: [{{ id: 'c2', name: 'two' }}, {{ id: 'c3', name: {bad} }}], pagination: {{ next_cursor: null }} }}
            : {{ items: [{{ id: 'c1', name: 'one' }}], pagination: {{ next_cursor: 'p2' }} }};
          return Promise.resolve(new Response(JSON.stringify(body), {{ status: 200 }}));
        }};
        "#,
        bad = if bad { "5" } else { "'three'" },
    ))
    .expect("the page server installs");
}

fn pages_asked() -> u32 {
    page_count("window.__pagesAsked.length")
}

fn pages_client() -> Client {
    Client::new(
        &Config {
            api_base_url: "http://pages.test".into(),
            ..Config::default()
        },
        RwSignal::new(Some("test-key".into())),
        RwSignal::new(None),
    )
}

#[wasm_bindgen_test]
async fn a_list_is_read_across_its_pages_and_a_bad_item_is_named_with_its_page_status() {
    serve_two_pages(false);
    let names: Vec<String> = pages_client()
        .clusters::<nks_console::api::types::Cluster>("p1")
        .await
        .expect("two good pages")
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(names, ["one", "two", "three"]);
    assert_eq!(pages_asked(), 2);

    serve_two_pages(true);
    let error = pages_client()
        .clusters::<nks_console::api::types::Cluster>("p1")
        .await
        .expect_err("a name that is a number");
    assert_eq!(
        error,
        ApiError::Malformed {
            call: "List clusters".into(),
            detail: "status 200, items[1].name: invalid type: integer `5`, expected a string at line 1 column 54".into(),
        }
    );
    assert_eq!(pages_asked(), 2);
}
