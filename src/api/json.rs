//! JSON in and out of the wire types, by hand rather than through serde.
//!
//! serde's derive generates a visitor, a field matcher and map and sequence
//! walkers for every type, and serde_json instantiates its deserializer for each;
//! in the browser build that came to about 64 KB of the first page's wasm. Here
//! one small parser builds a [`Json`] tree, each type takes its fields out of it
//! with one generic call per field type shared by every struct, and writing is
//! the reverse: build a tree, print it.
//!
//! The tolerance rules of `types` hold: unknown fields are ignored, a missing or
//! null field takes its default, and a value of the wrong type is an error naming
//! where it is (`items[3].node_count: expected an integer`).
//!
//! Numbers keep the text they were written with, so reading and writing them
//! never goes through floating point (whose parsing and printing code would add
//! 13 KB to the first page for the one `f64` field the API has).

use std::collections::BTreeMap;
use std::fmt;
use std::ops::{Deref, Range};

/// A parsed JSON value. Objects keep their members in order, as written; a
/// number keeps its text (`3`, `-2.5`, `1e3`), checked against JSON's grammar.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Json {
    #[default]
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The member `name` of an object; `None` for a missing member or a non-object.
    pub fn get(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == name).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Compact JSON text, as `JSON.stringify` writes it.
impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Number(text) => f.write_str(text),
            Json::String(s) => write_string(f, s),
            Json::Array(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Json::Object(members) => {
                f.write_str("{")?;
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write_string(f, key)?;
                    write!(f, ":{value}")?;
                }
                f.write_str("}")
            }
        }
    }
}

fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

/// Why a text could not be read: a syntax error at a byte offset, or a value of
/// the wrong type at a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// Where: `items[3].node_count`, or empty for the whole value.
    pub path: String,
    pub what: String,
}

impl JsonError {
    pub fn new(what: impl Into<String>) -> JsonError {
        JsonError {
            path: String::new(),
            what: what.into(),
        }
    }

    /// The same error, one level further out: `field` or `[index]`.
    pub fn within(mut self, step: &str) -> JsonError {
        if !self.path.is_empty() && !self.path.starts_with('[') {
            self.path.insert(0, '.');
        }
        self.path.insert_str(0, step);
        self
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.what)
        } else {
            write!(f, "{}: {}", self.path, self.what)
        }
    }
}

/// Reads `text` as a `T`.
pub fn decode<T: FromJson>(text: &str) -> Result<T, JsonError> {
    T::from_json(parse(text)?)
}

/// Parses `text` as one JSON value (surrounding whitespace allowed).
pub fn parse(text: &str) -> Result<Json, JsonError> {
    Parser::new(text, false).whole().map(|(value, _)| value)
}

/// Parses a page of a list (`{"items": [...], "pagination": {...}}`) as [`parse`]
/// does, and says where in `text` each of its items was written, in order: the
/// places of the elements of the first `items` member, when it is an array.
pub fn parse_page(text: &str) -> Result<(Json, Vec<Range<usize>>), JsonError> {
    Parser::new(text, true).whole()
}

