//! The ranges and sets the API validates with (digest §5.2): the console checks
//! a form against them while the person types, the simulator refuses with them.

/// A pool's node count.
pub const NODE_COUNT_MIN: u32 = 0;
pub const NODE_COUNT_MAX: u32 = 100;
/// A pool's boot volume size, in GB.
pub const BOOT_VOLUME_MIN_GB: u32 = 64;
pub const BOOT_VOLUME_MAX_GB: u32 = 512;
/// A name's length: the API documents none; 63 matches a Kubernetes object name.
pub const NAME_MAX: usize = 63;
/// The taint effects the API accepts.
pub const TAINT_EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];
/// The label key prefixes the platform keeps for itself.
pub const RESERVED_LABEL_PREFIXES: [&str; 3] = ["kubernetes.io", "k8s.io", "nirvanalabs.io"];
