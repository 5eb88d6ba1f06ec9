//! Every change the console can make, as the request that makes it: the method,
//! the path and the body. The console's client sends exactly this, and the code
//! panel writes exactly this as cURL, Go, TypeScript and Terraform, so what a
//! snippet does and what Apply does come from one value.

use serde::Serialize;

use crate::types::{
    ClusterCreate, ClusterUpdate, FirewallRuleCreate, FirewallRuleUpdate, LoadBalancerUpdate,
    PoolCreate, PoolUpdate, VpcCreate,
};

/// One request that answers an Operation.
#[derive(Clone, Debug, PartialEq)]
pub enum Mutation {
    CreateCluster(ClusterCreate),
    UpdateCluster {
        cluster_id: String,
        body: ClusterUpdate,
    },
    DeleteCluster {
        cluster_id: String,
    },
    CreatePool {
        cluster_id: String,
        body: PoolCreate,
    },
    UpdatePool {
        cluster_id: String,
        pool_id: String,
        body: PoolUpdate,
    },
    DeletePool {
        cluster_id: String,
        pool_id: String,
    },
    DeleteNode {
        cluster_id: String,
        pool_id: String,
        node_id: String,
    },
    /// Turns a load balancer's public IP on or off: the one change the API
    /// allows on it. The address is assigned or removed when the operation ends.
    UpdateLoadBalancer {
        cluster_id: String,
        load_balancer_id: String,
        body: LoadBalancerUpdate,
    },
    /// Its id is the operation's `resource_id` once it is done.
    CreateVpc(VpcCreate),
    /// Refused (422, naming the cluster) while a cluster uses the VPC.
    DeleteVpc {
        vpc_id: String,
    },
    CreateFirewallRule {
        vpc_id: String,
        body: FirewallRuleCreate,
    },
    UpdateFirewallRule {
        vpc_id: String,
        rule_id: String,
        body: FirewallRuleUpdate,
    },
    DeleteFirewallRule {
        vpc_id: String,
        rule_id: String,
    },
}

/// The HTTP method of a [`Mutation`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    Post,
    Patch,
    Delete,
}

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Post => "POST",
            Verb::Patch => "PATCH",
            Verb::Delete => "DELETE",
        }
    }
}

impl Mutation {
    /// What the request does, in words ("Create pool"): the name of the call in
    /// error messages and the heading of a snippet.
    pub fn call(&self) -> &'static str {
        match self {
            Mutation::CreateCluster(_) => "Create cluster",
            Mutation::UpdateCluster { .. } => "Update cluster",
            Mutation::DeleteCluster { .. } => "Delete cluster",
            Mutation::CreatePool { .. } => "Create pool",
            Mutation::UpdatePool { .. } => "Update pool",
            Mutation::DeletePool { .. } => "Delete pool",
            Mutation::DeleteNode { .. } => "Delete node",
            Mutation::UpdateLoadBalancer { .. } => "Update load balancer",
            Mutation::CreateVpc(_) => "Create VPC",
            Mutation::DeleteVpc { .. } => "Delete VPC",
            Mutation::CreateFirewallRule { .. } => "Create firewall rule",
            Mutation::UpdateFirewallRule { .. } => "Update firewall rule",
            Mutation::DeleteFirewallRule { .. } => "Delete firewall rule",
        }
    }

    pub fn verb(&self) -> Verb {
        match self {
            Mutation::CreateCluster(_)
            | Mutation::CreatePool { .. }
            | Mutation::CreateVpc(_)
            | Mutation::CreateFirewallRule { .. } => Verb::Post,
            Mutation::UpdateCluster { .. }
            | Mutation::UpdatePool { .. }
            | Mutation::UpdateLoadBalancer { .. }
            | Mutation::UpdateFirewallRule { .. } => Verb::Patch,
            Mutation::DeleteCluster { .. }
            | Mutation::DeletePool { .. }
            | Mutation::DeleteNode { .. }
            | Mutation::DeleteVpc { .. }
            | Mutation::DeleteFirewallRule { .. } => Verb::Delete,
        }
    }

    /// The path, each id percent-encoded as one segment (ids can come from a
    /// URL the user edited).
    pub fn path(&self) -> String {
        let s = segment;
        match self {
            Mutation::CreateCluster(_) => "/v1/nks/clusters".to_string(),
            Mutation::UpdateCluster { cluster_id, .. } | Mutation::DeleteCluster { cluster_id } => {
                format!("/v1/nks/clusters/{}", s(cluster_id))
            }
            Mutation::CreatePool { cluster_id, .. } => {
                format!("/v1/nks/clusters/{}/pools", s(cluster_id))
            }
            Mutation::UpdatePool {
                cluster_id,
                pool_id,
                ..
            }
            | Mutation::DeletePool {
                cluster_id,
                pool_id,
            } => format!("/v1/nks/clusters/{}/pools/{}", s(cluster_id), s(pool_id)),
            Mutation::DeleteNode {
                cluster_id,
                pool_id,
                node_id,
            } => format!(
                "/v1/nks/clusters/{}/pools/{}/nodes/{}",
                s(cluster_id),
                s(pool_id),
                s(node_id)
            ),
            Mutation::UpdateLoadBalancer {
                cluster_id,
                load_balancer_id,
                ..
            } => format!(
                "/v1/nks/clusters/{}/load_balancers/{}",
                s(cluster_id),
                s(load_balancer_id)
            ),
            Mutation::CreateVpc(_) => "/v1/networking/vpcs".to_string(),
            Mutation::DeleteVpc { vpc_id } => format!("/v1/networking/vpcs/{}", s(vpc_id)),
            Mutation::CreateFirewallRule { vpc_id, .. } => {
                format!("/v1/networking/vpcs/{}/firewall_rules", s(vpc_id))
            }
            Mutation::UpdateFirewallRule {
                vpc_id, rule_id, ..
            }
            | Mutation::DeleteFirewallRule { vpc_id, rule_id } => format!(
                "/v1/networking/vpcs/{}/firewall_rules/{}",
                s(vpc_id),
                s(rule_id)
            ),
        }
    }

    /// The JSON body, for the methods that send one. A PATCH holds only what
    /// changes.
    pub fn body(&self) -> Option<String> {
        fn json(body: &impl Serialize) -> Option<String> {
            Some(serde_json::to_string(body).unwrap_or_default())
        }
        match self {
            Mutation::CreateCluster(body) => json(body),
            Mutation::UpdateCluster { body, .. } => json(body),
            Mutation::CreatePool { body, .. } => json(body),
            Mutation::UpdatePool { body, .. } => json(body),
            Mutation::UpdateLoadBalancer { body, .. } => json(body),
            Mutation::CreateVpc(body) => json(body),
            Mutation::CreateFirewallRule { body, .. } => json(body),
            Mutation::UpdateFirewallRule { body, .. } => json(body),
            Mutation::DeleteCluster { .. }
            | Mutation::DeletePool { .. }
            | Mutation::DeleteNode { .. }
            | Mutation::DeleteVpc { .. }
            | Mutation::DeleteFirewallRule { .. } => None,
        }
    }
}