/// Deeper nesting than any API answer is refused rather than overflowing the stack.
const MAX_DEPTH: u32 = 128;

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
    depth: u32,
    /// Whether the places of a page's items are still to be found (`parse_page`).
    want_items: bool,
    /// Set while the value about to be read is the page's `items`.
    at_items: bool,
    items: Vec<Range<usize>>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, want_items: bool) -> Parser<'a> {
        Parser {
            text: text.as_bytes(),
            at: 0,
            depth: 0,
            want_items,
            at_items: false,
            items: Vec::new(),
        }
    }

    /// The one value `text` holds, and the places of a page's items if asked for.
    fn whole(mut self) -> Result<(Json, Vec<Range<usize>>), JsonError> {
        let value = self.value()?;
        self.skip_space();
        if self.at < self.text.len() {
            return Err(self.fail("trailing characters"));
        }
        Ok((value, self.items))
    }

    fn fail(&self, what: &str) -> JsonError {
        JsonError::new(format!("{what} at byte {}", self.at))
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.text.get(self.at) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        let found = self.text.get(self.at) == Some(&byte);
        if found {
            self.at += 1;
        }
        found
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, JsonError> {
        if self.text[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.fail("unexpected character"))
        }
    }

    fn value(&mut self) -> Result<Json, JsonError> {
        self.skip_space();
        match self.text.get(self.at) {
            None => Err(self.fail("unexpected end")),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::String),
            Some(b'[') => self.nested(Parser::array),
            Some(b'{') => self.nested(Parser::object),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.fail("unexpected character")),
        }
    }

    fn nested(
        &mut self,
        read: fn(&mut Self) -> Result<Json, JsonError>,
    ) -> Result<Json, JsonError> {
        if self.depth == MAX_DEPTH {
            return Err(self.fail("nested too deeply"));
        }
        self.depth += 1;
        self.at += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    fn array(&mut self) -> Result<Json, JsonError> {
        let keep_places = std::mem::take(&mut self.at_items);
        let mut items = Vec::new();
        if self.eat(b']') {
            return Ok(Json::Array(items));
        }
        loop {
            self.skip_space();
            let start = self.at;
            items.push(self.value()?);
            if keep_places {
                self.items.push(start..self.at);
            }
            if self.eat(b']') {
                return Ok(Json::Array(items));
            }
            if !self.eat(b',') {
                return Err(self.fail("expected `,` or `]`"));
            }
        }
    }

    fn object(&mut self) -> Result<Json, JsonError> {
        let mut members = Vec::new();
        if self.eat(b'}') {
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_space();
            if self.text.get(self.at) != Some(&b'"') {
                return Err(self.fail("expected a member name"));
            }
            let key = self.string()?;
            if !self.eat(b':') {
                return Err(self.fail("expected `:`"));
            }
            // The top object's first `items`: a page's list (see `parse_page`).
            self.at_items = self.want_items && self.depth == 1 && key == "items";
            self.want_items &= !self.at_items;
            let value = self.value()?;
            self.at_items = false;
            members.push((key, value));
            if self.eat(b'}') {
                return Ok(Json::Object(members));
            }
            if !self.eat(b',') {
                return Err(self.fail("expected `,` or `}`"));
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.at;
        self.consume(|b| b == b'-', 1);
        let whole = self.consume(|b| b.is_ascii_digit(), usize::MAX);
        let leading_zero = whole > 1 && self.text[self.at - whole] == b'0';
        let mut valid = whole > 0 && !leading_zero;
        if self.consume(|b| b == b'.', 1) == 1 {
            valid &= self.consume(|b| b.is_ascii_digit(), usize::MAX) > 0;
        }
        if self.consume(|b| b == b'e' || b == b'E', 1) == 1 {
            self.consume(|b| b == b'+' || b == b'-', 1);
            valid &= self.consume(|b| b.is_ascii_digit(), usize::MAX) > 0;
        }
        if !valid {
            self.at = start;
            return Err(self.fail("invalid number"));
        }
        // Only ASCII was consumed, so the slice is whole UTF-8.
        let text = std::str::from_utf8(&self.text[start..self.at]).unwrap_or_default();
        Ok(Json::Number(text.to_string()))
    }

    /// Moves past up to `most` bytes that match, and says how many.
    fn consume(&mut self, matches: impl Fn(u8) -> bool, most: usize) -> usize {
        let start = self.at;
        while self.at - start < most && self.text.get(self.at).is_some_and(|&b| matches(b)) {
            self.at += 1;
        }
        self.at - start
    }

    /// A string, starting at its opening quote.
    fn string(&mut self) -> Result<String, JsonError> {
        self.at += 1;
        let mut out = String::new();
        loop {
            let start = self.at;
            while let Some(&b) = self.text.get(self.at) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            // The text came in as a &str and the run stops only at ASCII bytes, so
            // it is whole UTF-8.
            out.push_str(std::str::from_utf8(&self.text[start..self.at]).unwrap_or_default());
            match self.text.get(self.at) {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = match self.text.get(self.at) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => self.unicode_escape()?,
                        _ => return Err(self.fail("invalid escape")),
                    };
                    self.at += 1;
                    out.push(escaped);
                }
                Some(_) => return Err(self.fail("control character in string")),
                None => return Err(self.fail("unterminated string")),
            }
        }
    }

    /// `\uXXXX`, with `at` on the `u`; leaves `at` on the last hex digit. A
    /// surrogate pair makes one character; a lone surrogate becomes U+FFFD.
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let first = self.hex4(self.at + 1)?;
        self.at += 4;
        if (0xD800..0xDC00).contains(&first) && self.text[self.at + 1..].starts_with(b"\\u") {
            if let Ok(second) = self.hex4(self.at + 3) {
                if (0xDC00..0xE000).contains(&second) {
                    self.at += 6;
                    let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                    return Ok(char::from_u32(code).unwrap_or('\u{FFFD}'));
                }
            }
        }
        Ok(char::from_u32(first).unwrap_or('\u{FFFD}'))
    }

    fn hex4(&self, from: usize) -> Result<u32, JsonError> {
        let digits = self
            .text
            .get(from..from + 4)
            .and_then(|d| std::str::from_utf8(d).ok())
            .ok_or_else(|| self.fail("invalid \\u escape"))?;
        u32::from_str_radix(digits, 16).map_err(|_| self.fail("invalid \\u escape"))
    }
}

