//! An opponent that plays a *mixed strategy*: a random pick among the moves an engine lists
//! with MultiPV, with probabilities that follow from the lines' scores. PrOM search
//! (Donkers 2003 §6.2–6.3, Alg. 6.3) values a MIN node as the expectation over the
//! opponent's choices; the thesis draws the choices from opponent *types* with fixed
//! probabilities, and an `engine` type with a [`Policy`] draws them from the opponent's own
//! randomised rule instead, evaluated in each position.
//!
//! Two rules ([`Policy`]):
//!
//! - `Skill(L)`: how Stockfish plays below full strength (`Skill Level` L, or
//!   `UCI_LimitStrength` with `UCI_Elo`, which sets a fractional level). It searches with
//!   MultiPV (at least 4) and, at depth `1 + ⌊L⌋`, adds to each line's score s_i a push
//!   `⌊(w·(top − s_i) + δ·U_i) / 128⌋`, w = 120 − 2L the weakness, δ = min(top − s_last,
//!   one pawn), U_i uniform on 0..⌊w⌋−1, and plays the line of the highest sum (the last one
//!   on ties). Its probabilities are computed exactly here, on Stockfish's internal scale
//!   (cp × [`SKILL_UNITS_PER_CP`], one middle-game pawn = [`SKILL_PAWN`]).
//! - `Softmax(τ)`: line j with probability ∝ exp((s_j − s_1)/τ), s in centipawns: a generic
//!   noisy player.
//!
//! PrOM then values a root move by the expectation of our own search below each line
//! (`OM_Search` `policy=search`, [`super::prom`]), or — cheaply — by our own α-β value of the
//! move plus the opponent's expected loss by the engine's own scores of its lines
//! (`OM_Search` `policy=engine`, [`expected_loss`]): the same expectation if our evaluation and
//! the engine's agree on the differences between its lines, at the cost of one engine call
//! and a null-window search per root move.

use super::Driver;
use crate::eval::Evaluator;
use crate::opponent::Policy;
use crate::score::{INFINITE, Score};

/// How PrOM values a root move against an opponent with a mixed strategy (an `engine`
/// type with `skill=`/`tau=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PolicyValue {
    /// The expectation of our own search below each of the opponent's lines (§6.3).
    #[default]
    Search,
    /// Our own α-β value of the move plus the opponent's expected loss by the engine's own
    /// scores of its lines: no search below the lines, one engine call per root move.
    Engine,
}

pub use crate::params::om::{ENGINE_VALUED_BREADTH, GIFT_CAP_CP};

/// Stockfish 15.1's internal score units per reported centipawn (its `NormalizeToPawnValue`
/// / 100, as used in `matches/2026-11-25-sf-skill-policy/`); an approximation for other
/// versions.
pub const SKILL_UNITS_PER_CP: f64 = 3.61;

/// Stockfish's middle-game pawn in internal units (`PawnValueMg`), the cap on δ.
pub const SKILL_PAWN: i64 = 126;

/// Scores beyond this many centipawns (mates) are treated as this value.
const SCORE_CAP_CP: i32 = 8_000;

/// The probability that the opponent plays each line, given the lines' scores (centipawns
/// from the opponent's side, in the engine's order, best first). Sums to 1; empty for no
/// lines.
pub fn pick_probabilities(policy: Policy, scores_cp: &[i32]) -> Vec<f64> {
    if scores_cp.is_empty() {
        return Vec::new();
    }
    let scores: Vec<i32> = scores_cp
        .iter()
        .map(|&s| s.clamp(-SCORE_CAP_CP, SCORE_CAP_CP))
        .collect();
    match policy {
        Policy::Softmax(tau) => softmax(&scores, f64::from(tau.max(1))),
        Policy::Skill(level) => skill(&scores, level),
    }
}

fn softmax(scores: &[i32], tau: f64) -> Vec<f64> {
    let top = scores.iter().copied().max().unwrap_or(0);
    let w: Vec<f64> = scores
        .iter()
        .map(|&s| (f64::from(s - top) / tau).exp())
        .collect();
    let sum: f64 = w.iter().sum();
    w.into_iter().map(|x| x / sum).collect()
}

