//! Operation states and how long to follow them.

use crate::api::types::{OperationKind, OperationStatus, OperationType};

/// Only `done` and `failed` end an operation. `unknown` is NOT terminal: the official
/// waiter keeps polling on it, and leaving the loop there strands the user with a
/// resource in limbo.
pub fn is_terminal(status: &OperationStatus) -> bool {
    matches!(status, OperationStatus::Done | OperationStatus::Failed)
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
}