/// A list item with the text it was read from. Two reads of an item are equal
/// when their texts are: the same text reads as the same value, and any change
/// shows in the text. (An item written differently but meaning the same, spaces
/// or member order, counts as changed: at worst its row is drawn again.) That is
/// one pass over a few hundred bytes where comparing the values is a call per
/// field, each string a `memcmp`; a table that follows a long list compares
/// every item on each read. Each item keeps a copy of its own text, not the
/// answer it came in: a table keeps an unchanged item across many reads, and
/// would otherwise keep every one of those answers whole.
#[derive(Clone, Debug)]
pub struct Sourced<T> {
    pub value: T,
    text: Box<[u8]>,
}

impl<T> Deref for Sourced<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> PartialEq for Sourced<T> {
    fn eq(&self, other: &Self) -> bool {
        same_bytes(&self.text, &other.text)
    }
}

/// How a list's items are read from its pages, given each one's value and the
/// text it was written with: as the type alone (any [`FromJson`] type), or with
/// that text ([`Sourced`]).
pub trait FromItem: Sized {
    fn from_item(value: Json, text: &[u8]) -> Result<Self, JsonError>;
}

impl<T: FromJson> FromItem for T {
    fn from_item(value: Json, _: &[u8]) -> Result<Self, JsonError> {
        T::from_json(value)
    }
}

impl<T: FromJson> FromItem for Sourced<T> {
    fn from_item(value: Json, text: &[u8]) -> Result<Self, JsonError> {
        Ok(Sourced {
            value: T::from_json(value)?,
            text: text.into(),
        })
    }
}

/// `a == b`, eight bytes at a step: in wasm the standard comparison ends in a
/// `memcmp` that reads one byte at a time.
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let ((words_a, rest_a), (words_b, rest_b)) = (a.as_chunks::<8>(), b.as_chunks::<8>());
    a.len() == b.len()
        && words_a
            .iter()
            .zip(words_b)
            .all(|(x, y)| u64::from_ne_bytes(*x) == u64::from_ne_bytes(*y))
        && rest_a == rest_b
}

/// A type read from a [`Json`] value, taking what it keeps out of it.
pub trait FromJson: Sized {
    fn from_json(value: Json) -> Result<Self, JsonError>;
}

impl FromJson for Json {
    fn from_json(value: Json) -> Result<Self, JsonError> {
        Ok(value)
    }
}

impl FromJson for String {
    fn from_json(value: Json) -> Result<Self, JsonError> {
        match value {
            Json::String(s) => Ok(s),
            _ => Err(JsonError::new("expected a string")),
        }
    }
}

