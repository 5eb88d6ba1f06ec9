//! The browser application: configuration, session, routes and pages.

mod clusters;
mod code;
pub mod components;
mod connect;
pub(crate) mod context;
pub(crate) mod drafts;
mod embed;
mod frame;
mod home;
mod lazy;
mod networking;
mod not_found;
mod operations;
pub(crate) mod paths;
mod perf;
mod plan;
mod pools;
mod routes;
mod search;
pub mod session;
mod settings;
mod shell;

use leptos::prelude::*;
use leptos_router::components::Router;

use crate::api::client::{load_config, Client, Config};

/// What the rest of the app knows about the session. The key itself is only
/// read by the client.
#[derive(Clone, Copy)]
pub struct Session {
    pub key: RwSignal<Option<String>>,
    /// Why the API last refused the key, shown on the connect screen.
    pub refused: RwSignal<Option<String>>,
    /// Where the key is kept between loads (session.rs).
    pub store: session::KeyStore,
    /// What was typed into forms, kept across a reconnect (drafts.rs).
    pub drafts: drafts::Drafts,
}

impl Session {
    /// Logs out here and in every other tab of this origin.
    pub fn log_out(&self) {
        self.store.forget();
        self.store.announce_logout();
        self.drafts.clear();
        // A first pool waiting for its cluster is this person's, not the next one's.
        if let Ok(Some(tab)) = window().session_storage() {
            let _ = tab.remove_item(crate::rules::first_pool::PENDING_ITEM);
        }
        self.key.set(None);
    }
}

/// Starts the console: reads `config.json`, then mounts the console against that
/// API, or a screen saying what is wrong with the file. Until the first screen
/// draws, the page shows index.html's own `#boot` line, painted before any wasm
/// arrives (see [`boot_done`]).
///
/// The config is read before anything is mounted, not in a resource under a
/// `<Suspense>`: the root has nothing to show without it, and that boundary and
/// resource would be first-load code.
pub fn start() {
    // The code is here, compiled and running: a phase of the benchmark's cold load.
    perf::mark("nks:started");
    wasm_bindgen_futures::spawn_local(async {
        let loaded = load_config().await;
        leptos::mount::mount_to_body(move || match loaded {
            Ok(config) => view! { <Console config /> }.into_any(),
            Err(reason) => view! { <ConfigError reason /> }.into_any(),
        });
    });
}

/// Removes index.html's "Loading the console…" line. Each first screen calls it
/// as it draws: the shell, the connect screen (whose code may still be on its way
/// when the console mounts), or a screen saying why neither can be shown.
pub(crate) fn boot_done() {
    if let Some(boot) = document().get_element_by_id("boot") {
        boot.remove();
    }
}

/// A broken deployment gets a clear screen, never a blank page.
#[component]
fn ConfigError(reason: String) -> impl IntoView {
    boot_done();
    view! {
        <main class="boot boot-error" role="alert">
            <h1>"The console is not configured"</h1>
            <p>{reason}</p>
            <p>
                "Place a " <code>"config.json"</code> " beside " <code>"index.html"</code>
                " with at least " <code>"{\"api_base_url\": \"\"}"</code>
                " (empty means the API is served from this origin). See the README's Configuration section."
            </p>
        </main>
    }
}

#[component]
fn Console(config: Config) -> impl IntoView {
    let store = session::KeyStore::open();
    let session = Session {
        key: RwSignal::new(store.kept()),
        refused: RwSignal::new(None),
        store,
        drafts: drafts::Drafts::new(),
    };
    let client = Client::new(&config, session.key, session.refused);
    embed::install(&config, session);
    provide_context(config);
    provide_context(session);
    provide_context(client);
    // Another tab logged out: so does this one, back to the connect screen.
    store.on_logout_elsewhere(
        session.key.into(),
        Callback::new(move |()| {
            store.forget();
            session.drafts.clear();
            session.refused.set(None);
            session.key.set(None);
        }),
    );
    // A refused key is forgotten everywhere it was kept.
    Effect::new(move |_| {
        if session.key.with(Option::is_none) {
            session.store.forget();
        }
    });
    // The same build runs at `/` or under a prefix: the router's base comes from
    // `<base href>`, which the hosting server sets (see paths.rs).
    // The connect screen stands in for the pages while there is no key, and the
    // URL stays as it is: once connected, the routes show the page it names (a
    // 401 anywhere comes back to the same page).
    view! {
        <Router base=paths::router_base()>
            <Show when=move || session.key.with(Option::is_some) fallback=|| view! { <connect::ConnectScreen /> }>
                <shell::Shell />
            </Show>
        </Router>
    }
}
