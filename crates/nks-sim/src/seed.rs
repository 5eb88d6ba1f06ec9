//! The worlds a simulator can start from. Names here are relied upon by the console's
//! end-to-end tests; change them only together.
//!
//! - `demo`: user operator@example.com; projects Production and Staging; cluster `edge-prod`
//!   (VPC `prod-vpc`) with pools `baseline` (3 × n1-standard-8) and `batch-zero` (0 ×
//!   n1-highcpu-16, tainted), load balancers `ingress-nginx/ingress-nginx-controller`
//!   (public) and `payments/payments-api` (private), PVCs `data-postgres-0`, `data-redis-0`,
//!   `prometheus-server`; a free `prod-spare-vpc`; `staging-vpc` in Staging; a short operation
//!   history. Every cluster has three controllers.
//! - `empty`: the catalogue plus one project Production with one free VPC `prod-vpc`.
//! - `large`: `demo` plus project Large with 40 clusters, one of them (`big`) with 1,000 pools,
//!   and over 2,000 past operations, so every list spans many pages.

use serde_json::{json, Value};

use crate::model::*;
use crate::timefmt::{self, Millis};
use crate::validate::PoolCreate;
use crate::world::{network, Seed, World};

pub const DEMO_API_KEY: &str = "nks-demo-key";

fn at(s: &str) -> Millis {
    timefmt::parse(s).unwrap_or(0)
}

fn salt(seed: Seed) -> u64 {
    match seed {
        Seed::Demo => 0xd3_0001,
        Seed::Empty => 0xe1_0002,
        Seed::Large => 0x1a_0003,
    }
}

pub fn build(seed: Seed) -> World {
    let mut w = World::new(salt(seed));
    catalogue(&mut w);
    match seed {
        Seed::Empty => {
            let p = project(&mut w, "Production", &["prod"], at("2026-05-01T08:00:00Z"));
            vpc(
                &mut w,
                &p,
                "prod-vpc",
                "10.20.0.0/24",
                at("2026-05-01T08:05:00Z"),
            );
        }
        Seed::Demo => demo(&mut w),
        Seed::Large => {
            demo(&mut w);
            large(&mut w);
        }
    }
    w
}

fn catalogue(w: &mut World) {
    let t0 = at("2026-01-15T00:00:00Z");
    w.user = User {
        id: w.ids.uuid(),
        email: "operator@example.com".into(),
        first_name: Some("Demo".into()),
        last_name: Some("Operator".into()),
    };
    w.regions = vec![Region {
        name: REGION.into(),
        availability: "live".into(),
        compute: RegionCompute { vms: true },
        networking: RegionNetworking {
            vpcs: true,
            connect: true,
        },
        nks: RegionNks {
            clusters: true,
            autoscaling: true,
        },
        storage: RegionStorage {
            abs: true,
            local_nvme: true,
        },
    }];
    w.versions = [
        ("v1.34.4", "2026-03-02T00:00:00Z"),
        ("v1.33.8", "2026-01-20T00:00:00Z"),
        ("v1.32.12", "2025-12-08T00:00:00Z"),
    ]
    .into_iter()
    .map(|(name, created)| KubernetesVersion {
        name: name.into(),
        display_name: format!("Kubernetes {}", name.trim_start_matches('v')),
        created_at: at(created),
    })
    .collect();
    let shapes: [(&str, &[i64], i64); 3] = [
        ("standard", &[2, 4, 8, 16, 32], 4),
        ("highcpu", &[2, 4, 8, 16], 2),
        ("highmem", &[2, 4, 8], 8),
    ];
    for (family, sizes, gb_per_vcpu) in shapes {
        for &vcpu in sizes {
            w.instance_types.push(InstanceType {
                name: format!("n1-{family}-{vcpu}"),
                region: REGION.into(),
                vcpu,
                memory_gb: vcpu * gb_per_vcpu,
                network_bandwidth_gbps: match vcpu {
                    0..=4 => 10.0,
                    5..=8 => 16.0,
                    9..=16 => 25.0,
                    _ => 50.0,
                },
                series: "n1".into(),
                family: family.into(),
                chipset: "AMD EPYC 9354".into(),
                created_at: t0,
                updated_at: t0,
            });
        }
    }
    w.quota_limits = QuotaLimits {
        clusters: 5,
        node_pool_vcpu: 256,
        node_pool_memory_gb: 1024,
        public_ips: 16,
    };
}

fn project(w: &mut World, name: &str, tags: &[&str], t: Millis) -> String {
    let id = w.ids.uuid();
    let seq = w.next_seq();
    w.projects.insert(
        id.clone(),
        Project {
            id: id.clone(),
            name: name.into(),
            tags: tags.iter().map(|s| s.to_string()).collect(),
            created_at: t,
            updated_at: t,
            seq,
        },
    );
    id
}

