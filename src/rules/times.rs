//! Times as the API and HTTP write them, read through the `time` crate: the API's
//! RFC 3339 timestamps and the HTTP date a `Retry-After` may carry. A date that
//! does not exist (`2026-02-31`) is not a time.
//!
//! Only the crate's well-known formats are used, whose parsers are written for
//! them: a format description (`format_description!`) brings the crate's general
//! parser. With its general formatter (see `display::timestamp`) that was 11 KB
//! more of first load, gzipped; these two parsers cost 3 KB.

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

#[cfg(test)]
mod tests {
    use super::*;

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
