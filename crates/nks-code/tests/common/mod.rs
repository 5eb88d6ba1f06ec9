//! Every change the console's forms make, with ordinary names and with hostile
//! ones (quotes, `$`, backticks, newlines, `${…}`), for the format tests.

#![allow(dead_code)]

use nks_api::types::*;
use nks_code::{Change, Mutation, Resource};

pub const BASE: &str = "http://127.0.0.1:8080";

/// A name: ordinary, or one written to break out of any string it lands in.
pub fn name(plain: &str, hostile: bool) -> String {
    if hostile {
        format!("{plain}'; rm -rf / #\"$(id)`id`${{x}}%{{y}}\\\n\tend")
    } else {
        plain.to_string()
    }
}

pub fn pool(hostile: bool) -> Pool {
    Pool {
        id: "pool-1".into(),
        cluster_id: "cluster-1".into(),
        name: name("web", hostile),
        node_count: 3,
        node_config: NodeConfig {
            instance_type: "n1-standard-4".into(),
            boot_volume: BootVolume {
                size: 100,
                volume_type: VolumeType::of("abs"),
            },
            labels: vec![name("tier=web", hostile)],
            taints: vec!["dedicated=web:NoSchedule".into()],
        },
        tags: vec![name("team", hostile)],
        ..Default::default()
    }
}

pub fn cluster(hostile: bool) -> Cluster {
    Cluster {
        id: "cluster-1".into(),
        name: name("prod", hostile),
        project_id: "project-1".into(),
        region: "us-sva-2".into(),
        vpc_id: "vpc-1".into(),
        kubernetes_version: "1.31".into(),
        autoscaling: true,
        tags: vec![name("production", hostile)],
        ..Default::default()
    }
}

pub fn vpc(hostile: bool) -> Vpc {
    Vpc {
        id: "vpc-1".into(),
        name: name("edge", hostile),
        project_id: "project-1".into(),
        region: "us-sva-2".into(),
        subnet: Some(Subnet {
            name: name("edge-subnet", hostile),
            ..Default::default()
        }),
        ..Default::default()
    }
}

pub fn rule(hostile: bool) -> FirewallRule {
    FirewallRule {
        id: "rule-1".into(),
        vpc_id: "vpc-1".into(),
        name: name("https", hostile),
        protocol: Protocol::of("tcp"),
        source_address: "0.0.0.0/0".into(),
        destination_address: "10.0.0.0/24".into(),
        destination_ports: vec!["443".into(), "8000-8080".into()],
        tags: vec![],
        ..Default::default()
    }
}

fn create_cluster(hostile: bool, vpc_id: &str) -> ClusterCreate {
    let c = cluster(hostile);
    ClusterCreate {
        name: c.name,
        project_id: c.project_id,
        region: c.region,
        vpc_id: vpc_id.into(),
        kubernetes_version: c.kubernetes_version,
        autoscaling: c.autoscaling,
        tags: c.tags,
    }
}

fn create_pool(hostile: bool) -> PoolCreate {
    let p = pool(hostile);
    PoolCreate {
        name: p.name,
        node_count: p.node_count,
        node_config: p.node_config,
        tags: p.tags,
    }
}

fn create_vpc(hostile: bool) -> VpcCreate {
    VpcCreate {
        name: name("edge", hostile),
        project_id: "project-1".into(),
        region: "us-sva-2".into(),
        subnet_name: name("edge-subnet", hostile),
        tags: vec![],
    }
}

fn create_rule(hostile: bool) -> FirewallRuleCreate {
    let r = rule(hostile);
    FirewallRuleCreate {
        name: r.name,
        protocol: r.protocol,
        source_address: r.source_address,
        destination_address: r.destination_address,
        destination_ports: r.destination_ports,
        tags: vec![name("edge", hostile)],
    }
}

