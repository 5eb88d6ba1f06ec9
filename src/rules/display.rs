//! Small text renderings shared by views, kept pure so they are tested on the host.

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
}
