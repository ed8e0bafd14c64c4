//! Singular extensions (Anantharaman, Campbell and Hsu's idea in the form modern engines use;
//! Stockfish's and Ethereal's searches describe it): at a node deep enough whose table move
//! holds a lower bound from nearly the same depth, every other move is searched at half the
//! depth against a bound a little below the table's score. If none reaches it, the table
//! move is *singular* and is searched one ply deeper. If the bound itself is at or above β,
//! several moves refute the node and it returns the bound (the singular search's multi-cut).
//! If only the table's score is above β, the table move is searched one ply shallower (the
//! negative extension), since another move is likely to refute the node as well.
//! With `SearchFeatures=doubleext`, a table move whose singular search stays far below the
//! bound, off the principal variation, is extended two plies, at most a few times along one
//! line so that the search cannot grow without end (Stockfish's and Ethereal's double
//! extensions).
//!
//! The search with the move left out runs at the same node: [`Worker::search`] reads the
//! excluded move of its ply, skips it, and neither reads nor stores the table's entry for the
//! node (it holds the search with every move), nor prunes the node before its moves.
//! A trial refinement of issue 41, on with `SearchFeatures=singular`; the numbers are in
//! [`crate::params::FeatureParams`].

use shakmaty::Move;

use super::worker::Worker;
use crate::eval::Evaluator;
use crate::score::{Score, is_decisive};
use crate::tt::{Bound, TtHit};

/// What the singular search decided for the table move.
pub(super) enum Singular {
    /// Search the move with this extension (1, 0 or −1).
    Extend(i32),
    /// Return this value from the node (several moves reach β).
    Cut(Score),
}

impl<E: Evaluator + ?Sized> Worker<'_, E> {
    /// True if the table move `m` of a node with remaining `depth` and table entry `hit` (its
    /// score `tt_score` read for this ply) is tested for singularity.
    pub(super) fn singular_applies(&self, hit: Option<TtHit>, tt_score: Score, depth: i32) -> bool {
        let fp = &self.params.feature_params;
        let ply = self.pos.ply();
        self.params.features.singular
            && ply > 0
            && self.excluded_at(ply).is_none()
            && depth >= fp.singular_min_depth
            && (ply as i32) < self.params.extension_plies * self.root_depth
            && hit.is_some_and(|h| {
                h.bound != Bound::Upper
                    && h.depth >= depth - fp.singular_tt_depth_margin
                    && !is_decisive(tt_score)
            })
    }

    /// Tests the table move `m` (value `tt_score` from the table) at the current node with
    /// window upper end `beta` and remaining `depth`; `cut` marks an expected CUT node and
    /// `pv_node` a principal-variation node. The caller looks at `self.aborted` afterwards.
    pub(super) fn singular(
        &mut self,
        m: Move,
        tt_score: Score,
        beta: Score,
        depth: i32,
        cut: bool,
        pv_node: bool,
    ) -> Singular {
        let ply = self.pos.ply();
        let fp = &self.params.feature_params;
        let bound = tt_score - fp.singular_margin_per_ply * depth;
        let double = self.params.features.double_ext
            && !pv_node
            && self.double_exts_at(ply) < fp.double_ext_max;
        let double_below = bound - fp.double_ext_margin;
        self.set_excluded(ply, Some(m));
        let s = self.search(bound - 1, bound, (depth - 1) / 2, cut);
        self.set_excluded(ply, None);
        if s < bound {
            Singular::Extend(if double && s < double_below { 2 } else { 1 })
        } else if bound >= beta {
            Singular::Cut(bound)
        } else if tt_score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }
}
