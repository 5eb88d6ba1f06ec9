//! Whether Apply may be pressed, as the last availability check decided.

use crate::rules::outcome::{ApiError, Outcome};

/// What the last availability check means for the Apply button.
#[derive(Clone, Debug, PartialEq)]
pub enum Gate {
    /// Nothing to check yet (the form is incomplete or unchanged).
    Idle,
    /// A check for the current body is under way.
    Checking,
    /// The platform says it can be done.
    Passed,
    /// The platform says it cannot, and why (quota, capacity, a rule).
    Refused {
        reason: String,
        field: Option<String>,
    },
    /// The check itself could not be made (outage, rate limit): Apply stays
    /// available, and the person is told the plan is unverified.
    Unverified { why: String },
}

impl Gate {
    pub fn allows_apply(&self) -> bool {
        matches!(self, Gate::Idle | Gate::Passed | Gate::Unverified { .. })
    }

    /// Reads an availability answer. A 4xx that is not temporary is the platform's
    /// "no"; anything temporary or unreachable only means "could not ask".
    pub fn from_availability(answer: &Result<(), ApiError>) -> Gate {
        match answer {
            Ok(()) => Gate::Passed,
            Err(e) if e.outcome() == Outcome::Rejected => Gate::Refused {
                reason: e.server_message().unwrap_or("refused").to_string(),
                field: e.field().map(str::to_string),
            },
            Err(e) => Gate::Unverified { why: e.explain() },
        }
    }
}
