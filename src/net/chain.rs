//! The log of a hosted table as a hash chain: each link hashes the previous link's hash, its
//! index, the seat and the action's text, so an edited, dropped or reordered action breaks every
//! hash after it (and, through the fair dice, every roll after it).

use crate::engine::seats::SeatId;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A 32-byte hash, written in hex in saves and messages.
pub type Hash = [u8; 32];

/// Every hashed input starts with a fixed tag for its purpose (and the table's id), so that no
/// value can be reused across purposes or tables.
const TAG_GENESIS: &[u8] = b"grognard/chain/genesis/v1";
const TAG_LINK: &[u8] = b"grognard/chain/link/v1";

/// Hashes length-prefixed parts, so that ("ab", "c") and ("a", "bc") differ.
pub fn hash_parts(parts: &[&[u8]]) -> Hash {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().into()
}

/// The chain's start: the table, its scenario (by content hash) and the host's commitment.
pub fn genesis(table_id: &str, scenario_hash: &str, commitment: &Hash) -> Hash {
    hash_parts(&[TAG_GENESIS, table_id.as_bytes(), scenario_hash.as_bytes(), commitment])
}

/// One accepted action: its place in the log, the seat that took it, the action as text, and
/// the hash that chains it to everything before.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    pub index: u64,
    pub seat: SeatId,
    pub act: String,
    #[serde(with = "hex32")]
    pub hash: Hash,
}

/// The hash of the link that follows `prev`.
pub fn link_hash(table_id: &str, prev: &Hash, index: u64, seat: SeatId, act: &str) -> Hash {
    hash_parts(&[TAG_LINK, table_id.as_bytes(), prev, &index.to_le_bytes(), &[seat.0], act.as_bytes()])
}

/// Checks a chain from its genesis: the index of the first link that does not follow.
pub fn check(table_id: &str, genesis: &Hash, links: &[Link]) -> Result<Hash, usize> {
    let mut head = *genesis;
    for (i, l) in links.iter().enumerate() {
        if l.index != i as u64 || l.hash != link_hash(table_id, &head, l.index, l.seat, &l.act) {
            return Err(i);
        }
        head = l.hash;
    }
    Ok(head)
}

pub fn to_hex(h: &[u8]) -> String {
    h.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn from_hex(s: &str) -> Option<Hash> {
    if s.len() != 64 || !s.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// Serde for a hash as 64 hex digits.
pub mod hex32 {
    use super::{Hash, from_hex, to_hex};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(h: &Hash, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&to_hex(h))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Hash, D::Error> {
        let text = String::deserialize(d)?;
        from_hex(&text).ok_or_else(|| serde::de::Error::custom("expected 64 hex digits"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(n: u64) -> (Hash, Vec<Link>) {
        let g = genesis("t1", "scenario", &[7; 32]);
        let mut head = g;
        let links = (0..n)
            .map(|i| {
                let act = format!("Game(Move(unit: {i}))");
                let hash = link_hash("t1", &head, i, SeatId((i % 2) as u8), &act);
                head = hash;
                Link { index: i, seat: SeatId((i % 2) as u8), act, hash }
            })
            .collect();
        (g, links)
    }

    #[test]
    fn a_chain_checks_from_its_genesis_and_an_edit_breaks_it_where_it_was_made() {
        let (g, links) = chain(6);
        assert_eq!(check("t1", &g, &links), Ok(links[5].hash));
        let mut edited = links.clone();
        edited[3].act = "Game(Move(unit: 9))".into();
        assert_eq!(check("t1", &g, &edited), Err(3));
        let mut swapped = links.clone();
        swapped.swap(1, 2);
        assert_eq!(check("t1", &g, &swapped), Err(1));
        let mut other_seat = links.clone();
        other_seat[4].seat = SeatId(1);
        assert_eq!(check("t1", &g, &other_seat), Err(4));
        assert_eq!(check("t2", &g, &links), Err(0), "another table's id");
    }

    #[test]
    fn hashes_round_trip_through_hex() {
        let h = hash_parts(&[b"x"]);
        assert_eq!(from_hex(&to_hex(&h)), Some(h));
        assert_eq!(from_hex("zz"), None);
        assert_ne!(hash_parts(&[b"ab", b"c"]), hash_parts(&[b"a", b"bc"]));
    }
}
