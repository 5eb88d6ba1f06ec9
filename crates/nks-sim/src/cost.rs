//! Deterministic cost quotes (digest §3.15).
//!
//! Price table, USD per month, kept in integer ten-thousandths of a dollar so no float ever
//! touches money:
//!
//! | dimension           | display name                 | unit price |
//! |---------------------|------------------------------|-----------:|
//! | `compute_vcpu`      | vCPU (per vCPU-month)        |     8.7600 |
//! | `compute_memory_gb` | Memory (per GB-month)        |     1.1680 |
//! | `storage_abs_gb`    | ABS storage (per GB-month)   |     0.1000 |
//! | `storage_nvme_gb`   | NVMe storage (per GB-month)  |     0.1500 |
//! | `nks_control_plane` | NKS control plane (cluster)  |    73.0000 |
//! | `networking_vpc`    | VPC (per VPC-month)          |     0.0000 |
//!
//! A VPC's price is not published anywhere read (UNCONFIRMED); the simulator quotes it as one
//! free row so a plan can still show "VPC: 0.00" next to the cluster.
//!
//! Money is computed exactly, in ten-thousandths, and rounded half-up to cents once, where it
//! is written out: a row's `monthly_amount` is its quantity × unit price rounded; a total is
//! the exact sum rounded (so it may differ by a cent from the sum of the rounded rows), and
//! the organisation's run-rate after a change is the exact run-rate now plus the exact
//! change, rounded: the next quote's "now" is the same figure. `unit_price` has 4 decimals,
//! amounts and totals 2.

use serde_json::{json, Value};

use crate::model::VolumeType;
use crate::timefmt::{self, Millis};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dimension {
    ComputeVcpu,
    ComputeMemoryGb,
    StorageAbsGb,
    StorageNvmeGb,
    NksControlPlane,
    NetworkingVpc,
}

impl Dimension {
    pub fn key(self) -> &'static str {
        match self {
            Dimension::ComputeVcpu => "compute_vcpu",
            Dimension::ComputeMemoryGb => "compute_memory_gb",
            Dimension::StorageAbsGb => "storage_abs_gb",
            Dimension::StorageNvmeGb => "storage_nvme_gb",
            Dimension::NksControlPlane => "nks_control_plane",
            Dimension::NetworkingVpc => "networking_vpc",
        }
    }

    pub fn display_name(self) -> &'static str {
        match self {
            Dimension::ComputeVcpu => "vCPU (per vCPU-month)",
            Dimension::ComputeMemoryGb => "Memory (per GB-month)",
            Dimension::StorageAbsGb => "ABS storage (per GB-month)",
            Dimension::StorageNvmeGb => "NVMe storage (per GB-month)",
            Dimension::NksControlPlane => "NKS control plane (per cluster-month)",
            Dimension::NetworkingVpc => "VPC (per VPC-month)",
        }
    }

    /// Ten-thousandths of a dollar per unit-month.
    pub fn unit_price_e4(self) -> i64 {
        match self {
            Dimension::ComputeVcpu => 87_600,
            Dimension::ComputeMemoryGb => 11_680,
            Dimension::StorageAbsGb => 1_000,
            Dimension::StorageNvmeGb => 1_500,
            Dimension::NksControlPlane => 730_000,
            Dimension::NetworkingVpc => 0,
        }
    }

    pub fn storage(kind: VolumeType) -> Dimension {
        match kind {
            VolumeType::Abs => Dimension::StorageAbsGb,
            VolumeType::Nvme => Dimension::StorageNvmeGb,
        }
    }
}

/// Quantities per dimension, kept sorted in table order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Usage(Vec<(Dimension, i64)>);

impl Usage {
    pub fn add(&mut self, dim: Dimension, qty: i64) {
        match self.0.iter_mut().find(|(d, _)| *d == dim) {
            Some((_, q)) => *q = q.saturating_add(qty),
            None => {
                self.0.push((dim, qty));
                self.0.sort_by_key(|(d, _)| *d);
            }
        }
    }

