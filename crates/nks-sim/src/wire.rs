//! The world's records as the API answers them: `nks-api`'s wire types, the same
//! the console reads. The records in `model.rs` are the simulator's storage;
//! what leaves the simulator is one of these.

use nks_api::types as api;
use serde::Serialize;

use crate::model;
use crate::timefmt;

/// A record's answer.
pub trait Wire {
    type Out: Serialize;
    fn wire(&self) -> Self::Out;
}

impl<T: Wire> Wire for &T {
    type Out = T::Out;
    fn wire(&self) -> T::Out {
        (**self).wire()
    }
}

/// A list's answers, in its order.
pub fn all<T: Wire>(records: Vec<T>) -> Vec<T::Out> {
    records.iter().map(Wire::wire).collect()
}

/// A unit enum's wire text (`"ready"`), as its serde name has it.
fn text<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(text)) => text,
        _ => String::new(),
    }
}

fn time(ms: timefmt::Millis) -> String {
    timefmt::format(ms)
}

fn status(s: model::ResourceStatus) -> api::ResourceStatus {
    api::ResourceStatus::of(&text(&s))
}

impl Wire for model::Operation {
    type Out = api::Operation;
    fn wire(&self) -> api::Operation {
        api::Operation {
            id: self.id.clone(),
            kind: api::OperationKind::of(self.kind.as_str()),
            op_type: api::OperationType::of(self.op_type.as_str()),
            status: api::OperationStatus::of(self.status.as_str()),
            resource_id: self.resource_id.clone(),
            project_id: self.project_id.clone(),
            // Only ever `{"changes": {field: {from, to}}}` (world/mutations.rs).
            details: self
                .details
                .as_ref()
                .map(|d| serde_json::from_value(d.clone()).unwrap_or_default()),
            created_at: time(self.created_at),
            updated_at: time(self.updated_at),
        }
    }
}

impl Wire for model::Cluster {
    type Out = api::Cluster;
    fn wire(&self) -> api::Cluster {
        api::Cluster {
            id: self.id.clone(),
            name: self.name.clone(),
            project_id: self.project_id.clone(),
            region: self.region.clone(),
            vpc_id: self.vpc_id.clone(),
            kubernetes_version: self.kubernetes_version.clone(),
            autoscaling: self.autoscaling,
            pool_ids: self.pool_ids.clone(),
            // Plain strings, `""` until the control plane exists (the Go SDK's
            // type; docs/sdk-differences.md), never `null`.
            private_ip: Some(self.private_ip.clone()),
            public_ip: Some(self.public_ip.clone()),
            status: status(self.status),
            tags: self.tags.clone(),
            created_at: time(self.created_at),
            updated_at: time(self.updated_at),
        }
    }
}

impl Wire for model::Pool {
    type Out = api::Pool;
    fn wire(&self) -> api::Pool {
        let config = &self.node_config;
        api::Pool {
            id: self.id.clone(),
            cluster_id: self.cluster_id.clone(),
            name: self.name.clone(),
            // Validated to 0..=100 on the way in.
            node_count: self.node_count as u32,
            node_config: api::NodeConfig {
                instance_type: config.instance_type.clone(),
                boot_volume: api::BootVolume {
                    size: config.boot_volume.size as u32,
                    volume_type: api::VolumeType::of(&text(&config.boot_volume.kind)),
                },
                labels: config.labels.clone(),
                taints: config.taints.clone(),
            },
            status: status(self.status),
            tags: self.tags.clone(),
            created_at: time(self.created_at),
            updated_at: time(self.updated_at),
        }
    }
}

impl Wire for model::Node {
    type Out = api::Node;
    fn wire(&self) -> api::Node {
        api::Node {
            id: self.id.clone(),
            name: self.name.clone(),
            private_ip: self.private_ip.clone(),
            status: status(self.status),
            created_at: time(self.created_at),
            updated_at: time(self.updated_at),
        }
    }
}

impl Wire for model::Vpc {
    type Out = api::Vpc;
    fn wire(&self) -> api::Vpc {
        let subnet = &self.subnet;
        api::Vpc {
            id: self.id.clone(),
            name: self.name.clone(),
            project_id: self.project_id.clone(),
            region: self.region.clone(),
            status: status(self.status),
            subnet: Some(api::Subnet {
                id: subnet.id.clone(),
                name: subnet.name.clone(),
                cidr: subnet.cidr.clone(),
                created_at: time(subnet.created_at),
                updated_at: time(subnet.updated_at),
            }),
            firewall_rule_ids: self.firewall_rule_ids.clone(),
            tags: self.tags.clone(),
            created_at: time(self.created_at),
            updated_at: time(self.updated_at),
        }
    }
}

