//! The API's input rules, mirrored so a form can say what is wrong next to the
//! field while the person types, before anything is sent.
//!
//! Each validator takes the raw text the person typed and returns either the
//! value to send or a message for the field. Nothing here panics on any input.

pub use nks_api::limits::{
    BOOT_VOLUME_MAX_GB, BOOT_VOLUME_MIN_GB, NAME_MAX, NODE_COUNT_MAX, NODE_COUNT_MIN,
    RESERVED_LABEL_PREFIXES, TAINT_EFFECTS,
};

pub type Checked<T> = Result<T, String>;

/// A resource name: required, at most 63 characters, no control characters.
pub fn name(raw: &str) -> Checked<String> {
    named(raw, "Name")
}

/// The same rule for a name the form calls something else ("VPC name",
/// "Subnet name"), so each message names its field.
pub fn named(raw: &str, what: &str) -> Checked<String> {
    let value = raw.trim();
    if value.is_empty() {
        return Err(format!("{what} is required."));
    }
    if value.chars().count() > NAME_MAX {
        return Err(format!("{what} must be at most {NAME_MAX} characters."));
    }
    if value.chars().any(char::is_control) {
        return Err(format!("{what} must not contain control characters."));
    }
    Ok(value.to_string())
}

/// What a cluster or pool name may hold, said after every problem with one.
pub const DNS_LABEL_RULE: &str =
    "Use lowercase letters, digits and '-' (at most 63), starting and ending with a letter or digit.";

/// A cluster or pool name. Node names derive from pool names, so the name must be
/// a DNS label as Kubernetes defines it: 1-63 of `[a-z0-9-]`, alphanumeric at both
/// ends. The API documents no rule (digest §5.2: UNCONFIRMED); this assumes the
/// real API enforces Kubernetes' own. The message says exactly what is wrong, then
/// what is allowed; nothing is changed silently (no lowercasing).
pub fn dns_label(raw: &str, what: &str) -> Checked<String> {
    let value = raw.trim();
    if value.is_empty() {
        return Err(format!("{what} is required."));
    }
    let mut problems: Vec<String> = Vec::new();
    let length = value.chars().count();
    if length > NAME_MAX {
        problems.push(format!("is {length} characters long"));
    }
    let mut capitals: Vec<char> = Vec::new();
    let mut others: Vec<char> = Vec::new();
    let (mut spaces, mut controls) = (false, false);
    for c in value.chars() {
        match c {
            'a'..='z' | '0'..='9' | '-' => {}
            'A'..='Z' => {
                if !capitals.contains(&c) {
                    capitals.push(c);
                }
            }
            c if c.is_whitespace() && !c.is_control() => spaces = true,
            c if c.is_control() || is_invisible(c) => controls = true,
            c => {
                if !others.contains(&c) {
                    others.push(c);
                }
            }
        }
    }
    if !capitals.is_empty() {
        problems.push(format!("has capital letters ({})", listed(&capitals, "")));
    }
    if spaces {
        problems.push("has spaces".into());
    }
    if !others.is_empty() {
        problems.push(format!("has {}", listed(&others, "\"")));
    }
    if controls {
        problems.push("has control or invisible characters".into());
    }
    if value.starts_with('-') {
        problems.push("starts with '-'".into());
    }
    if value.ends_with('-') && length > 1 {
        problems.push("ends with '-'".into());
    }
    if problems.is_empty() {
        return Ok(value.to_string());
    }
    let last = problems.pop().unwrap_or_default();
    let said = if problems.is_empty() {
        last
    } else {
        format!("{} and {last}", problems.join(", "))
    };
    Err(format!("{what} {said}. {DNS_LABEL_RULE}"))
}

/// A cluster or pool name on an edit form: a name the API already holds is kept
/// as it is, whatever it holds (old data predates the rule); a new one must be a
/// DNS label.
pub fn renamed(raw: &str, current: &str, what: &str) -> Checked<String> {
    if raw.trim() == current.trim() && !current.trim().is_empty() {
        return Ok(current.to_string());
    }
    dns_label(raw, what)
}

/// Characters that show nothing or reorder the text around them.
pub fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// Up to five distinct characters, each quoted with `quote`, then "…".
fn listed(chars: &[char], quote: &str) -> String {
    let mut shown: Vec<String> = chars
        .iter()
        .take(5)
        .map(|c| format!("{quote}{c}{quote}"))
        .collect();
    if chars.len() > 5 {
        shown.push("…".into());
    }
    shown.join(", ")
}

