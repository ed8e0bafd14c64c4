//! Playing below full strength: `UCI_LimitStrength` with `UCI_Elo` (both protocols announce
//! them as options). A weaker nosce is one of the opponent types it models (Donkers 2003
//! §6.1: an evaluation function plus the search limits its owner plays with): our own
//! evaluation with a seeded perturbation ([`crate::eval::Perturbed`], the fallible K+Q side's
//! noise of §5.4.2), searched with a node budget. Its errors are those of a player who sees
//! less far and misjudges some positions — consistently within a game, since the offset is a
//! pure function of (position, seed) — not random moves: it still plays the best move it
//! finds under its own judgement. The seed changes with every new game.
//!
//! [`ANCHORS`] (in [`crate::params`], with the other tunables) maps a rating to (node
//! budget, noise amplitude); ratings between anchors are interpolated (nodes geometrically,
//! noise linearly). Ratings are on the scale of Stockfish
//! 15.1's own `UCI_Elo` (anchored to CCRL), the opponent the calibration plays; at and
//! above [`FULL_STRENGTH_ELO`] nosce plays at full strength (see the calibration in `docs/options.md`
//! table for what was measured and where the top of the range stands).

use crate::eval::Score;
pub use crate::params::{FULL_STRENGTH_ELO, STRENGTH_ANCHORS as ANCHORS};

/// The smallest `UCI_Elo`.
pub const MIN_ELO: i64 = 1000;

/// The largest `UCI_Elo` (the option's range; see [`FULL_STRENGTH_ELO`]).
pub const MAX_ELO: i64 = 2800;

/// How a limited-strength nosce plays one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// Node budget of each move.
    pub nodes: u64,
    /// Amplitude of the evaluation perturbation, centipawns.
    pub noise: Score,
}

/// The play of rating `elo` (clamped to [`MIN_ELO`]..=[`MAX_ELO`]); `None` at and above
/// [`FULL_STRENGTH_ELO`] (full strength).
pub fn strength_for(elo: i64) -> Option<Strength> {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    if elo >= FULL_STRENGTH_ELO {
        return None;
    }
    let i = ANCHORS
        .windows(2)
        .position(|w| elo < w[1].0)
        .unwrap_or(ANCHORS.len() - 2);
    let ((e0, n0, z0), (e1, n1, z1)) = (ANCHORS[i], ANCHORS[i + 1]);
    let t = (elo - e0) as f64 / (e1 - e0) as f64;
    let nodes = (n0 as f64 * (n1 as f64 / n0 as f64).powf(t)).round() as u64;
    let noise = (z0 as f64 + (z1 - z0) as f64 * t).round() as Score;
    Some(Strength { nodes, noise })
}

/// The perturbation seed of game number `game` of an engine started with `start` (any
/// number that differs between runs, e.g. the start time): games differ, moves within a
/// game share the seed.
pub fn game_seed(start: u64, game: u64) -> u64 {
    crate::rng::mix64(start ^ crate::rng::mix64(game.wrapping_add(0x5eed)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_rise_and_the_rest_interpolates_between_them() {
        for w in ANCHORS.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1 && w[0].2 >= w[1].2);
        }
        for &(e, n, z) in &ANCHORS[..ANCHORS.len() - 1] {
            assert_eq!(strength_for(e), Some(Strength { nodes: n, noise: z }));
        }
        // Halfway between two anchors: the geometric mean of their budgets, the mean noise.
        let ((e0, n0, z0), (e1, n1, z1)) = (ANCHORS[1], ANCHORS[2]);
        let mid = strength_for((e0 + e1) / 2).unwrap();
        assert_eq!(mid.nodes, ((n0 * n1) as f64).sqrt().round() as u64);
        assert_eq!(mid.noise, (z0 + z1) / 2);
        // Weaker ratings never search more or judge better.
        let mut last = strength_for(MIN_ELO).unwrap();
        for e in MIN_ELO + 1..FULL_STRENGTH_ELO {
            let s = strength_for(e).unwrap();
            assert!(s.nodes >= last.nodes && s.noise <= last.noise, "{e}");
            last = s;
        }
    }

    #[test]
    fn the_top_of_the_range_is_full_strength_and_out_of_range_is_clamped() {
        assert_eq!(strength_for(FULL_STRENGTH_ELO), None);
        assert_eq!(strength_for(MAX_ELO), None);
        assert_eq!(strength_for(i64::MAX), None);
        assert_eq!(strength_for(-5), strength_for(MIN_ELO));
    }

    #[test]
    fn every_game_has_its_own_seed() {
        let seeds: std::collections::BTreeSet<u64> = (0..100).map(|g| game_seed(7, g)).collect();
        assert_eq!(seeds.len(), 100);
        assert_ne!(game_seed(7, 0), game_seed(8, 0));
    }
}
