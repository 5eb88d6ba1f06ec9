//! The operations timeline: one bar per operation across a window of time that
//! ends now, in lanes, so that operations that ran at the same time sit one
//! above the other and their overlap and length read at a glance.
//!
//! Positions are whole units of a picture [`WIDTH`] wide (never a float turned
//! into text): the view draws them as they are.

use crate::api::types::Operation;
use crate::rules::operation::is_terminal;
use crate::rules::times::parse_rfc3339_ms;

/// The picture's width in units.
pub const WIDTH: u32 = 1000;
/// The narrowest bar, so an operation of a second is still seen and clicked.
const MIN_BAR: u32 = 4;
/// The shortest window drawn, so a few seconds of operations do not fill it edge to edge.
const MIN_SPAN_MS: f64 = 60_000.0;

/// Where one operation is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Its place in the operations given.
    pub index: usize,
    pub lane: u32,
    pub x: u32,
    pub width: u32,
    /// It started before the window: its bar is cut at the left edge.
    pub cut: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub bars: Vec<Bar>,
    pub lanes: u32,
    pub start_ms: f64,
    pub end_ms: f64,
    /// Operations not drawn: ended before the window, or with no readable time.
    pub left_out: usize,
}

/// Lays out `ops` over at most `window_ms` before `now_ms`. The window starts at
/// the earliest operation drawn (no empty stretch before it), or `window_ms` ago
/// when one started earlier. A running operation's bar reaches now; an ended one
/// ends at its `updated_at`.
pub fn layout(ops: &[Operation], now_ms: f64, window_ms: f64) -> Layout {
    let floor = now_ms - window_ms;
    let spans: Vec<(usize, f64, f64)> = ops
        .iter()
        .enumerate()
        .filter_map(|(index, op)| {
            let start = parse_rfc3339_ms(&op.created_at)?;
            let end = if is_terminal(&op.status) {
                parse_rfc3339_ms(&op.updated_at).unwrap_or(start)
            } else {
                now_ms
            };
            (end >= floor).then_some((index, start, end.max(start).min(now_ms)))
        })
        .collect();
    let left_out = ops.len() - spans.len();
    let earliest = spans.iter().map(|s| s.1).fold(now_ms, f64::min);
    let start_ms = earliest.max(floor).min(now_ms - MIN_SPAN_MS);
    let span = now_ms - start_ms;
    let unit = |ms: f64| (((ms - start_ms) / span) * f64::from(WIDTH)).round() as u32;

    let mut order: Vec<&(usize, f64, f64)> = spans.iter().collect();
    order.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    // Each lane's right edge so far; a bar takes the first lane it fits in.
    let mut lane_ends: Vec<u32> = Vec::new();
    let mut bars = Vec::with_capacity(order.len());
    for &&(index, start, end) in &order {
        let x = unit(start.max(start_ms)).min(WIDTH - MIN_BAR);
        let width = unit(end).saturating_sub(x).max(MIN_BAR);
        let lane = match lane_ends.iter().position(|&edge| edge < x) {
            Some(free) => free,
            None => {
                lane_ends.push(0);
                lane_ends.len() - 1
            }
        };
        lane_ends[lane] = x + width;
        bars.push(Bar {
            index,
            lane: lane as u32,
            x,
            width,
            cut: start < start_ms,
        });
    }
    bars.sort_by_key(|b| b.index);
    Layout {
        bars,
        lanes: lane_ends.len() as u32,
        start_ms,
        end_ms: now_ms,
        left_out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::OperationStatus;

    const NOW: f64 = 1_780_000_000_000.0; // 2026-05-28T20:26:40Z
    const HOUR: f64 = 3_600_000.0;

    fn at(ms: f64) -> String {
        let t = time::OffsetDateTime::from_unix_timestamp((ms / 1000.0) as i64).unwrap();
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute(),
            t.second()
        )
    }

    fn op(start: f64, end: Option<f64>) -> Operation {
        Operation {
            status: if end.is_some() {
                OperationStatus::Done
            } else {
                OperationStatus::Running
            },
            created_at: at(start),
            updated_at: at(end.unwrap_or(start)),
            ..Operation::default()
        }
    }

    #[test]
    fn the_window_starts_at_the_earliest_operation_and_ends_now() {
        let ops = [op(NOW - 2.0 * HOUR, Some(NOW - HOUR)), op(NOW - HOUR, None)];
        let l = layout(&ops, NOW, 6.0 * HOUR);
        assert_eq!((l.start_ms, l.end_ms), (NOW - 2.0 * HOUR, NOW));
        assert_eq!(l.bars[0].x, 0);
        assert_eq!(l.bars[0].width, 500);
        // Running: its bar reaches now.
        assert_eq!((l.bars[1].x, l.bars[1].width), (500, 500));
        assert_eq!(l.left_out, 0);
    }

    #[test]
    fn operations_that_overlap_take_separate_lanes_and_later_ones_reuse_a_free_lane() {
        let ops = [
            op(NOW - 60.0 * 60_000.0, Some(NOW - 30.0 * 60_000.0)),
            op(NOW - 50.0 * 60_000.0, Some(NOW - 40.0 * 60_000.0)),
            op(NOW - 20.0 * 60_000.0, Some(NOW - 10.0 * 60_000.0)),
        ];
        let l = layout(&ops, NOW, 6.0 * HOUR);
        let lanes: Vec<u32> = l.bars.iter().map(|b| b.lane).collect();
        assert_eq!(lanes, [0, 1, 0]);
        assert_eq!(l.lanes, 2);
    }

    #[test]
    fn an_operation_before_the_window_is_left_out_and_one_across_its_edge_is_cut() {
        let ops = [
            op(NOW - 9.0 * HOUR, Some(NOW - 8.0 * HOUR)),
            op(NOW - 7.0 * HOUR, Some(NOW - 3.0 * HOUR)),
            op(NOW, Some(NOW)),
        ];
        let l = layout(&ops, NOW, 6.0 * HOUR);
        assert_eq!(l.left_out, 1);
        assert_eq!(l.start_ms, NOW - 6.0 * HOUR);
        assert_eq!(l.bars.len(), 2);
        assert_eq!(l.bars[0].index, 1);
        assert!(l.bars[0].cut);
        assert_eq!((l.bars[0].x, l.bars[0].width), (0, 500));
        // A moment's operation is still a bar one can see, inside the picture.
        assert_eq!(l.bars[1].width, MIN_BAR);
        assert!(l.bars[1].x + l.bars[1].width <= WIDTH);
        assert!(!l.bars[1].cut);
    }

    #[test]
    fn unreadable_times_are_left_out_and_a_short_window_is_widened() {
        let mut broken = op(NOW - 1_000.0, None);
        broken.created_at = "yesterday".into();
        let ops = [broken, op(NOW - 5_000.0, Some(NOW - 2_000.0))];
        let l = layout(&ops, NOW, 6.0 * HOUR);
        assert_eq!(l.left_out, 1);
        assert_eq!(l.start_ms, NOW - MIN_SPAN_MS);
        assert_eq!(l.bars[0].index, 1);
        assert_eq!(l.bars[0].x, 917);
    }

    #[test]
    fn no_operations_draw_nothing() {
        let l = layout(&[], NOW, 6.0 * HOUR);
        assert_eq!((l.bars.len(), l.lanes, l.left_out), (0, 0, 0));
    }
}
