//! A long list read page by page, where a page that cannot be read leaves a
//! marked gap instead of failing the whole list (issue 23: a cluster's thousand
//! pools are ten API pages).
//!
//! The pages come through cursors, so the pages after one that failed cannot be
//! reached without its cursor: a gap is always "page N and everything after
//! it". What is known is exact: the items of the pages read, the page and
//! cursor to read again, the error, and (from `pagination.total_count`) how many
//! items the list holds, hence how many are missing. A partial list never reads
//! as the whole: every count here says "of the … read".

use crate::rules::display::{count, range_of};
use crate::rules::listing::PageOf;
use crate::rules::outcome::ApiError;

/// The page that could not be read (after the client's usual retries), with
/// the cursor that reads it again. Every page after it is unread too.
#[derive(Clone, Debug, PartialEq)]
pub struct Gap {
    /// 1-based, as a person counts pages.
    pub page: usize,
    /// The cursor that reads this page; `None` for the first page.
    pub cursor: Option<String>,
    pub error: ApiError,
}

/// Where a read starts: the first page, or a gap's page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Start {
    /// 1-based page number.
    pub page: usize,
    pub cursor: Option<String>,
}

impl Start {
    pub fn first_page() -> Self {
        Start {
            page: 1,
            cursor: None,
        }
    }
}

impl Gap {
    /// Where a retry of this gap reads from.
    pub fn from(&self) -> Start {
        Start {
            page: self.page,
            cursor: self.cursor.clone(),
        }
    }
}

/// Pages of a list, read in order from some page: their items, and the gap
/// where the reading stopped, if it did.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing<T> {
    pub items: Vec<T>,
    /// How many items the API says the list holds (`pagination.total_count`,
    /// as of the last page read); `None` when no page said.
    pub total: Option<usize>,
    /// The page that failed; `None` when every page was read.
    pub gap: Option<Gap>,
}

impl<T> Default for Listing<T> {
    fn default() -> Self {
        Listing {
            items: Vec::new(),
            total: None,
            gap: None,
        }
    }
}

/// Which pools (or other items) the gap leaves out, counted from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The first item not read.
    pub first: usize,
    /// The last, when the API said how many there are.
    pub last: Option<usize>,
}

impl<T: Clone> Listing<T> {
    /// This list, with the pages read from its gap on (`more`, a read that
    /// started at the gap's page) after its own. The total is the later read's.
    pub fn continued(&self, more: Listing<T>) -> Listing<T> {
        let mut items = Vec::with_capacity(self.items.len() + more.items.len());
        items.extend(self.items.iter().cloned());
        items.extend(more.items);
        Listing {
            items,
            total: more.total.or(self.total),
            gap: more.gap,
        }
    }
}

impl<T> Listing<T> {
    /// Every page was read.
    pub fn complete(&self) -> bool {
        self.gap.is_none()
    }

    /// Items read.
    pub fn read(&self) -> usize {
        self.items.len()
    }

    /// What the gap leaves out; `None` when there is no gap. With the API's
    /// total it is exact; a total at or below what was read (the list shrank
    /// between pages) says only where the unread part starts.
    pub fn missing(&self) -> Option<Missing> {
        self.gap.as_ref()?;
        let first = self.items.len() + 1;
        let last = self.total.filter(|&t| t >= first);
        Some(Missing { first, last })
    }

    /// How many items the gap leaves out, when known.
    pub fn missing_count(&self) -> Option<usize> {
        let m = self.missing()?;
        m.last.map(|last| last + 1 - m.first)
    }
}

/// What a new read from the first page does to the list shown.
#[derive(Clone, Debug, PartialEq)]
pub enum Settle {
    /// Show the new read (it is whole, or reaches at least as far as the one
    /// shown).
    Show,
    /// Keep the list shown, which holds more than the new read; hold the new
    /// read, whose gap a retry continues.
    Hold,
}

