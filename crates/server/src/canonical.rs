//! Canonical JSON and content ids.
//!
//! A document is stored in its canonical form: object keys sorted
//! (byte order, recursively), no whitespace, numbers as serde_json writes them
//! (shortest round-trip form). Two posts of the same content, whatever their
//! key order or formatting, have the same canonical text and so the same id:
//! the lowercase hex SHA-256 of that text.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// `v` with every object's keys sorted, recursively.
pub fn canonicalize(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let mut out = Map::with_capacity(m.len());
            for k in keys {
                out.insert(k.clone(), canonicalize(&m[k]));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(canonicalize).collect()),
        other => other.clone(),
    }
}

/// The canonical text of `v` (sorted keys, compact).
pub fn canonical_text(v: &Value) -> String {
    // Serialising a `Value` cannot fail: its keys are strings and its numbers finite.
    serde_json::to_string(&canonicalize(v)).unwrap_or_default()
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
