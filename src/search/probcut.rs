//! ProbCut (Buro's idea in the form modern engines use; Stockfish's and Ethereal's searches
//! describe it): at a non-PV node deep enough, a capture that wins enough material that a
//! reduced search of it stays above a raised bound β + margin is taken as proof that the full
//! search would fail high too, and the node returns that value without searching its moves.
//! Each candidate capture must pass SEE against the raised bound less the static evaluation,
//! is first checked by a quiescence search (cheap), and only then by a search `reduction`
//! plies shallower with the raised null window. A table entry from nearly this depth whose
//! score lies below the raised bound says the attempt would fail: then none is made.
//!
//! A trial refinement of issue 41, on with `SearchFeatures=probcut`; its numbers are in
//! [`crate::params::FeatureParams`] (`probcut_*`). The caller applies it only where null move
//! applies too: not in PV nodes, not in check, not in a singular search, not about a mate.

use super::see::see_ge;
use super::worker::Worker;
use crate::eval::Evaluator;
use crate::score::{MATE_BOUND, Score, from_tt, to_tt};
use crate::tt::{Bound, TtHit};

impl<E: Evaluator + ?Sized> Worker<'_, E> {
    /// Tries ProbCut at the current node (window upper end `beta`, remaining `depth`, the
    /// node's `static_eval`, its uncorrected `raw_eval` for the table and its table entry
    /// `hit`; `cut`: expected CUT node). Returns the value to return from the node, or `None`
    /// to search it as usual. The caller looks at `self.aborted` afterwards.
    pub(super) fn probcut(
        &mut self,
        beta: Score,
        depth: i32,
        static_eval: Score,
        raw_eval: Score,
        hit: Option<TtHit>,
        cut: bool,
    ) -> Option<Score> {
        let fp = &self.params.feature_params;
        let (min_depth, margin, reduction) = (
            fp.probcut_min_depth,
            fp.probcut_margin,
            fp.probcut_reduction,
        );
        if depth < min_depth {
            return None;
        }
        let raised = beta + margin;
        if raised >= MATE_BOUND {
            return None;
        }
        let key = self.pos.key();
        let ply = self.pos.ply();
        if hit.is_some_and(|h| h.depth > depth - reduction && from_tt(h.score, ply) < raised) {
            return None;
        }
        let threshold = raised - static_eval;
        for m in self.pos.legal_moves() {
            if !(m.is_capture() || m.is_promotion()) || !see_ge(self.pos.chess(), m, threshold) {
                continue;
            }
            self.pos.play(m);
            let mut s = -self.qsearch(-raised, -raised + 1);
            if s >= raised && !self.aborted {
                s = -self.search(-raised, -raised + 1, depth - 1 - reduction, !cut);
            }
            self.pos.undo();
            if self.aborted {
                return None;
            }
            if s >= raised {
                let stored_depth = depth - reduction;
                self.tt.store(
                    key,
                    Some(m),
                    to_tt(s, ply),
                    raw_eval,
                    stored_depth,
                    Bound::Lower,
                );
                return Some(s);
            }
        }
        None
    }
}