/// A new read of the list replaces the one shown when it is complete, or when
/// it holds at least as many items; a read that stopped partway never wipes
/// the pages already shown. With nothing shown, a read that reached no item
/// (its first page failed) is held: the page shows its error, never an empty
/// list.
pub fn settle<T>(shown: Option<&Listing<T>>, new: &Listing<T>) -> Settle {
    if new.complete() {
        return Settle::Show;
    }
    if new.items.is_empty() {
        return Settle::Hold;
    }
    match shown {
        Some(shown) if new.items.len() < shown.items.len() => Settle::Hold,
        _ => Settle::Show,
    }
}

/// A list as the page shows it: the read shown, and a newer read that stopped
/// short of it (held until its gap is read, so a refresh that failed partway
/// does not wipe what was shown).
#[derive(Clone, Debug, PartialEq)]
pub struct Shown<L> {
    pub shown: Option<L>,
    pub held: Option<L>,
}

impl<L> Default for Shown<L> {
    fn default() -> Self {
        Shown {
            shown: None,
            held: None,
        }
    }
}

impl<T, L: std::ops::Deref<Target = Listing<T>>> Shown<L> {
    /// Takes a new read (from page 1, or a gap's read continued).
    pub fn take(&mut self, new: L) {
        match settle(self.shown.as_deref(), &new) {
            Settle::Show => {
                self.shown = Some(new);
                self.held = None;
            }
            Settle::Hold => self.held = Some(new),
        }
    }

    /// The read a Retry continues: the held one, else the one shown when it has
    /// a gap. `None`: nothing to retry.
    pub fn to_retry(&self) -> Option<&L> {
        self.held
            .as_ref()
            .or(self.shown.as_ref())
            .filter(|l| l.gap.is_some())
    }
}

/// "700 of 1,000 pools read" (`noun` plural); without a total, "700 pools read,
/// more could not be".
pub fn read_of(listing_read: usize, missing: Option<Missing>, noun: &str) -> String {
    match missing {
        Some(Missing {
            last: Some(last), ..
        }) => format!("{} of {} {noun} read", count(listing_read), count(last)),
        _ => format!("{} {noun} read, more could not be", count(listing_read)),
    }
}

/// "Pools 701–1,000 could not be read." (`Noun` plural, capitalised); without
/// a total, "Pools after the first 700 could not be read."
pub fn gap_title(missing: Missing, noun: &str) -> String {
    match missing.last {
        Some(last) if last == missing.first => {
            format!("{noun} {} could not be read.", count(last))
        }
        Some(last) => format!(
            "{noun} {}\u{2013}{} could not be read.",
            count(missing.first),
            count(last)
        ),
        None if missing.first == 1 => format!("{noun} could not be read."),
        None => format!(
            "{noun} after the first {} could not be read.",
            count(missing.first - 1)
        ),
    }
}

/// "Retry reads page 8 onward." (page 1: the whole list again).
pub fn retry_says(gap: &Gap) -> String {
    if gap.page <= 1 {
        "Retry reads the list again from its first page.".to_string()
    } else {
        format!("Retry reads page {} onward.", count(gap.page))
    }
}

/// The pager's count of a list that may be partial or filtered:
/// - whole, unfiltered: `1–50 of 1,000`
/// - whole, filtered: `1–12 of 12 matching (of 1,000)`
/// - partial, unfiltered: `1–50 of the 700 read`
/// - partial, filtered: `1–12 of 12 matching among the 700 read`
///
/// (A partial list's pager also says [`read_of`]: "700 of 1,000 pools read".)
pub fn pager_count(page: &PageOf, filtered: bool, read: usize, missing: Option<Missing>) -> String {
    let rows = if page.total == 0 {
        "0".to_string()
    } else {
        format!("{}\u{2013}{}", count(page.start + 1), count(page.end))
    };
    match (missing, filtered) {
        (None, false) => range_of_or_zero(page),
        (None, true) => format!("{} matching (of {})", range_of_or_zero(page), count(read)),
        (Some(_), false) => format!("{rows} of the {} read", count(read)),
        (Some(_), true) => format!(
            "{rows} of {} matching among the {} read",
            count(page.total),
            count(read),
        ),
    }
}

