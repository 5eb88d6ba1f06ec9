//! Request-body rules that need nothing but the body: JSON shape, required fields, types,
//! ranges, label and taint syntax (digest §2.4, §5.2). Rules that need the world (does the
//! project exist, is the VPC free, is there quota) live in `world::checks`.
//!
//! Bodies are read as `serde_json::Value` and walked by hand rather than derived, so a wrong
//! type is reported with the field's path (`node_config.boot_volume.size: must be an integer`)
//! instead of serde's line/column text, unknown fields are ignored for free, and no input can
//! panic the parser. Immutable fields sent to an update (`kubernetes_version`, `node_config`,
//! …) are never looked at: the real API accepts and silently ignores them.
//!
//! Rules the API reference leaves open and the simulator fixes:
//! - `name`: non-empty after trimming, at most 63 characters, no control characters;
//!   pool names are also unique within their cluster (checked against the world).
//! - Cluster and pool `name`: also a DNS label (RFC 1123, as Kubernetes names nodes):
//!   lowercase letters, digits and `-`, starting and ending with a letter or digit. Node
//!   names derive from pool names. The digest leaves the rule UNCONFIRMED (§5.2); this
//!   assumes the real API enforces Kubernetes' own. Names stored before (seeds, or planted
//!   with `POST /_sim/rename`) are served as they are.
//! - `tags`: each a non-empty string of at most 63 characters.
//! - `node_count` omitted on pool create: 1.
//! - `boot_volume.type` is case-sensitive (`nvme` | `abs`).
//! - VPC `subnet_name`: the same rules as `name`.
//! - Firewall rules: `protocol` is `tcp` | `udp` (SDK enum); addresses are IPv4 CIDRs in
//!   network-aligned canonical form and `0.0.0.0` needs mask 0 (SDK doc comments); each of
//!   `destination_ports` (non-empty) is a port 1-65535 or a range `low-high`; the destination
//!   must lie inside the VPC's subnet ("either VPC CIDR or VM in VPC", checked in the world).

use serde_json::{Map, Value};

use crate::error::{ApiError, ApiResult};
use std::net::Ipv4Addr;

use crate::model::{BootVolume, NodeConfig, Protocol, VolumeType};

pub use nks_api::limits::{NAME_MAX as NAME_MAX_CHARS, RESERVED_LABEL_PREFIXES, TAINT_EFFECTS};
pub const NODE_COUNT_MIN: i64 = nks_api::limits::NODE_COUNT_MIN as i64;
pub const NODE_COUNT_MAX: i64 = nks_api::limits::NODE_COUNT_MAX as i64;
pub const BOOT_SIZE_MIN: i64 = nks_api::limits::BOOT_VOLUME_MIN_GB as i64;
pub const BOOT_SIZE_MAX: i64 = nks_api::limits::BOOT_VOLUME_MAX_GB as i64;
pub const DEFAULT_NODE_COUNT: i64 = 1;

#[derive(Debug, Clone, PartialEq)]
pub struct ClusterCreate {
    pub name: String,
    pub project_id: String,
    pub region: String,
    pub vpc_id: String,
    pub kubernetes_version: String,
    pub autoscaling: bool,
    pub tags: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterUpdate {
    pub name: Option<String>,
    pub autoscaling: Option<bool>,
    pub tags: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PoolCreate {
    pub name: String,
    pub node_count: i64,
    pub node_config: NodeConfig,
    pub tags: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct PoolUpdate {
    pub name: Option<String>,
    pub node_count: Option<i64>,
    pub tags: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct VpcCreate {
    pub name: String,
    pub project_id: String,
    pub region: String,
    pub subnet_name: String,
    pub tags: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct VpcUpdate {
    pub name: Option<String>,
    pub subnet_name: Option<String>,
    pub tags: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FirewallRuleCreate {
    pub name: String,
    pub protocol: Protocol,
    pub source_address: String,
    pub destination_address: String,
    pub destination_ports: Vec<String>,
    pub tags: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct FirewallRuleUpdate {
    pub name: Option<String>,
    pub protocol: Option<Protocol>,
    pub source_address: Option<String>,
    pub destination_address: Option<String>,
    pub destination_ports: Option<Vec<String>>,
    pub tags: Option<Vec<String>>,
}

/// Malformed JSON and non-object bodies are the client's syntax error: 400, not 422.
pub fn parse_object(body: &[u8]) -> ApiResult<Map<String, Value>> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::bad_request("request body must be a JSON object")),
        Err(e) => Err(ApiError::bad_request(format!(
            "request body is not valid JSON: {e}"
        ))),
    }
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// `null` counts as absent: the TS SDK sends `null` for cleared optionals.
fn get<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    obj.get(key).filter(|v| !v.is_null())
}

fn req<'a>(obj: &'a Map<String, Value>, prefix: &str, key: &str) -> ApiResult<&'a Value> {
    get(obj, key).ok_or_else(|| ApiError::field(join(prefix, key), "is required"))
}

fn as_str<'a>(v: &'a Value, path: &str) -> ApiResult<&'a str> {
    v.as_str()
        .ok_or_else(|| ApiError::field(path, "must be a string"))
}

