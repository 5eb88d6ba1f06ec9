//! Property tests of the wire types through serde: whatever the console writes
//! (operations shared between tabs, request bodies) reads back as the same
//! value, whatever text the fields hold, and an enum value the console does not
//! know survives the trip as its text.
//!
//! Native only: proptest is a host dev-dependency.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use nks_console::api::decode::from_json;
use nks_console::api::types::*;
use nks_console::rules::tracking::tabs::Message;
use proptest::prelude::*;
use serde_json::Value;

/// Any text, with JSON's troublemakers (quotes, backslashes, control
/// characters, surrogate-pair emoji) well represented.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[\"\\\\/\\x00-\\x1f\u{2028}😀a-z0-9 ._-]{0,24}",
    ]
}

/// A value the API might add later: never one of the known names.
fn unheard_of() -> impl Strategy<Value = String> {
    "x_[a-z_]{1,12}"
}

fn resource_status() -> impl Strategy<Value = ResourceStatus> {
    prop_oneof![
        Just(ResourceStatus::Pending),
        Just(ResourceStatus::Creating),
        Just(ResourceStatus::Updating),
        Just(ResourceStatus::Ready),
        Just(ResourceStatus::Deleting),
        Just(ResourceStatus::Deleted),
        Just(ResourceStatus::Error),
        Just(ResourceStatus::Unknown),
        unheard_of().prop_map(ResourceStatus::Other),
    ]
}

fn operation_status() -> impl Strategy<Value = OperationStatus> {
    prop_oneof![
        Just(OperationStatus::Pending),
        Just(OperationStatus::Running),
        Just(OperationStatus::Done),
        Just(OperationStatus::Failed),
        Just(OperationStatus::Unknown),
        unheard_of().prop_map(OperationStatus::Other),
    ]
}

fn operation_kind() -> impl Strategy<Value = OperationKind> {
    prop_oneof![
        Just(OperationKind::NksCluster),
        Just(OperationKind::NksNodePool),
        Just(OperationKind::NksNode),
        Just(OperationKind::Vpc),
        unheard_of().prop_map(OperationKind::Other),
    ]
}

fn operation_type() -> impl Strategy<Value = OperationType> {
    prop_oneof![
        Just(OperationType::Create),
        Just(OperationType::Update),
        Just(OperationType::Delete),
        unheard_of().prop_map(OperationType::Other),
    ]
}

/// A change's `from`/`to`: a string, whole number, boolean or list of strings.
fn change_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        text().prop_map(Value::from),
        prop::collection::vec(text(), 0..4).prop_map(Value::from),
    ]
}

fn pool() -> impl Strategy<Value = Pool> {
    (
        (text(), text(), text(), any::<u32>()),
        (
            text(),
            any::<u32>(),
            prop_oneof![Just(VolumeType::Abs), Just(VolumeType::Nvme)],
        ),
        prop::collection::vec(text(), 0..3),
        prop::collection::vec(text(), 0..3),
        resource_status(),
        prop::collection::vec(text(), 0..3),
        (text(), text()),
    )
        .prop_map(
            |(
                (id, cluster_id, name, node_count),
                (instance_type, size, volume_type),
                labels,
                taints,
                status,
                tags,
                (created_at, updated_at),
            )| Pool {
                id,
                cluster_id,
                name,
                node_count,
                node_config: NodeConfig {
                    instance_type,
                    boot_volume: BootVolume { size, volume_type },
                    labels,
                    taints,
                },
                status,
                tags,
                created_at,
                updated_at,
            },
        )
}

fn cluster() -> impl Strategy<Value = Cluster> {
    (
        (text(), text(), text(), text(), text(), text()),
        any::<bool>(),
        prop::collection::vec(text(), 0..3),
        (prop::option::of(text()), prop::option::of(text())),
        resource_status(),
        prop::collection::vec(text(), 0..3),
        (text(), text()),
    )
        .prop_map(
            |(
                (id, name, project_id, region, vpc_id, kubernetes_version),
                autoscaling,
                pool_ids,
                (private_ip, public_ip),
                status,
                tags,
                (created_at, updated_at),
            )| Cluster {
                id,
                name,
                project_id,
                region,
                vpc_id,
                kubernetes_version,
                autoscaling,
                pool_ids,
                private_ip,
                public_ip,
                status,
                tags,
                created_at,
                updated_at,
            },
        )
}

fn operation() -> impl Strategy<Value = Operation> {
    (
        (text(), text(), text()),
        (operation_kind(), operation_type(), operation_status()),
        prop::option::of(prop::collection::btree_map(
            text(),
            (change_value(), change_value()).prop_map(|(from, to)| Change { from, to }),
            0..3,
        )),
        (text(), text()),
    )
        .prop_map(
            |(
                (id, resource_id, project_id),
                (kind, op_type, status),
                changes,
                (created_at, updated_at),
            )| Operation {
                id,
                kind,
                op_type,
                status,
                resource_id,
                project_id,
                details: changes
                    .map(|changes: BTreeMap<String, Change>| OperationDetails { changes }),
                created_at,
                updated_at,
            },
        )
}

fn round_trip<T>(value: &T) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let written = serde_json::to_string(value).expect("the wire types always serialise");
    from_json(&written).unwrap_or_else(|e| panic!("{written} did not read back: {e}"))
}

proptest! {
    #[test]
    fn a_pool_reads_back_as_written(p in pool()) {
        prop_assert_eq!(round_trip(&p), p);
    }

    #[test]
    fn a_cluster_reads_back_as_written(c in cluster()) {
        prop_assert_eq!(round_trip(&c), c);
    }

    #[test]
    fn an_operation_reads_back_as_written(op in operation()) {
        prop_assert_eq!(round_trip(&op), op);
    }

    #[test]
    fn a_message_between_tabs_reads_back_as_written(op in operation(), id in text()) {
        for message in [
            Message::Track { op: op.clone() },
            Message::State { ops: vec![op.clone()], condition: None, lost: vec![id.clone()] },
            Message::KeepWatching { id: id.clone() },
        ] {
            prop_assert_eq!(Message::from_json(&message.to_json()), Some(message));
        }
    }

    /// A PATCH body names exactly the fields that changed: none of the others,
    /// and never a field the API would silently ignore.
    #[test]
    fn a_pool_update_carries_only_what_is_set(
        name in prop::option::of(text()),
        node_count in prop::option::of(any::<u32>()),
        tags in prop::option::of(prop::collection::vec(text(), 0..3)),
    ) {
        let body = PoolUpdate { name: name.clone(), node_count, tags: tags.clone() };
        let written: Value = serde_json::to_value(&body).unwrap();
        let keys: Vec<&str> = written.as_object().unwrap().keys().map(String::as_str).collect();
        let mut expected = vec![];
        if name.is_some() { expected.push("name"); }
        if node_count.is_some() { expected.push("node_count"); }
        if tags.is_some() { expected.push("tags"); }
        prop_assert_eq!(keys, expected);
        prop_assert_eq!(written.get("name").and_then(Value::as_str), name.as_deref());
        prop_assert_eq!(written.get("node_count").and_then(Value::as_u64), node_count.map(u64::from));
    }
}
