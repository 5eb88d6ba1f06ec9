//! What a cluster or a pool holds: nodes, vCPU and memory, summed from its
//! pools and their instance types. A figure is exact, a floor while pages are
//! still being read ("≥ 48"), or unreadable with the reason ("—"): a pool whose
//! instance type is not known is never counted as zero.

use crate::api::types::{InstanceSize, Node, ResourceStatus};
use crate::rules::display;

/// The sums over the pools read so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    pub pools: u64,
    pub nodes: u64,
    pub vcpu: u64,
    pub memory_gb: u64,
    /// Instance types of pools read that are not in the instance type list:
    /// vCPU and memory cannot be summed.
    pub unknown_types: Vec<String>,
    /// Every page of the pool list has been read.
    pub complete: bool,
}

/// A figure as shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Figure {
    Exact(String),
    /// At least this much: more pools are still being read.
    AtLeast(String),
    /// Cannot be read, and why.
    Unreadable(String),
    /// At least this much: the sum of the part of a list that could be read,
    /// and why it is not the total (a page of the list could not be read).
    Partial(String, String),
}

impl Figure {
    /// The text in the cell: `48`, `≥ 48`, `—`.
    pub fn text(&self) -> String {
        match self {
            Figure::Exact(t) => t.clone(),
            Figure::AtLeast(t) | Figure::Partial(t, _) => format!("≥ {t}"),
            Figure::Unreadable(_) => "—".to_string(),
        }
    }

    /// What the figure means when the text alone does not say it.
    pub fn note(&self) -> Option<String> {
        match self {
            Figure::Exact(_) => None,
            Figure::AtLeast(_) => Some("At least: the pools are still being read".to_string()),
            Figure::Unreadable(why) | Figure::Partial(_, why) => Some(why.clone()),
        }
    }
}

/// The instance type a pool names, in the pool's region when the type says one.
pub fn instance_type<'a>(
    types: &'a [InstanceSize],
    region: &str,
    name: &str,
) -> Option<&'a InstanceSize> {
    types.iter().find(|t| {
        t.name == name && (t.region.is_empty() || region.is_empty() || t.region == region)
    })
}

/// What a pool is, for its sums: its instance type and node count.
pub type PoolOf<'a> = (&'a str, u32);

/// A pool's vCPU and memory (all its nodes), when its instance type is known.
pub fn pool_size(
    (instance, count): PoolOf,
    types: &[InstanceSize],
    region: &str,
) -> Option<(u64, u64)> {
    let t = instance_type(types, region, instance)?;
    let n = u64::from(count);
    Some((n * u64::from(t.vcpu), n * u64::from(t.memory_gb)))
}

impl Footprint {
    /// Adds one page of pools.
    pub fn add<'a>(
        &mut self,
        pools: impl IntoIterator<Item = PoolOf<'a>>,
        types: &[InstanceSize],
        region: &str,
    ) {
        for pool in pools {
            self.pools += 1;
            self.nodes += u64::from(pool.1);
            match pool_size(pool, types, region) {
                Some((vcpu, memory)) => {
                    self.vcpu += vcpu;
                    self.memory_gb += memory;
                }
                None => {
                    let name = pool.0.to_string();
                    if !self.unknown_types.contains(&name) {
                        self.unknown_types.push(name);
                    }
                }
            }
        }
    }

    /// The sums over every pool.
    pub fn of<'a>(
        pools: impl IntoIterator<Item = PoolOf<'a>>,
        types: &[InstanceSize],
        region: &str,
    ) -> Footprint {
        let mut f = Footprint {
            complete: true,
            ..Footprint::default()
        };
        f.add(pools, types, region);
        f
    }

    fn figure(&self, value: u64, unit: &str, needs_types: bool) -> Figure {
        if needs_types && !self.unknown_types.is_empty() {
            let names = self.unknown_types.join(", ");
            let noun = if self.unknown_types.len() == 1 {
                "instance type"
            } else {
                "instance types"
            };
            return Figure::Unreadable(format!("Unknown {noun} {names}: its size is not listed"));
        }
        let text = format!("{}{unit}", display::count(value as usize));
        if self.complete {
            Figure::Exact(text)
        } else {
            Figure::AtLeast(text)
        }
    }

    pub fn nodes_figure(&self) -> Figure {
        self.figure(self.nodes, "", false)
    }

    pub fn vcpu_figure(&self) -> Figure {
        self.figure(self.vcpu, "", true)
    }

    pub fn memory_figure(&self) -> Figure {
        self.figure(self.memory_gb, " GB", true)
    }
}

impl Figure {
    /// This figure as a sum over part of a list (`why` says which part): never
    /// shown as the total. A figure that cannot be read stays so.
    pub fn of_part(self, why: Option<&str>) -> Figure {
        match (self, why) {
            (Figure::Exact(t) | Figure::AtLeast(t), Some(why)) => {
                Figure::Partial(t, why.to_string())
            }
            (figure, _) => figure,
        }
    }
}

