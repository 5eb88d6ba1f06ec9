//! Property tests of the pure validators and parsers: what a person may type
//! (or the API may send) is accepted exactly when it is valid, a refusal always
//! says why, and no input at all makes them panic.
//!
//! Native only: proptest is a host dev-dependency.
#![cfg(not(target_arch = "wasm32"))]

use nks_console::rules::backoff::{
    parse_number, retry_delay_ms, server_delay_ms, should_retry, MAX_RETRIES,
};
use nks_console::rules::money::{self, Decimal};
use nks_console::rules::times::parse_http_date_ms;
use nks_console::rules::validation::{
    self, boot_volume_size, boot_volume_type, is_reserved_key, label, label_key, label_value,
    labels_by_line, node_count, parse_taint, split_lines, split_list, tags, taint,
    BOOT_VOLUME_MAX_GB, BOOT_VOLUME_MIN_GB, NAME_MAX, NODE_COUNT_MAX, RESERVED_LABEL_PREFIXES,
    TAINT_EFFECTS,
};
use proptest::prelude::*;

/// A refusal must say something the person can act on.
fn refused<T: std::fmt::Debug>(result: Result<T, String>) -> Result<(), TestCaseError> {
    match result {
        Ok(v) => Err(TestCaseError::fail(format!("accepted {v:?}"))),
        Err(message) => {
            prop_assert!(!message.trim().is_empty(), "empty refusal message");
            Ok(())
        }
    }
}

/// Anything a person could paste: every Unicode scalar, control characters,
/// RTL marks, combining marks, emoji, markup.
fn hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "\\PC{0,80}",
        "[<>&\"'=:/., \\t\\n\\r\\x00-\\x1f\\x7f\u{202e}\u{200f}\u{0301}😀a-zA-Z0-9._-]{0,80}",
        Just("<script>alert(1)</script>".to_string()),
        Just("<img src=x onerror=alert(1)>".to_string()),
    ]
}

/// A Kubernetes name segment: alphanumeric ends, `[A-Za-z0-9._-]` inside, ≤ 63.
fn name_segment() -> impl Strategy<Value = String> {
    "[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?"
}

/// A DNS subdomain prefix that is not reserved.
fn dns_prefix() -> impl Strategy<Value = String> {
    "[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?){0,3}"
        .prop_filter("not a reserved prefix", |p| !is_reserved_key(p))
}

fn valid_key() -> impl Strategy<Value = String> {
    (proptest::option::of(dns_prefix()), name_segment()).prop_map(|(prefix, name)| match prefix {
        Some(p) => format!("{p}/{name}"),
        None => name,
    })
}

fn valid_value() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), name_segment()]
}

// ----- names -----

proptest! {
    #[test]
    fn a_name_of_1_to_63_printable_characters_is_accepted_trimmed(
        inner in "[^\\p{Cc}\\s]([^\\p{Cc}]{0,61}[^\\p{Cc}\\s])?",
        pad_left in "[ \\t]{0,3}",
        pad_right in "[ \\t]{0,3}",
    ) {
        prop_assume!(inner.chars().count() <= NAME_MAX);
        let typed = format!("{pad_left}{inner}{pad_right}");
        prop_assert_eq!(validation::name(&typed), Ok(inner.trim().to_string()));
    }

    #[test]
    fn a_name_longer_than_63_characters_is_refused(inner in "[a-zé😀\u{05d0}]{64,120}") {
        refused(validation::name(&inner))?;
    }

    #[test]
    fn a_name_with_a_control_character_is_refused(
        head in "[a-z]{1,10}",
        control in "[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f\u{80}-\u{9f}]",
        tail in "[a-z]{1,10}",
    ) {
        refused(validation::name(&format!("{head}{control}{tail}")))?;
    }

    #[test]
    fn a_blank_name_is_refused(blank in "[ \\t\\n\\r]{0,10}") {
        refused(validation::name(&blank))?;
    }

    #[test]
    fn any_name_input_is_answered_without_panic(raw in hostile_text()) {
        match validation::name(&raw) {
            Ok(v) => {
                prop_assert!(!v.is_empty() && v.chars().count() <= NAME_MAX);
                prop_assert!(!v.chars().any(char::is_control));
            }
            Err(m) => prop_assert!(!m.is_empty()),
        }
    }
}

