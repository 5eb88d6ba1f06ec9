//! Times as the API writes them, read into milliseconds since the epoch.

/// RFC 3339 (`2026-05-04T09:12:00Z`, optional fraction, `Z` or `±hh:mm`) to ms since
/// the epoch; `None` for anything else.
pub fn parse_rfc3339_ms(ts: &str) -> Option<f64> {
    let (date, time) = ts.split_once('T').or_else(|| ts.split_once(' '))?;
    let mut d = date.split('-');
    let (y, m, day): (i64, i64, i64) = (
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
    );
    if d.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&day) {
        return None;
    }
    let (clock, offset_min) =
        if let Some(c) = time.strip_suffix('Z').or_else(|| time.strip_suffix('z')) {
            (c, 0i64)
        } else {
            let split = time.rfind(['+', '-'])?;
            let (c, off) = time.split_at(split);
            let sign = if off.starts_with('-') { -1 } else { 1 };
            let (oh, om) = off[1..].split_once(':')?;
            (
                c,
                sign * (oh.parse::<i64>().ok()? * 60 + om.parse::<i64>().ok()?),
            )
        };
    let mut parts = clock.split(':');
    let h: i64 = parts.next()?.parse().ok()?;
    let mi: i64 = parts.next()?.parse().ok()?;
    let (s, frac_ms) = seconds_and_ms(parts.next()?)?;
    if parts.next().is_some() || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let ym = if m <= 2 { y - 1 } else { y };
    let era = if ym >= 0 { ym } else { ym - 399 } / 400;
    let yoe = ym - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + day - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    let secs = days * 86_400 + h * 3600 + mi * 60 + s - offset_min * 60;
    Some((secs * 1000 + frac_ms) as f64)
}

/// `ss` or `ss.fff…` as whole seconds and milliseconds (digits past the third are
/// dropped). Integers only: parsing a float here put the float parser (about 4 KB,
/// with its tables) in the first page for this one field.
fn seconds_and_ms(text: &str) -> Option<(i64, i64)> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || !digits(whole)
        || !digits(fraction)
        || (text.contains('.') && fraction.is_empty())
    {
        return None;
    }
    let ms = fraction
        .bytes()
        .chain(std::iter::repeat(b'0'))
        .take(3)
        .fold(0, |n, b| n * 10 + i64::from(b - b'0'));
    Some((whole.parse().ok()?, ms))
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
        assert_eq!(parse_rfc3339_ms("1970-01-01T00:00:60Z"), Some(60_000.0));
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
}
