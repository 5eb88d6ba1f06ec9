//! What a person typed into a form, kept in memory while the form is not shown.
//!
//! A 401 on submit swaps every page for the connect screen, and with the page
//! goes its form. Once the person connects again, the same form comes back
//! holding what they typed, and nothing is sent until they click. Drafts live in
//! this tab's memory: what is being typed never reaches storage. Logging out
//! drops them; a refused key does not, since the person is about to come back.
//!
//! One exception, so a reload does not lose work: a form whose send failed
//! (an answer such as a 503, or none) is kept with its failure in this tab's
//! `sessionStorage` (`UNSENT_ITEM`, gone with the tab, and on logging out),
//! while the failure is shown, and comes back with it after a reload, in the same
//! words. A new send, or leaving the failure, drops it.

use std::any::Any;

use leptos::prelude::*;
use leptos_router::hooks::use_location;

use crate::rules::outcome::ApiError;

/// Every form's draft, by the address of its page. A few at most, so a list
/// (a map would bring its hashing into the first load, where this store lives).
/// Beside them, the pages whose send the API refused for its key (401).
#[derive(Clone, Copy)]
pub struct Drafts(
    StoredValue<Vec<Typed>, LocalStorage>,
    StoredValue<Vec<String>, LocalStorage>,
);

/// A page's address and what was typed on it.
type Typed = (String, Box<dyn Any>);

impl Drafts {
    pub fn new() -> Self {
        Drafts(
            StoredValue::new_local(Vec::new()),
            StoredValue::new_local(Vec::new()),
        )
    }

    /// Drops every draft (logging out).
    pub fn clear(&self) {
        self.0.update_value(Vec::clear);
        self.1.update_value(Vec::clear);
        if let Some(tab) = tab_storage() {
            let _ = tab.remove_item(UNSENT_ITEM);
        }
    }
}

/// This tab's storage item holding the form whose send failed (one at a time:
/// the page it is on, what was typed, and the failure).
const UNSENT_ITEM: &str = "nks-console.unsent";

#[derive(serde::Serialize, serde::Deserialize)]
struct Unsent<T> {
    page: String,
    typed: T,
    error: ApiError,
}

fn tab_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// One item of this tab's storage (`""` when there is none).
pub fn tab_item(key: &str) -> String {
    tab_storage()
        .and_then(|tab| tab.get_item(key).ok().flatten())
        .unwrap_or_default()
}

/// Writes one item of this tab's storage now (empty: removes it). Not through
/// leptos-use's storage, whose writes wait for an effect: a navigation or a
/// reload right after the write must find it.
pub fn keep_tab_item(key: &str, text: &str) {
    if let Some(tab) = tab_storage() {
        let _ = if text.is_empty() {
            tab.remove_item(key)
        } else {
            tab.set_item(key, text)
        };
    }
}

/// The draft of the form on the page being shown.
#[derive(Clone, Copy)]
pub struct Draft {
    drafts: Drafts,
    page: StoredValue<String>,
}

impl Draft {
    /// The draft of the current page's form. Call while the form is being set up.
    pub fn here() -> Self {
        let location = use_location();
        let page = format!(
            "{}{}",
            location.pathname.get_untracked(),
            location.search.get_untracked()
        );
        Draft {
            drafts: expect_context::<super::Session>().drafts,
            page: StoredValue::new(page),
        }
    }

    /// The draft of the form at `address`, an in-app path with its query
    /// (`/projects/…/pools/new?replace=…`), as that form's page keys it: for the
    /// page an operation was sent from, to drop its draft once the change is done.
    pub fn at(address: &str) -> Self {
        let (path, search) = address.split_once('?').unwrap_or((address, ""));
        Draft {
            drafts: expect_context::<super::Session>().drafts,
            page: StoredValue::new(format!("{}{path}{search}", super::paths::router_base())),
        }
    }

