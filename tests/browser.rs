//! Browser-only behaviour, run by wasm-bindgen-test in headless Chromium:
//! where the key is kept, and how shared widgets render and redraw.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use nks_console::api::decode::{from_json, Sourced};
use nks_console::api::types::Pool;
use nks_console::app::components::{tag_list, ErrorView};
use nks_console::app::session;
use nks_console::rules::listing::keyed;
use nks_console::rules::outcome::ApiError;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const ITEM: &str = "nks-console.api-key";

fn window() -> web_sys::Window {
    web_sys::window().expect("a browser window")
}

fn stored(local: bool) -> Option<String> {
    let storage = if local {
        window().local_storage()
    } else {
        window().session_storage()
    };
    storage.unwrap().unwrap().get_item(ITEM).unwrap()
}

fn mount(view: impl Fn() -> AnyView + 'static) -> web_sys::HtmlElement {
    let document = window().document().unwrap();
    let host: web_sys::HtmlElement = document.create_element("div").unwrap().unchecked_into();
    document.body().unwrap().append_child(&host).unwrap();
    let handle = leptos::mount::mount_to(host.clone(), view);
    handle.forget();
    host
}

/// A key store opened the way the console opens it, under an owner of its own.
/// Its writes to storage are effects, run by the executor a mount starts; the
/// caller ends it with `owner.cleanup()`, so no test's store outlives the test.
fn key_store() -> (session::KeyStore, Owner) {
    mount(|| ().into_any());
    let owner = Owner::new();
    let store = owner.with(session::KeyStore::open);
    (store, owner)
}

/// What a fresh load of this tab would find.
fn kept_on_reload() -> Option<String> {
    let (store, owner) = key_store();
    let kept = store.kept();
    owner.cleanup();
    kept
}

fn clear_storage() {
    window()
        .session_storage()
        .unwrap()
        .unwrap()
        .clear()
        .unwrap();
    window().local_storage().unwrap().unwrap().clear().unwrap();
}

#[wasm_bindgen_test]
async fn a_key_is_kept_for_the_tab_only_unless_remembered() {
    clear_storage();
    let (store, owner) = key_store();
    assert_eq!(store.kept(), None);
    store.keep("k-tab", false);
    settle().await;
    assert_eq!(stored(false).as_deref(), Some("k-tab"));
    assert_eq!(stored(true), None, "not in localStorage without the opt-in");
    assert_eq!(store.kept().as_deref(), Some("k-tab"));
    owner.cleanup();
    assert_eq!(kept_on_reload().as_deref(), Some("k-tab"));
}

#[wasm_bindgen_test]
async fn remembering_a_key_puts_it_in_local_storage_and_forgetting_clears_both() {
    clear_storage();
    let (store, owner) = key_store();
    store.keep("k-remembered", true);
    settle().await;
    assert_eq!(stored(true).as_deref(), Some("k-remembered"));
    assert_eq!(stored(false).as_deref(), Some("k-remembered"));
    store.forget();
    assert_eq!(stored(false), None, "removed at once, not on the next tick");
    assert_eq!(stored(true), None);
    assert_eq!(store.kept(), None);
    settle().await;
    assert_eq!(
        [stored(false), stored(true)],
        [None, None],
        "nothing written back"
    );
    owner.cleanup();
    assert_eq!(kept_on_reload(), None);
}

#[wasm_bindgen_test]
async fn a_remembered_key_is_found_by_a_new_tab() {
    clear_storage();
    window()
        .local_storage()
        .unwrap()
        .unwrap()
        .set_item(ITEM, "k-device")
        .unwrap();
    assert_eq!(kept_on_reload().as_deref(), Some("k-device"));
    clear_storage();
}

#[wasm_bindgen_test]
async fn turning_remember_off_removes_an_earlier_remembered_key() {
    clear_storage();
    let (store, owner) = key_store();
    store.keep("k1", true);
    settle().await;
    store.keep("k2", false);
    settle().await;
    assert_eq!(stored(true), None);
    assert_eq!(stored(false).as_deref(), Some("k2"));
    store.forget();
    owner.cleanup();
}

#[wasm_bindgen_test]
fn a_rate_limit_is_shown_as_temporary_with_a_retry() {
    let host = mount(|| {
        let error = ApiError::Status {
            call: "List clusters".into(),
            status: 429,
            message: "slow down".into(),
            retry_after_ms: Some(2000),
        };
        view! { <ErrorView error retry=|_| () /> }.into_any()
    });
    let text = host.text_content().unwrap_or_default();
    assert!(
        text.contains("Temporary: the request is fine, try later."),
        "{text}"
    );
    assert!(
        !text.contains("fix it"),
        "a 429 must never read as a rejection: {text}"
    );
    assert!(host
        .query_selector("[role=alert].outcome-temporary")
        .unwrap()
        .is_some());
    let button = host
        .query_selector("button")
        .unwrap()
        .expect("a Retry button");
    assert_eq!(button.text_content().as_deref(), Some("Retry"));
}

