//! Shell commands the console prints for people to copy. A name from the API may
//! hold anything (old data predates the naming rule, another tool may have set
//! it), so every word taken from data is quoted: pasted into a POSIX shell, bash
//! or zsh it stays one argument and runs nothing.

/// `word` as one shell argument: unchanged when it is made only of characters no
/// shell treats specially, else in single quotes, or as `$'…'` with escapes when it
/// holds control or invisible characters (so the printed command shows them
/// instead of hiding a line break or reordering the text).
pub fn quote(word: &str) -> String {
    let plain = |c: char| {
        c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | ':' | '@' | '+' | ',')
    };
    if !word.is_empty() && word.chars().all(plain) {
        return word.to_string();
    }
    if !word.chars().any(needs_escape) {
        return format!("'{}'", word.replace('\'', r"'\''"));
    }
    let mut out = String::from("$'");
    for c in word.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '\'' => out.push_str(r"\'"),
            '\n' => out.push_str(r"\n"),
            '\t' => out.push_str(r"\t"),
            '\r' => out.push_str(r"\r"),
            c if needs_escape(c) && (c as u32) < 0x100 => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if needs_escape(c) => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

fn needs_escape(c: char) -> bool {
    c.is_control() || super::validation::is_invisible(c)
}

/// `word` as the command's last argument: quoted, and after `--` when it begins
/// with `-`, so kubectl reads it as a name and never as an option.
pub fn operand(word: &str) -> String {
    if word.starts_with('-') {
        format!("-- {}", quote(word))
    } else {
        quote(word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_stay_as_they_are() {
        assert_eq!(quote("baseline-7xk2p"), "baseline-7xk2p");
        assert_eq!(quote("node.example:1"), "node.example:1");
    }

    #[test]
    fn anything_else_is_one_inert_argument() {
        assert_eq!(quote(""), "''");
        assert_eq!(quote("Bad Pool!-x1"), "'Bad Pool!-x1'");
        assert_eq!(quote("a;rm -rf ~"), "'a;rm -rf ~'");
        assert_eq!(quote("$(reboot)`id`"), "'$(reboot)`id`'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote("<script>\"x\"</script>"), "'<script>\"x\"</script>'");
        assert_eq!(quote("pool-🚀"), "'pool-🚀'");
    }

    #[test]
    fn control_and_invisible_characters_are_shown_escaped() {
        assert_eq!(
            quote("a\nkubectl delete ns x"),
            r"$'a\nkubectl delete ns x'"
        );
        assert_eq!(quote("bell\u{7}'\\"), r"$'bell\x07\'\\'");
        assert_eq!(quote("\u{202E}evil"), r"$'\u202eevil'");
    }

    #[test]
    fn a_leading_dash_cannot_become_an_option() {
        assert_eq!(operand("--all"), "-- --all");
        assert_eq!(operand("-x y"), "-- '-x y'");
        assert_eq!(operand("web-1"), "web-1");
    }
}