fn range_of_or_zero(page: &PageOf) -> String {
    if page.total == 0 {
        "0 of 0".into()
    } else {
        range_of(page.start + 1, page.end, page.total)
    }
}

/// When a filter matches nothing: "None of the 1,000 pools match this filter.",
/// or of a partial list "None of the 700 pools read match this filter (300
/// could not be read)."
pub fn none_match(read: usize, missing: Option<Missing>, one: &str, noun: &str) -> String {
    let shown = count(read);
    match missing {
        None => crate::rules::display::none_match(read, one, noun, "this filter"),
        Some(Missing {
            first,
            last: Some(last),
        }) => format!(
            "None of the {shown} {noun} read match this filter ({} could not be read).",
            count(last + 1 - first)
        ),
        Some(_) => {
            format!("None of the {shown} {noun} read match this filter (more could not be read).")
        }
    }
}

/// The line over a list kept shown when a newer read stopped short of it:
/// "The last refresh stopped at page 8: pools 701–1,000 could not be read
/// again. The list below is the one read before; it may be out of date."
pub fn refresh_stopped<T>(held: &Listing<T>, noun: &str) -> Option<String> {
    let gap = held.gap.as_ref()?;
    let missing = held.missing()?;
    let what = gap_title(missing, noun);
    let what = what.trim_end_matches('.');
    Some(format!(
        "The last refresh stopped at page {}: {what} again. The list below is the one read before; it may be out of date.",
        count(gap.page)
    ))
}

