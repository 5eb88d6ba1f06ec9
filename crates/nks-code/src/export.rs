//! A cluster or a VPC as one `main.tf`: the provider, a block per resource with
//! references between them (`vpc_id = nirvana_networking_vpc.edge.id`), and one
//! `import` block per resource (Terraform 1.5+) with the provider's import id,
//! so `terraform apply` adopts what exists instead of making it again.

use nks_api::types::{Cluster, FirewallRule, Pool, Vpc};

use crate::quote::hcl;
use crate::terraform::{block_of, Block, Names};
use crate::Resource;

const HEAD: &str = "# Adopt these resources with Terraform 1.5 or later: `terraform init`, then\n\
# `terraform plan` shows each import and no change, and `terraform apply` adopts them.\n\
terraform {\n  required_providers {\n    nirvana = {\n      source = \"nirvana-labs/nirvana\"\n    }\n  }\n}\n\n\
# The key is read from NIRVANA_LABS_API_KEY, the API from NIRVANA_LABS_BASE_URL.\n\
provider \"nirvana\" {}\n";

/// Why a pool of an autoscaling cluster leaves `node_count` alone: a later
/// `terraform apply` with the count exported now, after the autoscaler moved
/// it, would be a manual scale-down, which terminates nodes without drain.
pub const AUTOSCALED: &str =
    "The cluster autoscales: applying a stale node_count would scale down without drain.";

/// A block and the id its import names.
struct Adopted {
    block: Block,
    import_id: String,
}

fn write(parts: Vec<Adopted>) -> String {
    let mut out = String::from(HEAD);
    for part in &parts {
        out.push('\n');
        out.push_str(&part.block.write());
    }
    for part in &parts {
        out.push_str(&format!(
            "\nimport {{\n  to = {}\n  id = {}\n}}\n",
            part.block.address(),
            hcl(&part.import_id)
        ));
    }
    out
}

/// Points `attribute` of `block` at `address`'s id instead of its text.
fn refer(block: &mut Block, attribute: &str, address: &str) {
    for (key, value) in block.attributes.iter_mut() {
        if *key == attribute {
            *value = crate::terraform::Value::Line(format!("{address}.id"));
        }
    }
}

fn vpc_parts(names: &mut Names, vpc: &Vpc, rules: &[FirewallRule]) -> Vec<Adopted> {
    let block = block_of(names, &Resource::Vpc(vpc.clone()));
    let address = block.address();
    let mut parts = vec![Adopted {
        block,
        import_id: vpc.id.clone(),
    }];
    for rule in rules {
        let mut block = block_of(names, &Resource::FirewallRule(rule.clone()));
        if rule.vpc_id == vpc.id {
            refer(&mut block, "vpc_id", &address);
        }
        parts.push(Adopted {
            block,
            import_id: format!("{}/{}", rule.vpc_id, rule.id),
        });
    }
    parts
}

/// A VPC and its firewall rules.
pub fn vpc(vpc: &Vpc, rules: &[FirewallRule]) -> String {
    write(vpc_parts(&mut Names::default(), vpc, rules))
}

/// A cluster with its VPC (when read) and that VPC's firewall rules, and its pools.
pub fn cluster(cluster: &Cluster, pools: &[Pool], vpc: Option<(&Vpc, &[FirewallRule])>) -> String {
    let mut names = Names::default();
    let mut parts = vec![];
    let mut vpc_address = None;
    if let Some((vpc, rules)) = vpc {
        parts = vpc_parts(&mut names, vpc, rules);
        if vpc.id == cluster.vpc_id {
            vpc_address = Some(parts[0].block.address());
        }
    }
    let mut block = block_of(&mut names, &Resource::Cluster(cluster.clone()));
    if let Some(address) = &vpc_address {
        refer(&mut block, "vpc_id", address);
    }
    let cluster_address = block.address();
    parts.push(Adopted {
        block,
        import_id: cluster.id.clone(),
    });
    for pool in pools {
        let mut block = block_of(&mut names, &Resource::Pool(pool.clone()));
        if pool.cluster_id == cluster.id {
            refer(&mut block, "cluster_id", &cluster_address);
        }
        if cluster.autoscaling {
            block.ignored = Some((&["node_count"], AUTOSCALED));
        }
        parts.push(Adopted {
            block,
            import_id: format!("{}/{}", pool.cluster_id, pool.id),
        });
    }
    write(parts)
}