fn req_str<'a>(obj: &'a Map<String, Value>, prefix: &str, key: &str) -> ApiResult<&'a str> {
    as_str(req(obj, prefix, key)?, &join(prefix, key))
}

fn as_bool(v: &Value, path: &str) -> ApiResult<bool> {
    v.as_bool()
        .ok_or_else(|| ApiError::field(path, "must be a boolean"))
}

/// Integers only: `3.0`, `"3"` and numbers beyond i64 are refused rather than coerced.
fn as_int(v: &Value, path: &str) -> ApiResult<i64> {
    match v {
        Value::Number(n) => n.as_i64().ok_or_else(|| match n.as_u64() {
            Some(_) => ApiError::field(path, "is out of range"),
            None => ApiError::field(path, "must be an integer"),
        }),
        _ => Err(ApiError::field(path, "must be an integer")),
    }
}

fn as_obj<'a>(v: &'a Value, path: &str) -> ApiResult<&'a Map<String, Value>> {
    v.as_object()
        .ok_or_else(|| ApiError::field(path, "must be an object"))
}

fn as_str_array(v: &Value, path: &str) -> ApiResult<Vec<String>> {
    let items = v
        .as_array()
        .ok_or_else(|| ApiError::field(path, "must be an array of strings"))?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| as_str(item, &format!("{path}[{i}]")).map(str::to_string))
        .collect()
}

fn ranged(value: i64, path: &str, min: i64, max: i64) -> ApiResult<i64> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(ApiError::field(
            path,
            format!("must be between {min} and {max}"),
        ))
    }
}

