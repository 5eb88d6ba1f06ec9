//! Times as the API and HTTP write them, read through the `time` crate: the API's
//! RFC 3339 timestamps and the HTTP date a `Retry-After` may carry. A date that
//! does not exist (`2026-02-31`) is not a time.
//!
//! Only the crate's well-known formats are used, whose parsers are written for
//! them: a format description (`format_description!`) would bring the crate's
//! general parser into the first load. Local times are written by the browser
//! (components::Time); how long ago one was (`3 min ago`) is here.

use time::format_description::well_known::{Rfc2822, Rfc3339};
use time::OffsetDateTime;

/// RFC 3339 (`2026-05-04T09:12:00Z`, optional fraction, `Z` or `±hh:mm`), with
/// the offset it was written in; `None` for anything else.
pub fn parse_rfc3339(ts: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(ts, &Rfc3339).ok()
}

/// RFC 3339 to ms since the epoch (digits past the millisecond are dropped);
/// `None` for anything else.
pub fn parse_rfc3339_ms(ts: &str) -> Option<f64> {
    parse_rfc3339(ts).map(|t| epoch_ms(t) as f64)
}

/// An HTTP date (IMF-fixdate, `Wed, 21 Oct 2015 07:28:00 GMT`, or any RFC 5322
/// date, of which it is one) to ms since the epoch. The obsolete RFC 850 and
/// asctime forms are not accepted, and, as HTTP clients do, the weekday is not
/// checked against the date.
pub fn parse_http_date_ms(value: &str) -> Option<i64> {
    OffsetDateTime::parse(value, &Rfc2822).ok().map(epoch_ms)
}

/// Whole milliseconds since the epoch, counted down (the fraction is never negative).
fn epoch_ms(t: OffsetDateTime) -> i64 {
    t.unix_timestamp() * 1000 + i64::from(t.millisecond())
}