impl FromJson for bool {
    fn from_json(value: Json) -> Result<Self, JsonError> {
        match value {
            Json::Bool(b) => Ok(b),
            _ => Err(JsonError::new("expected true or false")),
        }
    }
}

impl FromJson for f64 {
    fn from_json(value: Json) -> Result<Self, JsonError> {
        match value {
            Json::Number(text) => text
                .parse()
                .map_err(|_| JsonError::new(format!("{text} is out of range"))),
            _ => Err(JsonError::new("expected a number")),
        }
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl FromJson for $t {
            fn from_json(value: Json) -> Result<Self, JsonError> {
                match value {
                    Json::Number(text) => text.parse().map_err(|_| {
                        JsonError::new(format!(
                            "{text} is not a whole number from {} to {}",
                            <$t>::MIN,
                            <$t>::MAX
                        ))
                    }),
                    _ => Err(JsonError::new("expected an integer")),
                }
            }
        }

        impl ToJson for $t {
            fn to_json(&self) -> Json {
                Json::Number(self.to_string())
            }
        }
    )*};
}
integers!(u16, u32, u64, i64);

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(value: Json) -> Result<Self, JsonError> {
        match value {
            Json::Null => Ok(None),
            other => T::from_json(other).map(Some),
        }
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(value: Json) -> Result<Self, JsonError> {
        match value {
            Json::Array(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, item)| T::from_json(item).map_err(|e| e.within(&format!("[{i}]"))))
                .collect(),
            _ => Err(JsonError::new("expected a list")),
        }
    }
}

impl<T: FromJson> FromJson for BTreeMap<String, T> {
    fn from_json(value: Json) -> Result<Self, JsonError> {
        Fields::of(value)?
            .0
            .into_iter()
            .map(|(key, value)| {
                let read = T::from_json(value).map_err(|e| e.within(&key))?;
                Ok((key, read))
            })
            .collect()
    }
}

/// A type written as JSON: [`ToJson::to_json`], then `to_string()` on the tree.
pub trait ToJson {
    fn to_json(&self) -> Json;
}

impl ToJson for Json {
    fn to_json(&self) -> Json {
        self.clone()
    }
}

impl ToJson for String {
    fn to_json(&self) -> Json {
        Json::String(self.clone())
    }
}

impl ToJson for bool {
    fn to_json(&self) -> Json {
        Json::Bool(*self)
    }
}

/// `None` is written as null, and an object written by [`to_json_struct!`] leaves
/// null members out, as PATCH bodies need ("unchanged").
impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self) -> Json {
        self.as_ref().map_or(Json::Null, T::to_json)
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Json {
        Json::Array(self.iter().map(T::to_json).collect())
    }
}

impl<T: ToJson> ToJson for BTreeMap<String, T> {
    fn to_json(&self) -> Json {
        Json::Object(self.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
    }
}

/// An object from its members, leaving out the null ones.
pub fn object(members: Vec<(&str, Json)>) -> Json {
    Json::Object(
        members
            .into_iter()
            .filter(|(_, value)| *value != Json::Null)
            .map(|(name, value)| (name.to_string(), value))
            .collect(),
    )
}

/// An object's members, taken out one by one by name.
pub struct Fields(Vec<(String, Json)>);

impl Fields {
    pub fn of(value: Json) -> Result<Fields, JsonError> {
        match value {
            Json::Object(members) => Ok(Fields(members)),
            _ => Err(JsonError::new("expected an object")),
        }
    }

    /// The member `name`, or `T`'s default when it is missing or null.
    pub fn take<T: FromJson + Default>(&mut self, name: &str) -> Result<T, JsonError> {
        self.read(name).unwrap_or_else(|| Ok(T::default()))
    }

    /// The member `name`, which must be there and not null.
    pub fn require<T: FromJson>(&mut self, name: &str) -> Result<T, JsonError> {
        self.read(name)
            .unwrap_or_else(|| Err(JsonError::new("missing").within(name)))
    }

