//! VPCs and their firewall rules: create, update, delete, each an operation (kinds `vpc` and
//! `firewall_rule`, as the SDKs name them), plus the checks their availability twins share.
//!
//! Rules the SDKs leave open and the simulator fixes (docs/sdk-differences.md):
//! - a new VPC gets the first free `10.N.0.0/24` (N from 40) that overlaps no other subnet;
//! - a cluster may only be created in a VPC that is `ready` or `updating`;
//! - a VPC that hosts a cluster cannot be deleted (422 naming the cluster); its firewall rules
//!   go with it;
//! - a rule's destination must lie inside its VPC's subnet ("either VPC CIDR or VM in VPC").

use serde_json::{json, Map, Value};

use super::lifecycle::{Effect, NewOp};
use super::{durations, network, World};
use crate::error::{ApiError, ApiResult};
use crate::model::*;
use crate::timefmt::Millis;
use crate::validate::{check_cidr, FirewallRuleCreate, FirewallRuleUpdate, VpcCreate, VpcUpdate};

fn change(changes: &mut Map<String, Value>, field: &str, from: Value, to: Value) {
    if from != to {
        changes.insert(field.to_string(), json!({"from": from, "to": to}));
    }
}

impl World {
    fn free_cidr(&self) -> Option<String> {
        let taken: Vec<(u32, u32)> = self
            .vpcs
            .values()
            .filter_map(|v| network::parse_cidr(&v.subnet.cidr))
            .collect();
        (40..=255u32).find_map(|n| {
            let cidr = format!("10.{n}.0.0/24");
            let (lo, hi) = network::parse_cidr(&cidr)?;
            taken
                .iter()
                .all(|(a, b)| hi < *a || lo > *b)
                .then_some(cidr)
        })
    }

    pub fn check_vpc_create(&self, req: &VpcCreate) -> ApiResult<()> {
        if !self.projects.contains_key(&req.project_id) {
            return Err(ApiError::field("project_id", "project not found"));
        }
        let q = self.quota();
        if q.networking.vpcs.remaining < 1 {
            return Err(ApiError::unprocessable(format!(
                "quota exceeded: networking.vpcs allows {} VPCs in {REGION} and {} remain",
                q.networking.vpcs.limit, q.networking.vpcs.remaining
            )));
        }
        if self.free_cidr().is_none() {
            return Err(ApiError::unprocessable(
                "no free address range is left for a new VPC subnet",
            ));
        }
        Ok(())
    }

    pub fn create_vpc(&mut self, req: VpcCreate, now: Millis) -> ApiResult<Operation> {
        self.check_vpc_create(&req)?;
        let cidr = self
            .free_cidr()
            .ok_or_else(|| ApiError::unprocessable("no free address range"))?;
        let id = self.ids.uuid();
        let subnet_id = self.ids.uuid();
        let seq = self.next_seq();
        if let Some(subnet) = network::Subnet::new(&cidr) {
            self.subnets.insert(id.clone(), subnet);
        }
        self.vpcs.insert(
            id.clone(),
            Vpc {
                id: id.clone(),
                name: req.name,
                project_id: req.project_id.clone(),
                region: req.region,
                status: ResourceStatus::Creating,
                subnet: Subnet {
                    id: subnet_id,
                    name: req.subnet_name,
                    cidr,
                    created_at: now,
                    updated_at: now,
                },
                firewall_rule_ids: Vec::new(),
                tags: req.tags,
                created_at: now,
                updated_at: now,
                seq,
            },
        );
        Ok(self.start_op(
            NewOp {
                kind: OpKind::Vpc,
                op_type: OpType::Create,
                resource_id: id.clone(),
                project_id: req.project_id,
                details: None,
                base_duration_ms: durations::VPC_CREATE,
                effect: Effect::VpcCreate { vpc_id: id.clone() },
                locks: vec![id],
            },
            now,
        ))
    }

