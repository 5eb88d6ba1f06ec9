//! The parts of a cluster the API shows but never lets a user create: controllers (the
//! platform-managed control plane) and their volumes, load balancers (discovered from
//! Services of type LoadBalancer), persistent volume claims, and the boot volumes of nodes.
//!
//! Rules the SDKs leave open and the simulator fixes (docs/sdk-differences.md):
//! - three controllers per cluster, `n1-standard-4`, one 128 GB ABS boot volume each, named
//!   `<cluster>-controller-<n>`; they follow the cluster's create and delete;
//! - controller and load balancer addresses come from the platform's block at the top of the
//!   VPC subnet, never from the workers' range;
//! - each node has one boot volume (`<node>-boot`) shaped by its pool's `boot_volume`, with
//!   the node's status and times;
//! - a load balancer update is an operation of kind `nks_load_balancer` (UNCONFIRMED; the
//!   SDKs' response enum lacks it) on the load balancer's id; the public IP is assigned or
//!   removed when it is done.

use serde_json::json;

use super::lifecycle::{Effect, NewOp};
use super::{durations, World};
use crate::error::{ApiError, ApiResult};
use crate::model::*;
use crate::timefmt::Millis;

pub const CONTROLLERS_PER_CLUSTER: u32 = 3;
pub const CONTROLLER_INSTANCE_TYPE: &str = "n1-standard-4";
pub const CONTROLLER_BOOT_GB: i64 = 128;

fn node_volume(node: &Node, pool: &Pool) -> NodeVolume {
    NodeVolume {
        id: node.boot_volume_id.clone(),
        node_id: node.id.clone(),
        name: format!("{}-boot", node.name),
        kind: VolumeKind::Boot,
        volume_type: pool.node_config.boot_volume.kind,
        size: pool.node_config.boot_volume.size,
        status: node.status,
        created_at: node.created_at,
        updated_at: node.updated_at,
    }
}

impl World {
    /// Three controllers in `status`; ready ones show their address at once.
    pub(super) fn add_controllers(
        &mut self,
        cluster_id: &str,
        status: ResourceStatus,
        now: Millis,
    ) {
        let Some(c) = self.clusters.get(cluster_id) else {
            return;
        };
        let (name, vpc_id) = (c.name.clone(), c.vpc_id.clone());
        let mut list = Vec::new();
        for n in 1..=CONTROLLERS_PER_CLUSTER {
            let address = self
                .subnets
                .get(&vpc_id)
                .map(|s| s.block_address(n))
                .unwrap_or_default();
            let controller_name = format!("{name}-controller-{n}");
            let volume = ControllerVolume {
                id: self.ids.uuid(),
                name: format!("{controller_name}-boot"),
                kind: VolumeKind::Boot,
                volume_type: VolumeType::Abs,
                size: CONTROLLER_BOOT_GB,
                status,
                created_at: now,
                updated_at: now,
            };
            list.push(Controller {
                id: self.ids.uuid(),
                name: controller_name,
                instance_type: CONTROLLER_INSTANCE_TYPE.into(),
                private_ip: (status == ResourceStatus::Ready).then(|| address.clone()),
                status,
                created_at: now,
                updated_at: now,
                address,
                volumes: vec![volume],
            });
        }
        self.controllers.insert(cluster_id.to_string(), list);
    }

    pub(super) fn set_controllers_status(
        &mut self,
        cluster_id: &str,
        status: ResourceStatus,
        at: Millis,
    ) {
        for c in self.controllers.get_mut(cluster_id).into_iter().flatten() {
            c.status = status;
            c.updated_at = at;
            if status == ResourceStatus::Ready {
                c.private_ip = Some(c.address.clone());
            }
            for v in &mut c.volumes {
                v.status = status;
                v.updated_at = at;
            }
        }
    }

    pub fn cluster_controllers(&self, cluster_id: &str) -> ApiResult<&[Controller]> {
        self.cluster(cluster_id)?;
        Ok(self
            .controllers
            .get(cluster_id)
            .map(Vec::as_slice)
            .unwrap_or(&[]))
    }

    pub fn controller(&self, cluster_id: &str, controller_id: &str) -> ApiResult<&Controller> {
        self.cluster_controllers(cluster_id)?
            .iter()
            .find(|c| c.id == controller_id)
            .ok_or_else(|| ApiError::not_found("controller"))
    }

    pub fn controller_volume(
        &self,
        cluster_id: &str,
        controller_id: &str,
        volume_id: &str,
    ) -> ApiResult<&ControllerVolume> {
        self.controller(cluster_id, controller_id)?
            .volumes
            .iter()
            .find(|v| v.id == volume_id)
            .ok_or_else(|| ApiError::not_found("volume"))
    }

    /// Every node's boot volume, in node order.
    pub fn pool_volumes(&self, cluster_id: &str, pool_id: &str) -> ApiResult<Vec<NodeVolume>> {
        let pool = self.pool(cluster_id, pool_id)?;
        Ok(self
            .pool_nodes(pool_id)
            .iter()
            .map(|n| node_volume(n, pool))
            .collect())
    }

    pub fn node_volumes(
        &self,
        cluster_id: &str,
        pool_id: &str,
        node_id: &str,
    ) -> ApiResult<Vec<NodeVolume>> {
        let node = self.node(cluster_id, pool_id, node_id)?;
        let pool = self.pool(cluster_id, pool_id)?;
        Ok(vec![node_volume(node, pool)])
    }

    // ---- load balancers -------------------------------------------------------------------