/// `value` as one path segment: what JavaScript's `encodeURIComponent` leaves
/// (letters, digits and `-_.!~*'()`) as is, every other byte of its UTF-8 as `%XX`.
pub fn segment(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'!'
            | b'~'
            | b'*'
            | b'\''
            | b'('
            | b')' => out.push(byte as char),
            _ => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                out.push('%');
                out.push(HEX[usize::from(byte >> 4)] as char);
                out.push(HEX[usize::from(byte & 15)] as char);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_segment_is_encoded_as_encode_uri_component_does() {
        assert_eq!(segment("pool-1_a.b"), "pool-1_a.b");
        assert_eq!(segment("a/b?c#d e"), "a%2Fb%3Fc%23d%20e");
        assert_eq!(segment("$`\"é"), "%24%60%22%C3%A9");
        assert_eq!(segment("!~*'()"), "!~*'()");
    }

    #[test]
    fn each_mutation_has_the_digests_method_and_path() {
        let pool = Mutation::UpdatePool {
            cluster_id: "c/1".into(),
            pool_id: "p1".into(),
            body: PoolUpdate {
                node_count: Some(4),
                ..Default::default()
            },
        };
        assert_eq!(pool.verb(), Verb::Patch);
        assert_eq!(pool.path(), "/v1/nks/clusters/c%2F1/pools/p1");
        assert_eq!(pool.body().as_deref(), Some(r#"{"node_count":4}"#));
        let node = Mutation::DeleteNode {
            cluster_id: "c".into(),
            pool_id: "p".into(),
            node_id: "n".into(),
        };
        assert_eq!(
            (node.verb().as_str(), node.path(), node.body()),
            (
                "DELETE",
                "/v1/nks/clusters/c/pools/p/nodes/n".to_string(),
                None
            )
        );
        let rule = Mutation::DeleteFirewallRule {
            vpc_id: "v".into(),
            rule_id: "r".into(),
        };
        assert_eq!(rule.path(), "/v1/networking/vpcs/v/firewall_rules/r");
        let lb = Mutation::UpdateLoadBalancer {
            cluster_id: "c".into(),
            load_balancer_id: "l".into(),
            body: LoadBalancerUpdate {
                public_ip_enabled: true,
            },
        };
        assert_eq!(lb.path(), "/v1/nks/clusters/c/load_balancers/l");
        assert_eq!(lb.body().as_deref(), Some(r#"{"public_ip_enabled":true}"#));
    }
}
