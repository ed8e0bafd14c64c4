//! MT19937 exactly as Donkers' random-tree experiments used it (thesis §5.2, Fig 5.1, the
//! `MTRandomGame` procedure of his experiment code): the standard twist and tempering, the original 1998
//! `sgenrand` seeding (`state[i] = 69069 · state[i−1] mod 2³²`, index 624 so the first draw
//! twists), and the `java.util.Random`-compatible derived draws `next(b)`, `nextDouble` and
//! `nextFloat` of Sean Luke's `MersenneTwister`.
//!
//! Two implementations share the same output: [`Mt19937`] keeps the full 624-word state, and
//! [`LazyMt`] computes the first [`LAZY_LIMIT`] outputs after a reseed directly from the seed.
//! Because the 1998 seeding makes `state[i] = seed · 69069^i`, output `k < 227` only needs the
//! three seeded words `k`, `k+1` and `k+397`; expanding a random-tree node (one reseed, then
//! `1 + 2·nopp·w` outputs) therefore costs a few multiplications per output instead of a full
//! 624-word seeding and twist.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_B0DF;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7FFF_FFFF;

/// How many outputs after a reseed [`LazyMt`] can produce (the twist of word `k` reads only
/// seeded, not yet twisted, words while `k + 397 < 624`).
pub const LAZY_LIMIT: usize = N - M;

/// `69069^i mod 2³²` for `i < 624`: the 1998 seeding in closed form.
const POW69069: [u32; N] = {
    let mut t = [0u32; N];
    t[0] = 1;
    let mut i = 1;
    while i < N {
        t[i] = t[i - 1].wrapping_mul(69069);
        i += 1;
    }
    t
};

#[inline]
fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9D2C_5680;
    y ^= (y << 15) & 0xEFC6_0000;
    y ^= y >> 18;
    y
}

#[inline]
fn twist_word(cur: u32, next: u32, far: u32) -> u32 {
    let y = (cur & UPPER_MASK) | (next & LOWER_MASK);
    far ^ (y >> 1) ^ if y & 1 == 1 { MATRIX_A } else { 0 }
}

/// The draws derived from 32-bit outputs, as `java.util.Random` defines them on top of `next`.
pub trait JavaDraws {
    /// The next tempered 32-bit output.
    fn next_u32(&mut self) -> u32;

    /// Java `next(bits)`: the output shifted right (unsigned) by `32 − bits`; `bits` in 1..=32.
    #[inline]
    fn next_bits(&mut self, bits: u32) -> u32 {
        self.next_u32() >> (32 - bits.clamp(1, 32))
    }

    /// Java `nextDouble`: `(next(26)·2²⁷ + next(27)) / 2⁵³` (two outputs, 53 random bits).
    #[inline]
    fn next_double(&mut self) -> f64 {
        let hi = u64::from(self.next_bits(26));
        let lo = u64::from(self.next_bits(27));
        ((hi << 27) + lo) as f64 / (1u64 << 53) as f64
    }

    /// Java `nextFloat`: `next(24) / 2²⁴` as an IEEE single (one output).
    #[inline]
    fn next_float(&mut self) -> f32 {
        self.next_bits(24) as f32 / (1u32 << 24) as f32
    }
}

/// The full MT19937 generator with the 1998 `sgenrand` seeding.
#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; N],
    index: usize,
}

impl Mt19937 {
    /// A generator seeded like `setSeed(long)`: only the low 32 bits of `seed` are used. A seed
    /// whose low 32 bits are zero gives the all-zero state (every output 0), as in the original.
    pub fn new(seed: u64) -> Self {
        let s = seed as u32;
        let mut state = [0u32; N];
        for (word, pow) in state.iter_mut().zip(POW69069.iter()) {
            *word = s.wrapping_mul(*pow);
        }
        Mt19937 { state, index: N }
    }

    fn twist(&mut self) {
        for k in 0..N {
            let far = self.state[(k + M) % N];
            self.state[k] = twist_word(self.state[k], self.state[(k + 1) % N], far);
        }
        self.index = 0;
    }
}

impl JavaDraws for Mt19937 {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let y = self.state[self.index];
        self.index += 1;
        temper(y)
    }
}

/// The first [`LAZY_LIMIT`] outputs of a freshly seeded [`Mt19937`], computed without the
/// state array. Past the limit it returns `None` from [`LazyMt::try_next`]; callers that may
/// need more outputs use [`Mt19937`] instead (see [`LazyMt::fits`]).
#[derive(Clone, Copy, Debug)]
pub struct LazyMt {
    seed: u32,
    k: usize,
}

impl LazyMt {
    /// A lazy generator reseeded with the low 32 bits of `seed`.
    #[inline]
    pub fn new(seed: u64) -> Self {
        LazyMt {
            seed: seed as u32,
            k: 0,
        }
    }

    /// Whether `outputs` draws after a reseed stay within the lazy range.
    #[inline]
    pub fn fits(outputs: usize) -> bool {
        outputs <= LAZY_LIMIT
    }

    /// The next output, or `None` past [`LAZY_LIMIT`].
    #[inline]
    pub fn try_next(&mut self) -> Option<u32> {
        let k = self.k;
        if k >= LAZY_LIMIT {
            return None;
        }
        self.k += 1;
        let s = self.seed;
        let w = twist_word(
            s.wrapping_mul(POW69069[k]),
            s.wrapping_mul(POW69069[k + 1]),
            s.wrapping_mul(POW69069[k + M]),
        );
        Some(temper(w))
    }
}

impl JavaDraws for LazyMt {
    /// Past [`LAZY_LIMIT`] this returns 0; check [`LazyMt::fits`] first.
    #[inline]
    fn next_u32(&mut self) -> u32 {
        self.try_next().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lazy_matches_full() {
        for seed in [1u64, 4357, 0xDEAD_BEEF, 399_139_511] {
            let mut full = Mt19937::new(seed);
            let mut lazy = LazyMt::new(seed);
            for _ in 0..LAZY_LIMIT {
                assert_eq!(Some(full.next_u32()), lazy.try_next());
            }
            assert_eq!(lazy.try_next(), None);
        }
    }
}