/// Stockfish's Skill pick, exactly: line i is played when its sum is at least every
/// earlier line's and above every later line's (the loop keeps the last maximum).
fn skill(scores_cp: &[i32], level: f64) -> Vec<f64> {
    let internal: Vec<i64> = scores_cp
        .iter()
        .map(|&s| (f64::from(s) * SKILL_UNITS_PER_CP).round() as i64)
        .collect();
    let weakness = 120.0 - 2.0 * level.clamp(0.0, 20.0);
    let draws = (weakness as i64).max(1);
    let top = internal[0];
    let last = internal[internal.len() - 1];
    let delta = (top - last).min(SKILL_PAWN);
    // Every line's possible sums, one per value of its random term, sorted.
    let sums: Vec<Vec<i64>> = internal
        .iter()
        .map(|&s| {
            let mut v: Vec<i64> = (0..draws)
                .map(|u| {
                    let push = (weakness * (top - s) as f64 + (delta * u) as f64) / 128.0;
                    s + push.trunc() as i64
                })
                .collect();
            v.sort_unstable();
            v
        })
        .collect();
    // P(sum_j < e) and P(sum_j <= e) by counting.
    let below = |j: usize, e: i64| sums[j].partition_point(|&x| x < e) as f64 / draws as f64;
    let at_most = |j: usize, e: i64| sums[j].partition_point(|&x| x <= e) as f64 / draws as f64;
    let n = internal.len();
    let mut p: Vec<f64> = (0..n)
        .map(|i| {
            sums[i]
                .iter()
                .map(|&e| {
                    let mut q = 1.0;
                    for j in 0..n {
                        if j < i {
                            q *= at_most(j, e);
                        } else if j > i {
                            q *= below(j, e);
                        }
                    }
                    q
                })
                .sum::<f64>()
                / draws as f64
        })
        .collect();
    // The events partition the outcomes; renormalise away rounding.
    let sum: f64 = p.iter().sum();
    if sum > 0.0 {
        p.iter_mut().for_each(|x| *x /= sum);
    }
    p
}

/// The opponent's expected loss (centipawns, ≥ 0) when it picks among `scores_cp` (its
/// lines, best first) by `policy`: Σ p_i · min(s_1 − s_i, [`GIFT_CAP_CP`]).
pub fn expected_loss(policy: Policy, scores_cp: &[i32]) -> i32 {
    let Some(&top) = scores_cp.first() else {
        return 0;
    };
    let p = pick_probabilities(policy, scores_cp);
    let loss: f64 = p
        .iter()
        .zip(scores_cp)
        .map(|(p, &s)| p * f64::from((top - s).clamp(0, GIFT_CAP_CP)))
        .sum();
    loss.round() as i32
}

