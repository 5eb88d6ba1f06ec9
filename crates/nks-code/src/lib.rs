//! A change as code. The console builds one [`Mutation`] value for Apply; this
//! crate writes that same value as cURL, Go (nirvana-go), TypeScript
//! (`@nirvana-labs/nirvana`) and Terraform (provider `nirvana-labs/nirvana`), so a
//! snippet cannot differ from what Apply sends. [`export`] writes a cluster or a
//! VPC as one `main.tf` with the import blocks that adopt it.
//!
//! A snippet never holds the key: every format reads `NIRVANA_LABS_API_KEY`, and
//! the base URL from `NIRVANA_LABS_BASE_URL` with the console's own as the default.
//! Every value the user typed goes through [`quote`], so no name breaks out.

pub mod curl;
pub mod export;
pub mod go;
pub mod quote;
pub mod terraform;
pub mod typescript;

pub use nks_api::mutation::Mutation;
use nks_api::types::{Cluster, FirewallRule, Pool, Vpc};

/// What a change does, as the requests that do it, in order. Most changes are one
/// request; creating a cluster with a new VPC and a first pool is three. A step's
/// id left empty (a cluster's `vpc_id`, a pool's `cluster_id`) is the resource the
/// earlier step made, read from its operation's `resource_id`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Change {
    pub steps: Vec<Step>,
}

/// One request, and the resource it changes as it is now (for edits and
/// deletes: Terraform writes the whole block, not only the change).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub mutation: Mutation,
    pub now: Option<Resource>,
}

/// A resource as read from the API.
#[derive(Clone, Debug, PartialEq)]
pub enum Resource {
    Cluster(Cluster),
    Pool(Pool),
    Vpc(Vpc),
    FirewallRule(FirewallRule),
}

impl Change {
    /// One request on its own.
    pub fn one(mutation: Mutation, now: Option<Resource>) -> Change {
        Change {
            steps: vec![Step { mutation, now }],
        }
    }

    /// Then this request, after the earlier ones have ended.
    pub fn then(mut self, mutation: Mutation) -> Change {
        self.steps.push(Step {
            mutation,
            now: None,
        });
        self
    }
}

/// The tabs of the code panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Curl,
    Go,
    TypeScript,
    Terraform,
}

impl Format {
    pub const ALL: [Format; 4] = [
        Format::Curl,
        Format::Go,
        Format::TypeScript,
        Format::Terraform,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Format::Curl => "cURL",
            Format::Go => "Go",
            Format::TypeScript => "TypeScript",
            Format::Terraform => "Terraform",
        }
    }
}

/// The change in one format. `base_url` is the API base the console talks to,
/// shown as the default of `NIRVANA_LABS_BASE_URL`.
pub fn write(change: &Change, format: Format, base_url: &str) -> String {
    match format {
        Format::Curl => curl::write(change, base_url),
        Format::Go => go::write(change, base_url),
        Format::TypeScript => typescript::write(change, base_url),
        Format::Terraform => terraform::write(change),
    }
}

/// What a step's request makes, and the name of the variable that holds its id
/// in a script ("pool", "pool_id").
pub(crate) fn made(mutation: &Mutation) -> (&'static str, &'static str) {
    match mutation {
        Mutation::CreateCluster(_)
        | Mutation::UpdateCluster { .. }
        | Mutation::DeleteCluster { .. } => ("cluster", "cluster_id"),
        Mutation::CreatePool { .. } | Mutation::UpdatePool { .. } | Mutation::DeletePool { .. } => {
            ("pool", "pool_id")
        }
        Mutation::DeleteNode { .. } => ("node", "node_id"),
        Mutation::UpdateLoadBalancer { .. } => ("load balancer", "load_balancer_id"),
        Mutation::CreateVpc(_) | Mutation::DeleteVpc { .. } => ("VPC", "vpc_id"),
        Mutation::CreateFirewallRule { .. }
        | Mutation::UpdateFirewallRule { .. }
        | Mutation::DeleteFirewallRule { .. } => ("firewall rule", "rule_id"),
    }
}

/// The id a step takes from an earlier step: `(field, variable)` when its
/// mutation leaves that id empty and an earlier step makes it.
pub(crate) fn from_earlier(steps: &[Step], index: usize) -> Option<(&'static str, &'static str)> {
    let earlier = &steps[..index];
    let made_before = |want: fn(&Mutation) -> bool| earlier.iter().any(|s| want(&s.mutation));
    match &steps[index].mutation {
        Mutation::CreateCluster(body) if body.vpc_id.is_empty() => {
            made_before(|m| matches!(m, Mutation::CreateVpc(_))).then_some(("vpc_id", "vpc_id"))
        }
        Mutation::CreatePool { cluster_id, .. } if cluster_id.is_empty() => {
            made_before(|m| matches!(m, Mutation::CreateCluster(_)))
                .then_some(("cluster_id", "cluster_id"))
        }
        _ => None,
    }
}