    /// What was typed here before the form was last taken away, if anything.
    pub fn restore<T: Clone + 'static>(&self) -> Option<T> {
        let page = self.page.get_value();
        self.drafts.0.with_value(|all| {
            let (_, typed) = all.iter().find(|(p, _)| *p == page)?;
            typed.downcast_ref::<T>().cloned()
        })
    }

    /// Keeps the form's values as they change, until [`Draft::discard`].
    pub fn keep<T: 'static>(&self, typed: impl Fn() -> T + 'static) {
        let (drafts, page) = (self.drafts, self.page);
        Effect::new(move |_| {
            let now: Box<dyn Any> = Box::new(typed());
            let page = page.get_value();
            drafts.0.update_value(|all| {
                all.retain(|(p, _)| *p != page);
                all.push((page, now));
            });
        });
    }

    /// Puts `typed` there as if it had been typed on that page (a form filled in
    /// for another, e.g. a first pool handed to its cluster's Create pool).
    pub fn put<T: 'static>(&self, typed: T) {
        let page = self.page.get_value();
        self.drafts.0.update_value(|all| {
            all.retain(|(p, _)| *p != page);
            all.push((page, Box::new(typed)));
        });
    }

    /// The change went through: the next visit starts from a fresh form.
    pub fn discard(&self) {
        let page = self.page.get_value();
        self.drafts
            .0
            .update_value(|all| all.retain(|(p, _)| *p != page));
        self.drafts.1.update_value(|all| all.retain(|p| *p != page));
    }

    /// Keeps what is typed on this page in this tab's storage while `failed`
    /// holds the failure of its last send, so a reload brings both back
    /// ([`Draft::take_unsent`]); drops it when `failed` is cleared (a new send).
    /// A refused key is not kept so: the connect screen comes first, and the
    /// in-memory draft carries the form through it.
    pub fn keep_unsent<T: serde::Serialize + 'static>(
        &self,
        failed: RwSignal<Option<ApiError>>,
        typed: impl Fn() -> T + 'static,
    ) {
        let page = self.page.get_value();
        Effect::new(move |_| {
            let Some(tab) = tab_storage() else {
                return;
            };
            let error = failed.get().filter(|e| !e.is_unauthorized());
            match error {
                Some(error) => {
                    let unsent = Unsent {
                        page: page.clone(),
                        typed: typed(),
                        error,
                    };
                    if let Ok(text) = serde_json::to_string(&unsent) {
                        let _ = tab.set_item(UNSENT_ITEM, &text);
                    }
                }
                None => {
                    let ours = tab
                        .get_item(UNSENT_ITEM)
                        .ok()
                        .flatten()
                        .is_some_and(|text| {
                            serde_json::from_str::<Unsent<serde::de::IgnoredAny>>(&text)
                                .is_ok_and(|u| u.page == page)
                        });
                    if ours {
                        let _ = tab.remove_item(UNSENT_ITEM);
                    }
                }
            }
        });
    }

    /// What was typed here: kept in memory (back after a reconnect), or else
    /// kept in this tab with the failure of its last send (after a reload).
    pub fn restore_or_unsent<T: Clone + serde::de::DeserializeOwned + 'static>(
        &self,
    ) -> (Option<T>, Option<ApiError>) {
        let unsent = self.take_unsent::<T>();
        let failure = unsent.as_ref().map(|(_, error)| error.clone());
        let typed = self
            .restore::<T>()
            .or_else(|| unsent.map(|(typed, _)| typed));
        (typed, failure)
    }

    /// What was typed on this page when its send failed, and the failure, kept
    /// in this tab across a reload by [`Draft::keep_unsent`].
    fn take_unsent<T: serde::de::DeserializeOwned>(&self) -> Option<(T, ApiError)> {
        let text = tab_storage()?.get_item(UNSENT_ITEM).ok().flatten()?;
        let unsent: Unsent<T> = serde_json::from_str(&text).ok()?;
        (unsent.page == self.page.get_value()).then_some((unsent.typed, unsent.error))
    }

    /// What the form's send calls with its answer: a refused key (401) is noted
    /// for this page, so the form says, once back, that nothing was sent. The
    /// page is held by value: the send may end after its form is gone.
    pub fn note_refusal(&self) -> impl Fn(&ApiError) + Clone + 'static {
        let (drafts, page) = (self.drafts, self.page.get_value());
        move |error: &ApiError| {
            if error.is_unauthorized() {
                let page = page.clone();
                drafts.1.try_update_value(|all| {
                    all.retain(|p| *p != page);
                    all.push(page);
                });
            }
        }
    }

    /// Whether this page's last send met a refused key; asked once, as the form
    /// is set up after the reconnect.
    pub fn take_refusal(&self) -> bool {
        let page = self.page.get_value();
        self.drafts
            .1
            .try_update_value(|all| {
                let had = all.contains(&page);
                all.retain(|p| *p != page);
                had
            })
            .unwrap_or(false)
    }
}