fn whole_number(raw: &str, what: &str, min: u32, max: u32) -> Checked<u32> {
    let value = raw.trim();
    if value.is_empty() {
        return Err(format!("{what} is required."));
    }
    match value.parse::<u64>() {
        Ok(n) if (u64::from(min)..=u64::from(max)).contains(&n) => Ok(n as u32),
        Ok(_) => Err(format!("{what} must be between {min} and {max}.")),
        Err(_) => Err(format!(
            "{what} must be a whole number between {min} and {max}."
        )),
    }
}

/// Node count: a whole number from 0 to 100.
pub fn node_count(raw: &str) -> Checked<u32> {
    whole_number(raw, "Node count", NODE_COUNT_MIN, NODE_COUNT_MAX)
}

/// Boot volume size: a whole number of GB from 64 to 512.
pub fn boot_volume_size(raw: &str) -> Checked<u32> {
    whole_number(
        raw,
        "Boot volume size",
        BOOT_VOLUME_MIN_GB,
        BOOT_VOLUME_MAX_GB,
    )
}

/// Boot volume type: `nvme` or `abs`, sent lowercase.
pub fn boot_volume_type(raw: &str) -> Checked<String> {
    match raw.trim().to_ascii_lowercase().as_str() {
        v @ ("nvme" | "abs") => Ok(v.to_string()),
        "" => Err("Boot volume type is required.".into()),
        _ => Err("Boot volume type must be nvme or abs.".into()),
    }
}

/// Tags: free text items, each non-empty, no duplicates, no control characters.
pub fn tags(items: &[String]) -> Checked<Vec<String>> {
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        let tag = item.trim();
        if tag.is_empty() {
            continue;
        }
        if tag.chars().any(char::is_control) {
            return Err(format!(
                "Tag \"{}\" contains a control character.",
                printable(tag)
            ));
        }
        if tag.chars().count() > NAME_MAX {
            return Err(format!("Tags must be at most {NAME_MAX} characters."));
        }
        if out.iter().any(|t| t == tag) {
            return Err(format!("Tag \"{tag}\" is listed twice."));
        }
        out.push(tag.to_string());
    }
    Ok(out)
}

