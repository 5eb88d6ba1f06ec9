//! The project's operations: the header indicator, notices, and the operations page.

mod indicator;
mod page;

pub use indicator::{OpsIndicator, OpsNotices};
pub use page::OperationsPage;
