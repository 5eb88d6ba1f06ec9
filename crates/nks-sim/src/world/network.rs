//! Addresses inside a VPC subnet.
//!
//! The platform reserves a 12-address block at the top of the subnet; the Kubernetes API VIP
//! is the second-to-last usable address (digest §8.3). Worker nodes take addresses from the
//! bottom, skipping the first ten, which clouds customarily keep for gateways and DNS.

use std::collections::BTreeSet;
use std::net::Ipv4Addr;

#[derive(Debug, Clone)]
pub struct Subnet {
    first: u32,
    last: u32,
    api_vip: u32,
    used: BTreeSet<u32>,
    hint: u32,
}

pub fn parse_cidr(cidr: &str) -> Option<(u32, u32)> {
    let (addr, prefix) = cidr.split_once('/')?;
    let addr: Ipv4Addr = addr.parse().ok()?;
    let prefix: u32 = prefix.parse().ok()?;
    if !(8..=28).contains(&prefix) {
        return None;
    }
    let mask = u32::MAX << (32 - prefix);
    let base = u32::from(addr) & mask;
    Some((base, base | !mask))
}

impl Subnet {
    pub fn new(cidr: &str) -> Option<Self> {
        let (base, broadcast) = parse_cidr(cidr)?;
        let reserved_block_start = broadcast - 12;
        Some(Self {
            first: base + 10,
            last: reserved_block_start - 1,
            api_vip: broadcast - 2,
            used: BTreeSet::new(),
            hint: base + 10,
        })
    }

    pub fn api_vip(&self) -> String {
        Ipv4Addr::from(self.api_vip).to_string()
    }

    /// The `k`-th address of the platform's 12-address block at the top of the subnet (0 is
    /// the shared ingress VIP); controllers and load balancers take theirs from here, so
    /// worker nodes keep the whole lower range.
    pub fn block_address(&self, k: u32) -> String {
        Ipv4Addr::from(self.api_vip + 2 - 12 + k.min(9)).to_string()
    }

    pub fn free(&self) -> u64 {
        u64::from(self.last - self.first + 1) - self.used.len() as u64
    }

    /// Next free address, searching upward from the last one handed out and wrapping once.
    pub fn allocate(&mut self) -> Option<u32> {
        let span = self.last - self.first + 1;
        for step in 0..span {
            let candidate = self.first + (self.hint - self.first + step) % span;
            if self.used.insert(candidate) {
                self.hint = candidate;
                return Some(candidate);
            }
        }
        None
    }

    pub fn release(&mut self, addr: u32) {
        self.used.remove(&addr);
    }
}

pub fn format_ip(addr: u32) -> String {
    Ipv4Addr::from(addr).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_vip_is_second_to_last_usable_address() {
        let s = Subnet::new("10.20.0.0/24").expect("valid");
        assert_eq!(s.api_vip(), "10.20.0.253");
        assert_eq!(s.free(), 243 - 10);
    }

    #[test]
    fn allocation_skips_used_and_wraps() {
        let mut s = Subnet::new("10.20.0.0/24").expect("valid");
        let a = s.allocate().expect("free");
        assert_eq!(format_ip(a), "10.20.0.10");
        let b = s.allocate().expect("free");
        s.release(a);
        assert_ne!(a, b);
        assert_eq!(s.free(), 243 - 10 - 1);
    }
}