/// Splits a comma- or newline-separated tag field into items.
pub fn split_list(raw: &str) -> Vec<String> {
    raw.split([',', '\n'])
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Splits a one-entry-per-line field into items.
pub fn split_lines(raw: &str) -> Vec<String> {
    raw.lines()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn printable(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .take(40)
        .collect()
}

/// Whether `key` falls under a reserved prefix (`kubernetes.io`, `k8s.io`,
/// `nirvanalabs.io`, exactly or followed by `/`), the digest's rule.
pub fn is_reserved_key(key: &str) -> bool {
    RESERVED_LABEL_PREFIXES.iter().any(|p| {
        key.strip_prefix(p)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

/// A Kubernetes name segment: 1–63 of `[A-Za-z0-9._-]`, alphanumeric at both ends.
fn is_name_segment(s: &str) -> bool {
    let len = s.len();
    (1..=63).contains(&len)
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && s.as_bytes().first().is_some_and(u8::is_ascii_alphanumeric)
        && s.as_bytes().last().is_some_and(u8::is_ascii_alphanumeric)
}

/// A DNS subdomain prefix: dot-separated lowercase labels, at most 253 characters.
fn is_dns_prefix(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// A label or taint key: `[prefix/]name`, as Kubernetes defines it.
pub fn label_key(key: &str) -> Checked<()> {
    if key.is_empty() {
        return Err("Key is required.".into());
    }
    if is_reserved_key(key) {
        return Err(format!(
            "Key \"{}\" uses a reserved prefix ({}).",
            printable(key),
            RESERVED_LABEL_PREFIXES.join(", ")
        ));
    }
    let (prefix, name) = match key.split_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, key),
    };
    if let Some(p) = prefix {
        if !is_dns_prefix(p) {
            return Err(format!(
                "Key prefix \"{}\" must be a DNS subdomain such as example.com.",
                printable(p)
            ));
        }
    }
    if !is_name_segment(name) {
        return Err(format!(
            "Key \"{}\" must be 1–63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit.",
            printable(key)
        ));
    }
    Ok(())
}

/// A label or taint value: empty, or a name segment.
pub fn label_value(value: &str) -> Checked<()> {
    if value.is_empty() || is_name_segment(value) {
        Ok(())
    } else {
        Err(format!(
            "Value \"{}\" must be at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit.",
            printable(value)
        ))
    }
}

/// One label as the API takes it: `key=value`.
pub fn label(raw: &str) -> Checked<String> {
    let entry = raw.trim();
    let Some((key, value)) = entry.split_once('=') else {
        return Err(format!(
            "Label \"{}\" must look like key=value.",
            printable(entry)
        ));
    };
    label_key(key)?;
    label_value(value)?;
    Ok(format!("{key}={value}"))
}

/// Labels typed one per line: each valid, no key twice, blank lines skipped.
/// Every problem is told at once, one per line of the message, each naming the
/// line it is on ("Line 3: …"), counting every line.
pub fn labels_by_line(text: &str) -> Checked<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    let mut keys: Vec<(String, usize)> = Vec::new();
    let mut problems: Vec<String> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let line = i + 1;
        let checked = match label(raw) {
            Ok(checked) => checked,
            Err(e) => {
                problems.push(format!("Line {line}: {e}"));
                continue;
            }
        };
        let key = checked
            .split_once('=')
            .map(|(k, _)| k.to_string())
            .unwrap_or_default();
        if let Some((_, first)) = keys.iter().find(|(k, _)| *k == key) {
            problems.push(format!(
                "Line {line}: label key \"{}\" is already on line {first}.",
                printable(&key)
            ));
            continue;
        }
        keys.push((key, line));
        out.push(checked);
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems.join("\n"))
    }
}

/// A taint built from its three parts: rendered `key=value:Effect`.
pub fn taint(key: &str, value: &str, effect: &str) -> Checked<String> {
    let key = key.trim();
    let value = value.trim();
    label_key(key)?;
    label_value(value)?;
    if !TAINT_EFFECTS.contains(&effect) {
        return Err(format!(
            "Effect must be one of {}.",
            TAINT_EFFECTS.join(", ")
        ));
    }
    Ok(format!("{key}={value}:{effect}"))
}

/// A taint as the API renders it: `key=value:Effect`, `key=:Effect` or `key:Effect`.
/// Returns its parts `(key, value, effect)`.
pub fn parse_taint(raw: &str) -> Checked<(String, String, String)> {
    let entry = raw.trim();
    let Some((head, effect)) = entry.rsplit_once(':') else {
        return Err(format!(
            "Taint \"{}\" must look like key=value:Effect.",
            printable(entry)
        ));
    };
    let (key, value) = head.split_once('=').unwrap_or((head, ""));
    taint(key, value, effect)?;
    Ok((key.to_string(), value.to_string(), effect.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_count_is_zero_to_one_hundred() {
        assert_eq!(node_count("0"), Ok(0));
        assert_eq!(node_count(" 100 "), Ok(100));
        assert!(node_count("101").unwrap_err().contains("between 0 and 100"));
        assert!(node_count("-1").is_err());
        assert!(node_count("2.5").is_err());
        assert!(node_count("").unwrap_err().contains("required"));
        assert!(node_count("99999999999999999999999").is_err());
    }

    #[test]
    fn boot_volume_is_64_to_512_gb_of_nvme_or_abs() {
        assert_eq!(boot_volume_size("64"), Ok(64));
        assert_eq!(boot_volume_size("512"), Ok(512));
        assert!(boot_volume_size("63").is_err());
        assert!(boot_volume_size("513").is_err());
        assert_eq!(boot_volume_type("NVMe"), Ok("nvme".into()));
        assert!(boot_volume_type("ssd").is_err());
    }

    #[test]
    fn reserved_label_prefixes_are_refused() {
        for key in [
            "kubernetes.io",
            "kubernetes.io/role",
            "k8s.io/x",
            "nirvanalabs.io/pool",
        ] {
            assert!(
                label(&format!("{key}=a")).unwrap_err().contains("reserved"),
                "{key}"
            );
        }
        // Only the exact prefix (or prefix + '/') is reserved.
        assert_eq!(label("kubernetes.iox=a"), Ok("kubernetes.iox=a".into()));
        assert_eq!(
            label("example.com/tier=web"),
            Ok("example.com/tier=web".into())
        );
    }

    #[test]
    fn labels_need_key_equals_value() {
        assert_eq!(label("tier=web"), Ok("tier=web".into()));
        assert_eq!(label("flag="), Ok("flag=".into()));
        assert!(label("tier").unwrap_err().contains("key=value"));
        assert!(label("=web").is_err());
        assert!(label("tier=<script>").is_err());
        assert_eq!(
            labels_by_line("a=1\n\nb=2"),
            Ok(vec!["a=1".into(), "b=2".into()])
        );
        assert_eq!(
            labels_by_line("a=1\nb=2\n\na=3").unwrap_err(),
            "Line 4: label key \"a\" is already on line 1."
        );
        assert_eq!(
            labels_by_line("a=1\nnot a label\na=2\nkubernetes.io/x=y").unwrap_err(),
            "Line 2: Label \"not a label\" must look like key=value.\n\
             Line 3: label key \"a\" is already on line 1.\n\
             Line 4: Key \"kubernetes.io/x\" uses a reserved prefix (kubernetes.io, k8s.io, nirvanalabs.io)."
        );
        assert!(labels_by_line("tier=web\n\nkubernetes.io/role=x")
            .unwrap_err()
            .starts_with("Line 3: "));
    }

    #[test]
    fn taints_take_one_of_three_effects() {
        assert_eq!(
            taint("dedicated", "batch", "NoSchedule"),
            Ok("dedicated=batch:NoSchedule".into())
        );
        assert_eq!(taint("gpu", "", "NoExecute"), Ok("gpu=:NoExecute".into()));
        assert!(taint("gpu", "", "Sometimes")
            .unwrap_err()
            .contains("NoSchedule"));
        assert!(taint("k8s.io/x", "", "NoSchedule").is_err());
    }

    #[test]
    fn taints_parse_in_every_rendering_the_api_uses() {
        let parts = |k: &str, v: &str, e: &str| Ok((k.to_string(), v.to_string(), e.to_string()));
        assert_eq!(
            parse_taint("dedicated=batch:NoSchedule"),
            parts("dedicated", "batch", "NoSchedule")
        );
        assert_eq!(parse_taint("gpu=:NoExecute"), parts("gpu", "", "NoExecute"));
        assert_eq!(
            parse_taint("gpu:PreferNoSchedule"),
            parts("gpu", "", "PreferNoSchedule")
        );
        assert!(parse_taint("gpu=true").is_err());
    }

    #[test]
    fn names_are_required_short_and_printable() {
        assert_eq!(name("  edge-prod "), Ok("edge-prod".into()));
        assert!(name("").is_err());
        assert!(name(&"x".repeat(64)).is_err());
        assert!(name("a\u{0007}b").is_err());
        assert_eq!(name("<b>bold</b>"), Ok("<b>bold</b>".into()));
    }

    #[test]
    fn cluster_and_pool_names_are_dns_labels() {
        assert_eq!(dns_label(" web-1 ", "Name"), Ok("web-1".into()));
        assert_eq!(dns_label("a", "Name"), Ok("a".into()));
        assert_eq!(dns_label(&"x".repeat(63), "Name"), Ok("x".repeat(63)));
        assert_eq!(dns_label("", "Name"), Err("Name is required.".into()));
        assert_eq!(
            dns_label("Web Pool", "Name"),
            Err(format!(
                "Name has capital letters (W, P) and has spaces. {DNS_LABEL_RULE}"
            ))
        );
        assert_eq!(
            dns_label("bad_pool!", "Name"),
            Err(format!("Name has \"_\", \"!\". {DNS_LABEL_RULE}"))
        );
        assert_eq!(
            dns_label("-web-", "Name"),
            Err(format!(
                "Name starts with '-' and ends with '-'. {DNS_LABEL_RULE}"
            ))
        );
        assert_eq!(
            dns_label(&"y".repeat(64), "Name"),
            Err(format!("Name is 64 characters long. {DNS_LABEL_RULE}"))
        );
        assert_eq!(
            dns_label("a\u{7}b\u{202E}c", "Name"),
            Err(format!(
                "Name has control or invisible characters. {DNS_LABEL_RULE}"
            ))
        );
        assert!(
            dns_label("web.pool", "Name").is_err(),
            "dots make a subdomain, not a label"
        );
        assert!(dns_label("wéb", "Name").is_err());
        assert!(dns_label("-", "Name").is_err());
        assert_eq!(
            DNS_LABEL_RULE,
            "Use lowercase letters, digits and '-' (at most 63), starting and ending with a letter or digit."
        );
    }

    #[test]
    fn an_old_name_is_kept_on_edit_and_a_new_one_checked() {
        assert_eq!(
            renamed("Bad Pool!", "Bad Pool!", "Name"),
            Ok("Bad Pool!".into())
        );
        assert_eq!(renamed("web-2", "Bad Pool!", "Name"), Ok("web-2".into()));
        assert!(renamed("Bad Pool?", "Bad Pool!", "Name").is_err());
        assert!(renamed("", "", "Name").is_err());
    }

    #[test]
    fn tags_drop_blanks_and_refuse_duplicates() {
        assert_eq!(
            tags(&split_list("prod, web,, ")),
            Ok(vec!["prod".into(), "web".into()])
        );
        assert!(tags(&split_list("a,a")).is_err());
    }
}