    pub fn update_vpc(&mut self, id: &str, req: VpcUpdate, now: Millis) -> ApiResult<Operation> {
        self.vpc(id)?;
        self.ensure_idle(&[id])?;
        let Some(v) = self.vpcs.get_mut(id) else {
            return Err(ApiError::not_found("VPC"));
        };
        let mut changes = Map::new();
        if let Some(name) = req.name {
            change(&mut changes, "name", json!(v.name), json!(name));
            v.name = name;
        }
        if let Some(subnet_name) = req.subnet_name {
            change(
                &mut changes,
                "subnet_name",
                json!(v.subnet.name),
                json!(subnet_name),
            );
            if v.subnet.name != subnet_name {
                v.subnet.name = subnet_name;
                v.subnet.updated_at = now;
            }
        }
        if let Some(tags) = req.tags {
            change(&mut changes, "tags", json!(v.tags), json!(tags));
            v.tags = tags;
        }
        v.status = ResourceStatus::Updating;
        v.updated_at = now;
        let project_id = v.project_id.clone();
        Ok(self.start_op(
            NewOp {
                kind: OpKind::Vpc,
                op_type: OpType::Update,
                resource_id: id.to_string(),
                project_id,
                details: Some(json!({ "changes": changes })),
                base_duration_ms: durations::VPC_UPDATE,
                effect: Effect::VpcUpdate {
                    vpc_id: id.to_string(),
                },
                locks: vec![id.to_string()],
            },
            now,
        ))
    }

    /// One cluster per VPC, and the cluster needs it: refuse, naming the cluster, rather than
    /// pull the network from under a running control plane.
    pub fn check_vpc_delete(&self, id: &str) -> ApiResult<()> {
        let vpc = self.vpc(id)?;
        if let Some(c) = self.clusters.values().find(|c| c.vpc_id == id) {
            return Err(ApiError::unprocessable(format!(
                "VPC {} is used by cluster {} ({}); delete the cluster first",
                vpc.name, c.name, c.id
            )));
        }
        let mut held: Vec<&str> = vec![id];
        held.extend(vpc.firewall_rule_ids.iter().map(String::as_str));
        self.ensure_idle(&held)
    }

    pub fn delete_vpc(&mut self, id: &str, now: Millis) -> ApiResult<Operation> {
        self.check_vpc_delete(id)?;
        let Some(v) = self.vpcs.get_mut(id) else {
            return Err(ApiError::not_found("VPC"));
        };
        v.status = ResourceStatus::Deleting;
        v.updated_at = now;
        let project_id = v.project_id.clone();
        let rule_ids = v.firewall_rule_ids.clone();
        for rid in &rule_ids {
            if let Some(r) = self.firewall_rules.get_mut(rid) {
                r.status = ResourceStatus::Deleting;
                r.updated_at = now;
            }
        }
        let mut locks = vec![id.to_string()];
        locks.extend(rule_ids);
        Ok(self.start_op(
            NewOp {
                kind: OpKind::Vpc,
                op_type: OpType::Delete,
                resource_id: id.to_string(),
                project_id,
                details: None,
                base_duration_ms: durations::VPC_DELETE,
                effect: Effect::VpcDelete {
                    vpc_id: id.to_string(),
                },
                locks,
            },
            now,
        ))
    }

    pub(super) fn remove_vpc(&mut self, id: &str) {
        if let Some(v) = self.vpcs.remove(id) {
            for rid in v.firewall_rule_ids {
                self.firewall_rules.remove(&rid);
            }
        }
        self.subnets.remove(id);
    }

    // ---- firewall rules ----------------------------------------------------------------

    fn check_destination(&self, vpc: &Vpc, destination: &str) -> ApiResult<()> {
        let (base, prefix) = check_cidr(destination, "destination_address")?;
        let last = base
            | if prefix == 0 {
                u32::MAX
            } else {
                !(u32::MAX << (32 - prefix))
            };
        let inside =
            network::parse_cidr(&vpc.subnet.cidr).is_some_and(|(lo, hi)| base >= lo && last <= hi);
        if !inside {
            return Err(ApiError::field(
                "destination_address",
                format!(
                    "must lie inside the VPC subnet {} (the VPC CIDR or a VM in the VPC)",
                    vpc.subnet.cidr
                ),
            ));
        }
        Ok(())
    }

    pub fn check_firewall_rule_create(
        &self,
        vpc_id: &str,
        req: &FirewallRuleCreate,
    ) -> ApiResult<()> {
        let vpc = self.vpc(vpc_id)?;
        self.ensure_idle(&[vpc_id])?;
        self.check_destination(vpc, &req.destination_address)
    }

    pub fn check_firewall_rule_update(
        &self,
        vpc_id: &str,
        rule_id: &str,
        req: &FirewallRuleUpdate,
    ) -> ApiResult<()> {
        self.firewall_rule(vpc_id, rule_id)?;
        self.ensure_idle(&[vpc_id, rule_id])?;
        match &req.destination_address {
            Some(d) => self.check_destination(self.vpc(vpc_id)?, d),
            None => Ok(()),
        }
    }

