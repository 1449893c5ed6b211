//! Upstream's `details` object, kept as an ordered list of fields.
//!
//! Every read builds one, and the model checker reads millions of replies without looking at
//! them: a `serde_json::Map` allocated a `String` for each of its ~14 keys and an index table
//! per read (replacing it cut a model check's instructions by 14%, callgrind, side by side).
//! Here the engines' keys are `&'static str`
//! and the fields one vector; a JSON object is made only where one leaves the process or is
//! compared with a recording ([`Details::to_map`], [`Serialize`]).

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Upstream's `details`: its keys in upstream's order, each with a JSON value.
///
/// Invariant: no key appears twice ([`Details::insert`] replaces a key in place, as a JSON
/// object that keeps insertion order does). Equality compares the keys in order: upstream's
/// order is part of what a recording pins.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Details {
    /// The fields in insertion order, keys unique.
    fields: Vec<(Cow<'static, str>, Value)>,
}

impl Details {
    /// No fields.
    pub fn new() -> Details {
        Details::default()
    }

    /// No fields, with room for `capacity` without reallocating.
    pub fn with_capacity(capacity: usize) -> Details {
        Details {
            fields: Vec::with_capacity(capacity),
        }
    }

    /// Sets `key` to `value`: in its place when the key is there, else after the last field.
    pub fn insert(&mut self, key: impl Into<Cow<'static, str>>, value: impl Into<Value>) {
        let key = key.into();
        let value = value.into();
        match self.fields.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => *v = value,
            None => self.fields.push((key, value)),
        }
    }

    /// Appends a field whose key is not there yet: the engines build their details from keys
    /// they know to be new, and [`Details::insert`]'s search for the key cost ~2.5% of a
    /// checked state's instructions.
    pub(crate) fn push_new(&mut self, key: &'static str, value: impl Into<Value>) {
        debug_assert!(!self.contains_key(key), "{key} is in the details already");
        self.fields.push((Cow::Borrowed(key), value.into()));
    }

    /// The value of `key`, if there is one.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The value of `key` to change in place, if there is one.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.fields
            .iter_mut()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// Whether `key` is there.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// How many fields there are.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Whether there is no field.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The fields in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.fields.iter().map(|(k, v)| (k.as_ref(), v))
    }

    /// The same fields as a JSON object, in order.
    pub fn to_map(&self) -> Map<String, Value> {
        self.iter()
            .map(|(k, v)| (k.to_owned(), v.clone()))
            .collect()
    }
}

impl From<Map<String, Value>> for Details {
    /// An object's fields in its order (its keys are unique already).
    fn from(map: Map<String, Value>) -> Details {
        Details {
            fields: map.into_iter().map(|(k, v)| (Cow::Owned(k), v)).collect(),
        }
    }
}

impl From<Details> for Map<String, Value> {
    fn from(details: Details) -> Map<String, Value> {
        details
            .fields
            .into_iter()
            .map(|(k, v)| (k.into_owned(), v))
            .collect()
    }
}

impl std::ops::Index<&str> for Details {
    type Output = Value;

    /// The value of `key`; panics when there is none, as indexing a `serde_json::Map` does.
    fn index(&self, key: &str) -> &Value {
        self.get(key)
            .unwrap_or_else(|| panic!("no key {key:?} in details"))
    }
}

impl Serialize for Details {
    /// A JSON object, keys in order.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.fields.len()))?;
        for (k, v) in &self.fields {
            map.serialize_entry(k.as_ref(), v)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_replaces_in_place_and_keeps_the_order() {
        let mut d = Details::new();
        d.insert("id", "a");
        d.insert("linesShown", 3);
        d.insert(String::from("extra"), true);
        d.insert("id", "b");
        let keys: Vec<&str> = d.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["id", "linesShown", "extra"]);
        assert_eq!(d["id"], "b");
        assert_eq!(d.len(), 3);
        assert!(!d.contains_key("notFound"));
        assert!(!d.is_empty());
        assert!(Details::new().is_empty());
    }

    #[test]
    fn it_serialises_and_converts_as_the_ordered_object() {
        let mut d = Details::with_capacity(2);
        d.insert("z", 1);
        d.insert("a", Value::Null);
        assert_eq!(serde_json::to_string(&d).unwrap(), r#"{"z":1,"a":null}"#);
        let map = d.to_map();
        assert_eq!(serde_json::to_string(&map).unwrap(), r#"{"z":1,"a":null}"#);
        assert_eq!(Details::from(map.clone()), d);
        assert_eq!(Map::from(d), map);
    }

    #[test]
    fn get_mut_changes_a_value_in_its_place() {
        let mut d = Details::new();
        d.insert("id", "a");
        d.insert("linesShown", 3);
        *d.get_mut("linesShown").expect("a field") = 4.into();
        assert!(d.get_mut("notFound").is_none());
        let fields: Vec<(&str, &Value)> = d.iter().collect();
        assert_eq!(fields, [("id", &"a".into()), ("linesShown", &4.into())]);
    }

    #[test]
    fn equality_sees_the_order() {
        let mut a = Details::new();
        a.insert("x", 1);
        a.insert("y", 2);
        let mut b = Details::new();
        b.insert("y", 2);
        b.insert("x", 1);
        assert_ne!(a, b);
    }
}
