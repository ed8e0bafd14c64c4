//! The aspiration window, one routine for both root drivers: our own root search
//! ([`super::search`]'s iterations) and the root of every α-β probe of the opponent-model
//! driver (`om::probe`). A search starts with a window of ± [`SearchParams::aspiration_window`]
//! around a guess (the previous iteration's value) and widens it on failure, by half as much
//! again plus 10 each time, until the value is exact or the window has grown past a limit and
//! opens to the whole range. The two drivers differ only in what [`Widening`] says (values
//! tuned separately; the α-β probe of a MIN node asks for exact values within (lo, hi), so
//! its window never leaves those bounds; the driver's α-β pass of each iteration uses it too).
//! The opponent-model tree itself, above the probes, uses no aspiration windows (Donkers 2003
//! §5.4.1; see `om`).

use crate::params::SearchParams;
use crate::score::{INFINITE, Score, is_decisive};

/// How a window widens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Widening {
    /// Our own root: a fail low also pulls β down to the middle of the failed window; past
    /// [`SearchParams::aspiration_open_root`] the window opens to (lo, hi).
    Root,
    /// A probe's root: only the failing side moves; past
    /// [`SearchParams::aspiration_open_probe`] the window opens to (lo, hi).
    Probe,
}

/// Which side of the window a value fell on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fail {
    /// At or below α: the value is an upper bound.
    Low,
    /// At or above β: the value is a lower bound.
    High,
}

/// An aspiration window within the bounds (lo, hi).
#[derive(Clone, Debug)]
pub struct Aspiration {
    lo: Score,
    hi: Score,
    alpha: Score,
    beta: Score,
    delta: Score,
    widening: Widening,
    open_after: Score,
}

impl Aspiration {
    /// A window around `guess` (none, or a mate score: the whole of (lo, hi)).
    pub fn new(
        params: &SearchParams,
        guess: Option<Score>,
        lo: Score,
        hi: Score,
        widening: Widening,
    ) -> Self {
        let delta = params.aspiration_window;
        let (alpha, beta) = match guess {
            Some(g) if !is_decisive(g) => ((g - delta).max(lo), (g + delta).min(hi)),
            _ => (lo, hi),
        };
        let open_after = match widening {
            Widening::Root => params.aspiration_open_root,
            Widening::Probe => params.aspiration_open_probe,
        };
        Aspiration {
            lo,
            hi,
            alpha,
            beta,
            delta,
            widening,
            open_after,
        }
    }

    /// The whole range (−∞, ∞) around `guess`, as our own root searches.
    pub fn root(params: &SearchParams, guess: Option<Score>) -> Self {
        Aspiration::new(params, guess, -INFINITE, INFINITE, Widening::Root)
    }

    /// The current window (α, β).
    pub fn window(&self) -> (Score, Score) {
        (self.alpha, self.beta)
    }

    /// Where `v`, the fail-soft result of a search with the current window, fell: `None` if
    /// it is exact (inside the window, or outside it only where the window meets its bounds).
    pub fn outcome(&self, v: Score) -> Option<Fail> {
        if v <= self.alpha && self.alpha > self.lo {
            Some(Fail::Low)
        } else if v >= self.beta && self.beta < self.hi {
            Some(Fail::High)
        } else {
            None
        }
    }

    /// Widens the window after `v` failed on side `fail`.
    pub fn widen(&mut self, v: Score, fail: Fail) {
        match fail {
            Fail::Low => {
                if self.widening == Widening::Root {
                    self.beta = (self.alpha + self.beta) / 2;
                }
                self.alpha = (v - self.delta).max(self.lo);
            }
            Fail::High => self.beta = (v + self.delta).min(self.hi),
        }
        self.delta += self.delta / 2 + 10;
        if self.delta > self.open_after {
            (self.alpha, self.beta) = (self.lo, self.hi);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_widens_on_the_failing_side_and_opens_at_last() {
        let p = SearchParams::default();
        let mut w = Aspiration::new(&p, Some(10), -200, 200, Widening::Probe);
        assert_eq!(w.window(), (10 - 25, 10 + 25));
        assert_eq!(w.outcome(0), None);
        assert_eq!(w.outcome(-15), Some(Fail::Low));
        w.widen(-40, Fail::Low);
        assert_eq!(w.window(), (-65, 35), "only α moves for a probe");
        assert_eq!(w.outcome(35), Some(Fail::High));
        w.widen(60, Fail::High);
        assert_eq!(w.window(), (-65, 60 + 47));
        for _ in 0..10 {
            w.widen(0, Fail::High);
        }
        assert_eq!(w.window(), (-200, 200), "opened to the bounds");
        assert_eq!(w.outcome(200), None, "at the bound a value is exact");
    }

    #[test]
    fn our_root_pulls_beta_down_on_a_fail_low() {
        let p = SearchParams::default();
        let mut w = Aspiration::root(&p, Some(100));
        assert_eq!(w.window(), (75, 125));
        w.widen(50, Fail::Low);
        assert_eq!(w.window(), (25, 100));
        let decisive = Aspiration::root(&p, Some(crate::score::MATE - 3));
        assert_eq!(decisive.window(), (-INFINITE, INFINITE));
    }
}
