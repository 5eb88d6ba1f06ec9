//! How long the tracker follows an operation before saying it ran out of time.

use serde::Deserialize;

use crate::api::decode::from_json;
use crate::api::types::{OperationKind, OperationType};
use crate::rules::operation::default_deadline_secs;

/// How long to follow an operation before saying "ran out of time", in seconds.
/// Read from `config.json` (`operation_deadline_secs`) and, for tests and operators,
/// from the `localStorage` item `nks-console.deadline-secs`. Missing keys keep
/// their default (not zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Deadlines {
    /// A cluster create routinely takes more than 10 minutes (Terraform waits 30).
    pub cluster_create: u64,
    /// Everything else: the SDK waiter's 10 minutes.
    pub default: u64,
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            cluster_create: default_deadline_secs(
                &OperationKind::NksCluster,
                &OperationType::Create,
            ),
            default: default_deadline_secs(&OperationKind::NksNodePool, &OperationType::Update),
        }
    }
}

impl Deadlines {
    pub fn for_op(&self, kind: &OperationKind, op_type: &OperationType) -> u64 {
        match (kind, op_type) {
            (OperationKind::NksCluster, OperationType::Create) => self.cluster_create,
            _ => self.default,
        }
    }

    /// An override as written by hand: a bare number of seconds for every kind, or
    /// `{"cluster_create": 1800, "default": 600}` (missing keys keep their default).
    /// Zero or garbage is ignored: a deadline that passes at once would only confuse.
    pub fn parse_override(text: &str) -> Option<Deadlines> {
        let text = text.trim();
        if let Ok(secs) = text.parse::<u64>() {
            return (secs > 0).then_some(Deadlines {
                cluster_create: secs,
                default: secs,
            });
        }
        let parsed: Deadlines = from_json(text).ok()?;
        (parsed.cluster_create > 0 && parsed.default > 0).then_some(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_override_is_a_number_or_an_object_and_garbage_is_ignored() {
        assert_eq!(
            Deadlines::parse_override(" 3 "),
            Some(Deadlines {
                cluster_create: 3,
                default: 3
            })
        );
        assert_eq!(
            Deadlines::parse_override(r#"{"default": 7}"#),
            Some(Deadlines {
                cluster_create: 1800,
                default: 7
            })
        );
        assert_eq!(Deadlines::parse_override("0"), None);
        assert_eq!(Deadlines::parse_override("soon"), None);
        assert_eq!(
            Deadlines::default().for_op(&OperationKind::NksNode, &OperationType::Delete),
            600
        );
    }
}
