//! The project's operations.

mod page;

pub use page::OperationsPage;
