//! The per-move search budgets of the KQKR sweep (Donkers 2003 §5.4.2 gives both sides a
//! fixed budget per move): [`SideLimit`], a fixed depth or node limit, and [`NodeSpread`],
//! a node budget drawn afresh for every move of a UCI K+Q side.
//!
//! A deterministic UCI engine at a fixed node limit plays the same game every time, so
//! every game of a (position, s) cell would be the same game. With a spread F the budget
//! of the K+Q move at ply p of a game with seed g is drawn uniformly from
//! `[round(N·(1−F)), round(N·(1+F))]` (N the `--opp-nodes` budget) by a generator seeded
//! with (g, p) alone: the same game seed and ply give the same budget in every run, on
//! every thread and in every cell of the position (common random numbers, as for the
//! built-in opponent's perturbation).

use std::fmt;
use std::str::FromStr;

use crate::rng::mix64;

/// A search budget per move: fixed depth or fixed nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideLimit {
    /// Iterative deepening to this many plies.
    Depth(u32),
    /// Iterative deepening until this many nodes.
    Nodes(u64),
}

impl SideLimit {
    /// As search limits.
    pub fn limits(self) -> crate::limits::Limits {
        match self {
            SideLimit::Depth(d) => crate::limits::Limits::depth(d),
            SideLimit::Nodes(n) => crate::limits::Limits::nodes(n),
        }
    }

    /// The UCI `go` arguments.
    pub fn go_args(self) -> String {
        match self {
            SideLimit::Depth(d) => format!("depth {d}"),
            SideLimit::Nodes(n) => format!("nodes {n}"),
        }
    }
}

impl fmt::Display for SideLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SideLimit::Depth(d) => write!(f, "depth={d}"),
            SideLimit::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

impl FromStr for SideLimit {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if let Some(v) = s.strip_prefix("depth=") {
            match v.parse::<u32>() {
                Ok(d) if (1..=64).contains(&d) => Ok(SideLimit::Depth(d)),
                _ => Err(format!("'{s}': depth must be 1..64")),
            }
        } else if let Some(v) = s.strip_prefix("nodes=") {
            match v.parse::<u64>() {
                Ok(n) if n > 0 => Ok(SideLimit::Nodes(n)),
                _ => Err(format!("'{s}': nodes must be a positive whole number")),
            }
        } else {
            Err(format!("'{s}': expected depth=N or nodes=N"))
        }
    }
}

/// A per-move node budget drawn around a centre (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeSpread {
    fraction: f64,
}

/// Separates the budget draws from the other users of the game seed.
const SPREAD_SALT: u64 = 0xB0D6_E75E_ED5A_17A5;

impl NodeSpread {
    /// A spread of `fraction` (0 < F < 1) either side of the centre.
    ///
    /// # Errors
    /// A fraction outside (0, 1).
    pub fn new(fraction: f64) -> Result<Self, String> {
        if fraction.is_finite() && fraction > 0.0 && fraction < 1.0 {
            Ok(NodeSpread { fraction })
        } else {
            Err(format!(
                "the node spread is a fraction between 0 and 1 (exclusive), not {fraction}"
            ))
        }
    }

    /// The fraction F.
    pub fn fraction(self) -> f64 {
        self.fraction
    }

    /// The budgets drawn from around `centre`: `(low, high)`, both at least 1.
    pub fn range(self, centre: u64) -> (u64, u64) {
        let c = centre as f64;
        // `as` saturates: a huge centre gives u64::MAX, never a wrap.
        let lo = ((c * (1.0 - self.fraction)).round() as u64).max(1);
        let hi = ((c * (1.0 + self.fraction)).round() as u64).max(lo);
        (lo, hi)
    }

    /// The budget of the move at `ply` (1-based) of the game with seed `seed`.
    pub fn draw(self, centre: u64, seed: u64, ply: usize) -> u64 {
        let (lo, hi) = self.range(centre);
        let r = mix64(seed ^ mix64(SPREAD_SALT ^ ply as u64));
        match (hi - lo).checked_add(1) {
            Some(width) => lo + r % width,
            None => r.max(lo),
        }
    }
}

impl fmt::Display for NodeSpread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fraction)
    }
}

impl FromStr for NodeSpread {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let f: f64 = s
            .trim()
            .parse()
            .map_err(|_| format!("'{s}': the node spread is a fraction like 0.5"))?;
        NodeSpread::new(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_seeded_and_in_range() {
        let s: NodeSpread = "0.5".parse().unwrap();
        assert_eq!(s.range(1000), (500, 1500));
        let a: Vec<u64> = (1..40).map(|p| s.draw(1000, 7, p)).collect();
        let b: Vec<u64> = (1..40).map(|p| s.draw(1000, 7, p)).collect();
        let c: Vec<u64> = (1..40).map(|p| s.draw(1000, 8, p)).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.iter().all(|n| (500..=1500).contains(n)));
        assert!(a.iter().any(|&n| n != a[0]));
        assert_eq!(s.range(1), (1, 2));
        assert!(s.draw(u64::MAX, 1, 1) >= 1);
        for bad in ["0", "1", "-0.2", "nan", "x"] {
            assert!(bad.parse::<NodeSpread>().is_err(), "{bad}");
        }
    }
}
