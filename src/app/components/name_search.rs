//! A search box over the names the console knows, with a short list of
//! suggestions (the ARIA combobox pattern): the operations page's resource
//! filter, instead of a select holding every resource of the project, and the
//! header's search of the project's clusters and pools.

use leptos::prelude::*;

use crate::rules::operations_list::{suggest, Known, Suggestions};

/// Suggestions shown at once; the rest are counted ("12 more: keep typing").
const SHOWN: usize = 10;

/// The label of resource `id` among `known` (sorted by id), else the id.
pub fn label_of(known: &[Known], id: &str) -> String {
    known
        .binary_search_by(|k| k.id.as_str().cmp(id))
        .ok()
        .map(|i| known[i].label().to_string())
        .unwrap_or_else(|| id.to_string())
}

/// `selected` is the id chosen (empty for none), shown by its name while
/// nothing is typed; `on_choose` gets the id chosen, or an empty string when
/// the box is emptied. The input is `id`; its list and hint are named after it.
/// What `children` draw is the hint below the box, which describes it.
#[component]
pub fn NameSearch(
    id: &'static str,
    label: &'static str,
    /// The list's accessible name.
    list_label: &'static str,
    placeholder: &'static str,
    known: Memo<Vec<Known>>,
    #[prop(into)] selected: Signal<String>,
    on_choose: Callback<String>,
    /// Said when nothing known matches what is typed.
    #[prop(into)]
    no_match: Signal<String>,
    /// Enter with no match chooses the text itself, as an id the console has
    /// no name for; without this, nothing is chosen.
    #[prop(optional)]
    any_id: bool,
    /// Escape with the list closed and nothing typed.
    #[prop(optional)]
    on_escape: Option<Callback<()>>,
    /// Focus the box once it is drawn.
    #[prop(optional)]
    focus: bool,
    children: Children,
) -> impl IntoView {
    let input = NodeRef::<leptos::html::Input>::new();
    if focus {
        Effect::new(move |_| {
            if let Some(input) = input.get() {
                let _ = input.focus();
            }
        });
    }
    // What is typed; `None` shows the chosen resource's name.
    let typed = RwSignal::new(None::<String>);
    let open = RwSignal::new(false);
    let active = RwSignal::new(None::<usize>);
    let shown_text = move || {
        typed.get().unwrap_or_else(|| {
            let id = selected.get();
            if id.is_empty() {
                String::new()
            } else {
                known.with(|k| label_of(k, &id))
            }
        })
    };
    let suggestions: Memo<Suggestions> = Memo::new(move |_| {
        let text = typed.get().unwrap_or_default();
        known.with(|k| suggest(k, &text, SHOWN))
    });
    // A choice made from outside (a "show every resource" button, Back)
    // replaces whatever was typed.
    Effect::new(move |before: Option<String>| {
        let now = selected.get();
        if before.is_some_and(|b| b != now) {
            typed.set(None);
            open.set(false);
            active.set(None);
        }
        now
    });
    let choose = move |id: String| {
        typed.set(None);
        open.set(false);
        active.set(None);
        on_choose.run(id);
    };
    let on_input = move |ev| {
        let value = event_target_value(&ev);
        active.set(None);
        if value.trim().is_empty() {
            // An emptied box (its clear button, or every letter deleted) is "any".
            typed.set(None);
            open.set(false);
            if !selected.with_untracked(String::is_empty) {
                on_choose.run(String::new());
            }
        } else {
            typed.set(Some(value));
            open.set(true);
        }
    };
    let combo = Combo {
        typed,
        open,
        active,
        suggestions,
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| combo.key(&ev, any_id, on_escape, choose);
    let active_id = move || active.get().map(|i| option_id(id, i));

    view! {
        <div class="combo">
            <label for=id>{label}</label>
            <div class="combo-box">
                <input
                    node_ref=input
                    id=id
                    type="search"
                    role="combobox"
                    autocomplete="off"
                    aria-autocomplete="list"
                    aria-controls=format!("{id}-options")
                    aria-describedby=format!("{id}-hint")
                    aria-expanded=move || if open.get() { "true" } else { "false" }
                    aria-activedescendant=active_id
                    placeholder=placeholder
                    prop:value=shown_text
                    on:input=on_input
                    on:keydown=on_keydown
                    // Back in a box that holds a search, its suggestions show again.
                    on:focus=move |_| open.set(typed.with_untracked(Option::is_some))
                    on:blur=move |_| {
                        open.set(false);
                        active.set(None);
                    }
                />
                <ComboPopup id list_label combo no_match choose=Callback::new(choose) />
            </div>
            <p class="field-hint" id=format!("{id}-hint")>{children()}</p>
        </div>
    }
}

/// The element id of suggestion `i` in box `id`'s list.
fn option_id(id: &str, i: usize) -> String {
    format!("{id}-option-{i}")
}

/// What the box holds as it is used: the text typed, whether its list is
/// open, the suggestion highlighted, and the suggestions.
#[derive(Clone, Copy)]
struct Combo {
    typed: RwSignal<Option<String>>,
    open: RwSignal<bool>,
    active: RwSignal<Option<usize>>,
    suggestions: Memo<Suggestions>,
}

impl Combo {
    /// The arrow keys, Enter and Escape, as the combobox pattern has them.
    fn key(
        &self,
        ev: &leptos::ev::KeyboardEvent,
        any_id: bool,
        on_escape: Option<Callback<()>>,
        choose: impl Fn(String),
    ) {
        let Combo {
            typed,
            open,
            active,
            suggestions,
        } = *self;
        let count = suggestions.with_untracked(|s| s.shown.len());
        match ev.key().as_str() {
            "ArrowDown" | "ArrowUp" => {
                ev.prevent_default();
                open.set(true);
                if count == 0 {
                    return;
                }
                let down = ev.key() == "ArrowDown";
                active.update(|a| {
                    *a = Some(match (*a, down) {
                        (None, true) => 0,
                        (None, false) => count - 1,
                        (Some(i), true) => (i + 1) % count,
                        (Some(i), false) => (i + count - 1) % count,
                    })
                });
            }
            "Enter" => {
                ev.prevent_default();
                let Some(text) = typed.with_untracked(Clone::clone) else {
                    return;
                };
                // The highlighted suggestion, else the best one, else the text
                // itself as an id (a resource this console has no name for).
                let at = active.with_untracked(|a| a.unwrap_or(0));
                let pick = suggestions.with_untracked(|s| s.shown.get(at).map(|k| k.id.clone()));
                if let Some(id) = pick.or_else(|| any_id.then(|| text.trim().to_string())) {
                    choose(id);
                }
            }
            "Escape" => {
                if open.with_untracked(|o| *o) {
                    ev.prevent_default();
                    open.set(false);
                    active.set(None);
                } else if typed.with_untracked(Option::is_some) {
                    ev.prevent_default();
                    typed.set(None);
                } else if let Some(escape) = on_escape {
                    ev.prevent_default();
                    escape.run(());
                }
            }
            _ => {}
        }
    }
}

/// The box's list of suggestions, and what is said when none or too many match.
#[component]
fn ComboPopup(
    id: &'static str,
    list_label: &'static str,
    combo: Combo,
    no_match: Signal<String>,
    choose: Callback<String>,
) -> impl IntoView {
    view! {
        <div class="combo-popup" hidden=move || !combo.open.get()>
            <ul id=format!("{id}-options") role="listbox" aria-label=list_label>
                <For
                    each=move || combo.suggestions.with(|s| s.shown.iter().cloned().enumerate().collect::<Vec<_>>())
                    key=|(i, k)| (*i, k.clone())
                    children=move |(i, k)| {
                        let chosen = k.id.clone();
                        let name = k.name.clone();
                        view! {
                            <li
                                role="option"
                                id=option_id(id, i)
                                class="combo-option"
                                aria-selected=move || if combo.active.get() == Some(i) { "true" } else { "false" }
                                // Before the box's blur, so the click is not lost to it.
                                on:mousedown=move |ev| {
                                    ev.prevent_default();
                                    choose.run(chosen.clone());
                                }
                            >
                                <span class="combo-name">{k.label().to_string()}</span>
                                {k.gone.then(|| view! { <span class="combo-note">" (deleted)"</span> })}
                                {name.map(|_| view! { <span class="combo-id">{k.id.clone()}</span> })}
                            </li>
                        }
                    }
                />
            </ul>
            {move || {
                let Suggestions { shown, more } = combo.suggestions.get();
                if shown.is_empty() {
                    Some(no_match.get())
                } else if more > 0 {
                    Some(format!("{more} more match: keep typing."))
                } else {
                    None
                }
                .map(|text| view! { <p class="combo-more">{text}</p> })
            }}
        </div>
    }
}
