//! Who can reach a cluster's Kubernetes API and its shared ingress, read from its
//! VPC's firewall rules, in words.
//!
//! The facts (digest §8.3, and the simulator's `world/network.rs`, which follows them):
//! the platform keeps a 12-address block at the top of the VPC subnet; the
//! Kubernetes API VIP is the second-to-last usable address (the last is reserved)
//! and the shared ingress VIP is the first address of the block. NKS creates no
//! firewall rules: reaching the API needs TCP 443 to the API VIP, ingress TCP 80
//! and 443 to the ingress VIP, each allowed by a rule of the VPC. Intra-cluster
//! traffic and ICMP are allowed without rules.
//!
//! The trap this module exists for: a console that says "reachable" because some
//! rule names port 443 is wrong when that rule is UDP, points at another address,
//! or is still being created. Every part of a rule is checked, and a rule not yet
//! in force is named apart, never counted.

use std::fmt;
use std::net::Ipv4Addr;

use crate::api::types::{FirewallRule, Protocol, ResourceStatus};

/// An IPv4 network: `base/prefix`, host bits zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    base: u32,
    prefix: u8,
}

/// What a person is shown as an example of a source range.
pub const EXAMPLE_SOURCE: &str = "203.0.113.0/24";

fn mask(prefix: u8) -> u32 {
    if prefix == 0 {
        0
    } else {
        u32::MAX << (32 - u32::from(prefix))
    }
}

/// A dotted IPv4 address (`10.20.0.253`), as a number.
pub fn parse_address(text: &str) -> Option<u32> {
    text.trim().parse::<Ipv4Addr>().ok().map(u32::from)
}

/// A number as a dotted IPv4 address.
pub fn format_address(addr: u32) -> String {
    Ipv4Addr::from(addr).to_string()
}

/// A prefix length as the API writes it: digits, no sign, no leading zero, 0–32.
fn parse_prefix(text: &str) -> Option<u8> {
    let digits = !text.is_empty() && text.len() <= 2 && text.bytes().all(|b| b.is_ascii_digit());
    let canonical = text == "0" || !text.starts_with('0');
    (digits && canonical)
        .then(|| text.parse::<u8>().ok())
        .flatten()
        .filter(|p| *p <= 32)
}

impl Cidr {
    /// One address, as `/32`.
    pub fn host(addr: u32) -> Cidr {
        Cidr {
            base: addr,
            prefix: 32,
        }
    }

    /// What a person typed, held to what the API accepts (SDK doc comments:
    /// network-aligned canonical form; `0.0.0.0` only as `0.0.0.0/0`). The error
    /// says what to write instead, with the person's own address where it can.
    pub fn parse(raw: &str) -> Result<Cidr, String> {
        let text = raw.trim();
        if text.is_empty() {
            return Err(format!(
                "Required: an IPv4 range in CIDR form, such as {EXAMPLE_SOURCE}."
            ));
        }
        let Some((addr, prefix)) = text.split_once('/') else {
            return Err(match parse_address(text) {
                // 0.0.0.0 is no one address the API accepts: only 0.0.0.0/0 (anywhere).
                Some(0) => format!(
                    "0.0.0.0 is not one address: 0.0.0.0/0 means anywhere (the whole internet). Or write a range such as {EXAMPLE_SOURCE}."
                ),
                Some(_) => format!(
                    "Add the prefix length: {text}/32 for this one address, or a range such as {EXAMPLE_SOURCE}."
                ),
                None => format!(
                    "Not an IPv4 range: write it in CIDR form, such as {EXAMPLE_SOURCE}."
                ),
            });
        };
        let (Some(addr), Some(prefix)) = (parse_address(addr), parse_prefix(prefix)) else {
            return Err(format!(
                "Not an IPv4 range: write it as address/prefix length (0–32), such as {EXAMPLE_SOURCE}."
            ));
        };
        let base = addr & mask(prefix);
        if base != addr {
            let aligned = Cidr { base, prefix };
            // Never suggest what is then refused: 0.0.0.0 takes /0 only.
            return Err(if base == 0 {
                format!(
                    "Not network-aligned: write {}/32 for the one address, or a range such as {EXAMPLE_SOURCE}.",
                    format_address(addr)
                )
            } else {
                format!(
                    "Not network-aligned: the range containing {} is {aligned}; write that, or {}/32 for the one address.",
                    format_address(addr),
                    format_address(addr)
                )
            });
        }
        if base == 0 && prefix != 0 {
            return Err("0.0.0.0 takes the prefix /0 (0.0.0.0/0, anywhere).".into());
        }
        Ok(Cidr { base, prefix })
    }