fn vpc(w: &mut World, project_id: &str, name: &str, cidr: &str, t: Millis) -> String {
    let id = w.ids.uuid();
    let subnet_id = w.ids.uuid();
    let seq = w.next_seq();
    if let Some(subnet) = network::Subnet::new(cidr) {
        w.subnets.insert(id.clone(), subnet);
    }
    w.vpcs.insert(
        id.clone(),
        Vpc {
            id: id.clone(),
            name: name.into(),
            project_id: project_id.into(),
            region: REGION.into(),
            status: ResourceStatus::Ready,
            subnet: Subnet {
                id: subnet_id,
                name: format!("{name}-subnet"),
                cidr: cidr.into(),
                created_at: t,
                updated_at: t,
            },
            firewall_rule_ids: Vec::new(),
            tags: Vec::new(),
            created_at: t,
            updated_at: t,
            seq,
        },
    );
    id
}

struct ClusterSeed<'a> {
    project_id: &'a str,
    vpc_id: &'a str,
    name: &'a str,
    version: &'a str,
    autoscaling: bool,
    tags: &'a [&'a str],
    created: Millis,
    ready: Millis,
}

fn ready_cluster(w: &mut World, s: ClusterSeed) -> String {
    let id = w.ids.uuid();
    let seq = w.next_seq();
    let vip = w
        .subnets
        .get(s.vpc_id)
        .map(|n| n.api_vip())
        .unwrap_or_default();
    let public = w.next_public_ip();
    w.clusters.insert(
        id.clone(),
        Cluster {
            id: id.clone(),
            name: s.name.into(),
            project_id: s.project_id.into(),
            region: REGION.into(),
            vpc_id: s.vpc_id.into(),
            kubernetes_version: s.version.into(),
            autoscaling: s.autoscaling,
            pool_ids: Vec::new(),
            private_ip: vip.clone(),
            public_ip: public.clone(),
            status: ResourceStatus::Ready,
            tags: s.tags.iter().map(|t| t.to_string()).collect(),
            created_at: s.created,
            updated_at: s.ready,
            seq,
            planned_ips: (vip, public),
        },
    );
    w.insert_ready_controllers(&id, s.ready);
    done_op(
        w,
        OpKind::NksCluster,
        OpType::Create,
        &id,
        s.project_id,
        None,
        s.created,
        s.ready,
    );
    id
}

#[allow(clippy::too_many_arguments)]
fn done_op(
    w: &mut World,
    kind: OpKind,
    op_type: OpType,
    resource_id: &str,
    project_id: &str,
    details: Option<Value>,
    created: Millis,
    done: Millis,
) {
    let id = w.ids.uuid();
    let seq = w.next_seq();
    w.ops.insert(
        id.clone(),
        Operation {
            id,
            kind,
            op_type,
            status: OpStatus::Done,
            resource_id: resource_id.into(),
            project_id: project_id.into(),
            details,
            created_at: created,
            updated_at: done,
            seq,
        },
    );
}

fn pool_spec(
    name: &str,
    count: i64,
    instance: &str,
    size: i64,
    kind: VolumeType,
    labels: &[&str],
    taints: &[&str],
) -> PoolCreate {
    PoolCreate {
        name: name.into(),
        node_count: count,
        node_config: NodeConfig {
            instance_type: instance.into(),
            boot_volume: BootVolume { size, kind },
            labels: labels.iter().map(|s| s.to_string()).collect(),
            taints: taints.iter().map(|s| s.to_string()).collect(),
        },
        tags: Vec::new(),
    }
}

fn ready_pool(
    w: &mut World,
    cluster_id: &str,
    project_id: &str,
    spec: PoolCreate,
    created: Millis,
    ready: Millis,
) -> String {
    let id = w.insert_ready_pool(cluster_id, spec, created);
    if let Some(p) = w.pools.get_mut(&id) {
        p.updated_at = ready;
    }
    done_op(
        w,
        OpKind::NksNodePool,
        OpType::Create,
        &id,
        project_id,
        None,
        created,
        ready,
    );
    id
}

