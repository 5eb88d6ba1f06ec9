//! A column header a click sorts by: a button inside the `<th>`, whose
//! `aria-sort` says how the list is sorted by that column (rules::listing
//! decides the order and what a second click does).

use leptos::prelude::*;

/// The header of `column`, reading `label`; `state` is its `aria-sort`
/// (`ascending`, `descending` or `none`), and `sort_by` is called with `column`
/// on a click.
#[component]
pub fn SortHeader(
    column: &'static str,
    label: &'static str,
    #[prop(into)] state: Signal<&'static str>,
    sort_by: Callback<&'static str>,
) -> impl IntoView {
    let arrow = move || match state.get() {
        "ascending" => " \u{25b2}",
        "descending" => " \u{25bc}",
        _ => "",
    };
    view! {
        <th scope="col" aria-sort=state>
            <button type="button" class="th-sort" on:click=move |_| sort_by.run(column)>
                {label}
                <span class="th-arrow" aria-hidden="true">{arrow}</span>
            </button>
        </th>
    }
}
