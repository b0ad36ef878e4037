//! A short hexadecimal digest of any serializable value, used to compare tables and scenarios.

use serde::Serialize;
use sha2::{Digest, Sha256};

/// SHA-256 of the value's RON text, as 16 hex digits (64 bits: enough to tell tables apart).
pub fn digest_of<T: Serialize>(value: &T) -> String {
    let text = ron::to_string(value).expect("table state serializes");
    digest_bytes(text.as_bytes())
}

pub fn digest_bytes(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    hash[..8].iter().map(|b| format!("{b:02x}")).collect()
}