impl<E: Evaluator + ?Sized> Driver<'_, E> {
    /// The opponent type whose mixed strategy values the root moves by the engine's scores
    /// (`OM_Search` `policy=engine`, PrOM mode): the first type with an engine and a policy.
    pub(super) fn engine_valued_type(&self) -> Option<usize> {
        if self.settings.mode != super::OmMode::Prom
            || self.settings.policy_value != PolicyValue::Engine
        {
            return None;
        }
        self.specs.iter().position(|s| {
            s.probability > 0.0 && s.engine.as_ref().is_some_and(|e| e.policy.is_some())
        })
    }

    /// A root child (our move played) valued as our own α-β value plus the opponent's
    /// expected loss by type `t`'s engine ([`expected_loss`]), given the best root value so
    /// far `best`: a null window at `best − loss` first, the exact value only for a move
    /// that beats it. Without the engine's lines (its share of the time spent, or no
    /// MultiPV) the loss is 0 and the value is α-β's.
    pub(super) fn engine_valued_child(
        &mut self,
        t: usize,
        depth: i32,
        best: Score,
    ) -> Option<Score> {
        let (_, moves) = self.engine_probe(t)?;
        let ply = self.pos_ply();
        if let Some(&m) = moves.first() {
            self.set_pv(ply, m);
        }
        let loss = self.policy_lines(t).map_or(0, |(policy, lines)| {
            let scores: Vec<i32> = lines.iter().map(|l| l.score_cp).collect();
            expected_loss(policy, &scores)
        });
        let v = if best > -INFINITE {
            let target = best.saturating_sub(loss);
            let v = self.with_own(|w| -w.search(-(target + 1), -target, depth - 1, false))?;
            if v > target {
                self.with_own(|w| -w.search(-INFINITE, -target, depth - 1, false))?
            } else {
                v
            }
        } else {
            self.with_own(|w| -w.search(-INFINITE, INFINITE, depth - 1, false))?
        };
        Some(v.saturating_add(loss))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pick simulated as Stockfish's loop does it, with a seeded generator.
    fn simulate(scores_cp: &[i32], level: f64, trials: u32) -> Vec<f64> {
        let internal: Vec<i64> = scores_cp
            .iter()
            .map(|&s| (f64::from(s) * SKILL_UNITS_PER_CP).round() as i64)
            .collect();
        let weakness = 120.0 - 2.0 * level;
        let top = internal[0];
        let delta = (top - internal[internal.len() - 1]).min(SKILL_PAWN);
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut counts = vec![0u32; internal.len()];
        for _ in 0..trials {
            let mut best = 0;
            let mut max = i64::MIN;
            for (i, &s) in internal.iter().enumerate() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let u = (state % weakness as u64) as i64;
                let push = ((weakness * (top - s) as f64 + (delta * u) as f64) / 128.0) as i64;
                if s + push >= max {
                    max = s + push;
                    best = i;
                }
            }
            counts[best] += 1;
        }
        counts
            .into_iter()
            .map(|c| f64::from(c) / f64::from(trials))
            .collect()
    }

    #[test]
    fn skill_matches_a_simulation_of_the_pick() {
        for (scores, level) in [
            (vec![40, 31, 12, -25], 7.19),
            (vec![120, 118, 60, 59], 3.0),
            (vec![10, 10, 10, 10], 0.0),
            (vec![300, -200, -250, -900], 12.5),
            (vec![0, -8], 19.0),
        ] {
            let exact = pick_probabilities(Policy::Skill(level), &scores);
            let sim = simulate(&scores, level, 200_000);
            assert!((exact.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            for (e, s) in exact.iter().zip(&sim) {
                assert!(
                    (e - s).abs() < 0.006,
                    "{scores:?} level {level}: exact {exact:?}, simulated {sim:?}"
                );
            }
        }
    }

    #[test]
    fn skill_prefers_better_lines_and_equal_lines_favour_the_last() {
        let p = pick_probabilities(Policy::Skill(5.0), &[50, 20, -10, -40]);
        assert!(p.windows(2).all(|w| w[0] > w[1]), "{p:?}");
        // Equal scores: the loop keeps the last maximum, so later lines win the ties.
        let q = pick_probabilities(Policy::Skill(5.0), &[10, 10]);
        assert!(q[1] > q[0], "{q:?}");
        // A line far below the rest is almost never played.
        let r = pick_probabilities(Policy::Skill(10.0), &[0, -3000]);
        assert!(r[1] < 1e-9, "{r:?}");
    }

    #[test]
    fn expected_loss_weights_the_capped_gaps() {
        // A sharp softmax loses nothing; a flat one loses about the mean gap, each gap
        // capped (τ = 10,000 cp still weights a 2,000 cp gap by e^-0.2).
        assert_eq!(expected_loss(Policy::Softmax(1), &[50, 0, -50]), 0);
        let flat = pick_probabilities(Policy::Softmax(10_000), &[0, -100, -2000]);
        let capped = flat[1] * 100.0 + flat[2] * 300.0;
        assert_eq!(
            expected_loss(Policy::Softmax(10_000), &[0, -100, -2000]),
            capped.round() as i32
        );
        assert!((120.0..=135.0).contains(&capped), "{flat:?}");
        assert_eq!(expected_loss(Policy::Skill(5.0), &[]), 0);
        let p = pick_probabilities(Policy::Skill(5.0), &[40, 10, 0, -30]);
        let want = p[1] * 30.0 + p[2] * 40.0 + p[3] * 70.0;
        assert_eq!(
            expected_loss(Policy::Skill(5.0), &[40, 10, 0, -30]),
            want.round() as i32
        );
    }

    #[test]
    fn softmax_follows_the_temperature() {
        let p = pick_probabilities(Policy::Softmax(40), &[30, -10, -50]);
        let e = [0.0f64, -1.0, -2.0].map(f64::exp);
        let sum: f64 = e.iter().sum();
        for (a, b) in p.iter().zip(e.iter()) {
            assert!((a - b / sum).abs() < 1e-12, "{p:?}");
        }
        let cold = pick_probabilities(Policy::Softmax(1), &[30, -10]);
        assert!(cold[0] > 0.999_999);
        assert!(pick_probabilities(Policy::Softmax(40), &[]).is_empty());
        // Mate scores are capped, not overflowed.
        let m = pick_probabilities(Policy::Softmax(100), &[99_998, 0, -99_999]);
        assert!(m[0] > 0.999 && m.iter().all(|x| x.is_finite()), "{m:?}");
    }
}
