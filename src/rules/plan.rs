//! Plan before apply: what the availability check decided, what the change asks of
//! the quota, and whether Apply may be pressed.

use crate::api::types::{ClusterCreate, ClusterUpdate, PoolCreate, PoolUpdate, Quota, VpcCreate};
use crate::rules::display::signed_count;
use crate::rules::gate::Gate;
use crate::rules::outcome::ApiError;

/// Exactly the body that Apply would send, and where.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanRequest {
    CreateCluster(ClusterCreate),
    UpdateCluster {
        cluster_id: String,
        body: ClusterUpdate,
    },
    CreatePool {
        cluster_id: String,
        body: PoolCreate,
    },
    UpdatePool {
        cluster_id: String,
        pool_id: String,
        body: PoolUpdate,
    },
    /// A cluster in a VPC made for it first. The cluster's `vpc_id` is empty: the
    /// VPC has no id until its operation is done, so only the VPC's availability can
    /// be asked now; the cluster's is the platform's to decide when it is sent.
    CreateClusterWithNewVpc {
        vpc: VpcCreate,
        cluster: ClusterCreate,
    },
}

/// The verdict for Apply when a new VPC is made first: the VPC's availability,
/// its refusal told as the VPC's and its field put under `vpc.` (so "name" lands
/// beside the VPC name, not the cluster's).
pub fn new_vpc_gate(answer: &Result<(), ApiError>, vpc_name: &str) -> Gate {
    match Gate::from_availability(answer) {
        Gate::Refused { reason, field } => Gate::Refused {
            reason: format!(
                "VPC {vpc_name}: {}",
                crate::rules::forms::said(&reason, &crate::rules::forms::by_position)
            ),
            field: field.map(|f| format!("{}{f}", crate::rules::new_vpc::VPC_FIELD_PREFIX)),
        },
        other => other,
    }
}

/// What a change adds to the NKS pool quota.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuotaNeed {
    pub vcpu: i64,
    pub memory_gb: i64,
}

impl QuotaNeed {
    /// `nodes` more (or fewer, when negative) nodes of a type with `vcpu` and `memory_gb`.
    pub fn nodes(nodes: i64, vcpu: u32, memory_gb: u32) -> QuotaNeed {
        QuotaNeed {
            vcpu: nodes * i64::from(vcpu),
            memory_gb: nodes * i64::from(memory_gb),
        }
    }
}

/// One line of the quota check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotaLine {
    pub what: &'static str,
    pub needed: i64,
    pub remaining: i64,
    pub limit: i64,
}

impl QuotaLine {
    pub fn fits(&self) -> bool {
        self.needed <= self.remaining
    }

    /// The line as read: what the change needs, or what a scale-down frees
    /// (never a negative need), against what remains.
    pub fn text(&self) -> String {
        let change = match self.needed {
            n if n > 0 => format!("needs {}", signed_count(n)),
            n if n < 0 => format!("frees {}", signed_count(-n)),
            _ => "no change".to_string(),
        };
        format!(
            "{}: {change}, {} remaining of {}",
            self.what,
            signed_count(self.remaining),
            signed_count(self.limit)
        )
    }
}

/// Remaining NKS pool vCPU and memory against what the change needs.
pub fn quota_lines(quota: &Quota, need: QuotaNeed) -> Vec<QuotaLine> {
    let Some(nks) = &quota.nks else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    if let Some(q) = &nks.node_pool_vcpu {
        lines.push(QuotaLine {
            what: "vCPU",
            needed: need.vcpu,
            remaining: q.remaining,
            limit: q.limit,
        });
    }
    if let Some(q) = &nks.node_pool_memory_gb {
        lines.push(QuotaLine {
            what: "Memory (GB)",
            needed: need.memory_gb,
            remaining: q.remaining,
            limit: q.limit,
        });
    }
    lines
}