    /// What the API sent, read tolerantly: a bare address is one address, host
    /// bits are dropped. `None` when it is not an IPv4 range at all.
    pub fn read(text: &str) -> Option<Cidr> {
        let text = text.trim();
        match text.split_once('/') {
            None => parse_address(text).map(Cidr::host),
            Some((addr, prefix)) => {
                let prefix = prefix.trim().parse::<u8>().ok().filter(|p| *p <= 32)?;
                Some(Cidr {
                    base: parse_address(addr)? & mask(prefix),
                    prefix,
                })
            }
        }
    }

    pub fn first(self) -> u32 {
        self.base
    }

    /// The last address of the range (the broadcast address of a subnet).
    pub fn last(self) -> u32 {
        self.base | !mask(self.prefix)
    }

    pub fn prefix(self) -> u8 {
        self.prefix
    }

    pub fn contains(self, addr: u32) -> bool {
        addr & mask(self.prefix) == self.base
    }

    /// Whether every address of `other` lies in this range.
    pub fn covers(self, other: Cidr) -> bool {
        other.prefix >= self.prefix && self.contains(other.base)
    }

    /// `0.0.0.0/0`: every address, the whole internet.
    pub fn is_everywhere(self) -> bool {
        self.prefix == 0
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", Ipv4Addr::from(self.base), self.prefix)
    }
}

/// A destination port or inclusive range, as a rule's `destination_ports` item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortRange {
    pub low: u16,
    pub high: u16,
}

impl PortRange {
    /// `443` or `8000-8080`, each port 1–65535, low ≤ high.
    pub fn parse(text: &str) -> Result<PortRange, String> {
        let text = text.trim();
        let port = |s: &str| -> Option<u16> {
            let s = s.trim();
            (!s.is_empty() && s.len() <= 5 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u16>().ok())
                .flatten()
                .filter(|p| *p >= 1)
        };
        let bad = || {
            format!("{text:?} is not a port: use a number 1–65535 or a range such as 8000-8080.")
        };
        match text.split_once('-') {
            None => port(text)
                .map(|p| PortRange { low: p, high: p })
                .ok_or_else(bad),
            Some((lo, hi)) => match (port(lo), port(hi)) {
                (Some(low), Some(high)) if low <= high => Ok(PortRange { low, high }),
                (Some(low), Some(high)) => {
                    Err(format!("{text:?} runs backwards: write {high}-{low}."))
                }
                _ => Err(bad()),
            },
        }
    }

    pub fn covers(self, port: u16) -> bool {
        (self.low..=self.high).contains(&port)
    }
}