#[wasm_bindgen_test]
fn an_operation_failure_reads_as_the_platform_failing_not_an_outage() {
    let host = mount(|| {
        let error = ApiError::OperationFailed {
            operation_id: "op-9".into(),
            what: "Create pool".into(),
        };
        view! { <ErrorView error /> }.into_any()
    });
    let text = host.text_content().unwrap_or_default();
    assert!(
        text.contains("The platform ran the operation and it failed."),
        "{text}"
    );
    assert!(!text.contains("Cannot reach"), "{text}");
    assert!(
        host.query_selector("button").unwrap().is_none(),
        "no retry offered for a failed operation"
    );
}

#[wasm_bindgen_test]
fn markup_in_names_is_rendered_as_inert_text() {
    let host = mount(|| {
        tag_list(&[
            "<b>bold</b>".to_string(),
            "<img src=x onerror=alert(1)>".to_string(),
        ])
    });
    assert!(host.query_selector("b").unwrap().is_none());
    assert!(host.query_selector("img").unwrap().is_none());
    let chips = host.query_selector_all("li.chip").unwrap();
    assert_eq!(chips.length(), 2);
    assert_eq!(
        chips.item(0).unwrap().text_content().as_deref(),
        Some("<b>bold</b>")
    );
}

fn rows(host: &web_sys::HtmlElement) -> Vec<web_sys::Element> {
    let list = host.query_selector_all("tbody tr").unwrap();
    (0..list.length())
        .map(|i| list.item(i).unwrap().unchecked_into())
        .collect()
}

fn texts(rows: &[web_sys::Element]) -> Vec<String> {
    rows.iter().map(|r| r.text_content().unwrap()).collect()
}

/// Lets the effects queued by a signal change run.
async fn settle() {
    for _ in 0..3 {
        leptos::task::tick().await;
    }
}

fn pools(json: &str) -> Vec<Sourced<Pool>> {
    from_json(json).expect("pools as JSON")
}

/// The long tables key each row by the text its item was read from (and how many
/// equal items came before it): a read that changed one item redraws that row.
#[wasm_bindgen_test]
async fn rows_keyed_by_their_text_redraw_only_the_item_that_changed() {
    let list = RwSignal::new(pools(
        r#"[{"id":"a","node_count":1},{"id":"b","node_count":1},{"id":"c","node_count":1}]"#,
    ));
    let host = mount(move || {
        view! {
            <table>
                <tbody>
                    <For each=move || keyed(&list.get()) key=|row| row.clone() let((pool, _))>
                        <tr><td>{pool.id.clone()}</td><td>{pool.node_count}</td></tr>
                    </For>
                </tbody>
            </table>
        }
        .into_any()
    });
    settle().await;
    let first = rows(&host);
    assert_eq!(texts(&first), ["a1", "b1", "c1"]);

    // One item changed: its row is new, the others are the same nodes.
    list.set(pools(
        r#"[{"id":"a","node_count":1},{"id":"b","node_count":2},{"id":"c","node_count":1}]"#,
    ));
    settle().await;
    let second = rows(&host);
    assert_eq!(texts(&second), ["a1", "b2", "c1"]);
    assert_eq!(second[0], first[0]);
    assert_ne!(second[1], first[1]);
    assert_eq!(second[2], first[2]);

    // The same items read again: nothing is touched.
    list.set(pools(
        r#"[{"id":"a","node_count":1},{"id":"b","node_count":2},{"id":"c","node_count":1}]"#,
    ));
    settle().await;
    assert_eq!(rows(&host), second);

    // Moved, added, removed and repeated: kept rows move, a repeated item gets a row of its own.
    list.set(pools(
        r#"[{"id":"c","node_count":1},{"id":"d","node_count":1},{"id":"a","node_count":1},{"id":"a","node_count":1}]"#,
    ));
    settle().await;
    let third = rows(&host);
    assert_eq!(texts(&third), ["c1", "d1", "a1", "a1"]);
    assert_eq!(third[0], second[2]);
    assert_eq!(third[2], second[0]);
    assert!(!host.contains(Some(&second[1])));
}

#[wasm_bindgen_test]
fn utc_times_read_to_the_second_and_out_of_range_reads_empty() {
    use nks_console::app::components::utc_time;
    let ms = nks_console::rules::times::parse_rfc3339_ms("2026-05-04T09:12:31.700Z").unwrap();
    assert_eq!(utc_time(ms), "2026-05-04 09:12:31 UTC");
    assert_eq!(utc_time(f64::MAX), "");
}