impl Wire for model::FirewallRule {
    type Out = api::FirewallRule;
    fn wire(&self) -> api::FirewallRule {
        api::FirewallRule {
            id: self.id.clone(),
            vpc_id: self.vpc_id.clone(),
            name: self.name.clone(),
            protocol: api::Protocol::of(self.protocol.as_str()),
            source_address: self.source_address.clone(),
            destination_address: self.destination_address.clone(),
            destination_ports: self.destination_ports.clone(),
            status: status(self.status),
            tags: self.tags.clone(),
            created_at: time(self.created_at),
            updated_at: time(self.updated_at),
        }
    }
}

impl Wire for model::KubernetesVersion {
    type Out = api::KubernetesVersion;
    fn wire(&self) -> api::KubernetesVersion {
        api::KubernetesVersion {
            name: self.name.clone(),
            display_name: self.display_name.clone(),
            created_at: time(self.created_at),
        }
    }
}

impl Wire for model::Controller {
    type Out = api::Controller;
    fn wire(&self) -> api::Controller {
        api::Controller {
            id: self.id.clone(),
            name: self.name.clone(),
            instance_type: self.instance_type.clone(),
            private_ip: self.private_ip.clone(),
            status: status(self.status),
            created_at: time(self.created_at),
            updated_at: time(self.updated_at),
        }
    }
}

/// A node's or a controller's volume: the same wire type, a controller's without `node_id`.
fn volume(
    id: &str,
    name: &str,
    kind: model::VolumeKind,
    volume_type: model::VolumeType,
    size: i64,
    state: model::ResourceStatus,
    (created_at, updated_at): (timefmt::Millis, timefmt::Millis),
) -> api::Volume {
    api::Volume {
        id: id.to_string(),
        node_id: None,
        name: name.to_string(),
        kind: api::VolumeKind::of(&text(&kind)),
        volume_type: api::VolumeType::of(&text(&volume_type)),
        size: size as u32,
        status: status(state),
        created_at: time(created_at),
        updated_at: time(updated_at),
    }
}

impl Wire for model::NodeVolume {
    type Out = api::Volume;
    fn wire(&self) -> api::Volume {
        api::Volume {
            node_id: Some(self.node_id.clone()),
            ..volume(
                &self.id,
                &self.name,
                self.kind,
                self.volume_type,
                self.size,
                self.status,
                (self.created_at, self.updated_at),
            )
        }
    }
}

impl Wire for model::ControllerVolume {
    type Out = api::Volume;
    fn wire(&self) -> api::Volume {
        volume(
            &self.id,
            &self.name,
            self.kind,
            self.volume_type,
            self.size,
            self.status,
            (self.created_at, self.updated_at),
        )
    }
}

impl Wire for model::LoadBalancer {
    type Out = api::LoadBalancer;
    fn wire(&self) -> api::LoadBalancer {
        api::LoadBalancer {
            id: self.id.clone(),
            cluster_id: self.cluster_id.clone(),
            namespace: self.namespace.clone(),
            service_name: self.service_name.clone(),
            private_ip: self.private_ip.clone(),
            public_ip: self.public_ip.clone(),
            public_ip_enabled: self.public_ip_enabled,
            status: status(self.status),
            created_at: time(self.created_at),
            updated_at: time(self.updated_at),
        }
    }
}

impl Wire for model::PersistentVolumeClaim {
    type Out = api::PersistentVolumeClaim;
    fn wire(&self) -> api::PersistentVolumeClaim {
        api::PersistentVolumeClaim {
            id: self.id.clone(),
            cluster_id: self.cluster_id.clone(),
            name: self.name.clone(),
            size: self.size as u32,
            volume_type: api::VolumeType::of(&text(&self.volume_type)),
            status: status(self.status),
            created_at: time(self.created_at),
            updated_at: time(self.updated_at),
        }
    }
}

impl Wire for model::User {
    type Out = api::User;
    fn wire(&self) -> api::User {
        api::User {
            id: self.id.clone(),
            email: self.email.clone(),
            first_name: self.first_name.clone(),
            last_name: self.last_name.clone(),
        }
    }
}

/// A project as served: its record and the counts the world gives it.
impl Wire for model::ProjectView<'_> {
    type Out = api::Project;
    fn wire(&self) -> api::Project {
        let project = self.project;
        let cloud = &self.resources.cloud;
        let blockchain = &self.resources.blockchain;
        api::Project {
            id: project.id.clone(),
            name: project.name.clone(),
            tags: project.tags.clone(),
            resources: Some(api::ProjectResources {
                cloud: Some(api::CloudResources {
                    nks_clusters: cloud.nks_clusters,
                    nks_node_pools: cloud.nks_node_pools,
                    vms: cloud.vms,
                    volumes: cloud.volumes,
                    vpcs: cloud.vpcs,
                    connect_connections: cloud.connect_connections,
                }),
                blockchain: Some(api::BlockchainResources {
                    rpc_nodes_dedicated: blockchain.rpc_nodes_dedicated,
                    rpc_nodes_flex: blockchain.rpc_nodes_flex,
                }),
            }),
            created_at: time(project.created_at),
            updated_at: time(project.updated_at),
        }
    }
}

