//! Pools: one pool and its nodes, and the forms that create, edit, scale and replace pools.

mod create_pool_form;
mod delete_pool_dialog;
mod detail;
mod drain_list;
mod edit_pool_form;
mod edit_pool_state;
mod kept_deletes;
mod pool_fields;
mod pool_inputs;
mod pool_taints;
mod scale_down_warning;
mod size_history;
mod volumes;

pub use create_pool_form::CreatePoolPage;
pub use detail::PoolPage;
pub(crate) use drain_list::DrainList;
pub use edit_pool_form::EditPoolPage;
pub(crate) use pool_fields::PoolFields;
pub(crate) use pool_inputs::PoolInputs;
pub use volumes::PoolVolumeList;
