//! The console's wire types against JSON written from the API digest
//! (`shared/api/NIRVANA_API.md` §3), so a change on either side shows up here.

use nks_console::api::json::{decode, parse, Json, ToJson};
use nks_console::api::types::*;

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_digest_cluster_decodes_field_for_field() {
    let c: Cluster = decode(&fixture("cluster.json")).unwrap();
    assert_eq!(c.name, "edge-prod");
    assert_eq!(c.region, "us-sva-2");
    assert_eq!(c.kubernetes_version, "v1.34.4");
    assert!(c.autoscaling);
    assert_eq!(c.pool_ids.len(), 1);
    assert_eq!(c.private_ip.as_deref(), Some("10.20.0.253"));
    assert_eq!(c.status, ResourceStatus::Ready);
    assert_eq!(c.tags, ["prod"]);
}

#[test]
fn the_digest_pool_decodes_with_its_node_config() {
    let p: Pool = decode(&fixture("pool.json")).unwrap();
    assert_eq!(p.node_count, 3);
    assert_eq!(p.node_config.instance_type, "n1-standard-8");
    assert_eq!(p.node_config.boot_volume.size, 128);
    assert_eq!(p.node_config.boot_volume.volume_type, VolumeType::Abs);
    assert_eq!(p.node_config.labels, ["tier=web"]);
    assert!(p.node_config.taints.is_empty());
}

#[test]
fn the_digest_operation_decodes_with_its_changes() {
    let op: Operation = decode(&fixture("operation.json")).unwrap();
    assert_eq!(op.kind, OperationKind::NksNodePool);
    assert_eq!(op.op_type, OperationType::Update);
    assert_eq!(op.status, OperationStatus::Running);
    let changes: Vec<_> = op.changes().collect();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].0, "node_count");
    assert_eq!(changes[0].1.from, Json::Number("3".into()));
    assert_eq!(changes[0].1.to, Json::Number("5".into()));
}

#[test]
fn money_stays_a_string_in_a_cost_quote() {
    let q: CostQuote = decode(&fixture("cost_quote.json")).unwrap();
    assert_eq!(q.monthly_total, "248.64");
    assert_eq!(q.usage_dimensions[0].unit_price, "0.0120");
    assert_eq!(q.usage_dimensions[1].monthly_amount, "38.40");
    assert!(q.current_summary.is_none());
}