    pub fn merge(&mut self, other: &Usage) {
        for (d, q) in &other.0 {
            self.add(*d, *q);
        }
    }

    pub fn quantity(&self, dim: Dimension) -> Option<i64> {
        self.0.iter().find(|(d, _)| *d == dim).map(|(_, q)| *q)
    }

    /// The exact monthly total, in ten-thousandths of a dollar.
    pub fn total_e4(&self) -> i64 {
        self.0
            .iter()
            .map(|(d, q)| q.saturating_mul(d.unit_price_e4()))
            .sum()
    }

    /// What a pool costs: its nodes' vCPU and memory plus one boot volume per node.
    pub fn for_pool(
        node_count: i64,
        vcpu: i64,
        memory_gb: i64,
        disk: VolumeType,
        size: i64,
    ) -> Usage {
        let mut u = Usage::default();
        u.add(Dimension::ComputeVcpu, node_count * vcpu);
        u.add(Dimension::ComputeMemoryGb, node_count * memory_gb);
        u.add(Dimension::storage(disk), node_count * size);
        u
    }

    pub fn vpc() -> Usage {
        let mut u = Usage::default();
        u.add(Dimension::NetworkingVpc, 1);
        u
    }

    pub fn control_plane() -> Usage {
        let mut u = Usage::default();
        u.add(Dimension::NksControlPlane, 1);
        u
    }
}

pub fn amount_cents(dim: Dimension, qty: i64) -> i64 {
    round_cents(qty.saturating_mul(dim.unit_price_e4()))
}

/// Ten-thousandths to cents, half-up on the magnitude so a negative delta rounds like its
/// positive twin. The one rounding money goes through.
pub fn round_cents(e4: i64) -> i64 {
    let cents = (e4.abs() + 50) / 100;
    if e4 < 0 {
        -cents
    } else {
        cents
    }
}

