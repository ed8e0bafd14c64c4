//! On-line learning of opponent-type probabilities during a game (Donkers 2003 §6.6.2).
//!
//! *Fast* learning: at every opponent move, each type whose best move equals the move
//! played is rewarded with a small increase of its probability, every other type punished
//! with a small decrease; the vector is renormalised (a floor keeps every type alive, so no
//! type reaches the "false supremacy" the thesis warns about).
//!
//! *Naive Bayes* (slow) learning: each type ranks all legal moves by its own search values;
//! formula 6.17 turns ranks into move likelihoods Pr(m_j|ω_i) = (1−P_s)^{r−1}·P_s / Σ, Bayes'
//! rule (6.18) gives the posterior of each type given the observed move, and 6.19 mixes it
//! in with learning factor γ: Pr(ω_i)_{t+1} = (1−γ)·Pr(ω_i)_t + γ·Pr(ω_i|m).
//!
//! The state lives for one game and is reset by a new game.

/// The learning parameters, as fractions: the fast reward, P_s of 6.17 and γ of 6.19.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearningParams {
    /// Fast learning's reward (and punishment) per move.
    pub reward: f64,
    /// P_s of 6.17: how likely a type plays its best move.
    pub ps: f64,
    /// γ of 6.19: how much one move's posterior counts.
    pub gamma: f64,
}

impl LearningParams {
    /// The defaults, in percent: fast learning's reward, P_s of 6.17, γ of 6.19 (the option
    /// `OM_Learning` takes its omitted keys from here).
    pub const DEFAULT_PERCENT: [u32; 3] = [5, 60, 20];

    /// From percentages: the fast reward, P_s, γ.
    pub fn from_percent([reward, ps, gamma]: [u32; 3]) -> Self {
        LearningParams {
            reward: f64::from(reward) / 100.0,
            ps: f64::from(ps) / 100.0,
            gamma: f64::from(gamma) / 100.0,
        }
    }

    /// The percentages back (rounded).
    pub fn percent(&self) -> [u32; 3] {
        [self.reward, self.ps, self.gamma].map(|f| (f * 100.0).round() as u32)
    }
}

impl Default for LearningParams {
    fn default() -> Self {
        LearningParams::from_percent(Self::DEFAULT_PERCENT)
    }
}

/// Smallest probability a type keeps under fast learning.
pub const FLOOR: f64 = 0.01;

/// Fast reward/punish update: `predicted[i]` tells whether type `i` predicted the move.
pub fn fast_update(probs: &mut [f64], predicted: &[bool], reward: f64) {
    for (p, &hit) in probs.iter_mut().zip(predicted) {
        if *p <= 0.0 {
            continue; // a type switched off stays off
        }
        *p = if hit {
            *p + reward
        } else {
            (*p - reward).max(FLOOR)
        };
    }
    normalise(probs);
}

/// Formula 6.17: the likelihood of each move given its rank (1 = best; equal values share
/// a rank) and P_s.
pub fn rank_likelihoods(ranks: &[usize], ps: f64) -> Vec<f64> {
    let raw: Vec<f64> = ranks
        .iter()
        .map(|&r| (1.0 - ps).powi(r.saturating_sub(1) as i32) * ps)
        .collect();
    let sum: f64 = raw.iter().sum();
    if sum <= 0.0 {
        return vec![1.0 / ranks.len().max(1) as f64; ranks.len()];
    }
    raw.iter().map(|x| x / sum).collect()
}

/// Ranks (1 = best) of values where higher is better; equal values share a rank.
pub fn ranks(values: &[i32]) -> Vec<usize> {
    values
        .iter()
        .map(|v| 1 + values.iter().filter(|w| *w > v).count())
        .collect()
}

/// Formulas 6.18–6.19: `likelihood[i]` = Pr(observed move | ω_i).
pub fn bayes_update(probs: &mut [f64], likelihood: &[f64], gamma: f64) {
    let evidence: f64 = probs.iter().zip(likelihood).map(|(p, l)| p * l).sum();
    if evidence <= 0.0 {
        return; // no type explains the move: nothing to learn
    }
    for (p, l) in probs.iter_mut().zip(likelihood) {
        let posterior = *p * l / evidence;
        *p = (1.0 - gamma) * *p + gamma * posterior;
    }
    normalise(probs);
}

fn normalise(probs: &mut [f64]) {
    let sum: f64 = probs.iter().sum();
    if sum > 0.0 {
        probs.iter_mut().for_each(|p| *p /= sum);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_learning_moves_mass_to_the_predicting_type() {
        let mut p = vec![0.5, 0.5];
        for _ in 0..10 {
            fast_update(&mut p, &[true, false], 0.05);
        }
        assert!(p[0] > 0.9 && p[1] >= FLOOR * 0.9, "{p:?}");
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let mut off = vec![1.0, 0.0];
        fast_update(&mut off, &[false, true], 0.05);
        assert_eq!(off, vec![1.0, 0.0]);
    }

    #[test]
    fn rank_likelihoods_follow_formula_6_17() {
        let l = rank_likelihoods(&[1, 2, 3], 0.5);
        // 0.5, 0.25, 0.125 normalised by 0.875.
        assert!((l[0] - 0.5 / 0.875).abs() < 1e-12);
        assert!((l[2] - 0.125 / 0.875).abs() < 1e-12);
        assert_eq!(ranks(&[10, 30, 10, 20]), vec![3, 1, 3, 2]);
    }

    #[test]
    fn bayes_learning_follows_6_18_and_6_19() {
        let mut p = vec![0.5, 0.5];
        bayes_update(&mut p, &[0.8, 0.2], 1.0);
        assert!((p[0] - 0.8).abs() < 1e-12);
        let mut q = vec![0.5, 0.5];
        bayes_update(&mut q, &[0.8, 0.2], 0.5);
        assert!((q[0] - 0.65).abs() < 1e-12);
        let mut r = vec![0.5, 0.5];
        bayes_update(&mut r, &[0.0, 0.0], 0.5);
        assert_eq!(r, vec![0.5, 0.5]);
    }
}