/// A typed list of ports (`80, 443` or `8000-8080`), as the rule's
/// `destination_ports`, each written as the API writes it.
pub fn ports(raw: &str) -> Result<Vec<String>, String> {
    let items: Vec<&str> = raw
        .split([',', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if items.is_empty() {
        return Err(
            "Required: at least one port, such as 443, or a range such as 8000-8080.".into(),
        );
    }
    // Every bad item is told at once, one per line, not the first alone.
    let (written, bad): (Vec<_>, Vec<_>) = items
        .into_iter()
        .map(|item| {
            PortRange::parse(item).map(|r| {
                if r.low == r.high {
                    r.low.to_string()
                } else {
                    format!("{}-{}", r.low, r.high)
                }
            })
        })
        .partition(Result::is_ok);
    if bad.is_empty() {
        Ok(written.into_iter().flatten().collect())
    } else {
        Err(bad
            .into_iter()
            .filter_map(Result::err)
            .collect::<Vec<_>>()
            .join("\n"))
    }
}

/// The two addresses the platform keeps at the top of a VPC subnet for NKS.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vips {
    /// The Kubernetes API: the second-to-last usable address.
    pub api: u32,
    /// The shared ingress: the first address of the 12-address block.
    pub ingress: u32,
}

/// The VIPs of the subnet `cidr`; `None` when it is unreadable or too small to
/// hold the 12-address block (smaller than a /28).
pub fn vips(cidr: &str) -> Option<Vips> {
    let subnet = Cidr::read(cidr)?;
    if subnet.prefix > 28 {
        return None;
    }
    // The last address is the broadcast; the 12 below it are the block, whose
    // top one is reserved, so the API VIP is two below the broadcast.
    let broadcast = subnet.last();
    Some(Vips {
        api: broadcast - 2,
        ingress: broadcast - 12,
    })
}

/// The cluster's API VIP: its `private_ip` once assigned (the API's own word,
/// which the simulator sets to the VIP), else the one the subnet implies.
pub fn api_vip(private_ip: Option<&str>, subnet_cidr: &str) -> Option<u32> {
    private_ip
        .and_then(parse_address)
        .or_else(|| vips(subnet_cidr).map(|v| v.api))
}

/// What a rule's status means for the traffic it allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleState {
    /// `ready`: the rule applies.
    InForce,
    /// `pending`, `creating`, `updating`: not (or not yet as shown) in force.
    NotYet,
    /// `deleting`: on its way out; do not rely on it.
    Leaving,
    /// `error`, `deleted`, or a status the console does not know.
    Off,
}

pub fn rule_state(status: &ResourceStatus) -> RuleState {
    match status {
        ResourceStatus::Ready => RuleState::InForce,
        ResourceStatus::Pending | ResourceStatus::Creating | ResourceStatus::Updating => {
            RuleState::NotYet
        }
        ResourceStatus::Deleting => RuleState::Leaving,
        _ => RuleState::Off,
    }
}

/// Whether `rule`, whatever its status, would let TCP traffic to `address` on `port` in.
fn matches(rule: &FirewallRule, address: u32, port: u16) -> bool {
    rule.protocol == Protocol::Tcp
        && Cidr::read(&rule.destination_address).is_some_and(|d| d.contains(address))
        && rule
            .destination_ports
            .iter()
            .any(|p| PortRange::parse(p).is_ok_and(|r| r.covers(port)))
}

/// One port of a target: where traffic is allowed from, and the rules that
/// would allow it but are not in force.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortReach {
    pub port: u16,
    /// Sources of rules in force, in the rules' order, each once.
    pub from: Vec<String>,
    /// `(rule name, status, source)` of matching rules not in force.
    pub waiting: Vec<(String, String, String)>,
}

/// For TCP traffic to `address` on each of `ports`: which rules let it in.
pub fn reach(address: u32, ports: &[u16], rules: &[FirewallRule]) -> Vec<PortReach> {
    ports
        .iter()
        .map(|&port| {
            let mut out = PortReach {
                port,
                ..PortReach::default()
            };
            for rule in rules.iter().filter(|r| matches(r, address, port)) {
                let source = rule.source_address.trim().to_string();
                if rule_state(&rule.status) == RuleState::InForce {
                    if !out.from.contains(&source) {
                        out.from.push(source);
                    }
                } else {
                    out.waiting
                        .push((rule.name.clone(), rule.status.as_str().to_string(), source));
                }
            }
            out
        })
        .collect()
}