    /// The member `name` read as a `T`, or `None` when it is missing or null.
    fn read<T: FromJson>(&mut self, name: &str) -> Option<Result<T, JsonError>> {
        let (_, value) = self.0.iter_mut().find(|(key, _)| key == name)?;
        if matches!(value, Json::Null) {
            return None;
        }
        Some(T::from_json(std::mem::take(value)).map_err(|e| e.within(name)))
    }
}

/// `FromJson` for a struct whose every field is read by name with [`Fields::take`]
/// (missing or null: the field's default). A field whose JSON name differs
/// from its Rust name is written `field = "json_name"`. Every field must be
/// listed: the struct literal does not compile otherwise.
#[macro_export]
macro_rules! from_json_struct {
    ($ty:ident { $($field:ident $(= $name:literal)?),* $(,)? }) => {
        impl $crate::api::json::FromJson for $ty {
            fn from_json(value: $crate::api::json::Json) -> Result<Self, $crate::api::json::JsonError> {
                let mut fields = $crate::api::json::Fields::of(value)?;
                Ok($ty {
                    $($field: fields.take($crate::from_json_struct!(@name $field $($name)?))?,)*
                })
            }
        }
    };
    (@name $field:ident $name:literal) => { $name };
    (@name $field:ident) => { stringify!($field) };
}

/// `ToJson` for a struct: every listed field by name (`field = "json_name"` when
/// they differ), null ones left out.
#[macro_export]
macro_rules! to_json_struct {
    ($ty:ident { $($field:ident $(= $name:literal)?),* $(,)? }) => {
        impl $crate::api::json::ToJson for $ty {
            fn to_json(&self) -> $crate::api::json::Json {
                $crate::api::json::object(vec![
                    $(($crate::from_json_struct!(@name $field $($name)?), self.$field.to_json()),)*
                ])
            }
        }
    };
}

/// Both directions for a struct whose fields all travel ([`from_json_struct!`]
/// and [`to_json_struct!`]).
#[macro_export]
macro_rules! json_struct {
    ($($body:tt)*) => {
        $crate::from_json_struct!($($body)*);
        $crate::to_json_struct!($($body)*);
    };
}

/// Both directions for a fieldless enum, by its `as_str` name. Any string not
/// listed reads as the fallback variant, so a value the API adds later still
/// reads.
#[macro_export]
macro_rules! json_enum {
    ($ty:ident { $($variant:ident),* } else $fallback:ident) => {
        impl $crate::api::json::FromJson for $ty {
            fn from_json(value: $crate::api::json::Json) -> Result<Self, $crate::api::json::JsonError> {
                let name = String::from_json(value)?;
                Ok([$($ty::$variant),*]
                    .into_iter()
                    .find(|v| v.as_str() == name)
                    .unwrap_or($ty::$fallback))
            }
        }

        impl $crate::api::json::ToJson for $ty {
            fn to_json(&self) -> $crate::api::json::Json {
                $crate::api::json::Json::String(self.as_str().to_string())
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(text: &str) -> Json {
        Json::Number(text.into())
    }

    #[test]
    fn parses_every_kind_of_value() {
        let v =
            parse(r#" {"a": [1, -2.5, 3e2], "b": {"c": null}, "d": true, "e": false, "f": "x"} "#)
                .unwrap();
        assert_eq!(
            v,
            Json::Object(vec![
                (
                    "a".into(),
                    Json::Array(vec![num("1"), num("-2.5"), num("3e2")])
                ),
                ("b".into(), Json::Object(vec![("c".into(), Json::Null)])),
                ("d".into(), Json::Bool(true)),
                ("e".into(), Json::Bool(false)),
                ("f".into(), Json::String("x".into())),
            ])
        );
        assert_eq!(parse("[]").unwrap(), Json::Array(vec![]));
        assert_eq!(parse("{ }").unwrap(), Json::Object(vec![]));
    }

    #[test]
    fn reads_string_escapes_and_unicode() {
        let s = r#""q\" b\\ s\/ \b\f\n\r\t é \u00e9 \ud83d\ude80 \ud800x""#;
        assert_eq!(
            parse(s).unwrap(),
            Json::String("q\" b\\ s/ \u{8}\u{c}\n\r\t é é 🚀 \u{FFFD}x".into())
        );
    }

    #[test]
    fn refuses_broken_text_with_the_place() {
        for (text, what) in [
            ("", "unexpected end at byte 0"),
            ("{\"a\":1,}", "expected a member name at byte 7"),
            ("[1 2]", "expected `,` or `]` at byte 3"),
            ("{\"a\" 1}", "expected `:` at byte 5"),
            ("\"abc", "unterminated string at byte 4"),
            ("\"a\nb\"", "control character in string at byte 2"),
            ("\"\\x\"", "invalid escape at byte 2"),
            ("\"\\u12\"", "invalid \\u escape at byte 2"),
            ("nul", "unexpected character at byte 0"),
            ("1 2", "trailing characters at byte 2"),
            ("--1", "invalid number at byte 0"),
            ("01", "invalid number at byte 0"),
            ("1.", "invalid number at byte 0"),
            (".5", "unexpected character at byte 0"),
            ("1e", "invalid number at byte 0"),
            ("-", "invalid number at byte 0"),
            ("+1", "unexpected character at byte 0"),
            ("<html>", "unexpected character at byte 0"),
        ] {
            assert_eq!(parse(text).unwrap_err().to_string(), what, "{text:?}");
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(parse(&deep)
            .unwrap_err()
            .what
            .starts_with("nested too deeply"));
        let fine = "[".repeat(100) + &"]".repeat(100);
        assert!(parse(&fine).is_ok());
    }

    #[test]
    fn writes_compact_text_that_reads_back() {
        let text = r#"{"a":[1,-2.5,0.1e-7,"x\"y\n\u0001"],"b":null,"c":true}"#;
        let v = parse(text).unwrap();
        assert_eq!(v.to_string(), text);
        assert_eq!(parse(&v.to_string()).unwrap(), v);
    }

    #[derive(Debug, Default, PartialEq)]
    struct Sample {
        name: String,
        count: u32,
        kind: String,
        note: Option<String>,
        tags: Vec<String>,
        labels: BTreeMap<String, u64>,
    }
    json_struct!(Sample { name, count, kind = "type", note, tags, labels });

    #[test]
    fn structs_take_their_fields_and_default_the_rest() {
        let s: Sample = decode(
            r#"{"name":"a","count":3,"type":"t","note":null,"labels":{"x":1},"extra":{"deep":[1]}}"#,
        )
        .unwrap();
        assert_eq!(
            s,
            Sample {
                name: "a".into(),
                count: 3,
                kind: "t".into(),
                note: None,
                tags: vec![],
                labels: BTreeMap::from([("x".into(), 1)]),
            }
        );
        // A null where a plain value belongs reads as missing.
        let s: Sample = decode(r#"{"name":null,"tags":["b"]}"#).unwrap();
        assert_eq!(s.name, "");
        assert_eq!(s.tags, vec!["b".to_string()]);
    }

    #[test]
    fn wrong_types_name_the_path() {
        let err = |text: &str| decode::<Vec<Sample>>(text).unwrap_err().to_string();
        assert_eq!(
            err(r#"[{}, {"count":"3"}]"#),
            "[1].count: expected an integer"
        );
        assert_eq!(
            err(r#"[{"count":-1}]"#),
            "[0].count: -1 is not a whole number from 0 to 4294967295"
        );
        assert_eq!(
            err(r#"[{"count":1.5}]"#),
            "[0].count: 1.5 is not a whole number from 0 to 4294967295"
        );
        assert_eq!(
            err(r#"[{"tags":["a",2]}]"#),
            "[0].tags[1]: expected a string"
        );
        assert_eq!(
            err(r#"[{"labels":{"x":true}}]"#),
            "[0].labels.x: expected an integer"
        );
        assert_eq!(err(r#"{"a":1}"#), "expected a list");
        assert_eq!(err(r#"[3]"#), "[0]: expected an object");
    }

    #[test]
    fn structs_are_written_without_their_null_fields_and_read_back() {
        let sample = Sample {
            name: "a \"quoted\" name".into(),
            count: 7,
            kind: "t".into(),
            note: None,
            tags: vec!["x".into()],
            labels: BTreeMap::from([("k".into(), 2)]),
        };
        let text = sample.to_json().to_string();
        assert_eq!(
            text,
            r#"{"name":"a \"quoted\" name","count":7,"type":"t","tags":["x"],"labels":{"k":2}}"#
        );
        assert_eq!(decode::<Sample>(&text).unwrap(), sample);
    }

    #[test]
    fn integers_keep_their_range() {
        assert_eq!(
            decode::<u64>("9007199254740992").unwrap(),
            9_007_199_254_740_992
        );
        assert_eq!(decode::<i64>("-42").unwrap(), -42);
        assert_eq!(decode::<u16>("65535").unwrap(), 65535);
        assert!(decode::<u16>("65536").is_err());
        assert_eq!(decode::<f64>("0.25").unwrap(), 0.25);
        assert_eq!(decode::<f64>("25e-2").unwrap(), 0.25);
        assert_eq!(decode::<i64>("-42").unwrap().to_json(), num("-42"));
    }

    #[test]
    fn a_page_says_where_each_item_was_written() {
        let text = r#" { "pagination": {"items": [9]}, "items" : [ {"id":"a","tags":["x", "y"]} ,
            "b", [1,[2]] , null ], "items": [{"id": "twice"}] } "#;
        let (value, places) = parse_page(text).unwrap();
        let written: Vec<&str> = places.iter().map(|p| &text[p.clone()]).collect();
        assert_eq!(
            written,
            [
                r#"{"id":"a","tags":["x", "y"]}"#,
                r#""b""#,
                "[1,[2]]",
                "null"
            ]
        );
        // The same tree as a plain parse: the places are all that is added.
        assert_eq!(value, parse(text).unwrap());
        assert!(parse_page(r#"{"items":null,"x":[1]}"#)
            .unwrap()
            .1
            .is_empty());
        assert!(parse_page(r#"{"items":[]}"#).unwrap().1.is_empty());
        assert!(parse_page(r#"[{"items":[1]}]"#).unwrap().1.is_empty());
        assert!(parse_page(r#"{"items":[1,}"#).is_err());
    }

    #[test]
    fn bytes_compare_as_the_standard_comparison_does() {
        let base: Vec<u8> = (0..40u8).collect();
        for len in 0..base.len() {
            let a = &base[..len];
            assert!(same_bytes(a, a), "{len}");
            assert!(!same_bytes(a, &base[..len + 1]), "{len}");
            for at in 0..len {
                let mut b = a.to_vec();
                b[at] ^= 0x20;
                assert!(!same_bytes(a, &b), "{len} bytes, differing at {at}");
            }
        }
    }

    #[test]
    fn items_with_their_text_are_equal_when_the_text_is() {
        #[derive(Debug, Default, PartialEq)]
        struct Item {
            id: String,
            count: u32,
        }
        crate::from_json_struct!(Item { id, count });
        let read = |text: &str| -> Vec<Sourced<Item>> {
            let (value, places) = parse_page(text).unwrap();
            let Json::Object(mut members) = value else {
                panic!("a page")
            };
            let Json::Array(items) = members.remove(0).1 else {
                panic!("items")
            };
            let items = items.into_iter().zip(places);
            items
                .map(|(v, p)| Sourced::from_item(v, &text.as_bytes()[p]).unwrap())
                .collect()
        };
        let before = read(r#"{"items":[{"id":"a","count":1},{"id":"b","count":2}]}"#);
        let after = read(r#"{"items":[{"id":"a","count":1},{"id":"b","count":3}]}"#);
        assert_eq!(
            before[0].value,
            Item {
                id: "a".into(),
                count: 1
            }
        );
        assert_eq!(after[1].count, 3);
        assert_eq!(before[0], after[0]);
        assert_ne!(before[1], after[1]);
        // Written differently, the same value still counts as a change (a redraw).
        let spaced = read(r#"{"items":[{"id": "a", "count": 1}]}"#);
        assert_eq!(spaced[0].value, before[0].value);
        assert_ne!(spaced[0], before[0]);
    }
}
