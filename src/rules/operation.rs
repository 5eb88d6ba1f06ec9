//! Operation states and how long to follow them.

use crate::api::types::{Operation, OperationKind, OperationStatus, OperationType};
use crate::rules::times::parse_rfc3339_ms;

/// Only `done` and `failed` end an operation. `unknown` is NOT terminal: the official
/// waiter keeps polling on it, and leaving the loop there strands the user with a
/// resource in limbo.
pub fn is_terminal(status: &OperationStatus) -> bool {
    matches!(status, OperationStatus::Done | OperationStatus::Failed)
}

/// How long an operation has taken, in seconds. Once it ended (`done` or
/// `failed`) that is `updated_at − created_at` and stays fixed; while it runs it
/// counts up to `now_ms`. `started_ms` stands in for an unreadable `created_at`
/// (when this console began following it); `None` when neither is known.
pub fn elapsed_secs(op: &Operation, started_ms: Option<f64>, now_ms: f64) -> Option<u64> {
    let start = parse_rfc3339_ms(&op.created_at).or(started_ms)?;
    let end = if is_terminal(&op.status) {
        parse_rfc3339_ms(&op.updated_at).unwrap_or(start)
    } else {
        now_ms
    };
    Some(((end - start).max(0.0) / 1000.0) as u64)
}

/// How long the console follows an operation before it says "ran out of time".
/// Cluster creates routinely take more than 10 minutes (the Terraform provider
/// waits 30); everything else gets the SDK waiter's 10 minutes.
pub fn default_deadline_secs(kind: &OperationKind, op_type: &OperationType) -> u64 {
    match (kind, op_type) {
        (OperationKind::NksCluster, OperationType::Create) => 30 * 60,
        _ => 10 * 60,
    }
}

/// The poller's interval after `polls_since_wake` polls without news: start at
/// 1 s right after a mutation, grow by 0.5 s a poll, settle at 10 s for the long
/// ones (the Terraform provider's schedule).
pub fn poll_interval_ms(polls_since_wake: u32) -> u64 {
    (1_000 + 500 * u64::from(polls_since_wake)).min(10_000)
}

/// A test's steady poll interval, as written in this browser's `localStorage`
/// (`nks-console.poll-ms`): whole milliseconds from 50 to 10,000. Anything else is
/// ignored, so a typo never polls the API hard.
pub fn parse_poll_override(text: &str) -> Option<u64> {
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|ms| (50..=10_000).contains(ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_done_and_failed_are_terminal() {
        assert!(is_terminal(&OperationStatus::Done));
        assert!(is_terminal(&OperationStatus::Failed));
        assert!(!is_terminal(&OperationStatus::Pending));
        assert!(!is_terminal(&OperationStatus::Running));
        assert!(!is_terminal(&OperationStatus::Unknown));
        // An unheard-of status is not terminal: keep polling rather than strand the user.
        assert!(!is_terminal(&OperationStatus::Other("paused".into())));
    }

    fn timed(status: OperationStatus, created_at: &str, updated_at: &str) -> Operation {
        Operation {
            status,
            created_at: created_at.into(),
            updated_at: updated_at.into(),
            ..Operation::default()
        }
    }

    #[test]
    fn an_ended_operation_took_from_creation_to_its_last_update_for_good() {
        let created = "2026-01-01T00:00:00Z";
        let start = parse_rfc3339_ms(created).unwrap();
        for status in [OperationStatus::Done, OperationStatus::Failed] {
            let op = timed(status, created, "2026-01-01T00:00:06Z");
            assert_eq!(elapsed_secs(&op, None, start + 39_000.0), Some(6));
            assert_eq!(elapsed_secs(&op, None, start + 3_600_000.0), Some(6));
        }
    }

    #[test]
    fn an_operation_in_flight_counts_up_to_now() {
        let created = "2026-01-01T00:00:00Z";
        let start = parse_rfc3339_ms(created).unwrap();
        for status in [
            OperationStatus::Pending,
            OperationStatus::Running,
            OperationStatus::Unknown,
        ] {
            let op = timed(status, created, "2026-01-01T00:00:06Z");
            assert_eq!(elapsed_secs(&op, None, start + 39_000.0), Some(39));
        }
    }

    #[test]
    fn unreadable_times_fall_back_to_when_following_began_or_nothing() {
        let op = timed(OperationStatus::Running, "", "");
        assert_eq!(elapsed_secs(&op, Some(1_000.0), 11_000.0), Some(10));
        assert_eq!(elapsed_secs(&op, None, 11_000.0), None);
        let ended = timed(OperationStatus::Done, "2026-01-01T00:00:00Z", "garbled");
        assert_eq!(elapsed_secs(&ended, None, f64::MAX), Some(0));
    }

    #[test]
    fn a_cluster_create_gets_thirty_minutes_and_the_rest_ten() {
        assert_eq!(
            default_deadline_secs(&OperationKind::NksCluster, &OperationType::Create),
            1800
        );
        assert_eq!(
            default_deadline_secs(&OperationKind::NksCluster, &OperationType::Delete),
            600
        );
        assert_eq!(
            default_deadline_secs(&OperationKind::NksNodePool, &OperationType::Create),
            600
        );
    }

    #[test]
    fn polling_starts_fast_and_settles_at_ten_seconds() {
        assert_eq!(poll_interval_ms(0), 1_000);
        assert_eq!(poll_interval_ms(1), 1_500);
        assert_eq!(poll_interval_ms(18), 10_000);
        assert_eq!(poll_interval_ms(u32::MAX), 10_000);
    }

    #[test]
    fn a_poll_override_is_a_sane_number_of_milliseconds_or_nothing() {
        assert_eq!(parse_poll_override(" 100 "), Some(100));
        assert_eq!(parse_poll_override("50"), Some(50));
        assert_eq!(parse_poll_override("10000"), Some(10_000));
        for ignored in ["", "0", "49", "10001", "-5", "fast", "1e3", "100ms"] {
            assert_eq!(parse_poll_override(ignored), None, "{ignored:?}");
        }
    }
}
