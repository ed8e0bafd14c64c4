//! The draw value of `OM_Mode=auto`: a contempt factor (Donkers 2003 §2.1.7, "one of the
//! first opponent-modelling mechanisms in computer chess": against a weak opponent a draw
//! is to be avoided even where a position looks level, against a strong one accepted even
//! where it looks better) made explicit and learned from the game instead of set by hand.
//!
//! The model is one number: the opponent's mean loss per move as our own search measures it.
//! After each of our moves we expect the value `v` our search found; after the opponent's
//! reply our next search finds `v'`. Had the opponent played as our search assumes, `v' ≈ v`
//! (up to the horizon's noise, which is as often up as down); the *drift* `v' − v` is what
//! its move gave away (positive) or found that we missed (negative). The contempt is the mean
//! drift, each sample clamped to ± [`DrawParams::sample_clamp`] (a blunder into a lost
//! position is one error, not a rating), shrunk towards 0 with
//! [`DrawParams::prior_moves`] pseudo-samples of 0 and kept within the user's ceiling. A
//! draw is then worth `−contempt` to us: the expected gain of playing on against an opponent
//! who gives that much away per move exceeds what a mere draw keeps, and an opponent who
//! finds more than we see (negative drift) makes a draw worth having. The evidence is kept
//! in the opponent's profile between games (at most [`DrawParams::carried_samples`] of it).

use crate::eval::score::{MATE_BOUND, Score};

/// Tunables of the draw value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawParams {
    /// Each drift sample is clamped to ± this (centipawns).
    pub sample_clamp: Score,
    /// Pseudo-samples of zero drift (shrinkage towards no contempt early in a game).
    pub prior_moves: f64,
    /// The most samples earlier games carry into a new one (their mean is kept), so that
    /// the draw value still follows an opponent who changes.
    pub carried_samples: u32,
}

impl Default for DrawParams {
    fn default() -> Self {
        DrawParams {
            sample_clamp: 100,
            prior_moves: 6.0,
            carried_samples: 40,
        }
    }
}

/// The drift evidence of one game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drift {
    /// Sum of the clamped samples.
    pub sum: f64,
    /// Number of samples.
    pub samples: u32,
    /// Our last search's value and the key of the position after our move (the opponent's
    /// turn): the reference for the next sample.
    pub last: Option<(u64, Score)>,
}

impl Drift {
    /// The evidence of earlier games (`sum` over `samples`, from a profile) carried into a
    /// new one: at most [`DrawParams::carried_samples`] samples with the same mean, and no
    /// reference position yet. A non-finite sum carries nothing.
    pub fn carried(sum: f64, samples: u64, p: &DrawParams) -> Self {
        if !sum.is_finite() || samples == 0 {
            return Drift::default();
        }
        let kept = samples.min(u64::from(p.carried_samples)) as u32;
        Drift {
            sum: sum * f64::from(kept) / samples as f64,
            samples: kept,
            last: None,
        }
    }

    /// Records our search's value `value` (our view) at a root whose previous position (the
    /// one the opponent moved from) had key `before`, then remembers `value` for the position
    /// `after` our chosen move. A sample is taken only when `before` is the position we left
    /// the opponent (so a jump in the game, a new game or a take-back takes none) and neither
    /// value is a mate or table score.
    pub fn observe(&mut self, before: Option<u64>, value: Score, after: u64, p: &DrawParams) {
        if let Some((k, v)) = self.last
            && before == Some(k)
            && v.abs() < MATE_BOUND
            && value.abs() < MATE_BOUND
        {
            let d = (value - v).clamp(-p.sample_clamp, p.sample_clamp);
            self.sum += f64::from(d);
            self.samples += 1;
        }
        self.last = Some((after, value));
    }

    /// The contempt (centipawns) this evidence supports, within ± `ceiling`.
    pub fn contempt(&self, ceiling: Score, p: &DrawParams) -> Score {
        let mean = self.sum / (f64::from(self.samples) + p.prior_moves.max(0.0));
        let c = ceiling.max(0);
        (mean.round() as Score).clamp(-c, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drift_needs_a_continuing_game() {
        let p = DrawParams::default();
        let mut d = Drift::default();
        d.observe(None, 10, 1, &p);
        assert_eq!(d.samples, 0);
        // The opponent moved from position 1: +30 given away.
        d.observe(Some(1), 40, 2, &p);
        assert_eq!((d.samples, d.sum), (1, 30.0));
        // A jump (the opponent's move was not from position 2) takes no sample.
        d.observe(Some(7), 90, 3, &p);
        assert_eq!(d.samples, 1);
        // Mate scores take none either.
        d.observe(Some(3), MATE_BOUND + 5, 4, &p);
        assert_eq!(d.samples, 1);
    }

    #[test]
    fn earlier_games_carry_their_mean_with_a_bounded_weight() {
        let p = DrawParams::default();
        let d = Drift::carried(2000.0, 100, &p);
        assert_eq!(d.samples, 40);
        assert!((d.sum - 800.0).abs() < 1e-9);
        assert_eq!(d.last, None);
        assert_eq!(Drift::carried(30.0, 3, &p).samples, 3);
        assert_eq!(Drift::carried(f64::NAN, 3, &p), Drift::default());
        assert_eq!(Drift::carried(5.0, 0, &p), Drift::default());
    }

    #[test]
    fn contempt_is_a_shrunk_clamped_mean_within_the_ceiling() {
        let p = DrawParams::default();
        let mut d = Drift::default();
        let mut v = 0;
        for i in 0..12u64 {
            // The opponent gives away 500 cp per move: clamped to 100 each.
            let next = v + 500;
            d.observe(Some(i), next, i + 1, &p);
            v = next;
        }
        assert_eq!(d.samples, 11);
        // 1100 / (11 + 6) = 64.7 → 65, within a ceiling of 80; a ceiling of 30 caps it.
        assert_eq!(d.contempt(80, &p), 65);
        assert_eq!(d.contempt(30, &p), 30);
        assert_eq!(d.contempt(0, &p), 0);
        let mut strong = Drift::default();
        for i in 0..10u64 {
            strong.observe(Some(i), -20 * i as Score, i + 1, &p);
        }
        assert!(
            strong.contempt(50, &p) < 0,
            "an opponent who outsees us makes draws welcome"
        );
    }
}