/// The whole request's monthly total, when it has more than one part (a new
/// VPC, the cluster, a first pool), as the plan's headline: which parts it adds
/// and their exact sum. Each part is its monthly total, `None` when it could
/// not be priced. A VPC or cluster without a price leaves no whole to tell; a
/// first pool without one leaves the other parts' sum, said to be without it.
pub fn headline(
    vpc: Option<Option<&str>>,
    cluster: Option<&str>,
    first_pool: Option<Option<&str>>,
) -> Option<(String, String)> {
    if vpc.is_none() && first_pool.is_none() {
        return None;
    }
    let mut names = Vec::new();
    let mut amounts = vec![];
    if let Some(vpc) = vpc {
        names.push("VPC");
        amounts.push(vpc?);
    }
    names.push("cluster");
    amounts.push(cluster?);
    let pool_unpriced = match first_pool {
        Some(Some(amount)) => {
            names.push("first pool");
            amounts.push(amount);
            false
        }
        Some(None) => true,
        None => false,
    };
    if amounts.len() == 1 && !pool_unpriced {
        return None;
    }
    let sum = crate::rules::money::sum(&amounts)?;
    let words = match names.as_slice() {
        [one] => one.to_string(),
        [first @ .., last] => format!("{} and {last}", first.join(", ")),
        [] => String::new(),
    };
    let words = if pool_unpriced {
        format!("Monthly total, {words}, without the first pool (not priced, below):")
    } else {
        format!("Monthly total, {words}:")
    };
    Some((words, sum))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_headline_adds_every_part_priced_and_says_what_it_leaves_out() {
        let h = |v, c, p| headline(v, c, p).map(|(w, s)| format!("{w} {s}"));
        // One part alone: its own total is the headline, none is added.
        assert_eq!(h(None, Some("73.00"), None), None);
        assert_eq!(
            h(None, Some("73.00"), Some(Some("60.32"))).as_deref(),
            Some("Monthly total, cluster and first pool: 133.32")
        );
        assert_eq!(
            h(Some(Some("0.00")), Some("73.00"), None).as_deref(),
            Some("Monthly total, VPC and cluster: 73.00")
        );
        assert_eq!(
            h(Some(Some("0.00")), Some("73.00"), Some(Some("60.32"))).as_deref(),
            Some("Monthly total, VPC, cluster and first pool: 133.32")
        );
        assert_eq!(
            h(None, Some("73.00"), Some(None)).as_deref(),
            Some("Monthly total, cluster, without the first pool (not priced, below): 73.00")
        );
        // A VPC or a cluster not priced: no whole to tell.
        assert_eq!(h(Some(None), Some("73.00"), Some(Some("1.00"))), None);
        assert_eq!(h(None, None, Some(Some("1.00"))), None);
    }

    use super::*;
    use crate::api::types::{NksQuota, QuotaLimit};

    fn status(code: u16, message: &str) -> ApiError {
        ApiError::Status {
            call: "Check pool availability".into(),
            status: code,
            message: message.into(),
            retry_after_ms: None,
        }
    }

    #[test]
    fn a_quota_line_says_what_is_needed_or_freed() {
        let line = |needed| QuotaLine {
            what: "vCPU",
            needed,
            remaining: 200,
            limit: 256,
        };
        assert_eq!(line(8).text(), "vCPU: needs 8, 200 remaining of 256");
        assert_eq!(line(-16).text(), "vCPU: frees 16, 200 remaining of 256");
        assert_eq!(line(0).text(), "vCPU: no change, 200 remaining of 256");
        assert!(line(-16).fits());
        let large = QuotaLine {
            what: "Memory (GB)",
            needed: -1_024,
            remaining: 3_200,
            limit: 12_800,
        };
        assert_eq!(
            large.text(),
            "Memory (GB): frees 1,024, 3,200 remaining of 12,800"
        );
    }

    #[test]
    fn a_passed_check_allows_apply() {
        assert!(Gate::from_availability(&Ok(())).allows_apply());
    }

    #[test]
    fn a_refusal_blocks_apply_and_names_its_field() {
        let gate = Gate::from_availability(&Err(status(
            422,
            "node_count: exceeds the NKS node pool vCPU quota",
        )));
        assert!(!gate.allows_apply());
        assert_eq!(
            gate,
            Gate::Refused {
                reason: "node_count: exceeds the NKS node pool vCPU quota".into(),
                field: Some("node_count".into())
            }
        );
    }

    #[test]
    fn a_check_that_could_not_be_made_keeps_apply_available_and_says_so() {
        for err in [
            status(503, "down"),
            status(429, "slow"),
            ApiError::Unreachable {
                call: "x".into(),
                detail: "y".into(),
            },
        ] {
            let gate = Gate::from_availability(&Err(err));
            assert!(matches!(gate, Gate::Unverified { .. }), "{gate:?}");
            assert!(gate.allows_apply());
        }
    }

    #[test]
    fn a_new_vpc_refusal_is_the_vpcs_and_names_the_vpc_field() {
        let gate = new_vpc_gate(
            &Err(status(
                422,
                "quota exceeded: networking.vpcs allows 10 VPCs",
            )),
            "web-vpc",
        );
        assert!(!gate.allows_apply());
        assert_eq!(
            gate,
            Gate::Refused {
                reason: "VPC web-vpc: quota exceeded: networking.vpcs allows 10 VPCs".into(),
                field: None
            }
        );
        let named = new_vpc_gate(&Err(status(422, "name: must not be empty")), "v");
        assert!(
            matches!(named, Gate::Refused { field: Some(ref f), .. } if f == "vpc.name"),
            "{named:?}"
        );
        assert_eq!(new_vpc_gate(&Ok(()), "v"), Gate::Passed);
        assert!(matches!(
            new_vpc_gate(&Err(status(503, "down")), "v"),
            Gate::Unverified { .. }
        ));
    }

    #[test]
    fn checking_blocks_apply_until_the_answer_is_in() {
        assert!(!Gate::Checking.allows_apply());
        assert!(Gate::Idle.allows_apply());
    }

    #[test]
    fn quota_lines_compare_need_with_what_remains() {
        let quota = Quota {
            region: "us-sva-2".into(),
            nks: Some(NksQuota {
                node_pool_vcpu: Some(QuotaLimit {
                    limit: 256,
                    used: 240,
                    remaining: 16,
                }),
                node_pool_memory_gb: Some(QuotaLimit {
                    limit: 1024,
                    used: 0,
                    remaining: 1024,
                }),
                ..NksQuota::default()
            }),
            ..Quota::default()
        };
        let lines = quota_lines(&quota, QuotaNeed::nodes(3, 8, 32));
        assert_eq!(lines[0].needed, 24);
        assert!(!lines[0].fits());
        assert!(lines[1].fits());
        assert!(quota_lines(&Quota::default(), QuotaNeed::default()).is_empty());
    }

    #[test]
    fn a_scale_down_frees_quota() {
        assert_eq!(
            QuotaNeed::nodes(-2, 8, 32),
            QuotaNeed {
                vcpu: -16,
                memory_gb: -64
            }
        );
    }
}
