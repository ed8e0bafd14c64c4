//! [`GameRng`]: the small deterministic generator of the crate — each self-play game's
//! random opening plies (`datagen`), seeded random nets for tests of the inference (`nnue`),
//! the tables' random samples (`tb::sample`) and the seeded stress and fuzz tests. A module
//! of its own so that the network and its inference need nothing from the lab. Written
//! here rather than taken from a crate: it is ten lines, and a crate's stream could change
//! with its version, where ours is part of every recorded seed's meaning.
//!
//! SplitMix64 (Steele, Lea and Flood 2014): a 64-bit counter advanced by the golden-ratio
//! increment and passed through the [`mix64`] finaliser (also the crate's seeded hash:
//! perturbed evaluations, the lab's per-game seeds). The state of game *i* is a hash of
//! the run's seed and *i*, so every game's draws depend on nothing else — not on the number
//! of threads, not on the order games run in, not on any shared state.

/// The golden-ratio increment of SplitMix64.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: a well-mixed 64-bit hash of `x`.
pub const fn mix64(mut x: u64) -> u64 {
    x = x.wrapping_add(GOLDEN);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The random number generator of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRng {
    state: u64,
}

impl GameRng {
    /// The generator of game `game` in a run seeded with `seed`.
    pub fn new(seed: u64, game: u64) -> Self {
        GameRng {
            state: mix64(mix64(seed) ^ game.wrapping_mul(GOLDEN)),
        }
    }

    /// The plain SplitMix64 stream started at `seed` (one generator for a whole run: the
    /// tables' samples, the seeded tests).
    pub const fn from_seed(seed: u64) -> Self {
        GameRng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let out = mix64(self.state);
        self.state = self.state.wrapping_add(GOLDEN);
        out
    }

    /// A number in `0..n` (0 when `n` is 0), by the multiply-shift method: the bias is at
    /// most `n / 2^64`, nothing at the sizes of move lists.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draws(seed: u64, game: u64) -> Vec<u64> {
        let mut r = GameRng::new(seed, game);
        (0..16).map(|_| r.next_u64()).collect()
    }

    #[test]
    fn each_game_has_its_own_repeatable_stream() {
        assert_eq!(draws(1, 0), draws(1, 0));
        assert_eq!(draws(7, 123), draws(7, 123));
        // Other games and other seeds give other streams.
        assert_ne!(draws(1, 0), draws(1, 1));
        assert_ne!(draws(1, 0), draws(2, 0));
        assert_ne!(draws(1, 1), draws(2, 0));
        assert_eq!(
            GameRng::new(1, 6).next_u64(),
            draws(1, 6)[0],
            "a fresh generator starts at the first draw"
        );
    }

    #[test]
    fn from_seed_is_the_published_splitmix64() {
        // The reference stream of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        let mut r = GameRng::from_seed(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = GameRng::new(3, 9);
        let mut seen = [0u32; 20];
        for _ in 0..4000 {
            let x = r.below(20);
            assert!(x < 20);
            seen[x] += 1;
        }
        assert!(seen.iter().all(|&c| c > 120), "{seen:?}");
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
    }
}
