//! Values the user typed, written so that no character of them can end the
//! string they sit in: a name with quotes, `$`, backticks or a newline stays a name.

/// A shell word in single quotes: nothing inside is expanded; a `'` is closed,
/// escaped and reopened (`'\''`).
pub fn shell(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
}

/// A string literal for Go and TypeScript: JSON's escaping is valid in both
/// (`\"`, `\\`, `\n`, `\u00XX` for the other control characters).
pub fn string(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "\"\"".to_string())
}

/// A list of string literals, comma separated (Go's `[]string{…}`, TypeScript's `[…]`).
pub fn strings(values: &[String]) -> String {
    values
        .iter()
        .map(|v| string(v))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An HCL quoted string: its escapes, and `${` / `%{` doubled so a value is never
/// read as an interpolation or a directive.
pub fn hcl(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An HCL list of strings.
pub fn hcl_list(values: &[String]) -> String {
    let items: Vec<String> = values.iter().map(|v| hcl(v)).collect();
    format!("[{}]", items.join(", "))
}

/// A Terraform resource name from a resource's name: letters, digits, `_` and
/// `-` kept, anything else `_`; starting with a letter (else `kind_` first).
pub fn ident(name: &str, kind: &str) -> String {
    let body: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if body.starts_with(|c: char| c.is_ascii_alphabetic()) {
        body
    } else {
        format!("{kind}_{body}").trim_end_matches('_').to_string()
    }
}

/// A comment's text on one line: control characters shown as `?`.
pub fn comment(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shell_word_keeps_quotes_dollars_and_backticks_inside() {
        assert_eq!(shell("it's $HOME `id`"), r"'it'\''s $HOME `id`'");
    }

    #[test]
    fn an_hcl_string_escapes_and_never_interpolates() {
        assert_eq!(hcl("a\"b\\c\nd"), r#""a\"b\\c\nd""#);
        assert_eq!(hcl("${var.x} %{if} $5 %d"), r#""$${var.x} %%{if} $5 %d""#);
        assert_eq!(hcl("bell\u{7}"), r#""bell\u0007""#);
    }

    #[test]
    fn a_resource_name_is_an_identifier() {
        assert_eq!(ident("web-1", "pool"), "web-1");
        assert_eq!(ident("1st pool", "pool"), "pool_1st_pool");
        assert_eq!(ident("", "pool"), "pool");
        assert_eq!(ident("\"; rm -rf /", "vpc"), "vpc____rm_-rf");
        assert_eq!(ident("prod.eu", "cluster"), "prod_eu");
    }
}
