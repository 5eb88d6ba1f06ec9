//! Where the API key is kept: in memory always, in `sessionStorage` for this tab,
//! and in `localStorage` only when the person opted in with "remember on this
//! device". Nothing else in the app touches storage for the key.

const KEY_ITEM: &str = "nks-console.api-key";

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The key kept from earlier: this tab's first, then a remembered one.
pub fn load_key() -> Option<String> {
    let read = |s: Option<web_sys::Storage>| s.and_then(|s| s.get_item(KEY_ITEM).ok().flatten());
    read(session_storage())
        .or_else(|| read(local_storage()))
        .filter(|k| !k.is_empty())
}

/// Keeps a key that just passed a real call.
pub fn store_key(key: &str, remember: bool) {
    if let Some(s) = session_storage() {
        let _ = s.set_item(KEY_ITEM, key);
    }
    if let Some(s) = local_storage() {
        let _ = if remember {
            s.set_item(KEY_ITEM, key)
        } else {
            s.remove_item(KEY_ITEM)
        };
    }
}

/// Forgets the key everywhere it was kept (log out, or the API refused it).
pub fn forget_key() {
    for storage in [session_storage(), local_storage()].into_iter().flatten() {
        let _ = storage.remove_item(KEY_ITEM);
    }
}
