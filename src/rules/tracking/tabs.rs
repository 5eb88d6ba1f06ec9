//! What the console's open tabs say to each other so that one of them polls for
//! all: the messages on the channel, the polling condition they share, which
//! projects were searched for operations in flight, and whether any tab is seen.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::api::decode::from_json;
use crate::api::types::Operation;
use crate::rules::outcome::ApiError;

/// How long a follower tab that said "I am visible" keeps the leader polling
/// while the leader's own tab is hidden. Followers say it on every update they
/// receive, so a closed or hidden follower stops counting within this window.
pub const PEER_VISIBLE_MS: f64 = 25_000.0;

/// Polling pauses when nobody can see its result: neither this tab nor, recently,
/// any follower tab.
pub fn anyone_watching(own_visible: bool, peer_visible_at_ms: f64, now_ms: f64) -> bool {
    own_visible || now_ms - peer_visible_at_ms < PEER_VISIBLE_MS
}

/// How long an adoption (three list calls) of a project counts as fresh: a second
/// tab opening on the same project must not repeat it.
pub const ADOPT_FRESH_MS: f64 = 60_000.0;

/// The projects whose in-flight operations were picked up recently.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Adoptions(BTreeMap<String, f64>);

impl Adoptions {
    /// Whether to look for `project`'s operations in flight now; records the look.
    pub fn claim(&mut self, project: &str, now_ms: f64) -> bool {
        match self.0.get(project) {
            Some(at) if now_ms - at < ADOPT_FRESH_MS => false,
            _ => {
                self.0.insert(project.to_string(), now_ms);
                true
            }
        }
    }
}

/// The polling condition as tabs share it (an [`ApiError`] is not serialisable).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SharedCondition {
    pub call: String,
    pub status: Option<u16>,
    pub message: String,
}

impl SharedCondition {
    pub fn from_error(error: &ApiError) -> SharedCondition {
        match error {
            ApiError::Status {
                call,
                status,
                message,
                ..
            } => SharedCondition {
                call: call.clone(),
                status: Some(*status),
                message: message.clone(),
            },
            other => SharedCondition {
                call: String::new(),
                status: None,
                message: other.detail(),
            },
        }
    }

    pub fn to_error(&self) -> ApiError {
        match self.status {
            Some(status) => ApiError::Status {
                call: self.call.clone(),
                status,
                message: self.message.clone(),
                retry_after_ms: None,
            },
            None => ApiError::Unreachable {
                call: self.call.clone(),
                detail: self.message.clone(),
            },
        }
    }
}

/// What tabs of the console say to each other on one `BroadcastChannel`. One tab
/// (the holder of a Web Lock) leads and polls; the others send it their requests
/// and show what it shares.
///
/// Written externally tagged: `{"track":{"op":…}}`, or `"wake"` for a message
/// without fields. Fields are required: a message missing one is not acted on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Message {
    /// Leader → all: every followed operation's latest state, after each poll.
    State {
        ops: Vec<Operation>,
        condition: Option<SharedCondition>,
        /// Followed operations the API answered 404 for.
        #[serde(default)]
        lost: Vec<String>,
    },
    /// Follower → leader: a mutation here returned this operation; follow it.
    Track { op: Operation },
    /// Follower → leader: the person chose to keep watching.
    KeepWatching { id: String },
    /// Follower → leader: pick up what is in flight in this project.
    Adopt { project_id: String },
    /// Follower → leader: shown again or back online; poll now.
    Wake,
    /// Follower → leader: this tab is visible (sent on each State it receives).
    Seen,
    /// A new follower: leader, share your state.
    Hello,
}

impl Message {
    pub fn to_json(&self) -> String {
        // Nothing in a message can fail to serialise (no maps with other keys
        // than strings), so the empty string is never sent.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Anything unreadable (another version of the console) is ignored.
    pub fn from_json(text: &str) -> Option<Message> {
        from_json(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::OperationStatus;
    use crate::rules::tracking::test_ops::{op, T0};

    #[test]
    fn polling_pauses_only_when_no_tab_is_watching() {
        assert!(anyone_watching(true, f64::NEG_INFINITY, T0));
        assert!(!anyone_watching(false, f64::NEG_INFINITY, T0));
        assert!(anyone_watching(false, T0 - 1_000.0, T0));
        assert!(!anyone_watching(false, T0 - PEER_VISIBLE_MS, T0));
    }

    #[test]
    fn a_project_is_searched_for_operations_in_flight_once_a_minute_at_most() {
        let mut a = Adoptions::default();
        assert!(a.claim("p1", T0));
        assert!(
            !a.claim("p1", T0 + 5_000.0),
            "a second tab does not repeat it"
        );
        assert!(a.claim("p2", T0 + 5_000.0));
        assert!(a.claim("p1", T0 + ADOPT_FRESH_MS));
    }

    #[test]
    fn messages_between_tabs_round_trip_and_strangers_are_ignored() {
        let messages = [
            Message::State {
                ops: vec![op("a", OperationStatus::Running)],
                condition: Some(SharedCondition::from_error(&ApiError::Status {
                    call: "Get operation".into(),
                    status: 429,
                    message: "slow down".into(),
                    retry_after_ms: Some(1500),
                })),
                lost: vec!["gone".into()],
            },
            Message::Track {
                op: op("b", OperationStatus::Pending),
            },
            Message::Track {
                op: Operation {
                    details: Some(crate::api::types::OperationDetails {
                        changes: BTreeMap::from([
                            (
                                "node_count".to_string(),
                                crate::api::types::Change {
                                    from: serde_json::json!(3),
                                    to: serde_json::json!(5),
                                },
                            ),
                            (
                                "tags".to_string(),
                                crate::api::types::Change {
                                    from: serde_json::json!(["a \"b\""]),
                                    to: serde_json::json!([]),
                                },
                            ),
                        ]),
                    }),
                    ..op("c", OperationStatus::Running)
                },
            },
            Message::KeepWatching { id: "a".into() },
            Message::Adopt {
                project_id: "p1".into(),
            },
            Message::Wake,
            Message::Seen,
            Message::Hello,
        ];
        for m in messages {
            assert_eq!(Message::from_json(&m.to_json()), Some(m));
        }
        assert_eq!(Message::from_json(r#"{"from_the_future":{}}"#), None);
        assert_eq!(
            Message::from_json(r#"{"track":{}}"#),
            None,
            "a message missing its field"
        );
        assert_eq!(Message::from_json(r#"{"wake":{},"seen":{}}"#), None);
        assert_eq!(Message::from_json(r#""from_the_future""#), None);
        assert_eq!(Message::from_json("not json"), None);
    }

    #[test]
    fn a_shared_condition_keeps_its_outcome() {
        let errors = [
            ApiError::Status {
                call: "List operations".into(),
                status: 503,
                message: "busy".into(),
                retry_after_ms: None,
            },
            ApiError::Unreachable {
                call: "Get operation".into(),
                detail: "no response".into(),
            },
        ];
        for e in errors {
            let back = SharedCondition::from_error(&e).to_error();
            assert_eq!(back.outcome(), e.outcome());
        }
    }
}