// ----- ranges -----

proptest! {
    #[test]
    fn node_counts_in_range_are_accepted(n in 0u32..=NODE_COUNT_MAX, pad in " {0,2}") {
        prop_assert_eq!(node_count(&format!("{pad}{n}{pad}")), Ok(n));
    }

    #[test]
    fn node_counts_out_of_range_are_refused(n in (NODE_COUNT_MAX as u64 + 1)..u64::MAX) {
        refused(node_count(&n.to_string()))?;
    }

    #[test]
    fn negative_fractional_or_huge_counts_are_refused(
        raw in prop_oneof!["-[0-9]{1,5}", "[0-9]{1,3}\\.[0-9]{1,3}", "[0-9]{21,40}", "[a-z]{1,5}", "0x[0-9a-f]{1,4}"]
    ) {
        refused(node_count(&raw))?;
        refused(boot_volume_size(&raw))?;
    }

    #[test]
    fn boot_volume_sizes_follow_their_bounds(n in 0u64..2_000) {
        let result = boot_volume_size(&n.to_string());
        if (u64::from(BOOT_VOLUME_MIN_GB)..=u64::from(BOOT_VOLUME_MAX_GB)).contains(&n) {
            prop_assert_eq!(result, Ok(n as u32));
        } else {
            refused(result)?;
        }
    }

    #[test]
    fn any_number_input_is_answered_without_panic(raw in hostile_text()) {
        match node_count(&raw) {
            Ok(n) => prop_assert!(n <= NODE_COUNT_MAX),
            Err(m) => prop_assert!(!m.is_empty()),
        }
        match boot_volume_size(&raw) {
            Ok(n) => prop_assert!((BOOT_VOLUME_MIN_GB..=BOOT_VOLUME_MAX_GB).contains(&n)),
            Err(m) => prop_assert!(!m.is_empty()),
        }
    }

    #[test]
    fn boot_volume_type_is_nvme_or_abs_in_any_case(
        which in prop_oneof![Just("nvme"), Just("abs")],
        upper in proptest::collection::vec(any::<bool>(), 4),
    ) {
        let typed: String = which
            .chars()
            .zip(upper.iter().cycle())
            .map(|(c, up)| if *up { c.to_ascii_uppercase() } else { c })
            .collect();
        prop_assert_eq!(boot_volume_type(&typed), Ok(which.to_string()));
    }

    #[test]
    fn any_other_boot_volume_type_is_refused(raw in hostile_text()) {
        let normal = raw.trim().to_ascii_lowercase();
        prop_assume!(normal != "nvme" && normal != "abs");
        refused(boot_volume_type(&raw))?;
    }
}

// ----- tags -----

proptest! {
    #[test]
    fn distinct_printable_tags_are_accepted(
        set in proptest::collection::btree_set("[a-z0-9][a-z0-9 _.:/é😀-]{0,40}[a-z0-9]", 0..8)
    ) {
        let items: Vec<String> = set.into_iter().collect();
        prop_assert_eq!(tags(&items), Ok(items.clone()));
        // Typed as one comma-separated field, they come back the same.
        prop_assert_eq!(split_list(&items.join(", ")), items);
    }

    #[test]
    fn a_tag_listed_twice_is_refused(tag in "[a-z]{1,20}", others in proptest::collection::vec("[0-9]{1,5}", 0..4)) {
        let mut items = others;
        items.push(tag.clone());
        items.push(format!(" {tag} "));
        refused(tags(&items))?;
    }

    #[test]
    fn a_tag_with_a_control_character_or_over_63_characters_is_refused(
        bad in prop_oneof!["[a-z]{1,5}[\\x00-\\x08\\x0b\\x1b\\x7f][a-z]{1,5}", "[a-z]{64,100}"]
    ) {
        refused(tags(&[bad]))?;
    }

    #[test]
    fn any_tag_list_is_answered_without_panic(items in proptest::collection::vec(hostile_text(), 0..6)) {
        match tags(&items) {
            Ok(out) => {
                for t in &out {
                    prop_assert!(!t.is_empty() && t.chars().count() <= NAME_MAX);
                    prop_assert!(!t.chars().any(char::is_control));
                }
            }
            Err(m) => prop_assert!(!m.is_empty()),
        }
        let _ = split_list(&items.join(","));
        let _ = split_lines(&items.join("\n"));
    }
}

