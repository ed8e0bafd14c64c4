//! [`Perturbed`]: an evaluator plus a small deterministic pseudo-random offset per position.
//!
//! The KQKR experiment of Donkers 2003 §5.4.2 relied on "small timing differences" to make
//! the 20 games of a match differ. Our searches are deterministic (fixed depth or nodes), so
//! the fallible K+Q side gets a per-game seed instead: its evaluation of a position is the
//! inner evaluation plus an offset in `[-amplitude, amplitude]` centipawns drawn from a hash
//! of the position's Zobrist key and the seed. The offset is a pure function of (position,
//! seed), so the evaluator stays pure, transposition tables stay valid, and an opponent model
//! that knows the seed knows the evaluation exactly (perfect knowledge, §5.4.2).

use shakmaty::Chess;

use super::Evaluator;
use crate::position::zobrist;
use crate::rng::mix64;
use crate::score::{MAX_EVAL, Score};

/// `inner` plus a seeded offset in `[-amplitude, amplitude]` cp (see the module docs).
#[derive(Clone, Debug)]
pub struct Perturbed<E: Evaluator> {
    inner: E,
    seed: u64,
    amplitude: Score,
    name: String,
}

impl<E: Evaluator> Perturbed<E> {
    /// `inner` perturbed with `seed`; `amplitude` is clamped to `0..=1000`.
    pub fn new(inner: E, seed: u64, amplitude: Score) -> Self {
        let name = format!("{}+perturb", inner.name());
        Perturbed {
            inner,
            seed,
            amplitude: amplitude.clamp(0, 1000),
            name,
        }
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The amplitude in centipawns.
    pub fn amplitude(&self) -> Score {
        self.amplitude
    }

    /// The offset added to the evaluation of the position with Zobrist key `key`.
    pub fn offset(&self, key: u64) -> Score {
        if self.amplitude == 0 {
            return 0;
        }
        let h = mix64(key ^ mix64(self.seed));
        let span = 2 * self.amplitude as u64 + 1;
        (h % span) as Score - self.amplitude
    }
}

impl<E: Evaluator> Evaluator for Perturbed<E> {
    fn name(&self) -> &str {
        &self.name
    }

    fn evaluate(&self, pos: &Chess) -> Score {
        let base = self.inner.evaluate(pos);
        (base + self.offset(zobrist(pos))).clamp(-MAX_EVAL, MAX_EVAL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::FullEval;
    use crate::position::Position;

    #[test]
    fn offsets_are_bounded_pure_and_seed_dependent() {
        let p = Perturbed::new(FullEval::default(), 7, 12);
        let q = Perturbed::new(FullEval::default(), 8, 12);
        let mut differ = 0;
        for key in 0..2000u64 {
            let o = p.offset(key.wrapping_mul(0x1234_5678_9ABC_DEF1));
            assert!((-12..=12).contains(&o));
            assert_eq!(o, p.offset(key.wrapping_mul(0x1234_5678_9ABC_DEF1)));
            if o != q.offset(key.wrapping_mul(0x1234_5678_9ABC_DEF1)) {
                differ += 1;
            }
        }
        assert!(differ > 1500, "seeds should give different offsets");
        let pos = Position::from_fen("K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1").unwrap();
        let base = FullEval::default().evaluate(pos.chess());
        let v = p.evaluate(pos.chess());
        assert_eq!(v, base + p.offset(pos.key()));
        assert_eq!(
            Perturbed::new(FullEval::default(), 7, 0).evaluate(pos.chess()),
            base
        );
    }
}
