//! Every answer the simulator gives these tests is read with the console's own
//! wire types (`nks-api`), as the console reads it: a shape the console could not
//! read, or a field it reads that the answer leaves out, fails the test that
//! made the call.

use nks_api::decode::from_json;
use nks_api::types::*;
use reqwest::Method;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// Reads a successful answer to `method path` as the console's type for that
/// route. Answers with no body, error answers and the simulator's own `/_sim`
/// routes are not the console's to read.
pub fn check(method: &Method, path: &str, status: u16, text: &str) {
    if !(200..300).contains(&status) || text.trim().is_empty() || !path.starts_with("/v1/") {
        return;
    }
    let route = path.split('?').next().unwrap_or(path);
    let segments: Vec<&str> = route.trim_start_matches("/v1/").split('/').collect();
    let read = reader(method, &segments)
        .unwrap_or_else(|| panic!("{method} {route}: no wire type for this route"));
    if let Err(why) = read(text) {
        panic!("{method} {path}: the console's types cannot read this answer: {why}\n{text}");
    }
}

type Read = fn(&str) -> Result<(), String>;

/// The console's type for a route's answer.
fn reader(method: &Method, s: &[&str]) -> Option<Read> {
    let change = matches!(*method, Method::POST | Method::PATCH | Method::DELETE);
    Some(match s {
        // A change answers with its operation; `…/cost` and `…/availability` are plans.
        [.., "availability"] => return None,
        [.., "cost"] if *method == Method::POST => read::<CostQuote>,
        [.., "cost"] => read::<CostQuoteUpdate>,
        _ if change => read::<Operation>,
        ["user"] => read::<User>,
        ["projects"] => read::<Page<Project>>,
        ["projects", _] => read::<Project>,
        ["networking", "vpcs"] => read::<Page<Vpc>>,
        ["networking", "vpcs", _] => read::<Vpc>,
        ["networking", "vpcs", _, "firewall_rules"] => read::<Page<FirewallRule>>,
        ["networking", "vpcs", _, "firewall_rules", _] => read::<FirewallRule>,
        ["regions"] => read::<Page<Region>>,
        ["regions", _] => read::<Region>,
        ["instance_types"] => read::<Page<InstanceType>>,
        ["instance_types", _, _] => read::<InstanceType>,
        ["quotas"] => read::<Page<Quota>>,
        ["quotas", _] => read::<Quota>,
        ["nks", "kubernetes_versions"] => read::<Page<KubernetesVersion>>,
        ["nks", "clusters"] => read::<Page<Cluster>>,
        ["nks", "clusters", _] => read::<Cluster>,
        ["nks", "clusters", _, "kubeconfig"] => read::<Kubeconfig>,
        ["nks", "clusters", _, "controllers"] => read::<Page<Controller>>,
        ["nks", "clusters", _, "controllers", _] => read::<Controller>,
        ["nks", "clusters", _, "load_balancers"] => read::<Page<LoadBalancer>>,
        ["nks", "clusters", _, "load_balancers", _] => read::<LoadBalancer>,
        ["nks", "clusters", _, "persistent_volume_claims"] => read::<Page<PersistentVolumeClaim>>,
        ["nks", "clusters", _, "persistent_volume_claims", _] => read::<PersistentVolumeClaim>,
        ["nks", "clusters", _, "pools"] => read::<Page<Pool>>,
        ["nks", "clusters", _, "pools", _] => read::<Pool>,
        ["nks", "clusters", _, "pools", _, "nodes"] => read::<Page<Node>>,
        ["nks", "clusters", _, "pools", _, "nodes", _] => read::<Node>,
        [.., "volumes"] => read::<Page<Volume>>,
        [.., "volumes", _] => read::<Volume>,
        ["operations"] => read::<Page<Operation>>,
        ["operations", _] => read::<Operation>,
        _ => return None,
    })
}

/// Reads `text` as `T`, then checks that every field `T` reads is in the answer:
/// a field left out would be read as its default without a word. Only a field
/// the console holds optional (read as null) may be left out.
fn read<T: DeserializeOwned + Serialize>(text: &str) -> Result<(), String> {
    let typed: T = from_json(text).map_err(|e| e.to_string())?;
    let sent: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let read = serde_json::to_value(&typed).map_err(|e| e.to_string())?;
    let mut missing = Vec::new();
    left_out(&read, &sent, String::new(), &mut missing);
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "fields the console reads are missing: {}",
            missing.join(", ")
        ))
    }
}

/// The object keys of `read` (the console's reading, written back) that `sent`
/// lacks, by their path.
fn left_out(read: &Value, sent: &Value, at: String, missing: &mut Vec<String>) {
    match (read, sent) {
        (Value::Object(read), Value::Object(sent)) => {
            for (key, value) in read {
                let path = if at.is_empty() {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                match sent.get(key) {
                    Some(sent) => left_out(value, sent, path, missing),
                    None if value.is_null() => {}
                    None => missing.push(path),
                }
            }
        }
        (Value::Array(read), Value::Array(sent)) => {
            for (i, (read, sent)) in read.iter().zip(sent).enumerate() {
                left_out(read, sent, format!("{at}[{i}]"), missing);
            }
        }
        _ => {}
    }
}
