//! Pure rules of the console: no browser type is imported below this module, so
//! everything here runs under plain `cargo test` on the host.

pub mod as_code;
pub mod backoff;
pub mod capacity;
pub mod display;
pub mod exposure;
pub mod firewall;
pub mod first_pool;
pub mod footprint;
pub mod forms;
pub mod gate;
pub mod history;
pub mod immutability;
pub mod listing;
pub mod money;
pub mod new_vpc;
pub mod node_deletes;
pub mod operation;
pub mod operations_list;
pub mod outcome;
pub mod paged;
pub mod plan;
pub mod reachability;
pub mod shell;
pub mod size_history;
pub mod timeline;
pub mod times;
pub mod tracking;
pub mod validation;