/// `part` of `whole` as a whole percentage, rounded half up, in integers:
/// `25%`, `<1%` for a small but real part, `—` when the whole is zero.
pub fn share(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "—".to_string();
    }
    let percent = (part * 200 + whole) / (whole * 2);
    if percent == 0 && part > 0 {
        "<1%".to_string()
    } else {
        format!("{percent}%")
    }
}

/// How many of the nodes are ready, of how many: `3 of 4 ready`.
pub fn readiness(nodes: &[Node]) -> String {
    let ready = nodes
        .iter()
        .filter(|n| n.status == ResourceStatus::Ready)
        .count();
    format!(
        "{} of {} ready",
        display::count(ready),
        display::count(nodes.len())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    fn t(name: &str, region: &str, vcpu: u32, memory_gb: u32) -> InstanceSize {
        InstanceSize {
            name: name.into(),
            region: region.into(),
            vcpu,
            memory_gb,
        }
    }

    fn pool(instance: &str, n: u32) -> PoolOf<'_> {
        (instance, n)
    }

    fn types() -> Vec<InstanceSize> {
        vec![
            t("n1-standard-8", "us-sva-2", 8, 32),
            t("n1-standard-4", "us-sva-2", 4, 16),
            t("n1-standard-4", "eu-fra-1", 6, 24),
        ]
    }

    #[test]
    fn sums_nodes_vcpu_and_memory_over_the_pools() {
        let f = Footprint::of(
            [
                pool("n1-standard-8", 3),
                pool("n1-standard-4", 2),
                pool("n1-standard-4", 0),
            ],
            &types(),
            "us-sva-2",
        );
        assert_eq!((f.pools, f.nodes, f.vcpu, f.memory_gb), (3, 5, 32, 128));
        assert_eq!(f.nodes_figure(), Figure::Exact("5".into()));
        assert_eq!(f.vcpu_figure().text(), "32");
        assert_eq!(f.memory_figure().text(), "128 GB");
        assert_eq!(f.memory_figure().note(), None);
    }

    #[test]
    fn the_type_of_the_clusters_region_is_the_one_counted() {
        let f = Footprint::of([pool("n1-standard-4", 1)], &types(), "eu-fra-1");
        assert_eq!((f.vcpu, f.memory_gb), (6, 24));
    }

    #[test]
    fn an_unknown_instance_type_makes_vcpu_and_memory_unreadable_not_zero() {
        let f = Footprint::of(
            [
                pool("n1-standard-8", 1),
                pool("x9-mystery", 2),
                pool("x9-mystery", 1),
            ],
            &types(),
            "us-sva-2",
        );
        assert_eq!(f.nodes_figure().text(), "4");
        assert_eq!(f.vcpu_figure().text(), "—");
        assert_eq!(
            f.memory_figure().note().as_deref(),
            Some("Unknown instance type x9-mystery: its size is not listed")
        );
    }

    #[test]
    fn a_partial_read_is_a_floor() {
        let mut f = Footprint::default();
        f.add([pool("n1-standard-8", 1000)], &types(), "us-sva-2");
        assert_eq!(f.nodes_figure(), Figure::AtLeast("1,000".into()));
        assert_eq!(f.vcpu_figure().text(), "≥ 8,000");
        assert!(f.vcpu_figure().note().unwrap().contains("still being read"));
        f.complete = true;
        assert_eq!(f.vcpu_figure().text(), "8,000");
    }

    #[test]
    fn a_sum_over_the_pages_read_of_a_list_with_a_gap_is_never_the_total() {
        let f = Footprint::of([pool("n1-standard-8", 700)], &types(), "us-sva-2");
        let why = "The sum of the 700 pools read; pools 701–1,000 could not be read.";
        let part = f.vcpu_figure().of_part(Some(why));
        assert_eq!(part.text(), "≥ 5,600");
        assert_eq!(part.note().as_deref(), Some(why));
        assert_eq!(f.vcpu_figure().of_part(None), Figure::Exact("5,600".into()));
        let unknown = Footprint::of([pool("mystery", 1)], &types(), "us-sva-2");
        assert!(matches!(
            unknown.vcpu_figure().of_part(Some(why)),
            Figure::Unreadable(_)
        ));
    }

    #[test]
    fn shares_are_whole_percentages_in_integers() {
        assert_eq!(share(1, 4), "25%");
        assert_eq!(share(1, 3), "33%");
        assert_eq!(share(2, 3), "67%");
        assert_eq!(share(1, 200), "1%");
        assert_eq!(share(1, 1000), "<1%");
        assert_eq!(share(0, 1000), "0%");
        assert_eq!(share(5, 5), "100%");
        assert_eq!(share(0, 0), "—");
    }

    #[test]
    fn readiness_counts_ready_nodes() {
        let node = |status| Node {
            status,
            ..Node::default()
        };
        assert_eq!(
            readiness(&[
                node(ResourceStatus::Ready),
                node(ResourceStatus::Creating),
                node(ResourceStatus::Ready)
            ]),
            "2 of 3 ready"
        );
        assert_eq!(readiness(&[]), "0 of 0 ready");
    }
}
