//! Small text renderings shared by views, kept pure so they are tested on the host.

use crate::rules::listing::PageOf;

/// The tab's title: the page's names, most specific first, then the console's:
/// `baseline · edge-prod · NKS Console`. Parts not known yet (empty) are left out.
pub fn title(parts: &[&str]) -> String {
    let mut out = String::new();
    for part in parts.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
        out.push_str(part);
        out.push_str(" \u{b7} ");
    }
    out.push_str("NKS Console");
    out
}

/// A duration in seconds as a person reads it: `45 s`, `3 min 05 s`, `1 h 02 min`.
pub fn elapsed(secs: u64) -> String {
    match secs {
        0..=59 => format!("{secs} s"),
        60..=3599 => format!("{} min {:02} s", secs / 60, secs % 60),
        _ => format!("{} h {:02} min", secs / 3600, (secs % 3600) / 60),
    }
}

/// An on/off flag as a word.
pub fn on_off(flag: bool) -> &'static str {
    if flag {
        "on"
    } else {
        "off"
    }
}

/// An address the platform may not have handed out yet. Controllers, nodes and
/// load balancers send `null` until then (TS SDK), clusters `""` (Go and TS), and
/// either may come from the other: both read as words, never as a blank cell.
pub fn address(ip: Option<&str>) -> &str {
    assigned(ip).unwrap_or("not yet assigned")
}

/// The address, when the platform has handed one out (see [`address`]).
pub fn assigned(ip: Option<&str>) -> Option<&str> {
    ip.map(str::trim).filter(|ip| !ip.is_empty())
}

/// A count with thousands separators: `1,000`.
pub fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A whole number that may be negative, grouped as [`count`] groups: `-1,200`.
pub fn signed_count(n: i64) -> String {
    let digits = count(usize::try_from(n.unsigned_abs()).unwrap_or(usize::MAX));
    if n < 0 {
        format!("-{digits}")
    } else {
        digits
    }
}

/// A count and its noun, agreeing: `1 pool`, `2 pools`, `1,000 pools`. The one
/// plural helper: every count shown with a noun goes through it.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

/// When `filters` match none of `n` things: "None of the 40 clusters match these
/// filters.", or "The only cluster does not match these filters."
pub fn none_match(n: usize, one: &str, many: &str, filters: &str) -> String {
    if n == 1 {
        format!("The only {one} does not match {filters}.")
    } else {
        format!("None of the {} {many} match {filters}.", count(n))
    }
}

/// Which rows of a list a page shows: `51–100 of 1,000`.
pub fn rows_shown(page: &PageOf) -> String {
    if page.total == 0 {
        return "0 of 0".into();
    }
    range_of(page.start + 1, page.end, page.total)
}

/// Rows `first` to `last` (counted from 1) of `total`: `51–100 of 2,079`.
pub fn range_of(first: usize, last: usize, total: usize) -> String {
    format!(
        "{}\u{2013}{} of {}",
        count(first),
        count(last),
        count(total)
    )
}

/// An id as a cell shows it when nothing better names it: its first eight
/// characters and an ellipsis (a UUID's first group), the whole kept for hover.
pub fn short_id(id: &str) -> String {
    match id.char_indices().nth(8) {
        Some((cut, _)) if id.chars().count() > 9 => format!("{}…", &id[..cut]),
        _ => id.to_string(),
    }
}

/// Whether `c` is a character that steers the direction of the text around it
/// without being seen: the bidirectional embeddings, overrides and isolates,
/// and the direction marks.
fn is_direction_control(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// A name as a confirmation shows it, every direction control written out as
/// `[U+202E]` where it stands: seen, and typed as seen. A name without any is
/// itself.
pub fn visible_controls(name: &str) -> String {
    let mut shown = String::with_capacity(name.len());
    for c in name.chars() {
        if is_direction_control(c) {
            shown.push_str(&format!("[U+{:04X}]", c as u32));
        } else {
            shown.push(c);
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_id_is_cut_to_its_first_group() {
        assert_eq!(
            short_id("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"),
            "0f1e2d3c…"
        );
        assert_eq!(short_id("node-1"), "node-1");
        assert_eq!(short_id("123456789"), "123456789");
    }

    #[test]
    fn direction_controls_are_written_out_and_nothing_else_is() {
        assert_eq!(visible_controls("web"), "web");
        assert_eq!(
            visible_controls("web\u{202E}lave\u{202C}"),
            "web[U+202E]lave[U+202C]"
        );
        assert_eq!(
            visible_controls("a\u{2067}b\u{2069}\u{200F}"),
            "a[U+2067]b[U+2069][U+200F]"
        );
        // Letters of a right-to-left script are text, not controls.
        assert_eq!(visible_controls("שלום-1"), "שלום-1");
    }

    use super::*;

    #[test]
    fn titles_name_the_page_then_the_console() {
        assert_eq!(
            title(&["baseline", "edge-prod"]),
            "baseline \u{b7} edge-prod \u{b7} NKS Console"
        );
        assert_eq!(title(&["Clusters", "", " "]), "Clusters \u{b7} NKS Console");
        assert_eq!(title(&[]), "NKS Console");
    }

    #[test]
    fn elapsed_reads_naturally() {
        assert_eq!(elapsed(5), "5 s");
        assert_eq!(elapsed(185), "3 min 05 s");
        assert_eq!(elapsed(3720), "1 h 02 min");
    }

    #[test]
    fn an_address_not_handed_out_yet_reads_as_words() {
        assert_eq!(address(Some("10.20.0.244")), "10.20.0.244");
        assert_eq!(address(None), "not yet assigned");
        assert_eq!(address(Some("")), "not yet assigned");
        assert_eq!(address(Some("  ")), "not yet assigned");
        assert_eq!(assigned(Some("")), None);
        assert_eq!(assigned(Some("203.0.113.41")), Some("203.0.113.41"));
    }

    #[test]
    fn nouns_agree_with_their_counts() {
        assert_eq!(counted(0, "pool", "pools"), "0 pools");
        assert_eq!(counted(1, "pool", "pools"), "1 pool");
        assert_eq!(counted(1000, "node", "nodes"), "1,000 nodes");
        assert_eq!(
            none_match(1, "cluster", "clusters", "these filters"),
            "The only cluster does not match these filters."
        );
        assert_eq!(
            none_match(1000, "pool", "pools", "this filter"),
            "None of the 1,000 pools match this filter."
        );
    }

    #[test]
    fn counts_and_pages_read_with_separators() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(1234567), "1,234,567");
        assert_eq!(
            rows_shown(&PageOf::of(1000, 2, 50)),
            "51\u{2013}100 of 1,000"
        );
        assert_eq!(rows_shown(&PageOf::of(7, 1, 50)), "1\u{2013}7 of 7");
        assert_eq!(rows_shown(&PageOf::of(0, 1, 50)), "0 of 0");
    }
}
