//! Small text renderings shared by views, kept pure so they are tested on the host.

use super::times::parse_rfc3339;
use crate::api::types::Pool;

/// `2026-05-04T09:12:00Z` → `2026-05-04 09:12 UTC`: to the minute, in the offset
/// the API wrote it in, named only when it is UTC. Anything unexpected is shown
/// as it came rather than hidden.
pub fn timestamp(ts: &str) -> String {
    let Some(t) = parse_rfc3339(ts) else {
        return ts.to_string();
    };
    // The crate's fields, laid out with `format!`: its general formatter
    // (`format_description!`) costs kilobytes of first load for this one line.
    let (date, utc) = (t.date(), t.offset().is_utc());
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}{}",
        date.year(),
        u8::from(date.month()),
        date.day(),
        t.hour(),
        t.minute(),
        if utc { " UTC" } else { "" }
    )
}

/// A duration in seconds as a person reads it: `45 s`, `3 min 05 s`, `1 h 02 min`.
pub fn elapsed(secs: u64) -> String {
    match secs {
        0..=59 => format!("{secs} s"),
        60..=3599 => format!("{} min {:02} s", secs / 60, secs % 60),
        _ => format!("{} h {:02} min", secs / 3600, (secs % 3600) / 60),
    }
}

/// An on/off flag as a word.
pub fn on_off(flag: bool) -> &'static str {
    if flag {
        "on"
    } else {
        "off"
    }
}

/// Appends `text` made safe to stand in HTML markup, as element content or a
/// quoted attribute value: `&`, `<`, `>`, `"` and `'` become character references.
pub fn escape_html(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// A list of short strings (tags, labels, taints) as chips, or "none", as markup:
/// the same elements and classes as the views' `tag_list`.
pub fn chips_html(items: &[String], out: &mut String) {
    if items.is_empty() {
        out.push_str(r#"<span class="muted">none</span>"#);
        return;
    }
    out.push_str(r#"<ul class="chips">"#);
    for item in items {
        out.push_str(r#"<li class="chip">"#);
        escape_html(item, out);
        out.push_str("</li>");
    }
    out.push_str("</ul>");
}

/// The cells of one row of a cluster's pools table, as markup, with `href` the
/// pool's page. A cluster can have a thousand pools: one string per row, parsed
/// by the browser, costs a fraction of creating the row's thirty-odd nodes one
/// call at a time. Every value from the API is escaped.
pub fn pool_row_cells(pool: &Pool, href: &str) -> String {
    let mut out = String::with_capacity(512);
    out.push_str(r#"<td><a href=""#);
    escape_html(href, &mut out);
    out.push_str(r#"">"#);
    escape_html(&pool.name, &mut out);
    out.push_str("</a></td><td>");
    escape_html(&pool.node_config.instance_type, &mut out);
    out.push_str("</td><td>");
    out.push_str(&pool.node_count.to_string());
    let status = pool.status.as_str();
    out.push_str(r#"</td><td><span class="badge badge-"#);
    out.push_str(status);
    out.push_str(r#"">"#);
    out.push_str(status);
    out.push_str("</span></td><td>");
    chips_html(&pool.node_config.labels, &mut out);
    out.push_str("</td><td>");
    chips_html(&pool.node_config.taints, &mut out);
    out.push_str("</td><td>");
    chips_html(&pool.tags, &mut out);
    out.push_str("</td>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::types::{NodeConfig, ResourceStatus};

    #[test]
    fn timestamps_read_as_minutes_in_utc() {
        assert_eq!(timestamp("2026-05-04T09:12:00Z"), "2026-05-04 09:12 UTC");
        assert_eq!(
            timestamp("2026-05-04T09:12:00.123+00:00"),
            "2026-05-04 09:12 UTC"
        );
        assert_eq!(timestamp("garbage"), "garbage");
        assert_eq!(timestamp(""), "");
    }

    #[test]
    fn timestamps_keep_the_offset_they_were_written_in() {
        assert_eq!(
            timestamp("2026-05-04T11:12:59.9+02:00"),
            "2026-05-04 11:12",
            "the minute as written, not rounded, not moved to UTC"
        );
        assert_eq!(timestamp("2026-05-04T09:12:00z"), "2026-05-04 09:12 UTC");
    }

    #[test]
    fn a_timestamp_on_a_day_that_does_not_exist_is_shown_as_it_came() {
        assert_eq!(timestamp("2026-02-31T09:12:00Z"), "2026-02-31T09:12:00Z");
    }

    #[test]
    fn elapsed_reads_naturally() {
        assert_eq!(elapsed(5), "5 s");
        assert_eq!(elapsed(185), "3 min 05 s");
        assert_eq!(elapsed(3720), "1 h 02 min");
    }

    #[test]
    fn markup_escapes_everything_the_api_sends() {
        let mut out = String::new();
        escape_html(r#"<img src=x onerror="a('b')">&amp;"#, &mut out);
        assert_eq!(
            out,
            "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;amp;"
        );
    }

    #[test]
    fn pool_rows_as_markup() {
        let pool = Pool {
            id: "n1".into(),
            name: "<b>web</b>".into(),
            node_count: 3,
            status: ResourceStatus::Updating,
            node_config: NodeConfig {
                instance_type: "n1-standard-8".into(),
                labels: vec!["tier=web".into()],
                ..NodeConfig::default()
            },
            tags: vec!["a&b".into(), "c".into()],
            ..Pool::default()
        };
        assert_eq!(
            pool_row_cells(&pool, "/x/pools/n1?a=\"1\""),
            concat!(
                r#"<td><a href="/x/pools/n1?a=&quot;1&quot;">&lt;b&gt;web&lt;/b&gt;</a></td>"#,
                "<td>n1-standard-8</td><td>3</td>",
                r#"<td><span class="badge badge-updating">updating</span></td>"#,
                r#"<td><ul class="chips"><li class="chip">tier=web</li></ul></td>"#,
                r#"<td><span class="muted">none</span></td>"#,
                r#"<td><ul class="chips"><li class="chip">a&amp;b</li><li class="chip">c</li></ul></td>"#,
            )
        );
    }
}
