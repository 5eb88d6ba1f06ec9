//! A long table's body, drawn from markup and kept item by item: the rows of a list
//! read again every few seconds (a 1,000-pool cluster), where a refresh usually
//! changes one row or none.
//!
//! Each row is one escaped markup string (`rules::display`), and every row a
//! refresh needs is parsed in one go, so the first read of 1,000 rows costs one
//! parse, not 1,000. After that, `rules::listing::refresh_rows` says what changes:
//! a row replaced where it stands, or rows added, removed or moved, the others
//! left as they are. Nothing else is rebuilt.

use std::sync::Arc;

use leptos::html;
use leptos::prelude::*;
use web_sys::Element;

use crate::app::perf::{self, ListMarks};
use crate::rules::listing::{refresh_rows, BodyPatch};

/// `<tbody>` with one `<tr>` per item of `items`, in order; `cells` gives a row's
/// escaped `<td>`s and `id` an item's id (a moved item keeps its row). While
/// `items` is `None` (a read in progress or failed) the rows stay as they are.
#[component]
pub fn MarkupRows<T, L, F>(
    items: L,
    id: fn(&T) -> &str,
    cells: F,
    /// Set on each read, for the benchmark.
    #[prop(optional)]
    marks: Option<ListMarks>,
) -> impl IntoView
where
    T: PartialEq + 'static,
    L: Fn() -> Option<Vec<Arc<T>>> + 'static,
    F: Fn(&T) -> String + 'static,
{
    let body = NodeRef::<html::Tbody>::new();
    // What is on screen: the items, and each one's row, in order.
    let mut shown: Vec<Arc<T>> = Vec::new();
    let mut rows: Vec<Element> = Vec::new();
    // Rows are parsed here before they move into the table; parsed in another
    // document (a template's), they would be adopted one node at a time.
    let scratch = document()
        .create_element("tbody")
        .expect("a document can create a table body");
    Effect::new(move |_| {
        let (Some(body), Some(fresh)) = (body.get(), items()) else {
            return;
        };
        if let Some(marks) = marks {
            perf::mark(marks.read);
        }
        // The diff and the drawing in one go: no signal between them to schedule.
        if let Some(plan) = refresh_rows(&mut shown, &fresh, id) {
            patch(&body, &scratch, &mut rows, &shown, plan, &cells);
        }
        if let Some(marks) = marks {
            // The rows' DOM is final here: diff and writes ran above, in this effect.
            perf::mark(marks.updated);
            perf::mark_after_render(marks.painted);
        }
    });
    view! { <tbody node_ref=body></tbody> }
}

/// Makes `body`, whose rows are `rows`, show `items` as `plan` says.
fn patch<T>(
    body: &Element,
    scratch: &Element,
    rows: &mut Vec<Element>,
    items: &[Arc<T>],
    plan: BodyPatch,
    cells: &impl Fn(&T) -> String,
) {
    match plan {
        BodyPatch::InPlace(at) => {
            let built = parse(scratch, at.iter().map(|&i| &*items[i]), cells);
            for (&i, row) in at.iter().zip(built) {
                let _ = rows[i].replace_with_with_node_1(&row);
                rows[i] = row;
            }
        }
        // Nothing shown yet (the first read): every row is parsed where it goes.
        BodyPatch::Reorder(_) if rows.is_empty() => {
            *rows = parse(body, items.iter().map(|item| &**item), cells);
        }
        BodyPatch::Reorder(plan) => {
            let new_items = plan
                .iter()
                .zip(items)
                .filter(|(keep, _)| keep.is_none())
                .map(|(_, item)| &**item);
            let mut built = parse(scratch, new_items, cells).into_iter();
            let mut old: Vec<Option<Element>> = rows.drain(..).map(Some).collect();
            let next: Vec<Element> = plan
                .iter()
                .filter_map(|keep| match keep {
                    Some(i) => old.get_mut(*i)?.take(),
                    None => built.next(),
                })
                .collect();
            for gone in old.into_iter().flatten() {
                gone.remove();
            }
            // Most rows are already in place; move or insert only the others.
            let mut cursor = body.first_element_child();
            for row in &next {
                if cursor.as_ref() == Some(row) {
                    cursor = row.next_element_sibling();
                } else {
                    let _ = body.insert_before(row, cursor.as_ref().map(|c| c.as_ref()));
                }
            }
            *rows = next;
        }
    }
}

/// Parses the rows for `items` in one go, as the only children of `container`
/// (a table body), and returns them in order.
fn parse<'a, T: 'a>(
    container: &Element,
    items: impl Iterator<Item = &'a T>,
    cells: &impl Fn(&T) -> String,
) -> Vec<Element> {
    let mut markup = String::new();
    for item in items {
        markup.push_str("<tr>");
        markup.push_str(&cells(item));
        markup.push_str("</tr>");
    }
    container.set_inner_html(&markup);
    let mut rows = Vec::new();
    let mut next = container.first_element_child();
    while let Some(row) = next {
        next = row.next_element_sibling();
        rows.push(row);
    }
    rows
}