/// Why a sum over the items is not a total: "The sum of the 700 pools read;
/// pools 701–1,000 could not be read."
pub fn partial_sum_note<T>(listing: &Listing<T>, noun: &str) -> Option<String> {
    let missing = listing.missing()?;
    Some(format!(
        "The sum of the {} {noun} read; {}",
        count(listing.read()),
        gap_title(missing, noun)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn error(status: u16) -> ApiError {
        ApiError::Status {
            call: "List pools".into(),
            status,
            message: "Service Unavailable".into(),
            retry_after_ms: None,
        }
    }

    fn gap(page: usize) -> Gap {
        Gap {
            page,
            cursor: (page > 1).then(|| format!("c{page}")),
            error: error(503),
        }
    }

    /// Items `from..to` (0-based), a total, and maybe a gap.
    fn listing(from: usize, to: usize, total: usize, gap_at: Option<usize>) -> Listing<usize> {
        Listing {
            items: (from..to).collect(),
            total: Some(total),
            gap: gap_at.map(gap),
        }
    }

    #[test]
    fn a_gap_at_page_8_of_1000_misses_pools_701_to_1000() {
        let l = listing(0, 700, 1000, Some(8));
        assert!(!l.complete());
        assert_eq!(l.read(), 700);
        assert_eq!(
            l.missing(),
            Some(Missing {
                first: 701,
                last: Some(1000)
            })
        );
        assert_eq!(l.missing_count(), Some(300));
        assert_eq!(
            read_of(700, l.missing(), "pools"),
            "700 of 1,000 pools read"
        );
        assert_eq!(
            gap_title(l.missing().unwrap(), "Pools"),
            "Pools 701\u{2013}1,000 could not be read."
        );
        assert_eq!(
            retry_says(l.gap.as_ref().unwrap()),
            "Retry reads page 8 onward."
        );
        assert_eq!(
            l.gap.as_ref().unwrap().from(),
            Start {
                page: 8,
                cursor: Some("c8".into())
            }
        );
    }

    #[test]
    fn a_whole_list_misses_nothing() {
        let l = listing(0, 1000, 1000, None);
        assert!(l.complete());
        assert_eq!(l.missing(), None);
        assert_eq!(l.missing_count(), None);
        assert_eq!(partial_sum_note(&l, "pools"), None);
    }

    #[test]
    fn without_a_total_or_with_a_shrunk_one_only_the_start_of_the_gap_is_known() {
        let mut l = listing(0, 700, 1000, Some(8));
        l.total = None;
        assert_eq!(
            l.missing(),
            Some(Missing {
                first: 701,
                last: None
            })
        );
        assert_eq!(l.missing_count(), None);
        assert_eq!(
            gap_title(l.missing().unwrap(), "Pools"),
            "Pools after the first 700 could not be read."
        );
        assert_eq!(
            read_of(700, l.missing(), "pools"),
            "700 pools read, more could not be"
        );
        // The list shrank to 650 while its pages were read: the total cannot
        // bound the gap.
        l.total = Some(650);
        assert_eq!(
            l.missing(),
            Some(Missing {
                first: 701,
                last: None
            })
        );
        // One item left out.
        let one = listing(0, 999, 1000, Some(10));
        assert_eq!(
            gap_title(one.missing().unwrap(), "Pools"),
            "Pools 1,000 could not be read."
        );
        // Nothing read at all.
        let none: Listing<usize> = Listing {
            items: vec![],
            total: None,
            gap: Some(gap(1)),
        };
        assert_eq!(
            gap_title(none.missing().unwrap(), "Pools"),
            "Pools could not be read."
        );
        assert_eq!(
            retry_says(none.gap.as_ref().unwrap()),
            "Retry reads the list again from its first page."
        );
    }

    #[test]
    fn a_retry_continues_the_pages_after_those_read() {
        let first = listing(0, 700, 1000, Some(8));
        let rest = listing(700, 1000, 1000, None);
        let whole = first.continued(rest);
        assert_eq!(whole.items, (0..1000).collect::<Vec<_>>());
        assert!(whole.complete());
        assert_eq!(whole.total, Some(1000));
        // A retry that stops again further on keeps its new gap.
        let part = listing(700, 800, 1000, Some(9));
        let longer = first.continued(part);
        assert_eq!(longer.read(), 800);
        assert_eq!(longer.gap.as_ref().map(|g| g.page), Some(9));
        assert_eq!(longer.missing_count(), Some(200));
        // A retry that read nothing keeps the pages read and the gap's page.
        let nothing: Listing<usize> = Listing {
            items: vec![],
            total: None,
            gap: Some(gap(8)),
        };
        let same = first.continued(nothing);
        assert_eq!(same.read(), 700);
        assert_eq!(
            same.total,
            Some(1000),
            "the earlier total stays when the retry read none"
        );
        assert_eq!(same.gap.as_ref().map(|g| g.page), Some(8));
    }

    #[test]
    fn a_read_that_stopped_partway_never_wipes_a_longer_one_shown() {
        let whole = listing(0, 1000, 1000, None);
        let part = listing(0, 700, 1000, Some(8));
        let empty: Listing<usize> = Listing {
            items: vec![],
            total: None,
            gap: Some(gap(1)),
        };
        assert_eq!(settle(None, &whole), Settle::Show);
        assert_eq!(settle(None, &part), Settle::Show);
        assert_eq!(
            settle(None, &empty),
            Settle::Hold,
            "a first page failed: the error, not an empty list"
        );
        assert_eq!(settle(Some(&whole), &part), Settle::Hold);
        assert_eq!(settle(Some(&whole), &empty), Settle::Hold);
        assert_eq!(settle(Some(&part), &whole), Settle::Show);
        assert_eq!(
            settle(Some(&part), &listing(0, 700, 1000, Some(8))),
            Settle::Show,
            "as far: the newer"
        );
        assert_eq!(
            settle(Some(&part), &listing(0, 400, 1000, Some(5))),
            Settle::Hold
        );
        // A read that reached nothing never shows, even over an empty list.
        let no_pools = listing(0, 0, 0, None);
        assert_eq!(settle(Some(&no_pools), &empty), Settle::Hold);
        assert_eq!(
            refresh_stopped(&part, "pools").as_deref(),
            Some("The last refresh stopped at page 8: pools 701\u{2013}1,000 could not be read again. The list below is the one read before; it may be out of date.")
        );
        assert_eq!(refresh_stopped(&whole, "pools"), None);
        // A whole read always shows, even a shorter one (pools were deleted).
        assert_eq!(
            settle(Some(&whole), &listing(0, 990, 990, None)),
            Settle::Show
        );
    }

    #[test]
    fn the_list_shown_keeps_its_pages_and_retries_the_read_held() {
        let mut s: Shown<Rc<Listing<usize>>> = Shown::default();
        assert!(s.to_retry().is_none());
        // The first page fails: nothing shown, the failed read held for Retry.
        s.take(Rc::new(Listing {
            items: vec![],
            total: None,
            gap: Some(gap(1)),
        }));
        assert!(s.shown.is_none());
        assert_eq!(
            s.to_retry().and_then(|l| l.gap.as_ref()).map(|g| g.page),
            Some(1)
        );
        // Page 8 fails: the 700 read are shown, their gap is the one to retry.
        s.take(Rc::new(listing(0, 700, 1000, Some(8))));
        assert_eq!(s.shown.as_ref().map(|l| l.read()), Some(700));
        assert!(s.held.is_none());
        assert_eq!(
            s.to_retry().and_then(|l| l.gap.as_ref()).map(|g| g.page),
            Some(8)
        );
        // Retry reads the rest: the whole list shows, nothing left to retry.
        let whole = s
            .to_retry()
            .unwrap()
            .continued(listing(700, 1000, 1000, None));
        s.take(Rc::new(whole));
        assert_eq!(s.shown.as_ref().map(|l| l.read()), Some(1000));
        assert!(s.to_retry().is_none());
        // A refresh stops at page 8: the 1,000 stay shown, the refresh is held.
        s.take(Rc::new(listing(0, 700, 1000, Some(8))));
        assert_eq!(s.shown.as_ref().map(|l| l.read()), Some(1000));
        assert_eq!(s.held.as_ref().map(|l| l.read()), Some(700));
        assert_eq!(s.to_retry().map(|l| l.read()), Some(700));
        // A later refresh that reads everything replaces both.
        s.take(Rc::new(listing(0, 1000, 1000, None)));
        assert!(s.held.is_none());
        assert!(s.to_retry().is_none());
    }

    #[test]
    fn counts_never_present_the_pages_read_as_all() {
        let whole = listing(0, 1000, 1000, None);
        let part = listing(0, 700, 1000, Some(8));
        let p = PageOf::of(1000, 1, 50);
        assert_eq!(
            pager_count(&p, false, 1000, whole.missing()),
            "1\u{2013}50 of 1,000"
        );
        assert_eq!(
            pager_count(&PageOf::of(12, 1, 50), true, 1000, whole.missing()),
            "1\u{2013}12 of 12 matching (of 1,000)"
        );
        assert_eq!(
            pager_count(&PageOf::of(700, 2, 50), false, 700, part.missing()),
            "51\u{2013}100 of the 700 read"
        );
        assert_eq!(
            pager_count(&PageOf::of(12, 1, 50), true, 700, part.missing()),
            "1\u{2013}12 of 12 matching among the 700 read"
        );
        assert_eq!(
            pager_count(&PageOf::of(0, 1, 50), true, 700, part.missing()),
            "0 of 0 matching among the 700 read"
        );
        assert_eq!(
            none_match(1000, whole.missing(), "pool", "pools"),
            "None of the 1,000 pools match this filter."
        );
        assert_eq!(
            none_match(700, part.missing(), "pool", "pools"),
            "None of the 700 pools read match this filter (300 could not be read)."
        );
        assert_eq!(
            partial_sum_note(&part, "pools").as_deref(),
            Some("The sum of the 700 pools read; pools 701\u{2013}1,000 could not be read.")
        );
    }
}