#[test]
fn unknown_enum_values_fall_back_instead_of_failing() {
    let op: Operation = decode(
        r#"{"id":"o","kind":"quantum_widget","type":"teleport","status":"paused","resource_id":"r","project_id":"p","details":null,"created_at":"","updated_at":""}"#,
    )
    .unwrap();
    assert_eq!(op.kind, OperationKind::Other);
    assert_eq!(op.op_type, OperationType::Other);
    // An unheard-of status is not terminal: keep polling rather than strand the user.
    assert_eq!(op.status, OperationStatus::Unknown);
    assert_eq!(op.changes().count(), 0);

    let node: Node =
        decode(r#"{"id":"n","name":"a","private_ip":null,"status":"hibernating"}"#).unwrap();
    assert_eq!(node.status, ResourceStatus::Unknown);
    assert_eq!(node.private_ip, None);
}

#[test]
fn the_newer_operation_kinds_from_the_list_filter_decode() {
    for (wire, kind) in [
        ("nks_node", OperationKind::NksNode),
        ("nks_load_balancer", OperationKind::NksLoadBalancer),
    ] {
        let op: Operation = decode(&format!(r#"{{"kind":"{wire}"}}"#)).unwrap();
        assert_eq!(op.kind, kind);
    }
}

#[test]
fn unknown_fields_are_ignored() {
    let c: Cluster = decode(r#"{"id":"c","name":"x","brand_new_field":{"a":1}}"#).unwrap();
    assert_eq!(c.name, "x");
}

#[test]
fn a_list_envelope_gives_its_next_cursor_and_stops_on_null_or_empty() {
    let page: Page<Pool> = decode(&format!(
        r#"{{"items":[{}],"pagination":{{"next_cursor":"abc","previous_cursor":null,"total_count":42}}}}"#,
        fixture("pool.json")
    ))
    .unwrap();
    assert_eq!(page.next_cursor(), Some("abc"));
    assert_eq!(page.pagination.as_ref().unwrap().total_count, 42);

    let last: Page<Pool> =
        decode(r#"{"items":[{"id":"p"}],"pagination":{"next_cursor":null,"previous_cursor":"x","total_count":1}}"#).unwrap();
    assert_eq!(last.next_cursor(), None);

    // An empty page ends the walk even if a cursor came with it (SDK pager rule).
    let empty: Page<Pool> =
        decode(r#"{"items":[],"pagination":{"next_cursor":"more","total_count":0}}"#).unwrap();
    assert_eq!(empty.next_cursor(), None);

    // The SDK pagers also cope with no pagination object at all.
    let bare: Page<Pool> = decode(r#"{"items":[{"id":"p"}]}"#).unwrap();
    assert_eq!(bare.next_cursor(), None);
}

#[test]
fn a_value_of_the_wrong_type_is_refused_with_its_place() {
    let err = decode::<Page<Pool>>(
        r#"{"items":[{"id":"a"},{"id":"b","node_config":{"boot_volume":{"size":"big"}}}]}"#,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "items[1].node_config.boot_volume.size: expected an integer"
    );
    assert!(decode::<Cluster>("<html>Bad Gateway</html>").is_err());
    assert!(decode::<Cluster>(r#"["not","an","object"]"#).is_err());
}

/// What the console writes (tabs share operations) it reads back unchanged, so the
/// two directions cannot drift apart field by field.
#[test]
fn what_is_written_reads_back_the_same() {
    let pool: Pool = decode(&fixture("pool.json")).unwrap();
    let cluster: Cluster = decode(&fixture("cluster.json")).unwrap();
    let op: Operation = decode(&fixture("operation.json")).unwrap();
    assert_eq!(decode::<Pool>(&pool.to_json().to_string()).unwrap(), pool);
    assert_eq!(
        decode::<Cluster>(&cluster.to_json().to_string()).unwrap(),
        cluster
    );
    assert_eq!(decode::<Operation>(&op.to_json().to_string()).unwrap(), op);
    assert_ne!(pool, Pool::default());
    assert_ne!(cluster, Cluster::default());
}

#[test]
fn a_pool_create_body_is_the_digest_shape() {
    let body = PoolCreate {
        name: "workers-general".into(),
        node_count: 2,
        node_config: NodeConfig {
            instance_type: "n1-standard-8".into(),
            boot_volume: BootVolume {
                size: 128,
                volume_type: VolumeType::Abs,
            },
            labels: vec!["tier=web".into(), "team=payments".into()],
            taints: vec!["workload=batch:NoSchedule".into()],
        },
        tags: vec!["staging".into()],
    };
    let expected = parse(
        r#"{
        "name": "workers-general",
        "node_count": 2,
        "node_config": {
            "instance_type": "n1-standard-8",
            "boot_volume": { "size": 128, "type": "abs" },
            "labels": ["tier=web", "team=payments"],
            "taints": ["workload=batch:NoSchedule"]
        },
        "tags": ["staging"]
    }"#,
    )
    .unwrap();
    assert_eq!(body.to_json(), expected);
    // No tags: the key is left out rather than sent empty.
    let untagged = PoolCreate {
        tags: vec![],
        ..body
    };
    assert_eq!(untagged.to_json().get("tags"), None);
    assert!(untagged.to_json().get("node_config").is_some());
}

#[test]
fn error_bodies_show_message_else_the_json_else_the_text() {
    assert_eq!(
        error_message(r#"{"message":"node_count: must be between 0 and 100"}"#),
        "node_count: must be between 0 and 100"
    );
    assert_eq!(
        error_message(r#"{"error":{"code":7}}"#),
        r#"{"error":{"code":7}}"#
    );
    assert_eq!(error_message("Bad Gateway"), "Bad Gateway");
    assert_eq!(error_message(""), "");
}
