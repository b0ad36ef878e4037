//! Dice nobody can bias ("provably fair"): the host draws a secret and publishes its commitment
//! (a hash) before any seat contributes; each seat sends a random value of its own; the table's
//! key is an HMAC of all of them under the host's secret; before every action the table's
//! generator is reseeded from an HMAC of the key, the action's index and the head of the log's
//! hash chain. The host cannot choose a roll (the seats' values came after its commitment), a
//! seat cannot (the host's secret is unknown to it until the end), and an edited or reordered log
//! replays to other dice. The host can foresee rolls: a neutral host for competitive play.

use super::chain::{Hash, hash_parts};
use crate::engine::rng::TableRng;
use hmac::{Hmac, Mac};
use sha2::Sha256;

const TAG_COMMIT: &[u8] = b"grognard/fair/commit/v1";
const TAG_KEY: &[u8] = b"grognard/fair/key/v1";
const TAG_SEED: &[u8] = b"grognard/fair/seed/v1";
const TAG_ROLL: &[u8] = b"grognard/fair/roll/v1";

fn hmac(key: &[u8], parts: &[&[u8]]) -> Hash {
    let mut m = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    for p in parts {
        m.update(&(p.len() as u64).to_le_bytes());
        m.update(p);
    }
    m.finalize().into_bytes().into()
}

/// What the host publishes before any seat contributes.
pub fn commitment(table_id: &str, secret: &Hash) -> Hash {
    hash_parts(&[TAG_COMMIT, table_id.as_bytes(), secret])
}

/// The table's key: the host's secret over every seat's contribution, in seat order.
pub fn table_key(table_id: &str, secret: &Hash, contributions: &[Hash]) -> Hash {
    let mut parts: Vec<&[u8]> = vec![TAG_KEY, table_id.as_bytes()];
    parts.extend(contributions.iter().map(|c| c.as_slice()));
    hmac(secret, &parts)
}

/// The seed the table is set up with (its first shuffles and draws).
pub fn setup_seed(table_id: &str, key: &Hash) -> u64 {
    let h = hmac(key, &[TAG_SEED, table_id.as_bytes()]);
    u64::from_le_bytes(h[..8].try_into().expect("8 bytes"))
}

/// The generator for the action at `index`, after the chain's head `head`.
pub fn generator(table_id: &str, key: &Hash, index: u64, head: &Hash) -> TableRng {
    TableRng::from_key(hmac(key, &[TAG_ROLL, table_id.as_bytes(), &index.to_le_bytes(), head]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_depends_on_every_contribution_and_the_generator_on_index_and_head() {
        let secret = [3u8; 32];
        let k = table_key("t", &secret, &[[1; 32], [2; 32]]);
        assert_ne!(k, table_key("t", &secret, &[[1; 32], [9; 32]]));
        assert_ne!(k, table_key("t", &[4; 32], &[[1; 32], [2; 32]]));
        assert_ne!(k, table_key("u", &secret, &[[1; 32], [2; 32]]));
        let rolls = |mut r: TableRng| (0..20).map(|_| r.d6()).collect::<Vec<_>>();
        let base = rolls(generator("t", &k, 5, &[0; 32]));
        assert_eq!(base, rolls(generator("t", &k, 5, &[0; 32])), "reproducible");
        assert_ne!(base, rolls(generator("t", &k, 6, &[0; 32])));
        assert_ne!(base, rolls(generator("t", &k, 5, &[1; 32])));
        assert_ne!(commitment("t", &secret), commitment("t", &[4; 32]));
    }
}
