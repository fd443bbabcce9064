//! Canonical JSON and content ids.
//!
//! A document is stored in its canonical form: object keys sorted
//! (byte order, recursively), no whitespace, numbers as serde_json writes them
//! (shortest round-trip form). Two posts of the same content, whatever their
//! key order or formatting, have the same canonical text and so the same id:
//! the lowercase hex SHA-256 of that text.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// Sorts every object's keys, recursively, in place.
pub fn sort_keys(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.sort_keys();
            m.values_mut().for_each(sort_keys);
        }
        Value::Array(a) => a.iter_mut().for_each(sort_keys),
        _ => {}
    }
}

/// `v` with every object's keys sorted, recursively.
pub fn canonicalize(v: &Value) -> Value {
    let mut c = v.clone();
    sort_keys(&mut c);
    c
}

/// The canonical text of `v` (sorted keys, compact).
pub fn canonical_text(v: &Value) -> String {
    into_canonical_text(v.clone())
}

/// The canonical text of `v`, without copying it.
pub fn into_canonical_text(mut v: Value) -> String {
    sort_keys(&mut v);
    // Serialising a `Value` cannot fail: its keys are strings and its numbers finite.
    serde_json::to_string(&v).unwrap_or_default()
}

/// Content id of a canonical text: lowercase hex SHA-256 (64 characters).
pub fn content_id(canonical: &str) -> String {
    hex::encode(Sha256::digest(canonical.as_bytes()))
}

/// True when `s` has the shape of a content id (64 lowercase hex digits).
pub fn is_content_id(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_order_and_whitespace_do_not_change_the_id() {
        let a: Value = serde_json::from_str(r#"{"b": [1, {"y": 2, "x": 1.5}], "a": "s"}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"a":"s","b":[1,{"x":1.5,"y":2}]}"#).unwrap();
        assert_eq!(canonical_text(&a), r#"{"a":"s","b":[1,{"x":1.5,"y":2}]}"#);
        assert_eq!(canonical_text(&a), canonical_text(&b));
        let id = content_id(&canonical_text(&a));
        assert!(is_content_id(&id));
        assert_ne!(id, content_id(r#"{"a":"t"}"#));
        assert!(!is_content_id("../etc/passwd"));
    }
}
