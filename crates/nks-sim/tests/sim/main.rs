//! Integration tests over real loopback HTTP against an in-process simulator.

mod autoscaler;
mod catalog;
mod clusters;
mod common;
mod control;
mod cors_static;
mod faults;
mod fuzz;
mod names;
mod networking;
mod pagination;
mod parts;
mod pools;
mod sdk_shape;
mod validation;
mod wire;