/// A source as a person reads it; `0.0.0.0/0` is named for what it is.
pub fn source_words(source: &str) -> String {
    match Cidr::read(source) {
        Some(c) if c.is_everywhere() => "anywhere (0.0.0.0/0, the whole internet)".into(),
        _ => source.to_string(),
    }
}

fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn ports_words(ports: &[u16]) -> String {
    let list: Vec<String> = ports.iter().map(u16::to_string).collect();
    match list.as_slice() {
        [init @ .., last] if !init.is_empty() => format!("{} or {last}", init.join(", ")),
        _ => list.join(""),
    }
}

/// The answer for one target, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Some traffic gets through (on at least one port).
    pub reachable: bool,
    /// The sentence: "Not reachable: …", "Allowed from …", "Partly reachable: …".
    pub summary: String,
    /// Rules that would allow it but are not in force, one sentence each.
    pub waiting: Vec<String>,
}

/// Says whether TCP traffic to `address` on `ports` is allowed by any rule in
/// force, and from where.
pub fn verdict(address: u32, ports: &[u16], rules: &[FirewallRule]) -> Verdict {
    let per_port = reach(address, ports, rules);
    let at = format_address(address);
    let allowed: Vec<&PortReach> = per_port.iter().filter(|p| !p.from.is_empty()).collect();
    let same_everywhere = per_port.windows(2).all(|w| w[0].from == w[1].from);
    let summary = if allowed.is_empty() {
        format!(
            "Not reachable: no firewall rule allows TCP {} to {at}.",
            ports_words(ports)
        )
    } else if same_everywhere {
        let from: Vec<String> = per_port[0].from.iter().map(|s| source_words(s)).collect();
        format!("Allowed from {}.", and_list(&from))
    } else {
        let parts: Vec<String> = per_port
            .iter()
            .map(|p| {
                if p.from.is_empty() {
                    format!("no firewall rule allows TCP {} to {at}", p.port)
                } else {
                    let from: Vec<String> = p.from.iter().map(|s| source_words(s)).collect();
                    format!("TCP {} allowed from {}", p.port, and_list(&from))
                }
            })
            .collect();
        format!("Partly reachable: {}.", parts.join("; "))
    };
    let mut waiting = Vec::new();
    for p in &per_port {
        for (name, status, source) in &p.waiting {
            let line = format!(
                "Rule {name} ({status}) is not in force, so not counted: it would allow TCP {} from {}.",
                p.port,
                source_words(source)
            );
            if !waiting.contains(&line) {
                waiting.push(line);
            }
        }
    }
    Verdict {
        reachable: !allowed.is_empty(),
        summary,
        waiting,
    }
}

/// The rule "Allow kubectl from `source`": TCP 443 to the API VIP alone.
pub fn kubectl_rule(source: Cidr, api_vip: u32) -> crate::api::types::FirewallRuleCreate {
    let name = format!("allow-kubectl-{source}").replace(['.', '/'], "-");
    crate::api::types::FirewallRuleCreate {
        name,
        protocol: Protocol::Tcp,
        source_address: source.to_string(),
        destination_address: Cidr::host(api_vip).to_string(),
        destination_ports: vec!["443".into()],
        tags: Vec::new(),
    }
}