// ----- labels, taints, reserved prefixes -----

proptest! {
    #[test]
    fn valid_labels_are_accepted_as_typed(key in valid_key(), value in valid_value(), pad in " {0,2}") {
        let typed = format!("{pad}{key}={value}{pad}");
        prop_assert_eq!(label(&typed), Ok(format!("{key}={value}")));
        prop_assert_eq!(label_key(&key), Ok(()));
        prop_assert_eq!(label_value(&value), Ok(()));
    }

    #[test]
    fn a_reserved_prefix_is_refused_and_named(
        prefix in proptest::sample::select(RESERVED_LABEL_PREFIXES.to_vec()),
        name in name_segment(),
        bare in any::<bool>(),
    ) {
        let key = if bare { prefix.to_string() } else { format!("{prefix}/{name}") };
        prop_assert!(is_reserved_key(&key));
        let message = label_key(&key).expect_err("reserved");
        prop_assert!(message.contains("reserved"), "{}", message);
        refused(label(&format!("{key}=x")))?;
        refused(taint(&key, "", "NoSchedule"))?;
    }

    #[test]
    fn a_lookalike_of_a_reserved_prefix_is_not_reserved(
        prefix in proptest::sample::select(RESERVED_LABEL_PREFIXES.to_vec()),
        tail in "[a-z0-9]{1,5}",
    ) {
        // `kubernetes.iox/…` and `sub.kubernetes.io/…` are someone else's domains.
        let glued = format!("{prefix}{tail}/app");
        let nested = format!("{tail}.{prefix}/app");
        prop_assert!(!is_reserved_key(&glued), "{}", glued);
        prop_assert!(!is_reserved_key(&nested), "{}", nested);
    }

    #[test]
    fn a_label_without_equals_or_with_a_bad_part_is_refused(
        key in valid_key(),
        bad in prop_oneof!["-[a-z]{1,5}", "[a-z]{1,5}-", "[a-z]{1,3}[ <>&!@#$%^*()+][a-z]{1,3}", "[a-z]{64,80}"],
    ) {
        refused(label(&key))?; // no '='
        refused(label(&format!("{key}={bad}")))?;
        refused(label(&format!("{bad}=v")))?;
    }

    #[test]
    fn a_label_key_listed_twice_is_refused(key in valid_key(), a in valid_value(), b in valid_value()) {
        // Blank lines between them are skipped; the refusal names the second one's line.
        let said = labels_by_line(&format!("{key}={a}\n\n{key}={b}")).unwrap_err();
        prop_assert!(said.starts_with("Line 3: "), "{}", said);
    }

    #[test]
    fn distinct_valid_labels_are_accepted_one_per_line(
        entries in proptest::collection::btree_map(valid_key(), valid_value(), 0..6)
    ) {
        let typed: Vec<String> = entries.iter().map(|(k, v)| format!("{k}={v}")).collect();
        prop_assert_eq!(labels_by_line(&typed.join("\n")), Ok(typed.clone()));
    }

    #[test]
    fn valid_taints_render_and_parse_back(
        key in valid_key(),
        value in valid_value(),
        effect in proptest::sample::select(TAINT_EFFECTS.to_vec()),
    ) {
        let rendered = taint(&key, &value, effect).expect("valid taint");
        prop_assert_eq!(&rendered, &format!("{key}={value}:{effect}"));
        prop_assert_eq!(parse_taint(&rendered), Ok((key, value, effect.to_string())));
    }

    #[test]
    fn a_taint_with_an_unknown_effect_is_refused(
        key in valid_key(),
        effect in "[A-Za-z]{0,20}",
    ) {
        prop_assume!(!TAINT_EFFECTS.contains(&effect.as_str()));
        refused(taint(&key, "", &effect))?;
        refused(parse_taint(&format!("{key}:{effect}")))?;
    }

    #[test]
    fn any_label_or_taint_input_is_answered_without_panic(
        raw in hostile_text(),
        other in hostile_text(),
        effect in hostile_text(),
    ) {
        for result in [label(&raw).map(drop), label_key(&raw), label_value(&raw), taint(&raw, &other, &effect).map(drop), parse_taint(&raw).map(drop)] {
            if let Err(m) = result {
                prop_assert!(!m.is_empty());
            }
        }
        let _ = is_reserved_key(&raw);
        if let Ok(list) = labels_by_line(&format!("{raw}\n{other}")) {
            for entry in list {
                prop_assert!(entry.contains('='));
                prop_assert!(!entry.chars().any(char::is_control));
            }
        }
    }
}