/// How long ago `then_ms` was at `now_ms`, in the largest whole unit, counted
/// down: `just now` (under a minute either way, so a clock a little behind the
/// server's never says "in 10 s"), `3 min ago`, `2 h ago`, `1 day ago`,
/// `5 months ago`, `2 years ago`; a moment ahead reads `in 3 min`.
pub fn relative(now_ms: i64, then_ms: i64) -> String {
    let diff = now_ms.saturating_sub(then_ms);
    let secs = diff.unsigned_abs() / 1000;
    let (n, unit) = match secs {
        0..=59 => return "just now".into(),
        60..=3_599 => (secs / 60, "min"),
        3_600..=86_399 => (secs / 3_600, "h"),
        // Days up to two months, then months of 30 days, then years of 365.
        86_400..=5_183_999 => (secs / 86_400, "day"),
        5_184_000..=31_535_999 => (secs / 2_592_000, "month"),
        _ => (secs / 31_536_000, "year"),
    };
    let plural = if n != 1 && matches!(unit, "day" | "month" | "year") {
        "s"
    } else {
        ""
    };
    let (before, after) = if diff < 0 { ("in ", "") } else { ("", " ago") };
    format!("{before}{n} {unit}{plural}{after}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-12-05T09:42:13.500Z.
    const MOMENT: i64 = 1_796_463_733_500;

    #[test]
    fn api_times_read_as_ms() {
        assert_eq!(
            parse_rfc3339_ms("2026-12-05T09:42:13.5Z"),
            Some(MOMENT as f64)
        );
    }

    #[test]
    fn relative_times_count_down_in_the_largest_unit() {
        let ago = |secs: i64| relative(MOMENT, MOMENT - secs * 1000);
        assert_eq!(ago(0), "just now");
        assert_eq!(ago(59), "just now");
        assert_eq!(ago(60), "1 min ago");
        assert_eq!(ago(3 * 60 + 59), "3 min ago");
        assert_eq!(ago(3_599), "59 min ago");
        assert_eq!(ago(3_600), "1 h ago");
        assert_eq!(ago(86_399), "23 h ago");
        assert_eq!(ago(86_400), "1 day ago");
        assert_eq!(ago(2 * 86_400), "2 days ago");
        assert_eq!(ago(59 * 86_400), "59 days ago");
        assert_eq!(ago(60 * 86_400), "2 months ago");
        assert_eq!(ago(364 * 86_400), "12 months ago");
        assert_eq!(ago(365 * 86_400), "1 year ago");
        assert_eq!(ago(3 * 365 * 86_400), "3 years ago");
        assert_eq!(relative(MOMENT, MOMENT + 999), "just now");
        assert_eq!(relative(MOMENT, MOMENT - 999), "just now");
        assert_eq!(relative(MOMENT, MOMENT + 30_000), "just now");
        assert_eq!(relative(MOMENT, MOMENT + 5 * 60_000), "in 5 min");
        assert_eq!(relative(MOMENT, MOMENT + 2 * 86_400_000), "in 2 days");
        assert_eq!(relative(i64::MAX, i64::MIN), "292471208 years ago");
    }

    #[test]
    fn rfc3339_times_parse_with_fraction_and_offset() {
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:00Z"), Some(0.0));
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:01.5Z"), Some(1500.0));
        assert_eq!(parse_rfc3339_ms("1970-01-01T01:00:00+01:00"), Some(0.0));
        assert_eq!(
            parse_rfc3339_ms("2015-10-21T07:28:00Z"),
            Some(1_445_412_480_000.0)
        );
        assert_eq!(
            parse_rfc3339_ms("1970-01-01T00:00:01.123456789Z"),
            Some(1123.0)
        );
        assert_eq!(
            parse_rfc3339_ms("1970-01-01T00:00:02.05-00:00"),
            Some(2050.0)
        );
        for bad in [
            "1970-01-01T00:00:61Z",
            "1970-01-01T00:00:1.Z",
            "1970-01-01T00:00:.5Z",
            "1970-01-01T00:00:-1Z",
            "1970-01-01T00:00:1e1Z",
            "1970-01-01T24:00:00Z",
        ] {
            assert_eq!(parse_rfc3339_ms(bad), None, "{bad}");
        }
        assert_eq!(parse_rfc3339_ms("yesterday"), None);
        assert_eq!(parse_rfc3339_ms(""), None);
    }

    #[test]
    fn a_day_that_does_not_exist_is_not_a_time() {
        for bad in [
            "2026-02-31T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "2026-04-31T12:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-00-10T00:00:00Z",
        ] {
            assert_eq!(parse_rfc3339_ms(bad), None, "{bad}");
        }
        assert_eq!(
            parse_rfc3339_ms("2024-02-29T00:00:00Z"),
            Some(1_709_164_800_000.0),
            "a leap day is a day"
        );
    }

    #[test]
    fn offsets_and_fractions_are_read_to_the_same_instant() {
        let utc = parse_rfc3339_ms("2026-05-04T09:12:00Z");
        assert!(utc.is_some());
        assert_eq!(parse_rfc3339_ms("2026-05-04T11:12:00+02:00"), utc);
        assert_eq!(parse_rfc3339_ms("2026-05-04T03:42:00-05:30"), utc);
        assert_eq!(parse_rfc3339_ms("2026-05-04 09:12:00z"), utc);
        let later = |ms: f64| utc.map(|t| t + ms);
        assert_eq!(
            parse_rfc3339_ms("2026-05-04T11:12:00.250+02:00"),
            later(250.0)
        );
        assert_eq!(parse_rfc3339_ms("2026-05-04T09:12:00.1Z"), later(100.0));
        assert_eq!(
            parse_rfc3339_ms("2026-05-04T09:12:00.999999999Z"),
            later(999.0)
        );
        // A leap second is read as the last instant of the minute before it;
        // a 60th second anywhere else is not a time.
        assert_eq!(
            parse_rfc3339_ms("2016-12-31T23:59:60Z"),
            parse_rfc3339_ms("2016-12-31T23:59:59.999Z")
        );
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:60Z"), None);
    }

    #[test]
    fn http_dates_are_read_at_the_second() {
        assert_eq!(
            parse_http_date_ms("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(1_445_412_480_000)
        );
        assert_eq!(parse_http_date_ms("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            parse_http_date_ms("Thu, 29 Feb 2024 00:00:00 GMT"),
            Some(1_709_164_800_000)
        );
        // Other RFC 5322 dates: a numeric zone, no weekday.
        let imf = parse_http_date_ms("Wed, 21 Oct 2015 07:28:00 GMT");
        assert_eq!(parse_http_date_ms("Wed, 21 Oct 2015 09:28:00 +0200"), imf);
        assert_eq!(parse_http_date_ms("21 Oct 2015 07:28:00 GMT"), imf);
    }

    #[test]
    fn unreadable_http_dates_are_refused() {
        for bad in [
            "Wed, 32 Oct 2015 07:28:00 GMT",
            "Tue, 31 Feb 2026 00:00:00 GMT",
            "Wednesday, 21-Oct-15 07:28:00 GMT",
            "Wed Oct 21 07:28:00 2015",
            "Wed, 21 Oct 2015 24:28:00 GMT",
            "2015-10-21T07:28:00Z",
            "",
        ] {
            assert_eq!(parse_http_date_ms(bad), None, "{bad}");
        }
    }
}