    pub fn cluster_load_balancers(&self, cluster_id: &str) -> ApiResult<Vec<&LoadBalancer>> {
        self.cluster(cluster_id)?;
        let mut list: Vec<&LoadBalancer> = self
            .load_balancers
            .values()
            .filter(|lb| lb.cluster_id == cluster_id)
            .collect();
        list.sort_by_key(|lb| lb.seq);
        Ok(list)
    }

    pub fn load_balancer(&self, cluster_id: &str, lb_id: &str) -> ApiResult<&LoadBalancer> {
        self.cluster(cluster_id)?;
        self.load_balancers
            .get(lb_id)
            .filter(|lb| lb.cluster_id == cluster_id)
            .ok_or_else(|| ApiError::not_found("load balancer"))
    }

    pub fn update_load_balancer(
        &mut self,
        cluster_id: &str,
        lb_id: &str,
        public_ip_enabled: bool,
        now: Millis,
    ) -> ApiResult<Operation> {
        self.load_balancer(cluster_id, lb_id)?;
        self.ensure_idle(&[cluster_id, lb_id])?;
        let project_id = self.cluster(cluster_id)?.project_id.clone();
        let Some(lb) = self.load_balancers.get_mut(lb_id) else {
            return Err(ApiError::not_found("load balancer"));
        };
        let mut changes = serde_json::Map::new();
        if lb.public_ip_enabled != public_ip_enabled {
            changes.insert(
                "public_ip_enabled".into(),
                json!({"from": lb.public_ip_enabled, "to": public_ip_enabled}),
            );
        }
        lb.public_ip_enabled = public_ip_enabled;
        lb.status = ResourceStatus::Updating;
        lb.updated_at = now;
        Ok(self.start_op(
            NewOp {
                kind: OpKind::NksLoadBalancer,
                op_type: OpType::Update,
                resource_id: lb_id.to_string(),
                project_id,
                details: Some(json!({ "changes": changes })),
                base_duration_ms: durations::LOAD_BALANCER_UPDATE,
                effect: Effect::LoadBalancerUpdate {
                    lb_id: lb_id.to_string(),
                },
                locks: vec![lb_id.to_string()],
            },
            now,
        ))
    }

    /// End of an update: the public address follows `public_ip_enabled`.
    pub(super) fn settle_load_balancer(&mut self, lb_id: &str, at: Millis) {
        let wants = self
            .load_balancers
            .get(lb_id)
            .map(|lb| (lb.public_ip_enabled, lb.public_ip.is_some()));
        let fresh = match wants {
            Some((true, false)) => Some(self.next_public_ip()),
            _ => None,
        };
        if let Some(lb) = self.load_balancers.get_mut(lb_id) {
            if !lb.public_ip_enabled {
                lb.public_ip = None;
            } else if fresh.is_some() {
                lb.public_ip = fresh;
            }
            lb.status = ResourceStatus::Ready;
            lb.updated_at = at;
        }
    }

    /// Seeding only: a load balancer already discovered, `slot` picking its private address
    /// in the platform block.
    pub fn insert_load_balancer(
        &mut self,
        cluster_id: &str,
        namespace: &str,
        service_name: &str,
        public: bool,
        slot: u32,
        at: Millis,
    ) -> String {
        let vpc_id = self
            .clusters
            .get(cluster_id)
            .map(|c| c.vpc_id.clone())
            .unwrap_or_default();
        let private_ip = self.subnets.get(&vpc_id).map(|s| s.block_address(slot));
        let public_ip = public.then(|| self.next_public_ip());
        let id = self.ids.uuid();
        let seq = self.next_seq();
        self.load_balancers.insert(
            id.clone(),
            LoadBalancer {
                id: id.clone(),
                cluster_id: cluster_id.to_string(),
                namespace: namespace.to_string(),
                service_name: service_name.to_string(),
                private_ip,
                public_ip,
                public_ip_enabled: public,
                status: ResourceStatus::Ready,
                created_at: at,
                updated_at: at,
                seq,
            },
        );
        id
    }

    // ---- persistent volume claims ---------------------------------------------------------

    pub fn cluster_pvcs(&self, cluster_id: &str) -> ApiResult<Vec<&PersistentVolumeClaim>> {
        self.cluster(cluster_id)?;
        let mut list: Vec<&PersistentVolumeClaim> = self
            .pvcs
            .values()
            .filter(|p| p.cluster_id == cluster_id)
            .collect();
        list.sort_by_key(|p| p.seq);
        Ok(list)
    }

    pub fn pvc(&self, cluster_id: &str, pvc_id: &str) -> ApiResult<&PersistentVolumeClaim> {
        self.cluster(cluster_id)?;
        self.pvcs
            .get(pvc_id)
            .filter(|p| p.cluster_id == cluster_id)
            .ok_or_else(|| ApiError::not_found("persistent volume claim"))
    }

    /// Seeding only.
    pub fn insert_pvc(
        &mut self,
        cluster_id: &str,
        name: &str,
        size: i64,
        volume_type: VolumeType,
        at: Millis,
    ) -> String {
        let id = self.ids.uuid();
        let seq = self.next_seq();
        self.pvcs.insert(
            id.clone(),
            PersistentVolumeClaim {
                id: id.clone(),
                cluster_id: cluster_id.to_string(),
                name: name.to_string(),
                size,
                volume_type,
                status: ResourceStatus::Ready,
                created_at: at,
                updated_at: at,
                seq,
            },
        );
        id
    }

    /// Seeding only: a provisioned control plane.
    pub fn insert_ready_controllers(&mut self, cluster_id: &str, at: Millis) {
        self.add_controllers(cluster_id, ResourceStatus::Ready, at);
    }
}