/// What allowing `source` to the Kubernetes API of `cluster` at `api_vip` exposes,
/// said before anything is sent when the source is the whole internet.
pub fn whole_internet_warning(cluster: &str, api_vip: u32) -> String {
    format!(
        "0.0.0.0/0 is the whole internet: the Kubernetes API of cluster {cluster} ({} on TCP 443) becomes \
         reachable from any address on the internet. Only its authentication then stands between anyone \
         and the cluster. Prefer the range your own network uses.",
        format_address(api_vip)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every range an error suggests ("write 10.0.0.0/8") is one `parse` accepts.
    #[test]
    fn a_suggestion_is_never_refused() {
        let typed = [
            "0.0.0.0",
            "0.0.0.1",
            "0.1.2.3/8",
            "0.0.0.7/24",
            "0.0.0.0/8",
            "0.0.0.0/32",
            "203.0.113.7",
            "203.0.113.7/24",
            "10.20.0.5/16",
            "255.255.255.255",
            "1.2.3.4/1",
        ];
        for text in typed {
            let Err(said) = Cidr::parse(text) else {
                continue;
            };
            let suggested: Vec<&str> = said
                .split(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == '(' || c == ')')
                .map(|w| w.trim_end_matches(['.', ':']))
                .filter(|w| w.contains('/') && w.starts_with(|c: char| c.is_ascii_digit()))
                .collect();
            for cidr in suggested {
                assert!(
                    Cidr::parse(cidr).is_ok(),
                    "{text}: suggested {cidr}, then refused it: {said}"
                );
            }
        }
    }

    fn rule(protocol: Protocol, source: &str, dest: &str, ports: &[&str]) -> FirewallRule {
        FirewallRule {
            name: "r".into(),
            protocol,
            source_address: source.into(),
            destination_address: dest.into(),
            destination_ports: ports.iter().map(|p| p.to_string()).collect(),
            status: ResourceStatus::Ready,
            ..FirewallRule::default()
        }
    }

    fn ip(text: &str) -> u32 {
        parse_address(text).expect("address")
    }

    #[test]
    fn a_canonical_cidr_is_read_and_written_back_the_same() {
        for text in [
            "203.0.113.0/24",
            "0.0.0.0/0",
            "10.20.0.253/32",
            "10.0.0.0/8",
        ] {
            assert_eq!(Cidr::parse(text).expect(text).to_string(), text);
        }
        assert_eq!(
            Cidr::parse("  203.0.113.0/24 ")
                .expect("trimmed")
                .to_string(),
            "203.0.113.0/24"
        );
    }

    #[test]
    fn a_bad_cidr_says_what_to_write_instead() {
        let aligned = Cidr::parse("203.0.113.7/24").unwrap_err();
        assert!(aligned.contains("203.0.113.0/24"), "{aligned}");
        assert!(aligned.contains("203.0.113.7/32"), "{aligned}");
        let bare = Cidr::parse("203.0.113.7").unwrap_err();
        assert!(bare.contains("203.0.113.7/32"), "{bare}");
        assert!(Cidr::parse("").unwrap_err().starts_with("Required"));
        for bad in [
            "203.0.113/24",
            "203.0.113.0/33",
            "203.0.113.0/",
            "203.0.113.0/024",
            "203.0.113.0/+4",
            "300.0.0.0/8",
            "010.0.0.0/8",
            "hello",
            "10.0.0.0/8/8",
        ] {
            assert!(Cidr::parse(bad).is_err(), "{bad} was accepted");
        }
        let zero = Cidr::parse("0.0.0.0/8").unwrap_err();
        assert!(zero.contains("0.0.0.0/0"), "{zero}");
    }

    #[test]
    fn containment_follows_the_prefix() {
        let net = Cidr::parse("10.20.0.0/24").expect("net");
        assert!(net.contains(ip("10.20.0.0")));
        assert!(net.contains(ip("10.20.0.255")));
        assert!(!net.contains(ip("10.20.1.0")));
        assert!(net.covers(Cidr::host(ip("10.20.0.253"))));
        assert!(!Cidr::host(ip("10.20.0.253")).covers(net));
        assert!(Cidr::parse("0.0.0.0/0")
            .expect("all")
            .contains(ip("255.255.255.255")));
        assert!(Cidr::parse("0.0.0.0/0").expect("all").is_everywhere());
        let host = Cidr::host(ip("10.20.0.253"));
        assert!(host.contains(ip("10.20.0.253")));
        assert!(!host.contains(ip("10.20.0.252")));
    }

    #[test]
    fn what_the_api_sends_is_read_tolerantly() {
        assert_eq!(
            Cidr::read("10.20.0.253").map(|c| c.to_string()).as_deref(),
            Some("10.20.0.253/32")
        );
        assert_eq!(
            Cidr::read("10.20.0.7/24").map(|c| c.to_string()).as_deref(),
            Some("10.20.0.0/24")
        );
        assert_eq!(Cidr::read("nonsense"), None);
    }

    #[test]
    fn port_ranges_cover_their_ends_and_nothing_beyond() {
        let r = PortRange::parse("400-443").expect("range");
        assert!(r.covers(400) && r.covers(443) && r.covers(420));
        assert!(!r.covers(399) && !r.covers(444));
        assert!(PortRange::parse("443").expect("one").covers(443));
        for bad in ["0", "65536", "443-400", "a", "-443", "1-", "4 43"] {
            assert!(PortRange::parse(bad).is_err(), "{bad} was accepted");
        }
        assert!(PortRange::parse("443-400").unwrap_err().contains("400-443"));
        assert!(PortRange::parse("1-65535").expect("all").covers(65535));
    }

    #[test]
    fn a_typed_port_list_becomes_the_api_list() {
        assert_eq!(ports("80, 443").expect("list"), vec!["80", "443"]);
        assert_eq!(ports("8000-8080").expect("range"), vec!["8000-8080"]);
        assert!(ports("  ").unwrap_err().starts_with("Required"));
        assert!(ports("80, http").is_err());
        assert_eq!(
            ports("http, 443, 90-80").unwrap_err(),
            "\"http\" is not a port: use a number 1–65535 or a range such as 8000-8080.\n\
             \"90-80\" runs backwards: write 80-90."
        );
    }

    #[test]
    fn the_vips_sit_in_the_block_at_the_top_of_the_subnet() {
        let v = vips("10.20.0.0/24").expect("vips");
        assert_eq!(format_address(v.api), "10.20.0.253");
        assert_eq!(format_address(v.ingress), "10.20.0.243");
        let big = vips("10.100.0.0/16").expect("vips");
        assert_eq!(format_address(big.api), "10.100.255.253");
        assert_eq!(format_address(big.ingress), "10.100.255.243");
        assert_eq!(vips("10.20.0.0/29"), None, "too small for the block");
        // The cluster's own private_ip wins once assigned; "" means not yet.
        assert_eq!(api_vip(Some("10.20.0.253"), "bad"), Some(ip("10.20.0.253")));
        assert_eq!(api_vip(Some(""), "10.20.0.0/24"), Some(ip("10.20.0.253")));
    }

    #[test]
    fn no_rules_means_not_reachable_naming_port_and_address() {
        let v = verdict(ip("10.20.0.253"), &[443], &[]);
        assert!(!v.reachable);
        assert_eq!(
            v.summary,
            "Not reachable: no firewall rule allows TCP 443 to 10.20.0.253."
        );
        let ingress = verdict(ip("10.20.0.243"), &[80, 443], &[]);
        assert_eq!(
            ingress.summary,
            "Not reachable: no firewall rule allows TCP 80 or 443 to 10.20.0.243."
        );
    }

    #[test]
    fn a_matching_rule_says_where_traffic_is_allowed_from() {
        let rules = [
            rule(Protocol::Tcp, "203.0.113.0/24", "10.20.0.253/32", &["443"]),
            rule(
                Protocol::Tcp,
                "198.51.100.0/24",
                "10.20.0.0/24",
                &["1-1024"],
            ),
        ];
        let v = verdict(ip("10.20.0.253"), &[443], &rules);
        assert!(v.reachable);
        assert_eq!(
            v.summary,
            "Allowed from 203.0.113.0/24 and 198.51.100.0/24."
        );
    }

    #[test]
    fn udp_other_ports_and_other_addresses_do_not_count() {
        let rules = [
            rule(Protocol::Udp, "203.0.113.0/24", "10.20.0.253/32", &["443"]),
            rule(
                Protocol::Tcp,
                "203.0.113.0/24",
                "10.20.0.253/32",
                &["444-500"],
            ),
            rule(Protocol::Tcp, "203.0.113.0/24", "10.20.0.252/32", &["443"]),
            rule(
                Protocol::Other("icmp".into()),
                "0.0.0.0/0",
                "10.20.0.0/24",
                &["443"],
            ),
        ];
        let v = verdict(ip("10.20.0.253"), &[443], &rules);
        assert!(!v.reachable, "{v:?}");
    }

    #[test]
    fn the_whole_internet_is_named_as_such() {
        let rules = [rule(Protocol::Tcp, "0.0.0.0/0", "10.20.0.0/24", &["443"])];
        let v = verdict(ip("10.20.0.253"), &[443], &rules);
        assert_eq!(
            v.summary,
            "Allowed from anywhere (0.0.0.0/0, the whole internet)."
        );
    }

    #[test]
    fn a_rule_not_in_force_is_named_but_not_counted() {
        let mut creating = rule(Protocol::Tcp, "203.0.113.0/24", "10.20.0.253/32", &["443"]);
        creating.status = ResourceStatus::Creating;
        creating.name = "allow-kubectl".into();
        let mut deleting = creating.clone();
        deleting.status = ResourceStatus::Deleting;
        deleting.name = "old".into();
        let mut error = creating.clone();
        error.status = ResourceStatus::Error;
        error.name = "broken".into();
        let v = verdict(ip("10.20.0.253"), &[443], &[creating, deleting, error]);
        assert!(!v.reachable);
        assert!(v.summary.starts_with("Not reachable"), "{}", v.summary);
        assert_eq!(v.waiting.len(), 3);
        assert!(
            v.waiting[0].contains("allow-kubectl (creating)"),
            "{:?}",
            v.waiting
        );
        assert!(v.waiting[1].contains("old (deleting)"), "{:?}", v.waiting);
        assert!(v.waiting[2].contains("broken (error)"), "{:?}", v.waiting);
    }

    #[test]
    fn ports_allowed_differently_are_told_port_by_port() {
        let rules = [rule(
            Protocol::Tcp,
            "203.0.113.0/24",
            "10.20.0.243/32",
            &["80"],
        )];
        let v = verdict(ip("10.20.0.243"), &[80, 443], &rules);
        assert!(v.reachable);
        assert_eq!(
            v.summary,
            "Partly reachable: TCP 80 allowed from 203.0.113.0/24; no firewall rule allows TCP 443 to 10.20.0.243."
        );
    }

    #[test]
    fn the_kubectl_rule_allows_443_to_the_api_vip_alone() {
        let body = kubectl_rule(
            Cidr::parse("203.0.113.0/24").expect("cidr"),
            ip("10.20.0.253"),
        );
        assert_eq!(body.name, "allow-kubectl-203-0-113-0-24");
        assert_eq!(body.protocol, Protocol::Tcp);
        assert_eq!(body.source_address, "203.0.113.0/24");
        assert_eq!(body.destination_address, "10.20.0.253/32");
        assert_eq!(body.destination_ports, vec!["443"]);
        let text = serde_json::to_string(&body).expect("json");
        assert!(!text.contains("tags"), "{text}");
    }

    #[test]
    fn the_whole_internet_warning_names_cluster_address_and_exposure() {
        let text = whole_internet_warning("edge-prod", ip("10.20.0.253"));
        assert!(
            text.contains("Kubernetes API of cluster edge-prod"),
            "{text}"
        );
        assert!(text.contains("10.20.0.253"), "{text}");
        assert!(text.contains("whole internet"), "{text}");
    }
}
