//! When to try again and how long to wait: the official SDKs' retry policy for
//! single calls, and the operations poller's adaptive interval.

use super::times::parse_http_date_ms;

/// Retries after the first attempt, as the SDKs do by default (3 attempts in all).
pub const MAX_RETRIES: u32 = 2;

/// Added to a server-requested wait: `Retry-After` is a lower bound, and browser
/// timers and clocks are coarse enough that waiting exactly that long can mean
/// asking again a few milliseconds early.
pub const SERVER_DELAY_GUARD_MS: u64 = 100;

/// Whether a wait before a retry is worth telling the person about: from the
/// second attempt on, or at once when the wait is long (a `Retry-After`). A
/// short first wait passes unseen; a long one must never read as "loading".
pub fn announce_wait(retries_done: u32, wait_ms: u64) -> bool {
    retries_done >= 1 || wait_ms >= 1_500
}

/// The SDKs' default delay before retry number `retries_done + 1`:
/// `min(0.5 s × 2^n, 8 s)`, minus up to 25 % jitter. `jitter` is a uniform draw in
/// `[0, 1)` supplied by the caller so this stays deterministic under test.
pub fn retry_delay_ms(retries_done: u32, jitter: f64) -> u64 {
    let base = 500u64
        .saturating_mul(1u64 << retries_done.min(16))
        .min(8_000);
    let jitter = jitter.clamp(0.0, 1.0);
    (base as f64 * (1.0 - 0.25 * jitter)).round() as u64
}

/// The wait the server asked for: `Retry-After-Ms` first (float milliseconds), else
/// `Retry-After` as float seconds, else as an HTTP date (delay = date − now).
/// Negative delays become 0. There is deliberately no upper cap, as in the SDKs:
/// the server knows how long it is overloaded.
pub fn server_delay_ms(
    retry_after_ms: Option<&str>,
    retry_after: Option<&str>,
    now_ms: f64,
) -> Option<u64> {
    if let Some(ms) = retry_after_ms.and_then(|v| parse_number(v.trim())) {
        if ms.is_finite() {
            return Some(ms.max(0.0).round() as u64);
        }
    }
    let value = retry_after?.trim();
    if let Some(secs) = parse_number(value) {
        return secs
            .is_finite()
            .then(|| (secs.max(0.0) * 1000.0).round() as u64);
    }
    let at = parse_http_date_ms(value)?;
    Some((at as f64 - now_ms).max(0.0).round() as u64)
}

/// A decimal number as retry headers carry it: `30`, `1.5`, `-2` (an optional
/// sign, digits, an optional fraction). Hand-written because `str::parse::<f64>`
/// brings the general float parser and its tables into the wasm for two headers;
/// `tests/validators_prop.rs` holds it to the same answers on these forms.
pub fn parse_number(text: &str) -> Option<f64> {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits(whole) || !digits(fraction) {
        return None;
    }
    let value = |part: &str| {
        part.bytes()
            .fold(0.0, |n, b| n * 10.0 + f64::from(b - b'0'))
    };
    let magnitude = value(whole) + value(fraction) / 10f64.powi(fraction.len().min(300) as i32);
    Some(if negative { -magnitude } else { magnitude })
}

/// Whether the SDKs would retry this answer. `status` is `None` when no response
/// came at all. The server's `x-should-retry` header wins over the status rule.
pub fn should_retry(status: Option<u16>, x_should_retry: Option<&str>) -> bool {
    match x_should_retry.map(str::trim) {
        Some("true") => return true,
        Some("false") => return false,
        _ => {}
    }
    match status {
        None => true,
        Some(code) => super::outcome::is_retryable_status(code),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_first_wait_passes_unseen_and_later_or_long_ones_are_told() {
        assert!(!announce_wait(0, 500));
        assert!(announce_wait(1, 500));
        assert!(announce_wait(0, 30_000));
    }

    #[test]
    fn sdk_delays_double_from_half_a_second_and_cap_at_eight() {
        let delays: Vec<u64> = (0..7).map(|n| retry_delay_ms(n, 0.0)).collect();
        assert_eq!(delays, [500, 1000, 2000, 4000, 8000, 8000, 8000]);
    }

    #[test]
    fn jitter_removes_at_most_a_quarter() {
        assert_eq!(retry_delay_ms(1, 1.0), 750);
        assert_eq!(retry_delay_ms(3, 0.5), 3500);
        assert!(retry_delay_ms(40, 0.99) >= 6000);
    }

    #[test]
    fn retry_after_ms_wins_over_retry_after() {
        assert_eq!(server_delay_ms(Some("1500"), Some("9"), 0.0), Some(1500));
        assert_eq!(server_delay_ms(Some("12.4"), None, 0.0), Some(12));
    }

    #[test]
    fn retry_after_seconds_may_be_fractional() {
        assert_eq!(server_delay_ms(None, Some("2"), 0.0), Some(2000));
        assert_eq!(server_delay_ms(None, Some("0.25"), 0.0), Some(250));
        assert_eq!(server_delay_ms(None, Some("-3"), 0.0), Some(0));
    }

    #[test]
    fn retry_after_http_date_is_a_delay_from_now() {
        let at = parse_http_date_ms("Wed, 21 Oct 2015 07:28:00 GMT").unwrap();
        assert_eq!(at, 1_445_412_480_000);
        let now = (at - 3_000) as f64;
        assert_eq!(
            server_delay_ms(None, Some("Wed, 21 Oct 2015 07:28:00 GMT"), now),
            Some(3000)
        );
        // A date in the past means "now".
        assert_eq!(
            server_delay_ms(None, Some("Wed, 21 Oct 2015 07:28:00 GMT"), now + 10_000.0),
            Some(0)
        );
    }

    #[test]
    fn unreadable_retry_headers_are_ignored() {
        assert_eq!(server_delay_ms(Some("soon"), Some("later"), 0.0), None);
        assert_eq!(server_delay_ms(None, None, 0.0), None);
        assert_eq!(
            server_delay_ms(None, Some("Tue, 31 Feb 2026 00:00:00 GMT"), 0.0),
            None
        );
    }

    #[test]
    fn the_sdk_retry_set_is_followed_and_the_server_header_wins() {
        assert!(should_retry(None, None));
        assert!(should_retry(Some(503), None));
        assert!(should_retry(Some(409), None));
        assert!(!should_retry(Some(422), None));
        assert!(should_retry(Some(422), Some("true")));
        assert!(!should_retry(Some(503), Some("false")));
    }
}
