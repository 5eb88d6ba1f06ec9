//! JSON text to wire types through serde_json, with errors that say where the
//! problem is (`items[3].node_count: invalid type: …`), and list items that keep
//! the text they were written with ([`Sourced`]).

use std::fmt;
use std::ops::Deref;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::de::StrRead;
use serde_json::value::RawValue;
use serde_path_to_error::Track;

/// Why a text could not be read as the type asked for: where, and what.
#[derive(Debug)]
pub struct DecodeError {
    /// `items[3].node_count`, or empty for the text as a whole.
    path: String,
    error: serde_json::Error,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        write!(f, "{}", self.error)
    }
}

impl std::error::Error for DecodeError {}

/// Reads `text` as one `T`; anything after the value but white space is refused.
///
/// Only the reading itself is per type: where a refusal happened and the check
/// of what follows the value are one function each ([`located`], [`ended`]),
/// not a copy per type read.
pub fn from_json<T: DeserializeOwned>(text: &str) -> Result<T, DecodeError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let mut track = Track::new();
    match T::deserialize(serde_path_to_error::Deserializer::new(
        &mut deserializer,
        &mut track,
    )) {
        Ok(value) => ended(&mut deserializer).map(|()| value),
        Err(error) => Err(located(track, error)),
    }
}

/// A refusal with the place it happened (`items[3].node_count`).
fn located(track: Track, error: serde_json::Error) -> DecodeError {
    let path = track.path().to_string();
    DecodeError {
        path: if path == "." { String::new() } else { path },
        error,
    }
}

/// Refuses anything but white space after the value.
fn ended(deserializer: &mut serde_json::Deserializer<StrRead<'_>>) -> Result<(), DecodeError> {
    deserializer.end().map_err(|error| DecodeError {
        path: String::new(),
        error,
    })
}

/// A list item with the text it was read from. Two reads of an item are equal
/// when their texts are: the same text reads as the same value, and any change
/// shows in the text. (An item written differently but meaning the same, spaces
/// or member order, counts as changed: at worst its row is drawn again.) That is
/// one pass over a few hundred bytes where comparing the values is a call per
/// field; a table that follows a long list compares every item on each read.
/// Each item keeps its own text (`RawValue`), not the whole answer it came in.
#[derive(Clone, Debug)]
pub struct Sourced<T> {
    pub value: T,
    text: Box<str>,
}

impl<T> Deref for Sourced<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> PartialEq for Sourced<T> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl<T> Eq for Sourced<T> {}

/// By the text too, so a read item can key its table row: an unchanged item
/// keeps its row, a changed one gets a new one.
impl<T> std::hash::Hash for Sourced<T> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Sourced<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        // The outer path (`items[3]`) comes from the caller's error; this one
        // names the place inside the item.
        let value = from_json(raw.get()).map_err(D::Error::custom)?;
        Ok(Sourced {
            value,
            text: raw.into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Page, Pool};

    #[test]
    fn an_error_names_the_place_of_the_bad_value() {
        let err = from_json::<Page<Pool>>(r#"{"items":[{"id":"a"},{"node_count":"x"}]}"#)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("items[1].node_count: invalid type: string \"x\", expected u32"),
            "{err}"
        );
    }

    #[test]
    fn trailing_text_and_invalid_json_are_refused() {
        assert!(from_json::<Pool>(r#"{"id":"a"} x"#).is_err());
        assert!(from_json::<String>(r#""\u+041""#).is_err());
        assert!(from_json::<f64>("1e999999").is_err());
        assert!(from_json::<Pool>("<html>Bad Gateway</html>").is_err());
    }

    #[test]
    fn sourced_items_compare_by_their_text_and_name_a_bad_field() {
        let a: Page<Sourced<Pool>> =
            from_json(r#"{"items":[{"id":"a","node_count":1},{"id":"b","node_count":2}]}"#)
                .unwrap();
        let b: Page<Sourced<Pool>> =
            from_json(r#"{"items":[{"id":"a","node_count":1},{"id":"b","node_count":3}]}"#)
                .unwrap();
        assert_eq!(a.items[0], b.items[0]);
        assert_ne!(a.items[1], b.items[1]);
        assert_eq!(b.items[1].node_count, 3);

        let err = from_json::<Page<Sourced<Pool>>>(r#"{"items":[{"id":"a"},{"name":5}]}"#)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("items[1]: name: invalid type: integer `5`"),
            "{err}"
        );
    }
}