fn demo(w: &mut World) {
    let prod = project(w, "Production", &["prod"], at("2026-05-01T08:00:00Z"));
    let staging = project(w, "Staging", &["staging"], at("2026-05-01T08:01:00Z"));
    let prod_vpc = vpc(
        w,
        &prod,
        "prod-vpc",
        "10.20.0.0/24",
        at("2026-05-01T08:05:00Z"),
    );
    vpc(
        w,
        &prod,
        "prod-spare-vpc",
        "10.21.0.0/24",
        at("2026-05-01T08:06:00Z"),
    );
    vpc(
        w,
        &staging,
        "staging-vpc",
        "10.30.0.0/24",
        at("2026-05-01T08:07:00Z"),
    );
    let cluster = ready_cluster(
        w,
        ClusterSeed {
            project_id: &prod,
            vpc_id: &prod_vpc,
            name: "edge-prod",
            version: "v1.34.4",
            autoscaling: true,
            tags: &["prod"],
            created: at("2026-05-04T09:12:00Z"),
            ready: at("2026-05-04T09:31:45Z"),
        },
    );
    let baseline = ready_pool(
        w,
        &cluster,
        &prod,
        pool_spec(
            "baseline",
            3,
            "n1-standard-8",
            128,
            VolumeType::Abs,
            &["tier=general"],
            &[],
        ),
        at("2026-05-04T09:32:10Z"),
        at("2026-05-04T09:40:02Z"),
    );
    ready_pool(
        w,
        &cluster,
        &prod,
        pool_spec(
            "batch-zero",
            0,
            "n1-highcpu-16",
            256,
            VolumeType::Nvme,
            &["workload=batch"],
            &["dedicated=batch:NoSchedule"],
        ),
        at("2026-05-04T09:33:00Z"),
        at("2026-05-04T09:41:12Z"),
    );
    let discovered = at("2026-05-05T10:00:00Z");
    w.insert_load_balancer(
        &cluster,
        "ingress-nginx",
        "ingress-nginx-controller",
        true,
        4,
        discovered,
    );
    w.insert_load_balancer(
        &cluster,
        "payments",
        "payments-api",
        false,
        5,
        discovered + 60_000,
    );
    for (i, (name, size, kind)) in [
        ("data-postgres-0", 50, VolumeType::Abs),
        ("data-redis-0", 10, VolumeType::Nvme),
        ("prometheus-server", 100, VolumeType::Abs),
    ]
    .into_iter()
    .enumerate()
    {
        w.insert_pvc(
            &cluster,
            name,
            size,
            kind,
            discovered + 120_000 * (i as i64 + 1),
        );
    }
    done_op(
        w,
        OpKind::NksNodePool,
        OpType::Update,
        &baseline,
        &prod,
        Some(json!({"changes": {"node_count": {"from": 2, "to": 3}}})),
        at("2026-05-06T14:02:30Z"),
        at("2026-05-06T14:04:31Z"),
    );
}

fn large(w: &mut World) {
    w.quota_limits = QuotaLimits {
        clusters: 100,
        node_pool_vcpu: 100_000,
        node_pool_memory_gb: 400_000,
        public_ips: 100,
    };
    let t0 = at("2026-04-01T00:00:00Z");
    let minute = 60_000;
    let large = project(w, "Large", &["load"], t0);
    let big_vpc = vpc(w, &large, "big-vpc", "10.100.0.0/16", t0);
    let big = ready_cluster(
        w,
        ClusterSeed {
            project_id: &large,
            vpc_id: &big_vpc,
            name: "big",
            version: "v1.34.4",
            autoscaling: false,
            tags: &["load"],
            created: t0,
            ready: t0 + 20 * minute,
        },
    );
    for i in 1..=39i64 {
        let created = t0 + i * 30 * minute;
        let v = vpc(
            w,
            &large,
            &format!("large-{i:02}-vpc"),
            &format!("10.101.{i}.0/24"),
            created,
        );
        let c = ready_cluster(
            w,
            ClusterSeed {
                project_id: &large,
                vpc_id: &v,
                name: &format!("large-{i:02}"),
                version: ["v1.34.4", "v1.33.8", "v1.32.12"][(i % 3) as usize],
                autoscaling: i % 2 == 0,
                tags: &["load"],
                created,
                ready: created + 20 * minute,
            },
        );
        let spec = pool_spec("workers", 1, "n1-standard-2", 64, VolumeType::Abs, &[], &[]);
        ready_pool(
            w,
            &c,
            &large,
            spec,
            created + 21 * minute,
            created + 29 * minute,
        );
    }
    let start = t0 + 2 * 24 * 60 * minute;
    for i in 0..1000i64 {
        let count = i % 3 + 1;
        let created = start + i * 2 * minute;
        let spec = pool_spec(
            &format!("pool-{i:04}"),
            count,
            "n1-standard-2",
            64,
            VolumeType::Abs,
            &["tier=load"],
            &[],
        );
        let pool = ready_pool(w, &big, &large, spec, created, created + minute);
        let later = start + (1000 + i) * 2 * minute;
        done_op(
            w,
            OpKind::NksNodePool,
            OpType::Update,
            &pool,
            &large,
            Some(json!({"changes": {"node_count": {"from": count + 1, "to": count}}})),
            later,
            later + minute,
        );
    }
}
