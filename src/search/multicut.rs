//! Multi-cut pruning at expected CUT nodes (MC-C, Björnsson and Marsland) and at expected ALL
//! nodes (MC-A), as Winands 2004 §6.4 gives it (Figure 6.3, with his two improvements): the
//! first M moves of a non-PV node are searched R plies shallower than usual with the node's
//! null window; if C of them reach β the node returns β without a full search. A mate found
//! on the way is returned as it is; when the cut does not happen, the first move that reached
//! β is searched first (it becomes the node's hash move if the table had none).
//!
//! At ALL nodes the pruning is safe only with the additions to PVS of §6.3: a pruned node
//! returns exactly β (addition 1, done here), and a CUT node that fails low with exactly α
//! is not stored in the table (addition 4, in [`super::alphabeta`]). Addition 3 (a re-search
//! opens the window down to α) is how the α-β search always re-searches. Addition 2 (a PV
//! node whose window has closed to a null window re-searches a child that returns β) has no
//! counterpart here: a node's type is read from its window, so a PV node never has a null
//! window. The parameters live in [`crate::params::MultiCut`]; off by default, the tuning
//! option `MultiCut` switches it on.

use shakmaty::Move;

use super::history::Recent;
use super::ordering::Picker;
use super::worker::Worker;
use crate::eval::Evaluator;
use crate::score::{MATE_BOUND, Score};
use crate::tt::PackedMove;

/// What the reduced searches decided.
pub(super) enum MultiCutResult {
    /// The node is pruned with this value (β, or a mate found on the way).
    Prune(Score),
    /// Search the node as usual, this move first if one reached β.
    Search(Option<Move>),
}

impl<E: Evaluator + ?Sized> Worker<'_, E> {
    /// Tries the multi-cut at the current node (non-PV, not in check; `cut`: expected CUT
    /// node) with the null window (β − 1, β) at remaining depth `depth`. The caller looks at
    /// `self.aborted` afterwards.
    pub(super) fn multi_cut(
        &mut self,
        beta: Score,
        depth: i32,
        cut: bool,
        tt_move: PackedMove,
    ) -> MultiCutResult {
        let mc = self.params.multi_cut;
        let ply = self.pos.ply();
        let recent = Recent::of(&self.pos);
        let mut picker = Picker::empty();
        picker.fill(self.pos.chess(), tt_move, &self.tables, ply, &recent);
        let (mut cuts, mut tried) = (0u32, 0u32);
        let mut first = None;
        while tried < mc.m {
            let Some((m, _)) = picker.pick() else {
                break;
            };
            self.pos.play(m);
            let s = -self.search(-beta, -beta + 1, depth - 1 - mc.r, !cut);
            self.pos.undo();
            if self.aborted {
                break;
            }
            tried += 1;
            if s >= beta {
                cuts += 1;
                first.get_or_insert(m);
                if s.abs() >= MATE_BOUND {
                    return MultiCutResult::Prune(s);
                }
                if cuts >= mc.c {
                    return MultiCutResult::Prune(beta);
                }
            }
        }
        MultiCutResult::Search(first)
    }
}