/// Each form's change, by the form's name.
pub fn changes(hostile: bool) -> Vec<(&'static str, Change)> {
    let c = "cluster-1".to_string();
    vec![
        (
            "create_cluster",
            Change::one(
                Mutation::CreateCluster(create_cluster(hostile, "vpc-1")),
                None,
            ),
        ),
        (
            "create_cluster_new_vpc",
            Change::one(Mutation::CreateVpc(create_vpc(hostile)), None)
                .then(Mutation::CreateCluster(create_cluster(hostile, "")))
                .then(Mutation::CreatePool {
                    cluster_id: String::new(),
                    body: create_pool(hostile),
                }),
        ),
        (
            "edit_cluster",
            Change::one(
                Mutation::UpdateCluster {
                    cluster_id: c.clone(),
                    body: ClusterUpdate {
                        name: Some(name("prod-2", hostile)),
                        autoscaling: Some(false),
                        tags: None,
                    },
                },
                Some(Resource::Cluster(cluster(hostile))),
            ),
        ),
        (
            "delete_cluster",
            Change::one(
                Mutation::DeleteCluster {
                    cluster_id: c.clone(),
                },
                Some(Resource::Cluster(cluster(hostile))),
            ),
        ),
        (
            "create_pool",
            Change::one(
                Mutation::CreatePool {
                    cluster_id: c.clone(),
                    body: create_pool(hostile),
                },
                None,
            ),
        ),
        (
            "scale_pool",
            Change::one(
                Mutation::UpdatePool {
                    cluster_id: c.clone(),
                    pool_id: "pool-1".into(),
                    body: PoolUpdate {
                        node_count: Some(5),
                        ..Default::default()
                    },
                },
                Some(Resource::Pool(pool(hostile))),
            ),
        ),
        (
            "edit_pool",
            Change::one(
                Mutation::UpdatePool {
                    cluster_id: c.clone(),
                    pool_id: "pool-1".into(),
                    body: PoolUpdate {
                        name: Some(name("web-2", hostile)),
                        node_count: Some(2),
                        tags: Some(vec![]),
                    },
                },
                Some(Resource::Pool(pool(hostile))),
            ),
        ),
        (
            "delete_pool",
            Change::one(
                Mutation::DeletePool {
                    cluster_id: c.clone(),
                    pool_id: "pool-1".into(),
                },
                Some(Resource::Pool(pool(hostile))),
            ),
        ),
        (
            "delete_node",
            Change::one(
                Mutation::DeleteNode {
                    cluster_id: c.clone(),
                    pool_id: "pool-1".into(),
                    node_id: "node-1".into(),
                },
                None,
            ),
        ),
        (
            "load_balancer_ip",
            Change::one(
                Mutation::UpdateLoadBalancer {
                    cluster_id: c.clone(),
                    load_balancer_id: "lb-1".into(),
                    body: LoadBalancerUpdate {
                        public_ip_enabled: true,
                    },
                },
                None,
            ),
        ),
        (
            "create_vpc",
            Change::one(Mutation::CreateVpc(create_vpc(hostile)), None),
        ),
        (
            "delete_vpc",
            Change::one(
                Mutation::DeleteVpc {
                    vpc_id: "vpc-1".into(),
                },
                Some(Resource::Vpc(vpc(hostile))),
            ),
        ),
        (
            "create_rule",
            Change::one(
                Mutation::CreateFirewallRule {
                    vpc_id: "vpc-1".into(),
                    body: create_rule(hostile),
                },
                None,
            ),
        ),
        (
            "edit_rule",
            Change::one(
                Mutation::UpdateFirewallRule {
                    vpc_id: "vpc-1".into(),
                    rule_id: "rule-1".into(),
                    body: FirewallRuleUpdate {
                        name: Some(name("https-2", hostile)),
                        protocol: Some(Protocol::of("udp")),
                        destination_ports: Some(vec!["53".into()]),
                        ..Default::default()
                    },
                },
                Some(Resource::FirewallRule(rule(hostile))),
            ),
        ),
        (
            "delete_rule",
            Change::one(
                Mutation::DeleteFirewallRule {
                    vpc_id: "vpc-1".into(),
                    rule_id: "rule-1".into(),
                },
                Some(Resource::FirewallRule(rule(hostile))),
            ),
        ),
    ]
}
