//! Money as the API sends it: decimal strings (`"248.64"`, `"0.0120"`), shown
//! exactly. Amounts are never parsed into floats: a float cannot hold 0.1, and a
//! cost screen that drifts by a cent is a cost screen nobody trusts.

/// A decimal amount held as an integer count of `10^-scale` units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimal {
    units: i128,
    scale: u32,
}

impl Decimal {
    /// Parses `-12.3400`, `+5`, `0.0120`; `None` for anything that is not a plain decimal.
    pub fn parse(text: &str) -> Option<Decimal> {
        let t = text.trim();
        let (negative, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if int.len() + frac.len() > 30 {
            return None;
        }
        let scale = frac.len() as u32;
        let mut units: i128 = 0;
        for b in int.bytes().chain(frac.bytes()) {
            units = units.checked_mul(10)?.checked_add(i128::from(b - b'0'))?;
        }
        Some(Decimal {
            units: if negative { -units } else { units },
            scale,
        })
    }

    pub fn is_negative(&self) -> bool {
        self.units < 0
    }

    pub fn is_zero(&self) -> bool {
        self.units == 0
    }

    /// The same value at a larger scale (more decimals), exactly; `None` if it
    /// would not fit.
    fn rescale(self, scale: u32) -> Option<Decimal> {
        let factor = 10i128.checked_pow(scale.saturating_sub(self.scale))?;
        Some(Decimal {
            units: self.units.checked_mul(factor)?,
            scale: scale.max(self.scale),
        })
    }

    /// Exact sum, at the larger of the two scales; `None` when it does not fit.
    pub fn plus(self, other: Decimal) -> Option<Decimal> {
        let scale = self.scale.max(other.scale);
        let (a, b) = (self.rescale(scale)?, other.rescale(scale)?);
        Some(Decimal {
            units: a.units.checked_add(b.units)?,
            scale,
        })
    }

    /// Exact difference `self - other`.
    pub fn minus(self, other: Decimal) -> Option<Decimal> {
        self.plus(Decimal {
            units: -other.units,
            scale: other.scale,
        })
    }

    /// The digits with thousands separators, keeping every decimal sent.
    fn digits(&self) -> String {
        let abs = self.units.unsigned_abs().to_string();
        let scale = self.scale as usize;
        let padded = if abs.len() <= scale {
            format!("{}{abs}", "0".repeat(scale + 1 - abs.len()))
        } else {
            abs
        };
        let (int, frac) = padded.split_at(padded.len() - scale);
        let mut grouped = String::new();
        for (i, c) in int.chars().enumerate() {
            if i > 0 && (int.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(c);
        }
        if frac.is_empty() {
            grouped
        } else {
            format!("{grouped}.{frac}")
        }
    }
}

fn symbol(currency: &str) -> String {
    match currency {
        "USD" | "" => "$".to_string(),
        "EUR" => "€".to_string(),
        "GBP" => "£".to_string(),
        other => format!("{other} "),
    }
}

/// `"1234.5"`, `"USD"` → `$1,234.5`; an unreadable amount is shown as sent.
pub fn format(amount: &str, currency: &str) -> String {
    match Decimal::parse(amount) {
        Some(d) => {
            let sign = if d.is_negative() { "−" } else { "" };
            format!("{sign}{}{}", symbol(currency), d.digits())
        }
        None => format!("{} {}", amount.trim(), currency).trim().to_string(),
    }
}

/// A change, always signed: `+$12.30`, `−$3.00`, `$0.00`.
pub fn format_delta(amount: &str, currency: &str) -> String {
    match Decimal::parse(amount) {
        Some(d) if d.is_zero() => format!("{}{}", symbol(currency), d.digits()),
        Some(d) => {
            let sign = if d.is_negative() { "−" } else { "+" };
            format!("{sign}{}{}", symbol(currency), d.digits())
        }
        None => amount.trim().to_string(),
    }
}

/// `after - before` as a decimal string with the larger scale, when both parse.
pub fn difference(after: &str, before: &str) -> Option<String> {
    Some(plain(
        &Decimal::parse(after)?.minus(Decimal::parse(before)?)?,
    ))
}

/// The exact sum of amounts as a decimal string, when every one parses.
pub fn sum(amounts: &[&str]) -> Option<String> {
    let mut total = Decimal::parse("0")?;
    for a in amounts {
        total = total.plus(Decimal::parse(a)?)?;
    }
    Some(plain(&total))
}

/// A decimal as the API writes amounts: `-1234.50`, no grouping.
fn plain(d: &Decimal) -> String {
    let sign = if d.is_negative() { "-" } else { "" };
    format!("{sign}{}", d.digits().replace(',', ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_keep_every_decimal_the_api_sent() {
        assert_eq!(format("248.64", "USD"), "$248.64");
        assert_eq!(format("0.0120", "USD"), "$0.0120");
        assert_eq!(format("38.40", "USD"), "$38.40");
        assert_eq!(format("1234567.5", "USD"), "$1,234,567.5");
        assert_eq!(format("-3.00", "USD"), "−$3.00");
        assert_eq!(format("7", "EUR"), "€7");
        assert_eq!(format("7.10", "CHF"), "CHF 7.10");
    }

    #[test]
    fn deltas_are_signed() {
        assert_eq!(format_delta("12.30", "USD"), "+$12.30");
        assert_eq!(format_delta("-0.05", "USD"), "−$0.05");
        assert_eq!(format_delta("0.00", "USD"), "$0.00");
    }

    #[test]
    fn sums_are_exact_where_floats_are_not() {
        // 0.1 + 0.2 is 0.30000000000000004 in floating point.
        let sum = Decimal::parse("0.1")
            .unwrap()
            .plus(Decimal::parse("0.2").unwrap());
        assert_eq!(sum, Decimal::parse("0.3"));
        assert_eq!(difference("210.24", "175.20").as_deref(), Some("35.04"));
        assert_eq!(difference("0.0120", "0.05").as_deref(), Some("-0.0380"));
        assert_eq!(difference("10", "10.00").as_deref(), Some("0.00"));
    }

    #[test]
    fn sums_keep_the_largest_scale_and_refuse_the_unreadable() {
        assert_eq!(sum(&["73.0000", "0.0000"]).as_deref(), Some("73.0000"));
        assert_eq!(sum(&["0.1", "0.2"]).as_deref(), Some("0.3"));
        assert_eq!(sum(&["1234.5", "0.05"]).as_deref(), Some("1234.55"));
        assert_eq!(sum(&["1", "about 2"]), None);
        assert_eq!(
            format(&sum(&["999.99", "0.01"]).unwrap(), "USD"),
            "$1,000.00"
        );
    }

    #[test]
    fn large_and_tiny_amounts_stay_exact() {
        assert_eq!(
            format("99999999999999999999.9999", "USD"),
            "$99,999,999,999,999,999,999.9999"
        );
        assert_eq!(format("0.0001", "USD"), "$0.0001");
        assert_eq!(format(".5", "USD"), "$0.5");
    }

    #[test]
    fn a_difference_too_large_to_hold_exactly_is_refused_not_wrapped() {
        assert_eq!(
            difference("17100000000000000", "0.0000000000000000000000"),
            None
        );
    }

    #[test]
    fn unreadable_amounts_are_shown_as_sent_not_guessed() {
        assert_eq!(Decimal::parse("12,00"), None);
        assert_eq!(Decimal::parse("1e3"), None);
        assert_eq!(Decimal::parse(""), None);
        assert_eq!(Decimal::parse("."), None);
        assert_eq!(format("about 5", "USD"), "about 5 USD");
        assert_eq!(Decimal::parse(&"9".repeat(40)), None);
    }
}
