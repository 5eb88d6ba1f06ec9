//! Times as people read them, on one clock for the whole console.
//!
//! [`Clock`] is the console's only clock: the shell's one interval (which also
//! paces the lists' refresh) advances it every second for elapsed times
//! (`tick`), and moves `now` once
//! [`RELATIVE_EVERY_MS`] have passed, for relative times ("3 min ago"), so a page
//! of timestamps is redrawn twice a minute, not every second. Time is read at
//! each tick, not counted in ticks: a background tab's throttled timer, or a
//! machine waking from sleep, still shows the right "ago". [`Time`] shows every
//! timestamp: local time with the zone, how long ago, and UTC on hover. The
//! wording is src/rules/times.rs's.

use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::rules::times;

/// How long `now` stays put between two moves.
const RELATIVE_EVERY_MS: u64 = 30_000;

/// The console's clock, in context: whole ms since the epoch (integers: the
/// signal machinery for them is already in the first load, for `Refresh`).
#[derive(Clone, Copy)]
pub struct Clock {
    /// Moves every second, for elapsed times ("3 min 05 s").
    pub tick: RwSignal<u64>,
    /// Moves every 30 s, for relative times ("3 min ago").
    pub now: RwSignal<u64>,
}

impl Clock {
    /// How often the shell calls [`Clock::advance`].
    pub const TICK_MS: u64 = 1_000;

    /// The clock, provided for the owner (the shell); it moves as the shell
    /// advances it.
    pub fn provide() -> Self {
        let start = js_sys::Date::now() as u64;
        let clock = Clock {
            tick: RwSignal::new(start),
            now: RwSignal::new(start),
        };
        provide_context(clock);
        clock
    }

    /// The time is `at` (ms since the epoch): `tick` follows it, `now` when
    /// 30 s have passed, or at once when the machine's clock went back.
    pub fn advance(&self, at: u64) {
        self.tick.update(|t| *t = at);
        let before = self.now.get_untracked();
        if at < before || at - before >= RELATIVE_EVERY_MS {
            self.now.update(|t| *t = at);
        }
    }

    /// The console's clock, when the shell runs one.
    pub fn get() -> Option<Self> {
        use_context::<Clock>()
    }
}

/// A timestamp from the API: `5 Dec 2026, 10:42 CET · 3 min ago`, the UTC time
/// to the second on hover, the machine-readable time in `datetime`. A value that
/// is not a time is shown as it came.
#[component]
pub fn Time(#[prop(into)] at: String) -> impl IntoView {
    let Some(ms) = times::parse_rfc3339_epoch_ms(&at) else {
        return view! { <span>{at}</span> }.into_any();
    };
    let (offset, zone) = local_zone(ms);
    // Outside the shell (no clock) the moment itself stands for "now".
    let now = Clock::get().map(|clock| clock.now);
    let ago = move || {
        let now = now.map_or(ms, |now| now.get() as i64);
        format!(" \u{b7} {}", times::relative(now, ms))
    };
    view! {
        <time class="time" datetime=at title=times::utc_text(ms)>
            {times::local_text(ms, offset, &zone)}
            <span class="muted">{ago}</span>
        </time>
    }
    .into_any()
}

/// The browser's offset from UTC (minutes east) and zone name (`CET`) at `ms`:
/// both change with daylight saving time, so they are asked per moment.
fn local_zone(ms: i64) -> (i32, String) {
    // One formatter for the page's life: made on first use, kept after.
    thread_local! {
        static ZONE_NAMES: std::cell::OnceCell<js_sys::Intl::DateTimeFormat> =
            const { std::cell::OnceCell::new() };
    }
    let date = js_sys::Date::new(&JsValue::from_f64(ms as f64));
    let offset = -(date.get_timezone_offset() as i32);
    let zone = ZONE_NAMES.with(|names| {
        let names = names.get_or_init(|| {
            let options = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&options, &"timeZoneName".into(), &"short".into());
            js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &options)
        });
        names
            .format_to_parts(&date)
            .iter()
            .find(|part| field(part, "type").as_deref() == Some("timeZoneName"))
            .and_then(|part| field(&part, "value"))
            .unwrap_or_default()
    });
    (offset, zone)
}

fn field(object: &JsValue, name: &str) -> Option<String> {
    js_sys::Reflect::get(object, &name.into())
        .ok()
        .and_then(|v| v.as_string())
}
