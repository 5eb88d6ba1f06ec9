//! The operations tracker's pure half, one concern per module: how long to follow
//! an operation ([`deadlines`]), the state machine fed with poll results
//! ([`tracker`]), what tabs say to each other so one polls for all ([`tabs`]), and
//! the operations page's feed ([`feed`]). The browser half is `crate::ops`.

pub mod deadlines;
pub mod feed;
pub mod tabs;
pub mod tracker;

/// `config.json` reads its `operation_deadline_secs` into this (`crate::api::client`).
pub use deadlines::Deadlines;

/// Operations as the tests of every module here build them.
#[cfg(test)]
pub(crate) mod test_ops {
    use crate::api::types::{Operation, OperationKind, OperationStatus, OperationType};

    pub(crate) const T0: f64 = 1_780_000_000_000.0;

    pub(crate) fn op(id: &str, status: OperationStatus) -> Operation {
        Operation {
            id: id.into(),
            kind: OperationKind::NksNodePool,
            op_type: OperationType::Update,
            status,
            resource_id: format!("res-{id}"),
            project_id: "p1".into(),
            created_at: String::new(),
            ..Operation::default()
        }
    }
}