// ----- money -----

/// `units` at `scale` decimals, written as the API writes amounts.
fn decimal_text(units: i64, scale: u32) -> String {
    let digits = units.unsigned_abs().to_string();
    let scale = scale as usize;
    let padded = format!("{digits:0>width$}", width = scale + 1);
    let (int, frac) = padded.split_at(padded.len() - scale);
    let sign = if units < 0 { "-" } else { "" };
    if frac.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

proptest! {
    #[test]
    fn api_amounts_parse_and_format_keeping_every_decimal(units in any::<i64>(), scale in 0u32..6) {
        let text = decimal_text(units, scale);
        let parsed = Decimal::parse(&text);
        prop_assert!(parsed.is_some(), "{} did not parse", text);
        let parsed = parsed.unwrap_or_else(|| unreachable!());
        prop_assert_eq!(parsed.is_negative(), units < 0);
        prop_assert_eq!(parsed.is_zero(), units == 0);
        let shown = money::format(&text, "USD");
        let shown_digits: String = shown.chars().filter(char::is_ascii_digit).collect();
        let sent_digits: String = text.chars().filter(char::is_ascii_digit).collect();
        prop_assert_eq!(shown_digits.trim_start_matches('0'), sent_digits.trim_start_matches('0'));
        prop_assert!(shown.contains('$'));
        prop_assert_eq!(shown.starts_with('−'), units < 0);
    }

    #[test]
    fn the_difference_of_two_amounts_is_exact(a in -1_000_000_000i64..1_000_000_000, b in -1_000_000_000i64..1_000_000_000, sa in 0u32..5, sb in 0u32..5) {
        // Compare at a common scale: (a / 10^sa) - (b / 10^sb).
        let scale = sa.max(sb);
        let want = i128::from(a) * 10i128.pow(scale - sa) - i128::from(b) * 10i128.pow(scale - sb);
        let got = money::difference(&decimal_text(a, sa), &decimal_text(b, sb));
        let want_text = decimal_text(i64::try_from(want).unwrap_or(i64::MAX), scale);
        prop_assert_eq!(got, Some(want_text));
    }

    #[test]
    fn non_decimals_are_not_parsed_and_are_shown_as_sent(
        raw in prop_oneof!["[0-9]{1,5}[a-z,e][0-9]{1,3}", "[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]", "NaN|inf|-inf|1e5|\\.|-|\\+|", "[0-9]{31,40}"]
    ) {
        prop_assert!(Decimal::parse(&raw).is_none(), "{} parsed", raw);
        prop_assert_eq!(money::format(&raw, ""), raw.trim().to_string());
        prop_assert!(money::difference(&raw, "1").is_none());
    }

    #[test]
    fn any_amount_text_is_answered_without_panic(a in hostile_text(), b in hostile_text(), currency in hostile_text()) {
        let _ = Decimal::parse(&a);
        let _ = money::format(&a, &currency);
        let _ = money::format_delta(&a, &currency);
        let _ = money::difference(&a, &b);
    }

    // Found by this test: rescaling 30 integer digits to 29 decimals overflowed i128
    // (a panic in debug builds, a silently wrong amount in release); it is now refused.
    #[test]
    fn long_amounts_with_many_decimals_are_answered_without_panic(
        a in "-?[0-9]{1,30}", b in "-?0\\.[0-9]{1,29}",
    ) {
        // Thirty significant digits each side: a sum rescaled to the longer
        // scale must not overflow.
        let _ = money::difference(&a, &b);
        let _ = money::difference(&b, &a);
    }
}

// ----- backoff: Retry-After, Retry-After-Ms, HTTP dates -----

/// An IMF-fixdate for a whole second since the epoch, written field by field
/// from the `time` crate's calendar (not with the format the parser reads).
fn imf_fixdate(secs: i64) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp(secs).expect("a date in range");
    format!(
        "{}, {:02} {} {:04} {:02}:{:02}:{:02} GMT",
        &t.weekday().to_string()[..3],
        t.day(),
        &t.month().to_string()[..3],
        t.year(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

proptest! {
    #[test]
    fn http_dates_parse_back_to_their_instant(secs in 0i64..8_000_000_000) {
        let text = imf_fixdate(secs);
        prop_assert_eq!(parse_http_date_ms(&text), Some(secs * 1000), "{}", text);
    }

    #[test]
    fn a_retry_after_date_is_waited_from_now(now_secs in 1_000_000_000i64..3_000_000_000, ahead in 0i64..100_000) {
        let date = imf_fixdate(now_secs + ahead);
        let now_ms = (now_secs * 1000) as f64;
        prop_assert_eq!(server_delay_ms(None, Some(&date), now_ms), Some((ahead * 1000) as u64));
        // A date in the past means now, never a negative wait.
        prop_assert_eq!(server_delay_ms(None, Some(&date), now_ms + (ahead as f64 + 1.0) * 1000.0), Some(0));
    }

    #[test]
    fn retry_after_seconds_and_ms_are_honoured_and_ms_wins(secs in 0u32..100_000, ms in 0u32..10_000_000) {
        prop_assert_eq!(server_delay_ms(None, Some(&secs.to_string()), 0.0), Some(u64::from(secs) * 1000));
        prop_assert_eq!(server_delay_ms(Some(&ms.to_string()), Some(&secs.to_string()), 0.0), Some(u64::from(ms)));
    }

    #[test]
    fn retry_numbers_parse_as_the_standard_parser_does(
        sign in prop_oneof![Just(""), Just("-"), Just("+")],
        whole in "[0-9]{0,12}",
        fraction in proptest::option::of("[0-9]{0,6}"),
    ) {
        let text = format!("{sign}{whole}{}", fraction.map(|f| format!(".{f}")).unwrap_or_default());
        match (parse_number(&text), text.parse::<f64>().ok()) {
            (Some(ours), Some(std)) => prop_assert!((ours - std).abs() <= std.abs() * 1e-12, "{}: {} vs {}", text, ours, std),
            (ours, std) => prop_assert_eq!(ours, std, "{}", text),
        }
    }

    #[test]
    fn any_retry_header_is_answered_without_panic(
        ms in proptest::option::of(hostile_text()),
        after in proptest::option::of(hostile_text()),
        now in any::<f64>(),
    ) {
        let _ = server_delay_ms(ms.as_deref(), after.as_deref(), now);
        if let Some(a) = &after {
            let _ = parse_http_date_ms(a);
        }
    }

    #[test]
    fn sdk_delays_stay_between_375_ms_and_8_s(retries in any::<u32>(), jitter in any::<f64>()) {
        let d = retry_delay_ms(retries, jitter);
        prop_assert!((375..=8000).contains(&d), "{}", d);
    }

    #[test]
    fn retries_follow_the_sdk_status_set(status in 100u16..600) {
        let retried = should_retry(Some(status), None);
        prop_assert_eq!(retried, matches!(status, 408 | 409 | 429) || status >= 500);
        prop_assert!(should_retry(Some(status), Some("true")));
        prop_assert!(!should_retry(Some(status), Some("false")));
    }
}

#[test]
fn no_response_is_retried_a_bounded_number_of_times() {
    assert!(should_retry(None, None));
    assert_eq!(MAX_RETRIES, 2);
}
