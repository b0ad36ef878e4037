//! The table's one seeded random number generator: every shuffle and every die roll draws from it,
//! and its state is part of the table so that replays and saves reproduce every outcome.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A portable, serializable generator (ChaCha8 gives the same stream on every platform).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableRng(ChaCha8Rng);

impl TableRng {
    pub fn from_seed(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A generator from 32 bytes of key (the fair dice of a hosted table, `net::fair`).
    pub fn from_key(key: [u8; 32]) -> Self {
        Self(ChaCha8Rng::from_seed(key))
    }

    /// A uniform value in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    /// One six-sided die, 1..=6.
    pub fn d6(&mut self) -> u8 {
        self.0.random_range(1..=6)
    }

    /// A uniform float in `0..1`, used for the parameters of a visible dice throw.
    pub fn unit(&mut self) -> f32 {
        self.0.random::<f32>()
    }

    /// Fisher-Yates shuffle drawing from this generator.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// A seed for a new game started without one: the clock's seconds.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(1)
}

/// A number drawn from a table's seed that tells nothing of the table's future (a one-way hash):
/// what the window seeds what it only shows from (the dice's tumbles, the hint's search).
pub fn salt(seed: u64) -> u64 {
    use sha2::{Digest, Sha256};
    let hash = Sha256::new().chain_update(b"grognard: a salt, not a seed").chain_update(seed.to_le_bytes()).finalize();
    u64::from_le_bytes(hash[..8].try_into().expect("eight bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = TableRng::from_seed(7);
        let mut b = TableRng::from_seed(7);
        let xs: Vec<u8> = (0..50).map(|_| a.d6()).collect();
        let ys: Vec<u8> = (0..50).map(|_| b.d6()).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|v| (1..=6).contains(v)));
    }

    #[test]
    fn state_round_trips_through_ron() {
        let mut a = TableRng::from_seed(11);
        a.d6();
        let text = ron::to_string(&a).unwrap();
        let mut b: TableRng = ron::from_str(&text).unwrap();
        assert_eq!(a.d6(), b.d6());
        assert_eq!(a.below(1000), b.below(1000));
    }
}
