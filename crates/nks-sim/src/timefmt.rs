//! RFC 3339 timestamps as the API writes them (`2026-05-04T09:12:00Z`), through the `time`
//! crate the console already uses.
//!
//! The world keeps instants as milliseconds since the Unix epoch so that ordering and the
//! lifecycle arithmetic stay integer; this module is the one place that converts them to and
//! from the wire form.

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// Milliseconds since the Unix epoch, the world's only notion of time.
pub type Millis = i64;

pub fn now_ms() -> Millis {
    (OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as Millis
}

/// Formats to whole seconds, UTC, like every example in the API reference.
pub fn format(ms: Millis) -> String {
    OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_default()
}

/// Parses an RFC 3339 date-time (`Z` or `±HH:MM` offset, optional fraction); `None` for
/// anything else.
pub fn parse(s: &str) -> Option<Millis> {
    let t = OffsetDateTime::parse(s, &Rfc3339).ok()?;
    i64::try_from(t.unix_timestamp_nanos() / 1_000_000).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_parses_round_trip() {
        let ms = parse("2026-05-04T09:12:00Z").expect("valid");
        assert_eq!(format(ms), "2026-05-04T09:12:00Z");
        assert_eq!(parse("2026-05-04T11:12:00+02:00"), Some(ms));
        assert_eq!(parse("2026-05-04T09:12:00.500Z"), Some(ms + 500));
        assert_eq!(format(ms + 999), "2026-05-04T09:12:00Z");
        assert_eq!(format(0), "1970-01-01T00:00:00Z");
    }

    #[test]
    fn rejects_garbage_without_panicking() {
        for s in [
            "",
            "2026",
            "2026-13-01T00:00:00Z",
            "2026-05-04T09:12:00",
            "ééééééééééééééééééééé",
            "2026-05-04T09:12:00.Z",
        ] {
            assert_eq!(parse(s), None, "{s}");
        }
    }
}
