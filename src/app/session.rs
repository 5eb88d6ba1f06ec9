//! Where the API key is kept: in memory always, in `sessionStorage` for this tab,
//! and in `localStorage` only when the person opted in with "remember on this
//! device". Nothing else in the app touches storage for the key.
//!
//! Logging out reaches every tab of the origin: a message on a broadcast
//! channel (each tab forgets its own `sessionStorage` copy), and the storage
//! event when a remembered key is removed from `localStorage`; both through
//! leptos-use.

use codee::string::FromToStringCodec;
use leptos::prelude::*;
use leptos_use_broadcast_channel::{use_broadcast_channel, UseBroadcastChannelReturn};
use leptos_use_storage::{use_local_storage, use_session_storage};

const KEY_ITEM: &str = "nks-console.api-key";
/// Where tabs tell each other that the person logged out.
const SESSION_CHANNEL: &str = "nks-console.session";
const LOGGED_OUT: &str = "logged-out";

/// The key's two storage places. Cheap to copy; lives as long as the console.
#[derive(Clone, Copy)]
pub struct KeyStore {
    tab: Place,
    device: Place,
    /// Tells the other tabs.
    post: Callback<String>,
    /// The last message from another tab.
    heard: Signal<Option<String>>,
}

#[derive(Clone, Copy)]
struct Place {
    value: Signal<String>,
    set: WriteSignal<String>,
    remove: Callback<()>,
}

impl Place {
    fn new(
        (value, set, remove): (
            Signal<String>,
            WriteSignal<String>,
            impl Fn() + Send + Sync + 'static,
        ),
    ) -> Self {
        Place {
            value,
            set,
            remove: Callback::new(move |()| remove()),
        }
    }

    fn kept(&self) -> Option<String> {
        Some(self.value.get_untracked()).filter(|k| !k.is_empty())
    }
}

impl KeyStore {
    /// Opens both places. Call once, under the console's owner.
    pub fn open() -> Self {
        let UseBroadcastChannelReturn { post, message, .. } =
            use_broadcast_channel::<String, FromToStringCodec>(SESSION_CHANNEL);
        KeyStore {
            tab: Place::new(use_session_storage::<String, FromToStringCodec>(KEY_ITEM)),
            device: Place::new(use_local_storage::<String, FromToStringCodec>(KEY_ITEM)),
            post: Callback::new(move |message: String| post(&message)),
            heard: message,
        }
    }

    /// Tells every other tab of this origin that the person logged out.
    pub fn announce_logout(&self) {
        // Each message is new (it carries the time), so two logouts in a row
        // are both heard. Whole milliseconds: printing an f64 would bring the
        // float formatter into the first load.
        self.post
            .run(format!("{LOGGED_OUT} {}", js_sys::Date::now() as u64));
    }

    /// Calls `log_out_here` when another tab logs out: its message arrives, or
    /// the remembered key this tab was using is removed from `localStorage`.
    pub fn on_logout_elsewhere(&self, in_use: Signal<Option<String>>, log_out_here: Callback<()>) {
        let heard = self.heard;
        Effect::watch(
            move || heard.get(),
            move |message, _, _| {
                if message
                    .as_deref()
                    .is_some_and(|m| m.starts_with(LOGGED_OUT))
                {
                    log_out_here.run(());
                }
            },
            false,
        );
        let device = self.device.value;
        Effect::watch(
            move || device.get(),
            move |now, before, _| {
                let removed = now.is_empty() && before.is_some_and(|b| !b.is_empty());
                let was_ours =
                    before.is_some_and(|b| in_use.with_untracked(|k| k.as_ref() == Some(b)));
                if removed && was_ours {
                    log_out_here.run(());
                }
            },
            false,
        );
    }

    /// The key kept from earlier: this tab's first, then a remembered one.
    pub fn kept(&self) -> Option<String> {
        self.tab.kept().or_else(|| self.device.kept())
    }

    /// Keeps a key that just passed a real call.
    pub fn keep(&self, key: &str, remember: bool) {
        self.tab.set.set(key.to_string());
        if remember {
            self.device.set.set(key.to_string());
        } else {
            self.device.remove.run(());
        }
    }

    /// Forgets the key everywhere it was kept (log out, or the API refused it).
    pub fn forget(&self) {
        self.tab.remove.run(());
        self.device.remove.run(());
    }
}
