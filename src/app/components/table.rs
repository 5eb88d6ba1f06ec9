//! One table for the lists the API reads: typed columns, one keyed row per item
//! (an unchanged item keeps its row, a changed one is drawn again), the first
//! column held in view at 390 px (`table-wide`), and the states around a read:
//! loading, failed with Retry, and empty said in words, never a bare table.

use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use leptos::prelude::*;

use crate::app::components::{ErrorView, SortHeader};
use crate::rules::outcome::ApiError;

/// What a row gives a column: its cell, or its cell's title.
type Of<T, V> = Arc<dyn Fn(&T) -> V + Send + Sync>;

/// One column: its heading, its cells' class, and what a row shows in it.
pub struct Column<T> {
    head: &'static str,
    /// The heading is for screen readers only (a column of buttons).
    head_hidden: bool,
    head_class: Option<&'static str>,
    /// Sorted by a click on its heading: the column's key, its `aria-sort`, and
    /// what a click calls (a [`SortHeader`]).
    sort: Option<(&'static str, Signal<&'static str>, Callback<&'static str>)>,
    class: Option<&'static str>,
    /// The cell's full text on hover, for a cell that may be cut short.
    title: Option<Of<T, String>>,
    cell: Of<T, AnyView>,
}

impl<T> Column<T> {
    pub fn new(head: &'static str, cell: impl Fn(&T) -> AnyView + Send + Sync + 'static) -> Self {
        Column {
            head,
            head_hidden: false,
            head_class: None,
            sort: None,
            class: None,
            title: None,
            cell: Arc::new(cell),
        }
    }

    /// The cells' class (`nowrap`, `nowrap figure`).
    pub fn class(mut self, class: &'static str) -> Self {
        self.class = Some(class);
        self
    }

    /// The cell's full text on hover (a name cut short by `class("name")`).
    pub fn title(mut self, title: impl Fn(&T) -> String + Send + Sync + 'static) -> Self {
        self.title = Some(Arc::new(title));
        self
    }

    /// A heading only screen readers read.
    pub fn head_hidden(mut self) -> Self {
        self.head_hidden = true;
        self
    }

    /// The heading's class (`figure`: a right-aligned figure's column).
    pub fn head_class(mut self, class: &'static str) -> Self {
        self.head_class = Some(class);
        self
    }

    /// A heading that sorts the list by `key` when clicked (`sort_by(key)`);
    /// `state` is how the list is sorted by it now (`aria-sort`).
    pub fn sorted(
        mut self,
        key: &'static str,
        state: Signal<&'static str>,
        sort_by: Callback<&'static str>,
    ) -> Self {
        self.sort = Some((key, state, sort_by));
        self
    }
}

/// A row keyed by `key` alone, for a row that is not its own key: in a
/// [`Table`] it keeps its `<tr>` while the key holds. Reads as the row. Equal
/// by the key alone, so a `Memo` of rows misses a change the key does not show.
#[derive(Clone, Debug)]
pub struct Keyed<K, T> {
    key: K,
    row: T,
}

impl<K, T> Keyed<K, T> {
    /// `row`, keyed by `key`.
    pub fn new(key: K, row: T) -> Self {
        Keyed { key, row }
    }

    /// Each of `rows`, keyed by what `key` says of it.
    pub fn all(rows: impl IntoIterator<Item = T>, key: impl Fn(&T) -> K) -> Vec<Self> {
        rows.into_iter()
            .map(|row| Keyed::new(key(&row), row))
            .collect()
    }
}

impl<K, T> Deref for Keyed<K, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.row
    }
}

impl<K: PartialEq, T> PartialEq for Keyed<K, T> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl<K: Eq, T> Eq for Keyed<K, T> {}

impl<K: Hash, T> Hash for Keyed<K, T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

/// `rows` as a table named `label`, keyed by the whole row (see [`Keyed`]).
#[component]
pub fn Table<T>(
    label: &'static str,
    /// A list as read, or one that changes (a `Memo`): a changed row is drawn again.
    #[prop(into)]
    rows: Signal<Vec<T>>,
    columns: Vec<Column<T>>,
    /// The table's class; a list's (`table table-wide`) unless given.
    #[prop(default = "table table-wide")]
    class: &'static str,
) -> impl IntoView
where
    T: Clone + Eq + Hash + Send + Sync + 'static,
{
    let columns = Arc::new(columns);
    let heads = columns
        .iter()
        .map(|c| {
            let (head, class) = (c.head, c.head_class);
            match c.sort {
                Some((column, state, sort_by)) => {
                    view! { <SortHeader column label=head state sort_by /> }.into_any()
                }
                None if c.head_hidden => {
                    view! { <th scope="col"><span class="visually-hidden">{head}</span></th> }
                        .into_any()
                }
                None => view! { <th scope="col" class=class>{head}</th> }.into_any(),
            }
        })
        .collect_view();
    let row = move |item: T| {
        let cells = columns
            .iter()
            .map(|c| {
                let title = c.title.as_ref().map(|title| title(&item));
                view! { <td class=c.class title=title>{(c.cell)(&item)}</td> }
            })
            .collect_view();
        view! { <tr>{cells}</tr> }
    };
    view! {
        <table class=class aria-label=label>
            <thead>
                <tr>{heads}</tr>
            </thead>
            <tbody>
                <For each=move || rows.get() key=|item| item.clone() children=row />
            </tbody>
        </table>
    }
}

/// A list's read and its states: `loading` while the first read runs, the
/// failure with Retry, `empty` when the list is empty, else what `list` draws.
/// A read again keeps what is shown until it ends.
pub fn listed<T>(
    read: LocalResource<Result<Vec<T>, ApiError>>,
    loading: &'static str,
    empty: &'static str,
    list: impl Fn(Vec<T>) -> AnyView + Send + Sync + 'static,
) -> impl IntoView
where
    T: Clone + Send + Sync + 'static,
{
    view! {
        <Transition fallback=move || view! { <p class="loading">{loading}</p> }>
            {move || read.get().map(|result| match result {
                Err(error) => view! { <ErrorView error retry=move |_| read.refetch() /> }.into_any(),
                Ok(rows) if rows.is_empty() => view! { <p class="empty">{empty}</p> }.into_any(),
                Ok(rows) => list(rows),
            })}
        </Transition>
    }
}
