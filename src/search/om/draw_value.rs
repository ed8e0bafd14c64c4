//! The draw value of `OM_Mode=auto`: a contempt factor (Donkers 2003 §2.1.7, "one of the
//! first opponent-modelling mechanisms in computer chess": against a weak opponent a draw
//! is to be avoided even where a position looks level, against a strong one accepted even
//! where it looks better) made explicit and learned from the game instead of set by hand.
//!
//! The model is one number: the opponent's mean loss per move as our own search measures it.
//! After each of our moves we expect the value `v` our search found; after the opponent's
//! reply our next search finds `v'`. The *drift* `v' − v` is what its move gave away
//! (positive) or found that we missed (negative), each sample clamped to
//! ± [`DrawParams::sample_clamp`]. Within one game the drifts telescope: their sum is the
//! game's last value minus its first, so the current game's mean drift says who is winning
//! *this* game (measured in match 5 against Toga II: the per-game mean drift correlates 0.91
//! with the result), not who the opponent is. The contempt therefore uses only the drift of
//! **earlier games** against this opponent, kept in its profile (at most
//! [`DrawParams::carried_samples`] samples with their mean): the expected trend of a game
//! against it. It is shrunk towards 0 with [`DrawParams::prior_moves`] pseudo-samples.
//!
//! A draw ends the game where it stands, so what it costs us is what the opponent would have
//! conceded had the game gone on: the mean drift times [`DrawParams::horizon_moves`], the moves
//! a draw typically cuts short (a repetition is claimed on the third occurrence, a few moves
//! after the line began). Per move the drift is small (against Stockfish at UCI_Elo 2050, which
//! α-β beats 59.6 %, about +6 cp: +21 in won games, −14 in lost ones, measured in matches 4
//! and 5), so without the horizon the contempt was a few centipawns whatever the opponent.
//! The result is kept within the user's ceiling (`OM_Search` `contempt`, 0 = off, the default:
//! an earlier version that used the current game lost 11.6 points against α-β versus Toga II,
//! p = 0.03, together with the fit's overhead; this one, with a ceiling of 30, scored 5.0 ± 5.7
//! points below α-β against Stockfish 2050 in 400 games a side, p = 0.068 — carried over ~8
//! games, the estimate follows recent results: `matches/2026-11-24-match7-sf2050/`). A draw
//! is worth `−contempt` to us.

pub use crate::params::om::DrawParams;
use crate::score::{MATE_BOUND, Score};

/// The drift evidence against one opponent: this game's samples and earlier games' (from the
/// profile).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drift {
    /// Sum of this game's clamped samples.
    pub sum: f64,
    /// Number of this game's samples.
    pub samples: u32,
    /// Sum of earlier games' samples (as carried, see [`Drift::carried`]).
    pub earlier_sum: f64,
    /// Number of earlier games' samples (as carried).
    pub earlier_samples: u32,
    /// Our last search's value and the key of the position after our move (the opponent's
    /// turn): the reference for the next sample.
    pub last: Option<(u64, Score)>,
}

impl Drift {
    /// The evidence of earlier games (`sum` over `samples`, from a profile) carried into a
    /// new one: at most [`DrawParams::carried_samples`] samples with the same mean, none of
    /// this game yet and no reference position. A non-finite sum carries nothing.
    pub fn carried(sum: f64, samples: u64, p: &DrawParams) -> Self {
        if !sum.is_finite() || samples == 0 {
            return Drift::default();
        }
        let kept = samples.min(u64::from(p.carried_samples)) as u32;
        Drift {
            earlier_sum: sum * f64::from(kept) / samples as f64,
            earlier_samples: kept,
            ..Drift::default()
        }
    }

    /// All evidence to be saved: (sum, samples) of earlier games and this one.
    pub fn total(&self) -> (f64, u64) {
        (
            self.earlier_sum + self.sum,
            u64::from(self.earlier_samples) + u64::from(self.samples),
        )
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

    /// The contempt (centipawns) earlier games' evidence supports, within ± `ceiling`.
    pub fn contempt(&self, ceiling: Score, p: &DrawParams) -> Score {
        let mean = self.earlier_sum / (f64::from(self.earlier_samples) + p.prior_moves.max(0.0));
        let c = ceiling.max(0);
        let expected = (mean * p.horizon_moves.max(0.0)).clamp(-1e6, 1e6);
        (expected.round() as Score).clamp(-c, c)
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
        let d = Drift::carried(20_000.0, 1000, &p);
        assert_eq!((d.earlier_samples, d.samples), (400, 0));
        assert!((d.earlier_sum - 8000.0).abs() < 1e-9);
        assert_eq!(d.last, None);
        assert_eq!(Drift::carried(30.0, 3, &p).earlier_samples, 3);
        assert_eq!(Drift::carried(f64::NAN, 3, &p), Drift::default());
        assert_eq!(Drift::carried(5.0, 0, &p), Drift::default());
        let mut more = Drift::carried(30.0, 3, &p);
        more.observe(None, 0, 1, &p);
        more.observe(Some(1), 10, 2, &p);
        assert_eq!(more.total(), (40.0, 4));
    }

    #[test]
    fn contempt_comes_from_earlier_games_only_shrunk_and_within_the_ceiling() {
        let p = DrawParams::default();
        // This game: the opponent gives away 500 cp per move (clamped to 100 each) — a game
        // we are winning, which says nothing yet about the next one.
        let mut d = Drift::default();
        let mut v = 0;
        for i in 0..12u64 {
            let next = v + 500;
            d.observe(Some(i), next, i + 1, &p);
            v = next;
        }
        assert_eq!(d.samples, 11);
        assert_eq!(d.contempt(80, &p), 0);
        // Next game: 1100 / (11 + 6) = 64.7 cp per move, over 8 moves 518 → the ceiling.
        let (sum, n) = d.total();
        let next = Drift::carried(sum, n, &p);
        assert_eq!(next.contempt(80, &p), 80);
        assert_eq!(next.contempt(30, &p), 30);
        assert_eq!(next.contempt(0, &p), 0);
        // A small drift: 60 cp over 94 samples + 6 = 0.6 cp per move, 4.8 → 5 over 8 moves.
        let slight = Drift::carried(60.0, 94, &p);
        assert_eq!(slight.contempt(40, &p), 5);
        let flat = DrawParams {
            horizon_moves: 1.0,
            ..p
        };
        assert_eq!(slight.contempt(40, &flat), 1);
        let strong = Drift::carried(-200.0, 10, &p);
        assert!(
            strong.contempt(50, &p) < 0,
            "an opponent who outsees us makes draws welcome"
        );
    }
}
