//! Property tests: no request body, however odd, panics the parsers and validators, and every
//! one gets a definite decision (accepted or a 4xx).

use nks_sim::fuzz::{decide, Target};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

const TARGETS: [Target; 4] = [
    Target::ClusterCreate,
    Target::ClusterUpdate,
    Target::PoolCreate,
    Target::PoolUpdate,
];

fn acceptable(status: u16) -> bool {
    matches!(status, 202 | 400 | 404 | 409 | 422)
}

/// Keys the validators look at, plus noise, so generated objects reach the deep rules.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("name".to_string()),
        Just("node_count".to_string()),
        Just("node_config".to_string()),
        Just("instance_type".to_string()),
        Just("boot_volume".to_string()),
        Just("size".to_string()),
        Just("type".to_string()),
        Just("labels".to_string()),
        Just("taints".to_string()),
        Just("tags".to_string()),
        Just("autoscaling".to_string()),
        Just("region".to_string()),
        Just("project_id".to_string()),
        Just("vpc_id".to_string()),
        Just("kubernetes_version".to_string()),
        ".{0,12}",
    ]
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        (-5i64..600).prop_map(|n| json!(n)),
        prop_oneof![
            Just("us-sva-2".to_string()),
            Just("n1-standard-2".to_string()),
            Just("abs".to_string()),
            Just("nvme".to_string()),
            Just("v1.34.4".to_string()),
            Just("a=b:NoSchedule".to_string()),
            Just("kubernetes.io/x=y".to_string()),
            ".*",
            "\\PC{0,80}",
        ]
        .prop_map(Value::String),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic_and_get_a_4xx_or_202(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        for target in TARGETS {
            let status = decide(target, &bytes);
            prop_assert!(acceptable(status), "{target:?} → {status}");
        }
    }

    #[test]
    fn arbitrary_strings_never_panic(text in "\\PC*") {
        for target in TARGETS {
            prop_assert!(acceptable(decide(target, text.as_bytes())));
        }
    }

    #[test]
    fn arbitrary_json_values_never_panic(v in value()) {
        let body = serde_json::to_vec(&v).unwrap_or_default();
        for target in TARGETS {
            let status = decide(target, &body);
            prop_assert!(acceptable(status), "{target:?} {v} → {status}");
        }
    }

    #[test]
    fn pool_bodies_near_the_valid_shape_never_panic(
        name in "\\PC{0,70}",
        count in prop_oneof![any::<i64>(), -2i64..103],
        size in prop_oneof![any::<i64>(), 60i64..520],
        kind in prop_oneof![Just("abs".to_string()), Just("nvme".to_string()), ".{0,5}"],
        labels in prop::collection::vec("\\PC{0,20}", 0..4),
        taints in prop::collection::vec("\\PC{0,24}", 0..4),
    ) {
        let body = json!({"name": name, "node_count": count, "node_config": {"instance_type": "n1-standard-2",
            "boot_volume": {"size": size, "type": kind}, "labels": labels, "taints": taints}});
        let bytes = serde_json::to_vec(&body).unwrap_or_default();
        let status = decide(Target::PoolCreate, &bytes);
        prop_assert!(acceptable(status), "{body} → {status}");
    }
}
