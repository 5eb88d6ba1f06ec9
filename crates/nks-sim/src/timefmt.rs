//! RFC 3339 timestamps as the API writes them (`2026-05-04T09:12:00Z`).
//!
//! The world keeps instants as milliseconds since the Unix epoch so that ordering and the
//! lifecycle arithmetic stay integer; this module is the one place that converts them to and
//! from the wire form. A hand-written converter keeps the simulator free of a date crate for
//! two small functions.

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch, the world's only notion of time.
pub type Millis = i64;

pub fn now_ms() -> Millis {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as Millis)
        .unwrap_or(0)
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day); Howard Hinnant's algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Formats to whole seconds, UTC, like every example in the API reference.
pub fn format(ms: Millis) -> String {
    let secs = ms.div_euclid(1000);
    let (y, mo, d) = civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}Z",
        sod / 3600,
        (sod % 3600) / 60,
        sod % 60
    )
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`; `None` for anything else.
pub fn parse(s: &str) -> Option<Millis> {
    let b = s.as_bytes();
    if b.len() < 20 || !s.is_ascii() {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = s.get(r)?;
        if part.bytes().all(|c| c.is_ascii_digit()) {
            part.parse().ok()
        } else {
            None
        }
    };
    if b[4] != b'-' || b[7] != b'-' || !(b[10] == b'T' || b[10] == b't' || b[10] == b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || se > 60 {
        return None;
    }
    let mut i = 19;
    let mut frac_ms = 0i64;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return None;
        }
        let digits = &s[start..i.min(start + 3)];
        let scale = 10i64.pow(3 - digits.len() as u32);
        frac_ms = digits.parse::<i64>().ok()? * scale;
    }
    let offset_min = match &s[i..] {
        "Z" | "z" => 0,
        tz if tz.len() == 6 && (tz.starts_with('+') || tz.starts_with('-')) && &tz[3..4] == ":" => {
            let oh = num(i + 1..i + 3)?;
            let om = num(i + 4..i + 6)?;
            let sign = if tz.starts_with('-') { -1 } else { 1 };
            sign * (oh * 60 + om)
        }
        _ => return None,
    };
    let days = days_from_civil(y, mo as u32, d as u32);
    let secs = days * 86_400 + h * 3600 + mi * 60 + se - offset_min * 60;
    Some(secs * 1000 + frac_ms)
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
