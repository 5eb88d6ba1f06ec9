//! Plan before apply: availability, cost, quota and disruption of a change, shown
//! beside the Apply button while the form is edited.

mod ask;
mod plan_panel;

pub use plan_panel::PlanPanel;
