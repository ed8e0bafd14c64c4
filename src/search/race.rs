//! The depth race of Lazy SMP: the threads of one search iterate independently (helpers at
//! staggered depths), and whichever thread completes an iteration first publishes its result
//! here; a thread still searching that depth or a shallower one abandons it and goes on from
//! the published depth, and the main thread adopts the published line as its own completed
//! iteration. Without it the main thread reports depth d only when it has searched d itself,
//! although a helper a ply ahead often finished d earlier (its search is the same α-β at the
//! same depth over the same shared table, so its value and line are as good as the main
//! thread's). Engines with Lazy SMP take a helper's deeper result the same way (Stockfish
//! picks the best thread's; here the first to finish a depth counts).
//!
//! Only with more than one thread and one principal variation (helpers search no MultiPV
//! lines); a search with one thread has no race, so its node counts are unchanged.

use std::sync::atomic::{AtomicI32, Ordering};

use parking_lot::Mutex;
use shakmaty::Move;

use crate::score::Score;

/// A completed iteration: its depth, exact root value and principal variation.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The depth completed.
    pub depth: i32,
    /// Its root value (exact: helpers search with an open window).
    pub score: Score,
    /// Its principal variation (never empty).
    pub pv: Vec<Move>,
    /// The root moves' fail-soft scores of that search (empty where nobody needs them).
    pub scores: Vec<(Move, Score)>,
}

/// The deepest iteration any thread of one search has completed.
#[derive(Default)]
pub struct DepthRace {
    completed: AtomicI32,
    best: Mutex<Option<Finished>>,
}

impl DepthRace {
    /// The deepest completed depth (0 for none).
    #[inline]
    pub fn completed(&self) -> i32 {
        self.completed.load(Ordering::Relaxed)
    }

    /// Publishes a completed iteration; a result no deeper than the published one is
    /// ignored. Returns whether it was taken.
    pub fn publish(&self, f: Finished) -> bool {
        if f.pv.is_empty() {
            return false;
        }
        let depth = f.depth;
        let mut best = self.best.lock();
        if best.as_ref().is_some_and(|b| b.depth >= depth) {
            return false;
        }
        *best = Some(f);
        self.completed.store(depth, Ordering::Relaxed);
        true
    }

    /// Forgets what was published (a new race over the same threads).
    pub fn reset(&self) {
        let mut best = self.best.lock();
        *best = None;
        self.completed.store(0, Ordering::Relaxed);
    }

    /// The published iteration if it is at least `depth` deep.
    pub fn taken_at(&self, depth: i32) -> Option<Finished> {
        if self.completed() < depth {
            return None;
        }
        self.best.lock().clone().filter(|b| b.depth >= depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn only_deeper_results_are_taken() {
        let m = Chess::default().legal_moves()[0];
        let f = |depth, score, pv: Vec<Move>| Finished {
            depth,
            score,
            pv,
            scores: vec![(m, score)],
        };
        let r = DepthRace::default();
        assert_eq!(r.completed(), 0);
        assert!(r.taken_at(1).is_none());
        assert!(r.publish(f(3, 10, vec![m])));
        assert!(
            !r.publish(f(3, 20, vec![m])),
            "the same depth again is ignored"
        );
        assert!(!r.publish(f(2, 30, vec![m])), "a shallower one is ignored");
        assert!(!r.publish(f(5, 30, Vec::new())), "an empty line is ignored");
        assert_eq!(r.completed(), 3);
        let got = r.taken_at(2).expect("depth 3 covers depth 2");
        assert_eq!((got.depth, got.score, got.scores), (3, 10, vec![(m, 10)]));
        assert!(r.taken_at(4).is_none());
        r.reset();
        assert_eq!(r.completed(), 0);
        assert!(r.taken_at(1).is_none());
        assert!(
            r.publish(f(1, 5, vec![m])),
            "after a reset any depth counts"
        );
    }
}
