//! Where the API key is kept: in memory always, in `sessionStorage` for this tab,
//! and in `localStorage` only when the person opted in with "remember on this
//! device". Nothing else in the app touches storage for the key.
//!
//! Both places are leptos-use storage signals, so a key forgotten in another tab
//! of this origin reaches this tab's `device` signal through the storage event.

use codee::string::FromToStringCodec;
use leptos::prelude::*;
use leptos_use_storage::{use_local_storage, use_session_storage};

const KEY_ITEM: &str = "nks-console.api-key";

/// The key's two storage places. Cheap to copy; lives as long as the console.
#[derive(Clone, Copy)]
pub struct KeyStore {
    tab: Place,
    device: Place,
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
        KeyStore {
            tab: Place::new(use_session_storage::<String, FromToStringCodec>(KEY_ITEM)),
            device: Place::new(use_local_storage::<String, FromToStringCodec>(KEY_ITEM)),
        }
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
