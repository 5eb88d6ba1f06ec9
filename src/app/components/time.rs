//! Times as people read them: the browser writes them, in the person's own
//! locale and zone, so none of the calendar, zone or locale rules are the
//! console's code (the cluster list, on the first page, shows them too).
//!
//! "How long ago" moves on the console's one shared tick, the shell's
//! [`Refresh`], which also paces the lists' refresh: the moment is read again
//! at each tick (a throttled background tab or a machine waking from sleep
//! still reads right), so every relative time on a page moves together.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::app::context::Refresh;
use crate::rules::times;

#[wasm_bindgen]
extern "C" {
    /// A JavaScript `Date`, written in local time.
    #[wasm_bindgen(js_name = Date)]
    type Moment;

    #[wasm_bindgen(constructor, js_class = "Date")]
    fn new(ms: f64) -> Moment;

    /// `toISOString`: `2026-05-04T09:12:00.000Z`; it throws for a moment out of range.
    #[wasm_bindgen(method, catch, js_class = "Date", js_name = toISOString)]
    fn to_iso_string(this: &Moment) -> Result<String, JsValue>;

    /// `toLocaleString` with `undefined` for the browser's own locale
    /// (js-sys's binding takes one locale, as a string).
    #[wasm_bindgen(method, js_class = "Date", js_name = toLocaleString)]
    fn to_locale_string(this: &Moment, locales: &JsValue, options: &JsValue) -> js_sys::JsString;
}

/// The local time as the browser writes it, to the minute with the zone's
/// name: `4 May 2026, 11:12 CEST` (en-GB), `May 4, 2026, 11:12 AM GMT+2` (en-US).
const LOCAL: [(&str, &str); 6] = [
    ("day", "numeric"),
    ("month", "short"),
    ("year", "numeric"),
    ("hour", "2-digit"),
    ("minute", "2-digit"),
    ("timeZoneName", "short"),
];

/// An API timestamp as the browser writes it in local time: when it is (ms
/// since the epoch) and the text; `None` when it is not a time. The cluster
/// list shows this text alone (the first page keeps its code small); other
/// pages show [`Time`].
pub fn local_time(at: &str) -> Option<(f64, String)> {
    let ms = times::parse_rfc3339_ms(at)?;
    let options = js_sys::Object::new();
    for (name, value) in LOCAL {
        let _ = js_sys::Reflect::set(&options, &name.into(), &value.into());
    }
    Some((
        ms,
        Moment::new(ms)
            .to_locale_string(&JsValue::UNDEFINED, &options)
            .into(),
    ))
}

/// A moment (ms since the epoch) in UTC to the second, as the browser writes
/// it: `2026-05-04 09:12:00 UTC`, the one way the console writes a UTC time
/// (the first page shows it on hover and carries no calendar code for it);
/// empty when out of range.
pub fn utc_time(ms: f64) -> String {
    let Ok(iso) = Moment::new(ms).to_iso_string() else {
        return String::new();
    };
    match (iso.get(..10), iso.get(11..19)) {
        (Some(date), Some(time)) => format!("{date} {time} UTC"),
        _ => iso,
    }
}

/// A timestamp from the API: `4 May 2026, 11:12 CEST · 3 min ago`, the UTC time
/// to the second on hover, the machine-readable time in `datetime`. A value that
/// is not a time is shown as it came.
#[component]
pub fn Time(#[prop(into)] at: String) -> impl IntoView {
    let Some((ms, local)) = local_time(&at) else {
        return view! { <span>{at}</span> }.into_any();
    };
    let utc = utc_time(ms);
    // Outside the shell (no tick) it is read once.
    let tick = use_context::<Refresh>();
    let ago = move || {
        if let Some(Refresh(tick)) = tick {
            tick.track();
        }
        times::relative(js_sys::Date::now() as i64, ms as i64)
    };
    view! {
        <time datetime=at title=utc>
            {local}
            <span class="muted">" \u{b7} " {ago}</span>
        </time>
    }
    .into_any()
}