pub fn check_name(name: &str, path: &str) -> ApiResult<String> {
    if name.trim().is_empty() {
        return Err(ApiError::field(path, "must not be empty"));
    }
    if name.chars().count() > NAME_MAX_CHARS {
        return Err(ApiError::field(
            path,
            format!("must be at most {NAME_MAX_CHARS} characters"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::field(path, "must not contain control characters"));
    }
    Ok(name.to_string())
}

/// The reason a cluster or pool name that is not a DNS label is refused.
pub const DNS_LABEL_REASON: &str = "must be a DNS label: lowercase letters, digits and '-' (at most 63), starting and ending with a letter or digit";

/// Whether `name` is a DNS label: 1-63 of `[a-z0-9-]`, alphanumeric at both ends.
pub fn is_dns_label(name: &str) -> bool {
    let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let bytes = name.as_bytes();
    matches!((bytes.first(), bytes.last()), (Some(&a), Some(&z)) if alnum(a) && alnum(z))
        && bytes.len() <= NAME_MAX_CHARS
        && bytes.iter().all(|&c| alnum(c) || c == b'-')
}

/// A cluster or pool name: the general name rules, then a DNS label.
pub fn check_dns_name(name: &str, path: &str) -> ApiResult<String> {
    let name = check_name(name, path)?;
    if is_dns_label(&name) {
        Ok(name)
    } else {
        Err(ApiError::field(path, DNS_LABEL_REASON))
    }
}

fn check_tags(v: &Value, path: &str) -> ApiResult<Vec<String>> {
    let tags = as_str_array(v, path)?;
    for (i, tag) in tags.iter().enumerate() {
        let p = format!("{path}[{i}]");
        if tag.trim().is_empty() {
            return Err(ApiError::field(p, "must not be empty"));
        }
        if tag.chars().count() > NAME_MAX_CHARS {
            return Err(ApiError::field(
                p,
                format!("must be at most {NAME_MAX_CHARS} characters"),
            ));
        }
    }
    Ok(tags)
}

fn opt_tags(obj: &Map<String, Value>) -> ApiResult<Option<Vec<String>>> {
    get(obj, "tags").map(|v| check_tags(v, "tags")).transpose()
}

/// The digest's reserved-prefix rule, `^(kubernetes\.io|k8s\.io|nirvanalabs\.io)(/|$)`:
/// `kubernetes.io/arch` and `k8s.io` are reserved, `node.kubernetes.io/x` and `k8s.iox` are not.
pub fn reserved_label_key(key: &str) -> Option<&'static str> {
    RESERVED_LABEL_PREFIXES.into_iter().find(|prefix| {
        key.strip_prefix(prefix)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

pub fn check_label(label: &str, path: &str) -> ApiResult<()> {
    let Some((key, _value)) = label.split_once('=') else {
        return Err(ApiError::field(path, "must be key=value"));
    };
    if key.trim().is_empty() {
        return Err(ApiError::field(
            path,
            "must be key=value with a non-empty key",
        ));
    }
    if label.chars().any(char::is_control) {
        return Err(ApiError::field(path, "must not contain control characters"));
    }
    if let Some(prefix) = reserved_label_key(key) {
        return Err(ApiError::field(
            path,
            format!("label keys under {prefix} are reserved"),
        ));
    }
    Ok(())
}

/// Taints are `key=value:Effect`; the API also renders `key=:Effect` and `key:Effect` when the
/// value is empty, so those are accepted too. The effect follows the last colon because values
/// may not contain one but keys with a `/` prefix are common.
pub fn check_taint(taint: &str, path: &str) -> ApiResult<()> {
    let Some((key_value, effect)) = taint.rsplit_once(':') else {
        return Err(ApiError::field(path, "must be key=value:Effect"));
    };
    let key = key_value.split_once('=').map_or(key_value, |(k, _)| k);
    if key.trim().is_empty() {
        return Err(ApiError::field(
            path,
            "must be key=value:Effect with a non-empty key",
        ));
    }
    if taint.chars().any(char::is_control) {
        return Err(ApiError::field(path, "must not contain control characters"));
    }
    if !TAINT_EFFECTS.contains(&effect) {
        return Err(ApiError::field(
            path,
            format!("effect must be one of {}", TAINT_EFFECTS.join(", ")),
        ));
    }
    Ok(())
}

pub fn cluster_create(obj: &Map<String, Value>) -> ApiResult<ClusterCreate> {
    let name = check_dns_name(req_str(obj, "", "name")?, "name")?;
    let project_id = req_str(obj, "", "project_id")?.to_string();
    let region = req_str(obj, "", "region")?.to_string();
    if region != crate::model::REGION {
        return Err(ApiError::field("region", "must be us-sva-2"));
    }
    let vpc_id = req_str(obj, "", "vpc_id")?.to_string();
    let kubernetes_version = req_str(obj, "", "kubernetes_version")?.to_string();
    let autoscaling = as_bool(req(obj, "", "autoscaling")?, "autoscaling")?;
    let tags = opt_tags(obj)?.unwrap_or_default();
    Ok(ClusterCreate {
        name,
        project_id,
        region,
        vpc_id,
        kubernetes_version,
        autoscaling,
        tags,
    })
}

pub fn cluster_update(obj: &Map<String, Value>) -> ApiResult<ClusterUpdate> {
    Ok(ClusterUpdate {
        name: get(obj, "name")
            .map(|v| as_str(v, "name").and_then(|n| check_dns_name(n, "name")))
            .transpose()?,
        autoscaling: get(obj, "autoscaling")
            .map(|v| as_bool(v, "autoscaling"))
            .transpose()?,
        tags: opt_tags(obj)?,
    })
}

fn node_count(v: &Value) -> ApiResult<i64> {
    ranged(
        as_int(v, "node_count")?,
        "node_count",
        NODE_COUNT_MIN,
        NODE_COUNT_MAX,
    )
}

fn node_config(v: &Value) -> ApiResult<NodeConfig> {
    const P: &str = "node_config";
    let cfg = as_obj(v, P)?;
    let instance_type = req_str(cfg, P, "instance_type")?.to_string();
    if instance_type.trim().is_empty() {
        return Err(ApiError::field(
            "node_config.instance_type",
            "must not be empty",
        ));
    }
    let boot = as_obj(req(cfg, P, "boot_volume")?, "node_config.boot_volume")?;
    const B: &str = "node_config.boot_volume";
    let size = ranged(
        as_int(req(boot, B, "size")?, "node_config.boot_volume.size")?,
        "node_config.boot_volume.size",
        BOOT_SIZE_MIN,
        BOOT_SIZE_MAX,
    )?;
    let kind = match req_str(boot, B, "type")? {
        "nvme" => VolumeType::Nvme,
        "abs" => VolumeType::Abs,
        _ => {
            return Err(ApiError::field(
                "node_config.boot_volume.type",
                "must be one of nvme, abs",
            ))
        }
    };
    let labels = match get(cfg, "labels") {
        Some(v) => as_str_array(v, "node_config.labels")?,
        None => Vec::new(),
    };
    for (i, label) in labels.iter().enumerate() {
        check_label(label, &format!("node_config.labels[{i}]"))?;
    }
    let taints = match get(cfg, "taints") {
        Some(v) => as_str_array(v, "node_config.taints")?,
        None => Vec::new(),
    };
    for (i, taint) in taints.iter().enumerate() {
        check_taint(taint, &format!("node_config.taints[{i}]"))?;
    }
    Ok(NodeConfig {
        instance_type,
        boot_volume: BootVolume { size, kind },
        labels,
        taints,
    })
}

pub fn pool_create(obj: &Map<String, Value>) -> ApiResult<PoolCreate> {
    let name = check_dns_name(req_str(obj, "", "name")?, "name")?;
    let node_count = get(obj, "node_count")
        .map(node_count)
        .transpose()?
        .unwrap_or(DEFAULT_NODE_COUNT);
    let node_config = node_config(req(obj, "", "node_config")?)?;
    let tags = opt_tags(obj)?.unwrap_or_default();
    Ok(PoolCreate {
        name,
        node_count,
        node_config,
        tags,
    })
}

fn opt_name(obj: &Map<String, Value>, key: &str) -> ApiResult<Option<String>> {
    get(obj, key)
        .map(|v| as_str(v, key).and_then(|n| check_name(n, key)))
        .transpose()
}

fn region(obj: &Map<String, Value>) -> ApiResult<String> {
    let region = req_str(obj, "", "region")?;
    if region != crate::model::REGION {
        return Err(ApiError::field("region", "must be us-sva-2"));
    }
    Ok(region.to_string())
}

pub fn vpc_create(obj: &Map<String, Value>) -> ApiResult<VpcCreate> {
    Ok(VpcCreate {
        name: check_name(req_str(obj, "", "name")?, "name")?,
        project_id: req_str(obj, "", "project_id")?.to_string(),
        region: region(obj)?,
        subnet_name: check_name(req_str(obj, "", "subnet_name")?, "subnet_name")?,
        tags: opt_tags(obj)?.unwrap_or_default(),
    })
}

pub fn vpc_update(obj: &Map<String, Value>) -> ApiResult<VpcUpdate> {
    Ok(VpcUpdate {
        name: opt_name(obj, "name")?,
        subnet_name: opt_name(obj, "subnet_name")?,
        tags: opt_tags(obj)?,
    })
}

/// An IPv4 CIDR in network-aligned, canonical form (`10.20.0.0/24`, not `10.20.0.7/24` nor
/// `010.20.0.0/24`); `0.0.0.0` only with mask 0, as the SDK documents for source addresses.
/// Returns the network and prefix length.
pub fn check_cidr(text: &str, path: &str) -> ApiResult<(u32, u32)> {
    let bad = || ApiError::field(path, "must be an IPv4 CIDR such as 10.20.0.0/24");
    let (addr, prefix) = text.split_once('/').ok_or_else(bad)?;
    let ip: Ipv4Addr = addr.parse().map_err(|_| bad())?;
    let prefix: u32 = match prefix.parse() {
        Ok(p)
            if p <= 32
                && !prefix.starts_with('+')
                && (prefix == "0" || !prefix.starts_with('0')) =>
        {
            p
        }
        _ => return Err(bad()),
    };
    // Ipv4Addr's parser already refuses leading zeros in octets.
    let base = u32::from(ip);
    let mask = if prefix == 0 {
        0
    } else {
        u32::MAX << (32 - prefix)
    };
    if base & !mask != 0 {
        let canonical = format!("{}/{prefix}", Ipv4Addr::from(base & mask));
        return Err(ApiError::field(
            path,
            format!("must be network-aligned: {canonical}, not {text}"),
        ));
    }
    if base == 0 && prefix != 0 {
        return Err(ApiError::field(
            path,
            "address 0.0.0.0 requires a CIDR mask of 0 (0.0.0.0/0)",
        ));
    }
    Ok((base, prefix))
}

/// A port (`443`) or an inclusive range (`8000-8080`), 1-65535.
pub fn check_port(text: &str, path: &str) -> ApiResult<()> {
    let number = |s: &str| -> Option<u32> {
        (!s.is_empty()
            && s.len() <= 5
            && s.bytes().all(|b| b.is_ascii_digit())
            && !s.starts_with('0'))
        .then(|| s.parse().ok())
        .flatten()
        .filter(|p| (1..=65_535).contains(p))
    };
    let ok = match text.split_once('-') {
        Some((lo, hi)) => matches!((number(lo), number(hi)), (Some(a), Some(b)) if a <= b),
        None => number(text).is_some(),
    };
    if ok {
        Ok(())
    } else {
        Err(ApiError::field(
            path,
            "must be a port 1-65535 or a range such as 8000-8080",
        ))
    }
}

fn protocol(v: &Value) -> ApiResult<Protocol> {
    match as_str(v, "protocol")? {
        "tcp" => Ok(Protocol::Tcp),
        "udp" => Ok(Protocol::Udp),
        _ => Err(ApiError::field("protocol", "must be one of tcp, udp")),
    }
}

fn ports(v: &Value) -> ApiResult<Vec<String>> {
    let list = as_str_array(v, "destination_ports")?;
    if list.is_empty() {
        return Err(ApiError::field("destination_ports", "must not be empty"));
    }
    for (i, p) in list.iter().enumerate() {
        check_port(p, &format!("destination_ports[{i}]"))?;
    }
    Ok(list)
}

fn address(v: &Value, key: &str) -> ApiResult<String> {
    let text = as_str(v, key)?;
    check_cidr(text, key)?;
    Ok(text.to_string())
}

pub fn firewall_rule_create(obj: &Map<String, Value>) -> ApiResult<FirewallRuleCreate> {
    Ok(FirewallRuleCreate {
        name: check_name(req_str(obj, "", "name")?, "name")?,
        protocol: protocol(req(obj, "", "protocol")?)?,
        source_address: address(req(obj, "", "source_address")?, "source_address")?,
        destination_address: address(req(obj, "", "destination_address")?, "destination_address")?,
        destination_ports: ports(req(obj, "", "destination_ports")?)?,
        tags: opt_tags(obj)?.unwrap_or_default(),
    })
}

pub fn firewall_rule_update(obj: &Map<String, Value>) -> ApiResult<FirewallRuleUpdate> {
    Ok(FirewallRuleUpdate {
        name: opt_name(obj, "name")?,
        protocol: get(obj, "protocol").map(protocol).transpose()?,
        source_address: get(obj, "source_address")
            .map(|v| address(v, "source_address"))
            .transpose()?,
        destination_address: get(obj, "destination_address")
            .map(|v| address(v, "destination_address"))
            .transpose()?,
        destination_ports: get(obj, "destination_ports").map(ports).transpose()?,
        tags: opt_tags(obj)?,
    })
}

pub fn pool_update(obj: &Map<String, Value>) -> ApiResult<PoolUpdate> {
    Ok(PoolUpdate {
        name: get(obj, "name")
            .map(|v| as_str(v, "name").and_then(|n| check_dns_name(n, "name")))
            .transpose()?,
        node_count: get(obj, "node_count").map(node_count).transpose()?,
        tags: opt_tags(obj)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn reserved_label_prefixes_follow_the_digest_regex() {
        assert_eq!(
            reserved_label_key("kubernetes.io/arch"),
            Some("kubernetes.io")
        );
        assert_eq!(reserved_label_key("k8s.io"), Some("k8s.io"));
        assert_eq!(
            reserved_label_key("nirvanalabs.io/pool"),
            Some("nirvanalabs.io")
        );
        assert_eq!(reserved_label_key("node.kubernetes.io/x"), None);
        assert_eq!(reserved_label_key("k8s.iox"), None);
    }

    #[test]
    fn taints_accept_the_three_rendered_forms() {
        for ok in [
            "a=b:NoSchedule",
            "a=:NoExecute",
            "a:PreferNoSchedule",
            "x/y=z:NoSchedule",
        ] {
            assert!(check_taint(ok, "t").is_ok(), "{ok}");
        }
        for bad in ["a=b", "=b:NoSchedule", ":NoSchedule", "a=b:Sometimes", ""] {
            assert!(check_taint(bad, "t").is_err(), "{bad}");
        }
    }

    #[test]
    fn wrong_types_name_the_field() {
        let e = pool_create(&obj(
            json!({"name": "p", "node_count": "3", "node_config": {}}),
        ))
        .expect_err("must fail");
        assert_eq!(e.message, "node_count: must be an integer");
        let e = pool_create(&obj(
            json!({"name": "p", "node_config": {"instance_type": "n1-standard-2",
            "boot_volume": {"size": 1e300, "type": "abs"}}}),
        ))
        .expect_err("must fail");
        assert_eq!(
            e.message,
            "node_config.boot_volume.size: must be an integer"
        );
    }

    #[test]
    fn cidrs_must_be_canonical_and_zero_needs_mask_zero() {
        for ok in [
            "0.0.0.0/0",
            "203.0.113.0/24",
            "10.20.0.253/32",
            "10.0.0.0/8",
        ] {
            assert!(check_cidr(ok, "a").is_ok(), "{ok}");
        }
        for bad in [
            "0.0.0.0/8",
            "10.20.0.7/24",
            "10.20.0.0",
            "010.20.0.0/24",
            "10.20.0.0/33",
            "10.20.0.0/024",
            "::/0",
            "",
        ] {
            assert!(check_cidr(bad, "a").is_err(), "{bad}");
        }
        let e = check_cidr("10.20.0.7/24", "source_address").expect_err("unaligned");
        assert!(e.message.contains("10.20.0.0/24"), "{}", e.message);
    }

    #[test]
    fn ports_are_single_or_ranges_within_1_to_65535() {
        for ok in ["22", "443", "1", "65535", "8000-8080", "80-80"] {
            assert!(check_port(ok, "p").is_ok(), "{ok}");
        }
        for bad in [
            "0",
            "65536",
            "080",
            "8080-8000",
            "-1",
            "a",
            "",
            "80-",
            "1-2-3",
        ] {
            assert!(check_port(bad, "p").is_err(), "{bad}");
        }
    }

    #[test]
    fn cluster_and_pool_names_must_be_dns_labels() {
        for ok in ["a", "web-1", "0x", &"x".repeat(63)] {
            assert!(is_dns_label(ok), "{ok}");
        }
        for bad in [
            "",
            "Web",
            "web pool",
            "web_pool",
            "web.pool",
            "-web",
            "web-",
            "wéb",
            &"x".repeat(64),
        ] {
            assert!(!is_dns_label(bad), "{bad}");
        }
        let refused = pool_create(&obj(json!({"name": "Web Pool", "node_config": {}})));
        assert_eq!(
            refused.map(|_| ()).map_err(|e| e.message),
            Err(format!("name: {DNS_LABEL_REASON}"))
        );
        let refused = cluster_update(&obj(json!({"name": "edge_prod"})));
        assert_eq!(
            refused.map(|_| ()).map_err(|e| e.message),
            Err(format!("name: {DNS_LABEL_REASON}"))
        );
        // VPCs and firewall rules keep the general rule.
        assert!(vpc_update(&obj(json!({"name": "Prod VPC"}))).is_ok());
    }

    #[test]
    fn omitted_node_count_defaults_to_one() {
        let p = pool_create(&obj(
            json!({"name": "p", "node_config": {"instance_type": "n1-standard-2",
            "boot_volume": {"size": 64, "type": "nvme"}}}),
        ))
        .expect("valid");
        assert_eq!(p.node_count, 1);
    }
}
