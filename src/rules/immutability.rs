//! Which fields can change after creation, and the update body that carries only
//! the ones that did.
//!
//! The real API silently ignores an immutable field in an update body: it answers
//! 2xx, runs an operation, and the change is simply absent. So the console never
//! sends one, and its forms lock them with the reason shown.

use crate::api::types::{Cluster, ClusterUpdate, Pool, PoolUpdate};

/// Why the locked fields are locked, said once at the head of their section.
pub const FIXED_AT_CREATION: &str = "Fixed at creation: the API ignores changes to these fields.";

/// What to do instead, for a pool's locked shape.
pub const REPLACE_POOL_HINT: &str =
    "To change them, create a replacement pool with the new shape, drain the old pool's nodes, then delete the old pool.";

/// Cluster fields that the API will never change after creation.
pub const CLUSTER_IMMUTABLE: [&str; 4] = ["project_id", "region", "vpc_id", "kubernetes_version"];

/// Pool fields that the API will never change after creation: the whole `node_config`.
pub const POOL_IMMUTABLE: [&str; 5] = [
    "node_config.instance_type",
    "node_config.boot_volume.size",
    "node_config.boot_volume.type",
    "node_config.labels",
    "node_config.taints",
];

/// What a person edited on the cluster form.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterEdit {
    pub name: String,
    pub autoscaling: bool,
    pub tags: Vec<String>,
}

/// What a person edited on the pool form.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolEdit {
    pub name: String,
    pub node_count: u32,
    pub tags: Vec<String>,
}

/// The PATCH body for a cluster: only mutable fields, only those that changed.
pub fn cluster_update(current: &Cluster, edit: &ClusterEdit) -> ClusterUpdate {
    ClusterUpdate {
        name: (edit.name != current.name).then(|| edit.name.clone()),
        autoscaling: (edit.autoscaling != current.autoscaling).then_some(edit.autoscaling),
        tags: (edit.tags != current.tags).then(|| edit.tags.clone()),
    }
}

/// The PATCH body for a pool: only mutable fields, only those that changed.
pub fn pool_update(current: &Pool, edit: &PoolEdit) -> PoolUpdate {
    PoolUpdate {
        name: (edit.name != current.name).then(|| edit.name.clone()),
        node_count: (edit.node_count != current.node_count).then_some(edit.node_count),
        tags: (edit.tags != current.tags).then(|| edit.tags.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn text(body: &impl serde::Serialize) -> String {
        serde_json::to_string(body).unwrap()
    }

    fn pool() -> Pool {
        Pool {
            name: "baseline".into(),
            node_count: 3,
            tags: vec!["prod".into()],
            ..Pool::default()
        }
    }

    #[test]
    fn an_unchanged_form_sends_nothing() {
        let p = pool();
        let edit = PoolEdit {
            name: p.name.clone(),
            node_count: 3,
            tags: p.tags.clone(),
        };
        assert!(pool_update(&p, &edit).is_empty());
    }

    #[test]
    fn only_the_changed_mutable_fields_are_sent() {
        let p = pool();
        let edit = PoolEdit {
            name: p.name.clone(),
            node_count: 5,
            tags: p.tags.clone(),
        };
        assert_eq!(text(&pool_update(&p, &edit)), r#"{"node_count":5}"#);
    }

    #[test]
    fn a_pool_update_body_can_never_carry_node_config() {
        let p = pool();
        let edit = PoolEdit {
            name: "renamed".into(),
            node_count: 1,
            tags: vec![],
        };
        let body = serde_json::to_value(pool_update(&p, &edit)).unwrap();
        let Value::Object(members) = &body else {
            panic!("not an object: {body}")
        };
        let keys: Vec<_> = members.keys().map(String::as_str).collect();
        assert_eq!(keys, ["name", "node_count", "tags"]);
        assert!(POOL_IMMUTABLE
            .iter()
            .all(|f| !body.to_string().contains(f.rsplit('.').next().unwrap())));
    }

    #[test]
    fn a_cluster_update_body_carries_only_name_autoscaling_tags() {
        let c = Cluster {
            name: "a".into(),
            autoscaling: false,
            kubernetes_version: "v1.34.4".into(),
            ..Cluster::default()
        };
        let edit = ClusterEdit {
            name: "b".into(),
            autoscaling: true,
            tags: vec!["x".into()],
        };
        let update = cluster_update(&c, &edit);
        assert_eq!(
            text(&update),
            r#"{"name":"b","autoscaling":true,"tags":["x"]}"#
        );
        let body = serde_json::to_value(update).unwrap();
        for field in CLUSTER_IMMUTABLE {
            assert!(body.get(field).is_none(), "{field}");
        }
    }

    #[test]
    fn clearing_tags_sends_an_empty_list() {
        let p = pool();
        let edit = PoolEdit {
            name: p.name.clone(),
            node_count: 3,
            tags: vec![],
        };
        assert_eq!(text(&pool_update(&p, &edit)), r#"{"tags":[]}"#);
    }
}