pub fn format_cents(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

pub fn format_e4(e4: i64) -> String {
    format!("{}.{:04}", e4 / 10_000, e4 % 10_000)
}

fn row(dim: Dimension, qty: i64) -> Value {
    json!({
        "dimension": dim.key(),
        "dimension_display_name": dim.display_name(),
        "quantity": qty,
        "unit_price": format_e4(dim.unit_price_e4()),
        "monthly_amount": format_cents(amount_cents(dim, qty)),
    })
}

fn side(usage: &Usage) -> Value {
    json!({
        "monthly_total": format_cents(round_cents(usage.total_e4())),
        "usage_dimensions": usage.0.iter().map(|(d, q)| row(*d, *q)).collect::<Vec<_>>(),
    })
}

/// The organisation's run-rate now and after the change. Only callers allowed to see billing
/// get these (the simulator: the documented demo key); others get the fields omitted, as the
/// real API does for keys without billing access.
#[derive(Debug, Clone, Copy)]
pub struct Summaries {
    /// Exact, in ten-thousandths of a dollar.
    pub current_e4: i64,
    pub updated_e4: i64,
}

pub const EFFECTIVE_BALANCE_CENTS: i64 = 250_000;

fn summary(monthly_e4: i64, priced_at: Millis) -> Value {
    let monthly_cents = round_cents(monthly_e4);
    let daily = round_cents(monthly_e4 / 30);
    let runway = (monthly_cents > 0)
        .then(|| format_cents((EFFECTIVE_BALANCE_CENTS * 1000 / monthly_cents + 5) / 10));
    let next_charge = (monthly_cents > 0).then(|| timefmt::format(priced_at + 86_400_000));
    json!({
        "daily_cost": format_cents(daily),
        "monthly_cost": format_cents(monthly_cents),
        "effective_balance": format_cents(EFFECTIVE_BALANCE_CENTS),
        "recharge_threshold_days": "7.00",
        "runway_months": runway,
        "estimated_next_charge_at": next_charge,
    })
}

fn add_summaries(out: &mut Value, summaries: Option<Summaries>, priced_at: Millis) {
    if let (Some(s), Some(obj)) = (summaries, out.as_object_mut()) {
        obj.insert("current_summary".into(), summary(s.current_e4, priced_at));
        obj.insert("updated_summary".into(), summary(s.updated_e4, priced_at));
    }
}

/// CostQuote for a create.
pub fn quote(usage: &Usage, priced_at: Millis, summaries: Option<Summaries>) -> Value {
    let mut out = json!({
        "currency": "USD",
        "monthly_total": format_cents(round_cents(usage.total_e4())),
        "priced_at": timefmt::format(priced_at),
        "usage_dimensions": usage.0.iter().map(|(d, q)| row(*d, *q)).collect::<Vec<_>>(),
    });
    add_summaries(&mut out, summaries, priced_at);
    out
}

/// CostQuoteUpdate: `diff` lists only the dimensions whose quantity changes.
pub fn quote_update(
    before: &Usage,
    after: &Usage,
    priced_at: Millis,
    summaries: Option<Summaries>,
) -> Value {
    let mut dims: Vec<Dimension> = before
        .0
        .iter()
        .chain(after.0.iter())
        .map(|(d, _)| *d)
        .collect();
    dims.sort();
    dims.dedup();
    let diff_rows: Vec<Value> = dims
        .into_iter()
        .filter_map(|d| {
            let b = before.quantity(d).unwrap_or(0);
            let a = after.quantity(d).unwrap_or(0);
            (a != b).then(|| {
                let (bc, ac) = (amount_cents(d, b), amount_cents(d, a));
                json!({
                    "dimension": d.key(),
                    "dimension_display_name": d.display_name(),
                    "monthly_amount_delta": format_cents(ac - bc),
                    "before": {"quantity": b, "unit_price": format_e4(d.unit_price_e4()), "monthly_amount": format_cents(bc)},
                    "after": {"quantity": a, "unit_price": format_e4(d.unit_price_e4()), "monthly_amount": format_cents(ac)},
                })
            })
        })
        .collect();
    let mut out = json!({
        "currency": "USD",
        "priced_at": timefmt::format(priced_at),
        "before": side(before),
        "after": side(after),
        "diff": {
            "monthly_total_delta": format_cents(round_cents(after.total_e4() - before.total_e4())),
            "usage_dimensions": diff_rows,
        },
    });
    add_summaries(&mut out, summaries, priced_at);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_quote_is_integer_exact() {
        // 3 × n1-standard-8 (8 vCPU, 32 GB) with 128 GB ABS each.
        let u = Usage::for_pool(3, 8, 32, VolumeType::Abs, 128);
        assert_eq!(round_cents(u.total_e4()), 21_024 + 11_213 + 3_840);
        assert_eq!(format_cents(round_cents(u.total_e4())), "360.77");
        assert_eq!(
            format_e4(Dimension::ComputeMemoryGb.unit_price_e4()),
            "1.1680"
        );
    }

    #[test]
    fn update_diff_lists_only_touched_dimensions() {
        let before = Usage::for_pool(3, 8, 32, VolumeType::Abs, 128);
        let after = Usage::for_pool(1, 8, 32, VolumeType::Abs, 128);
        let q = quote_update(&before, &after, 0, None);
        assert_eq!(
            q["diff"]["usage_dimensions"].as_array().map(Vec::len),
            Some(3)
        );
        assert_eq!(
            q["diff"]["usage_dimensions"][0]["monthly_amount_delta"],
            "-140.16"
        );
        let same = quote_update(&before, &before, 0, None);
        assert_eq!(same["diff"]["monthly_total_delta"], "0.00");
        assert_eq!(
            same["diff"]["usage_dimensions"].as_array().map(Vec::len),
            Some(0)
        );
    }
}