impl Wire for model::Region {
    type Out = api::Region;
    fn wire(&self) -> api::Region {
        api::Region {
            name: self.name.clone(),
            availability: self.availability.clone(),
            compute: Some(api::RegionCompute {
                vms: self.compute.vms,
            }),
            networking: Some(api::RegionNetworking {
                vpcs: self.networking.vpcs,
                connect: self.networking.connect,
            }),
            nks: Some(api::RegionNks {
                clusters: self.nks.clusters,
                autoscaling: self.nks.autoscaling,
            }),
            storage: Some(api::RegionStorage {
                abs: self.storage.abs,
                local_nvme: self.storage.local_nvme,
            }),
        }
    }
}

impl Wire for model::InstanceType {
    type Out = api::InstanceType;
    fn wire(&self) -> api::InstanceType {
        api::InstanceType {
            name: self.name.clone(),
            region: self.region.clone(),
            // Seeded sizes, small and positive.
            vcpu: self.vcpu as u32,
            memory_gb: self.memory_gb as u32,
            network_bandwidth_gbps: self.network_bandwidth_gbps,
            series: self.series.clone(),
            family: self.family.clone(),
            chipset: self.chipset.clone(),
            created_at: time(self.created_at),
            updated_at: time(self.updated_at),
        }
    }
}

/// One `{limit, used, remaining}` triple.
fn limit(detail: &model::QuotaDetail) -> Option<api::QuotaLimit> {
    Some(api::QuotaLimit {
        limit: detail.limit,
        used: detail.used,
        remaining: detail.remaining,
    })
}

impl Wire for model::Quota {
    type Out = api::Quota;
    fn wire(&self) -> api::Quota {
        let (compute, networking) = (&self.compute, &self.networking);
        let (nks, storage) = (&self.nks, &self.storage);
        api::Quota {
            region: self.region.clone(),
            compute: Some(api::ComputeQuota {
                vcpu: limit(&compute.vcpu),
                memory_gb: limit(&compute.memory_gb),
            }),
            networking: Some(api::NetworkingQuota {
                connect_connections: limit(&networking.connect_connections),
                public_ips: limit(&networking.public_ips),
                vpcs: limit(&networking.vpcs),
            }),
            nks: Some(api::NksQuota {
                clusters: limit(&nks.clusters),
                node_pool_vcpu: limit(&nks.node_pool_vcpu),
                node_pool_memory_gb: limit(&nks.node_pool_memory_gb),
                public_ips: limit(&nks.public_ips),
            }),
            storage: Some(api::StorageQuota {
                abs: limit(&storage.abs),
                local_nvme: limit(&storage.local_nvme),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the record's own serialisation wrote before, the answer writes now:
    /// no field lost, none added, none changed.
    fn same<T: Serialize + Wire>(record: &T) {
        let stored = serde_json::to_value(record).unwrap();
        let answered = serde_json::to_value(record.wire()).unwrap();
        assert_eq!(answered, stored);
    }

    #[test]
    fn every_answer_is_the_record_as_the_digest_shows_it() {
        use crate::world::Seed;
        for seed in [Seed::Demo, Seed::Large] {
            let world = crate::seed::build(seed);
            let catalogue = [world.regions.len(), world.instance_types.len()];
            assert!(!world.projects.is_empty() && !catalogue.contains(&0));
            world.ops.values().for_each(same);
            world.clusters.values().for_each(same);
            world.pools.values().for_each(same);
            world.nodes.values().flatten().for_each(same);
            world.vpcs.values().for_each(same);
            world.firewall_rules.values().for_each(same);
            world.versions.iter().for_each(same);
            let controllers = world.controllers.values().flatten();
            controllers.clone().for_each(same);
            controllers.flat_map(|c| &c.volumes).for_each(same);
            world.load_balancers.values().for_each(same);
            world.pvcs.values().for_each(same);
            same(&world.user);
            let projects = world.projects.values();
            projects.for_each(|p| same(&world.project_view(p)));
            world.regions.iter().for_each(same);
            world.instance_types.iter().for_each(same);
            same(&world.quota());
            for pool in world.pools.values() {
                let volumes = world.pool_volumes(&pool.cluster_id, &pool.id).unwrap();
                volumes.iter().for_each(same);
            }
        }
        // An update's operation, with its changes.
        same(&model::Operation {
            id: "op".into(),
            kind: model::OpKind::NksNodePool,
            op_type: model::OpType::Update,
            status: model::OpStatus::Running,
            resource_id: "pool".into(),
            project_id: "project".into(),
            details: Some(serde_json::json!({
                "changes": {
                    "node_count": {"from": 3, "to": 1},
                    "tags": {"from": ["a"], "to": []},
                    "drained": {"from": false, "to": true},
                }
            })),
            created_at: 1_780_000_000_000,
            updated_at: 1_780_000_001_000,
            seq: 1,
        });
    }
}