    fn rule_op(
        &mut self,
        vpc_id: &str,
        rule_id: &str,
        op_type: OpType,
        details: Option<Value>,
        effect: Effect,
        now: Millis,
    ) -> Operation {
        let project_id = self
            .vpcs
            .get(vpc_id)
            .map(|v| v.project_id.clone())
            .unwrap_or_default();
        self.start_op(
            NewOp {
                kind: OpKind::FirewallRule,
                op_type,
                resource_id: rule_id.to_string(),
                project_id,
                details,
                base_duration_ms: durations::FIREWALL_RULE,
                effect,
                locks: vec![rule_id.to_string()],
            },
            now,
        )
    }

    pub fn create_firewall_rule(
        &mut self,
        vpc_id: &str,
        req: FirewallRuleCreate,
        now: Millis,
    ) -> ApiResult<Operation> {
        self.check_firewall_rule_create(vpc_id, &req)?;
        let id = self.ids.uuid();
        let seq = self.next_seq();
        self.firewall_rules.insert(
            id.clone(),
            FirewallRule {
                id: id.clone(),
                vpc_id: vpc_id.to_string(),
                name: req.name,
                protocol: req.protocol,
                source_address: req.source_address,
                destination_address: req.destination_address,
                destination_ports: req.destination_ports,
                status: ResourceStatus::Creating,
                tags: req.tags,
                created_at: now,
                updated_at: now,
                seq,
            },
        );
        if let Some(v) = self.vpcs.get_mut(vpc_id) {
            v.firewall_rule_ids.push(id.clone());
        }
        let effect = Effect::RuleSettle {
            rule_id: id.clone(),
        };
        Ok(self.rule_op(vpc_id, &id, OpType::Create, None, effect, now))
    }

    pub fn update_firewall_rule(
        &mut self,
        vpc_id: &str,
        rule_id: &str,
        req: FirewallRuleUpdate,
        now: Millis,
    ) -> ApiResult<Operation> {
        self.check_firewall_rule_update(vpc_id, rule_id, &req)?;
        let Some(r) = self.firewall_rules.get_mut(rule_id) else {
            return Err(ApiError::not_found("firewall rule"));
        };
        let mut changes = Map::new();
        if let Some(name) = req.name {
            change(&mut changes, "name", json!(r.name), json!(name));
            r.name = name;
        }
        if let Some(p) = req.protocol {
            change(&mut changes, "protocol", json!(r.protocol), json!(p));
            r.protocol = p;
        }
        if let Some(a) = req.source_address {
            change(
                &mut changes,
                "source_address",
                json!(r.source_address),
                json!(a),
            );
            r.source_address = a;
        }
        if let Some(a) = req.destination_address {
            change(
                &mut changes,
                "destination_address",
                json!(r.destination_address),
                json!(a),
            );
            r.destination_address = a;
        }
        if let Some(p) = req.destination_ports {
            change(
                &mut changes,
                "destination_ports",
                json!(r.destination_ports),
                json!(p),
            );
            r.destination_ports = p;
        }
        if let Some(tags) = req.tags {
            change(&mut changes, "tags", json!(r.tags), json!(tags));
            r.tags = tags;
        }
        r.status = ResourceStatus::Updating;
        r.updated_at = now;
        let effect = Effect::RuleSettle {
            rule_id: rule_id.to_string(),
        };
        let details = Some(json!({ "changes": changes }));
        Ok(self.rule_op(vpc_id, rule_id, OpType::Update, details, effect, now))
    }

    pub fn delete_firewall_rule(
        &mut self,
        vpc_id: &str,
        rule_id: &str,
        now: Millis,
    ) -> ApiResult<Operation> {
        self.firewall_rule(vpc_id, rule_id)?;
        self.ensure_idle(&[vpc_id, rule_id])?;
        if let Some(r) = self.firewall_rules.get_mut(rule_id) {
            r.status = ResourceStatus::Deleting;
            r.updated_at = now;
        }
        let effect = Effect::RuleDelete {
            rule_id: rule_id.to_string(),
        };
        Ok(self.rule_op(vpc_id, rule_id, OpType::Delete, None, effect, now))
    }

    pub(super) fn remove_firewall_rule(&mut self, rule_id: &str) {
        if let Some(r) = self.firewall_rules.remove(rule_id) {
            if let Some(v) = self.vpcs.get_mut(&r.vpc_id) {
                v.firewall_rule_ids.retain(|id| id != rule_id);
            }
        }
    }
}
