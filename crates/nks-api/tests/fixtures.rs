//! The console's wire types against JSON written from the API digest
//! (`shared/api/NIRVANA_API.md` §3), so a change on either side shows up here.

use nks_api::decode::from_json as decode;
use nks_api::types::*;
use serde_json::{json, Value};

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
    assert_eq!(changes[0].1.from, json!(3));
    assert_eq!(changes[0].1.to, json!(5));
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
fn unknown_enum_values_are_kept_as_text_instead_of_failing() {
    let op: Operation = decode(
        r#"{"id":"o","kind":"quantum_widget","type":"teleport","status":"paused","resource_id":"r","project_id":"p","details":null,"created_at":"","updated_at":""}"#,
    )
    .unwrap();
    assert_eq!(op.kind, OperationKind::Other("quantum_widget".into()));
    assert_eq!(op.kind.as_str(), "quantum_widget");
    assert_eq!(op.op_type.as_str(), "teleport");
    // Kept as its text (rules::operation holds it not terminal: polling goes on).
    assert_eq!(op.status, OperationStatus::Other("paused".into()));
    assert_eq!(op.changes().count(), 0);

    let node: Node =
        decode(r#"{"id":"n","name":"a","private_ip":null,"status":"hibernating"}"#).unwrap();
    assert_eq!(node.status.as_str(), "hibernating");
    assert_eq!(node.private_ip, None);

    // Written back as read: another tab, or the next version, sees the same text.
    assert_eq!(
        decode::<Operation>(&serde_json::to_string(&op).unwrap()).unwrap(),
        op
    );
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
fn a_missing_or_null_field_takes_its_default() {
    let p: Pool = decode(
        r#"{"id":"p","name":null,"node_count":null,"tags":null,"node_config":{"boot_volume":null}}"#,
    )
    .unwrap();
    assert_eq!(p.name, "");
    assert_eq!(p.node_count, 0);
    assert!(p.tags.is_empty());
    assert_eq!(p.node_config.boot_volume, BootVolume::default());
    assert_eq!(p.status, ResourceStatus::Unknown);
    let page: Page<Pool> = decode(r#"{"items":null,"pagination":null}"#).unwrap();
    assert!(page.items.is_empty());
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
        "items[1].node_config.boot_volume.size: invalid type: string \"big\", expected u32 at line 1 column 73"
    );
    assert!(decode::<Cluster>("<html>Bad Gateway</html>").is_err());
    assert!(decode::<Cluster>(r#""not an object""#).is_err());
    assert!(decode::<Cluster>("42").is_err());
    // (serde reads a JSON array into a struct field by field, as its derive
    // always has; the API never answers an array where it promises an object.)
}

/// What the console writes (tabs share operations) it reads back unchanged, so the
/// two directions cannot drift apart field by field.
#[test]
fn what_is_written_reads_back_the_same() {
    let pool: Pool = decode(&fixture("pool.json")).unwrap();
    let cluster: Cluster = decode(&fixture("cluster.json")).unwrap();
    let op: Operation = decode(&fixture("operation.json")).unwrap();
    assert_eq!(
        decode::<Pool>(&serde_json::to_string(&pool).unwrap()).unwrap(),
        pool
    );
    assert_eq!(
        decode::<Cluster>(&serde_json::to_string(&cluster).unwrap()).unwrap(),
        cluster
    );
    assert_eq!(
        decode::<Operation>(&serde_json::to_string(&op).unwrap()).unwrap(),
        op
    );
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
    let expected: Value = serde_json::from_str(
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
    assert_eq!(serde_json::to_value(&body).unwrap(), expected);
    // No tags: the key is left out rather than sent empty.
    let untagged = serde_json::to_value(PoolCreate {
        tags: vec![],
        ..body
    })
    .unwrap();
    assert_eq!(untagged.get("tags"), None);
    assert!(untagged.get("node_config").is_some());
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

#[test]
fn the_sims_controller_decodes_field_for_field() {
    let c: Controller = decode(&fixture("controller.json")).unwrap();
    assert_eq!(c.name, "edge-prod-controller-1");
    assert_eq!(c.instance_type, "n1-standard-4");
    assert_eq!(c.private_ip.as_deref(), Some("10.20.0.244"));
    assert_eq!(c.status, ResourceStatus::Ready);
    // Until the control plane is provisioned its address is null.
    let new: Controller = decode(r#"{"id":"c","private_ip":null,"status":"creating"}"#).unwrap();
    assert_eq!(new.private_ip, None);
}

#[test]
fn a_private_load_balancer_decodes_with_no_public_ip() {
    let lb: LoadBalancer = decode(&fixture("load_balancer.json")).unwrap();
    assert_eq!(
        (lb.namespace.as_str(), lb.service_name.as_str()),
        ("payments", "payments-api")
    );
    assert_eq!(lb.private_ip.as_deref(), Some("10.20.0.248"));
    assert_eq!(lb.public_ip, None);
    assert!(!lb.public_ip_enabled);
    assert_eq!(lb.status, ResourceStatus::Ready);
}

#[test]
fn the_load_balancer_update_body_is_its_one_field() {
    let body = LoadBalancerUpdate {
        public_ip_enabled: false,
    };
    assert_eq!(
        serde_json::to_value(&body).unwrap(),
        json!({"public_ip_enabled": false})
    );
}

#[test]
fn the_sims_pvc_decodes_with_its_size_and_type() {
    let p: PersistentVolumeClaim = decode(&fixture("pvc.json")).unwrap();
    assert_eq!(p.name, "data-redis-0");
    assert_eq!(p.size, 10);
    assert_eq!(p.volume_type, VolumeType::Nvme);
    assert_eq!(p.status, ResourceStatus::Ready);
}

#[test]
fn a_node_volume_decodes_and_a_controller_volume_has_no_node() {
    let v: Volume = decode(&fixture("node_volume.json")).unwrap();
    assert_eq!(v.name, "baseline-9vzmr-boot");
    assert_eq!(
        v.node_id.as_deref(),
        Some("3d34cc45-7817-4ba0-bb52-12deebb4f5f7")
    );
    assert_eq!(v.kind, VolumeKind::Boot);
    assert_eq!(v.volume_type, VolumeType::Abs);
    assert_eq!(v.size, 128);
    let c: Volume = decode(
        r#"{"id":"v","name":"edge-prod-controller-1-boot","kind":"boot","type":"abs","size":128,"status":"ready"}"#,
    )
    .unwrap();
    assert_eq!(c.node_id, None);
    // A kind this console does not know is kept as its text.
    let d: Volume = decode(r#"{"id":"v","kind":"scratch"}"#).unwrap();
    assert_eq!(d.kind.as_str(), "scratch");
}

/// The wire enums' reading, to the letter, error texts and positions included:
/// a text is its variant or kept as `Other`; the tagged form of a variant
/// (`{"ready": null}`) reads as that variant; anything else is refused where it
/// stands with the same words.
#[test]
fn a_wire_enum_reads_text_or_its_tagged_form_and_refuses_the_rest_in_place() {
    let status = |json: &str| {
        decode::<Page<ClusterSummary>>(&format!(
            r#"{{"items":[{{"id":"a"}},{{"status":{json}}}]}}"#
        ))
        .map(|p| p.items[1].status.clone())
        .map_err(|e| e.to_string())
    };
    assert_eq!(status(r#""ready""#), Ok(ResourceStatus::Ready));
    assert_eq!(status(r#""unknown""#), Ok(ResourceStatus::Unknown));
    assert_eq!(status(r#""re\u0061dy""#), Ok(ResourceStatus::Ready));
    assert_eq!(
        status(r#""Ready""#),
        Ok(ResourceStatus::Other("Ready".into()))
    );
    assert_eq!(status(r#""""#), Ok(ResourceStatus::Other(String::new())));
    assert_eq!(status("null"), Ok(ResourceStatus::Unknown));
    assert_eq!(status(r#"{"ready":null}"#), Ok(ResourceStatus::Ready));
    assert_eq!(status(r#"{"unknown":null}"#), Ok(ResourceStatus::Unknown));
    let refused = |column: u32| {
        Err(format!("items[1].status: data did not match any variant of untagged enum ResourceStatus at line 1 column {column}"))
    };
    for (json, column) in [
        ("5", 33),
        ("-5", 34),
        ("1.5", 35),
        ("true", 36),
        ("[]", 34),
        (r#"["ready"]"#, 41),
        ("{}", 34),
        (r#"{"ready":1}"#, 43),
        (r#"{"ready":{}}"#, 44),
        (r#"{"ready":null,"error":null}"#, 59),
        (r#"{"Ready":null}"#, 46),
        (r#"{"Other":"x"}"#, 45),
    ] {
        assert_eq!(status(json), refused(column), "{json}");
    }
    for (bad, error) in [
        (
            "[1,",
            "items[1].status[1]: expected value at line 1 column 35",
        ),
        (
            r#"{"ready":nul}"#,
            "items[1].status.ready: expected ident at line 1 column 44",
        ),
        (
            r#"{"ready" null}"#,
            "items[1].status: expected `:` at line 1 column 41",
        ),
        (
            "1e999",
            "items[1].status: number out of range at line 1 column 36",
        ),
    ] {
        assert_eq!(status(bad), Err(error.to_string()), "{bad}");
    }
}

/// The shell reads a project's id and name from the whole object the API sends.
#[test]
fn a_project_summary_reads_its_id_and_name_from_the_whole_project() {
    let whole = r#"{"items":[{"id":"p1","name":"Production","tags":["prod"],
        "resources":{"cloud":{"nks_clusters":2,"nks_node_pools":3,"vms":0,"volumes":4,"vpcs":1,"connect_connections":0}},
        "created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-02T03:04:05Z"},
        {"id":"p2","name":null}]}"#;
    let page: Page<ProjectSummary> = decode(whole).unwrap();
    assert_eq!(
        page.items,
        [
            ProjectSummary {
                id: "p1".into(),
                name: "Production".into()
            },
            ProjectSummary {
                id: "p2".into(),
                name: String::new()
            },
        ]
    );
    let full: Page<Project> = decode(whole).unwrap();
    assert_eq!(
        (full.items[0].id.as_str(), full.items[0].name.as_str()),
        ("p1", "Production")
    );
    let err = decode::<Page<ProjectSummary>>(r#"{"items":[{"id":"p1","name":7}]}"#).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("items[0].name: invalid type: integer `7`"),
        "{err}"
    );
}

/// The catalogue's answers as the digest shows them (§3.11, §3.13, §3.14,
/// §3.16) read field for field and write back the same JSON; an older or
/// partial answer, without the groups and timestamps, still reads.
#[test]
fn the_digest_catalogue_reads_whole_and_writes_back_the_same() {
    let region = json!({
        "name": "us-sva-2", "availability": "live",
        "compute": {"vms": true},
        "networking": {"vpcs": true, "connect": false},
        "nks": {"clusters": true, "autoscaling": true},
        "storage": {"abs": true, "local_nvme": false},
    });
    let instance = json!({
        "name": "n1-standard-8", "region": "us-sva-2", "vcpu": 8, "memory_gb": 32,
        "network_bandwidth_gbps": 16.5, "series": "n1", "family": "standard",
        "chipset": "AMD EPYC 9354",
        "created_at": "2026-01-15T00:00:00Z", "updated_at": "2026-01-16T00:00:00Z",
    });
    let triple =
        |limit: i64, used: i64| json!({"limit": limit, "used": used, "remaining": limit - used});
    let quota = json!({
        "region": "us-sva-2",
        "compute": {"vcpu": triple(128, 0), "memory_gb": triple(512, 0)},
        "networking": {"connect_connections": triple(10, 0), "public_ips": triple(16, 2), "vpcs": triple(20, 3)},
        "nks": {"clusters": triple(5, 2), "node_pool_vcpu": triple(256, 40),
                "node_pool_memory_gb": triple(1024, 160), "public_ips": triple(16, 2)},
        "storage": {"abs": triple(1_000_000, 600), "local_nvme": triple(1_000_000, 0)},
    });
    let project = json!({
        "id": "p1", "name": "Production", "tags": ["prod"],
        "resources": {
            "cloud": {"nks_clusters": 2, "nks_node_pools": 3, "vms": 0, "volumes": 4, "vpcs": 1, "connect_connections": 0},
            "blockchain": {"rpc_nodes_dedicated": 0, "rpc_nodes_flex": 1},
        },
        "created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z",
    });
    let user = json!({"id": "u1", "email": "a@example.com", "first_name": "A", "last_name": null});

    fn same<T: serde::de::DeserializeOwned + serde::Serialize>(sent: &Value) -> T {
        let read: T = decode(&sent.to_string()).unwrap();
        assert_eq!(&serde_json::to_value(&read).unwrap(), sent);
        read
    }
    let r: Region = same(&region);
    assert_eq!(r.compute, Some(RegionCompute { vms: true }));
    assert!(!r.networking.unwrap().connect);
    let t: InstanceType = same(&instance);
    assert_eq!((t.vcpu, t.memory_gb), (8, 32));
    assert_eq!(t.updated_at, "2026-01-16T00:00:00Z");
    let q: Quota = same(&quota);
    assert_eq!(q.networking.unwrap().vpcs.unwrap().remaining, 17);
    assert_eq!(q.storage.unwrap().abs.unwrap().used, 600);
    assert_eq!(q.compute.unwrap().vcpu.unwrap().limit, 128);
    let p: Project = same(&project);
    let resources = p.resources.unwrap();
    assert_eq!(resources.blockchain.unwrap().rpc_nodes_flex, 1);
    assert_eq!(resources.cloud.unwrap().connect_connections, 0);
    let u: User = same(&user);
    assert_eq!(u.last_name, None);

    // Older or partial answers: the groups are absent or null, no timestamps.
    let r: Region = decode(
        r#"{"name":"us-sva-2","availability":"live","nks":{"clusters":true},"compute":null}"#,
    )
    .unwrap();
    assert_eq!((r.compute, r.networking, r.storage), (None, None, None));
    assert!(r.nks.unwrap().clusters);
    let t: InstanceType =
        decode(r#"{"name":"n1-highcpu-2","vcpu":2,"memory_gb":2,"created_at":null}"#).unwrap();
    assert_eq!((t.created_at.as_str(), t.updated_at.as_str()), ("", ""));
    let q: Quota =
        decode(r#"{"region":"us-sva-2","nks":{"clusters":{"limit":5,"used":1,"remaining":4}}}"#)
            .unwrap();
    assert_eq!((q.compute, q.networking, q.storage), (None, None, None));
    assert_eq!(q.nks.unwrap().clusters.unwrap().remaining, 4);
    let p: Project = decode(r#"{"id":"p","resources":{"cloud":{"vpcs":2}}}"#).unwrap();
    let resources = p.resources.unwrap();
    assert_eq!(resources.blockchain, None);
    assert_eq!(resources.cloud.unwrap().connect_connections, 0);
}
