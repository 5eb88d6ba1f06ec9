//! Small text renderings shared by views, kept pure so they are tested on the host.

use crate::rules::listing::PageOf;

/// `2026-05-04T09:12:00Z` → `2026-05-04 09:12 UTC`; anything unexpected is shown
/// as it came rather than hidden.
pub fn timestamp(ts: &str) -> String {
    let Some((date, time)) = ts.split_once('T') else {
        return ts.to_string();
    };
    let hm: String = time.chars().take(5).collect();
    let utc = time.ends_with('Z') || time.ends_with("+00:00");
    if date.len() != 10 || hm.len() != 5 {
        return ts.to_string();
    }
    if utc {
        format!("{date} {hm} UTC")
    } else {
        format!("{date} {hm}")
    }
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

/// Which rows of a list a page shows: `51–100 of 1,000`.
pub fn rows_shown(page: &PageOf) -> String {
    if page.total == 0 {
        return "0 of 0".into();
    }
    format!(
        "{}\u{2013}{} of {}",
        count(page.start + 1),
        count(page.end),
        count(page.total)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_read_as_minutes_in_utc() {
        assert_eq!(timestamp("2026-05-04T09:12:00Z"), "2026-05-04 09:12 UTC");
        assert_eq!(
            timestamp("2026-05-04T09:12:00.123+00:00"),
            "2026-05-04 09:12 UTC"
        );
        assert_eq!(timestamp("garbage"), "garbage");
        assert_eq!(timestamp(""), "");
    }

    #[test]
    fn elapsed_reads_naturally() {
        assert_eq!(elapsed(5), "5 s");
        assert_eq!(elapsed(185), "3 min 05 s");
        assert_eq!(elapsed(3720), "1 h 02 min");
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
