//! Rules that need the world: references, one cluster per VPC, quota and subnet capacity.
//! Shared by the mutating endpoints and their availability and cost twins, so a pre-flight
//! check can never disagree with the real call.

use super::World;
use crate::error::{ApiError, ApiResult};
use crate::model::*;
use crate::validate::{ClusterCreate, PoolCreate, PoolUpdate};

impl World {
    pub fn check_cluster_create(&self, req: &ClusterCreate) -> ApiResult<()> {
        if !self.projects.contains_key(&req.project_id) {
            return Err(ApiError::field("project_id", "project not found"));
        }
        let vpc = self
            .vpcs
            .get(&req.vpc_id)
            .ok_or_else(|| ApiError::field("vpc_id", "VPC not found"))?;
        if vpc.project_id != req.project_id {
            return Err(ApiError::field("vpc_id", "VPC belongs to another project"));
        }
        if vpc.region != req.region {
            return Err(ApiError::field("vpc_id", "VPC is in another region"));
        }
        if !matches!(vpc.status, ResourceStatus::Ready | ResourceStatus::Updating) {
            return Err(ApiError::field(
                "vpc_id",
                format!(
                    "VPC {} is {}; wait for its operation to finish",
                    vpc.name,
                    serde_json::to_value(vpc.status)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default()
                ),
            ));
        }
        if let Some(other) = self.clusters.values().find(|c| c.vpc_id == req.vpc_id) {
            return Err(ApiError::field(
                "vpc_id",
                format!(
                    "VPC already hosts cluster {} ({}); only one cluster per VPC is allowed",
                    other.name, other.id
                ),
            ));
        }
        if !self
            .versions
            .iter()
            .any(|v| v.name == req.kubernetes_version)
        {
            let names: Vec<&str> = self.versions.iter().map(|v| v.name.as_str()).collect();
            return Err(ApiError::field(
                "kubernetes_version",
                format!("must be one of {}", names.join(", ")),
            ));
        }
        let q = self.quota();
        if q.nks.clusters.remaining < 1 {
            return Err(ApiError::unprocessable(format!(
                "quota exceeded: nks.clusters allows {} clusters in {REGION} and {} remain",
                q.nks.clusters.limit, q.nks.clusters.remaining
            )));
        }
        Ok(())
    }

    fn instance(&self, name: &str) -> ApiResult<&InstanceType> {
        self.instance_type(REGION, name).ok_or_else(|| {
            ApiError::field(
                "node_config.instance_type",
                format!("unknown instance type {name} in {REGION}"),
            )
        })
    }

    fn check_unique_pool_name(
        &self,
        cluster: &Cluster,
        name: &str,
        except: Option<&str>,
    ) -> ApiResult<()> {
        let taken = self
            .cluster_pools(cluster)
            .into_iter()
            .any(|p| p.name == name && Some(p.id.as_str()) != except);
        if taken {
            return Err(ApiError::field(
                "name",
                format!("a node pool named {name} already exists in this cluster"),
            ));
        }
        Ok(())
    }

    /// Refuses growth beyond the node-pool quotas and the VPC subnet; `extra_nodes` may be
    /// negative (a scale-down always fits).
    fn check_capacity(
        &self,
        cluster: &Cluster,
        instance: &InstanceType,
        extra_nodes: i64,
    ) -> ApiResult<()> {
        if extra_nodes <= 0 {
            return Ok(());
        }
        let q = self.quota();
        let need_cpu = extra_nodes * instance.vcpu;
        if need_cpu > q.nks.node_pool_vcpu.remaining {
            return Err(ApiError::field(
                "node_count",
                format!(
                    "exceeds the nks.node_pool_vcpu quota: {extra_nodes} more {} node(s) need {need_cpu} vCPU but only {} of {} remain in {REGION}",
                    instance.name, q.nks.node_pool_vcpu.remaining, q.nks.node_pool_vcpu.limit
                ),
            ));
        }
        let need_mem = extra_nodes * instance.memory_gb;
        if need_mem > q.nks.node_pool_memory_gb.remaining {
            return Err(ApiError::field(
                "node_count",
                format!(
                    "exceeds the nks.node_pool_memory_gb quota: {extra_nodes} more {} node(s) need {need_mem} GB but only {} of {} remain in {REGION}",
                    instance.name, q.nks.node_pool_memory_gb.remaining, q.nks.node_pool_memory_gb.limit
                ),
            ));
        }
        let free = self.subnets.get(&cluster.vpc_id).map_or(0, |s| s.free());
        if extra_nodes as u64 > free {
            return Err(ApiError::field(
                "node_count",
                format!("the VPC subnet has only {free} free addresses for new nodes"),
            ));
        }
        Ok(())
    }

    pub fn check_pool_create(&self, cluster: &Cluster, req: &PoolCreate) -> ApiResult<()> {
        self.check_unique_pool_name(cluster, &req.name, None)?;
        let instance = self.instance(&req.node_config.instance_type)?;
        self.check_capacity(cluster, instance, req.node_count)
    }

    pub fn check_pool_update(
        &self,
        cluster: &Cluster,
        pool: &Pool,
        req: &PoolUpdate,
    ) -> ApiResult<()> {
        if let Some(name) = &req.name {
            self.check_unique_pool_name(cluster, name, Some(&pool.id))?;
        }
        if let Some(count) = req.node_count {
            // A pool whose instance type has left the catalogue can still shrink.
            if let Some(instance) = self.instance_type(REGION, &pool.node_config.instance_type) {
                self.check_capacity(cluster, instance, count - pool.node_count)?;
            }
        }
        Ok(())
    }
}
