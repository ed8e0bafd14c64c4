//! Bounded-sum pruning for the OM driver's MIN nodes (Donkers 2003 §3.2.4, Alg. 3.10
//! `OmSearchBoundedPb`, after Carmel and Markovitch's αβ*).
//!
//! If our evaluation V0 and the opponent's V_op never differ by more than B at the leaves,
//! and both search to the same depth, then the propagated values v0 and v_op differ by at
//! most B at every node (§3.2.4). A MIN node's value for MAX therefore lies within B of the
//! opponent's probe value, so the probe may be narrowed to (α − B, β + B): a probe that
//! fails low proves the node below α, one that fails high proves it above β, and an exact
//! probe narrows MAX's window to [v_op − B, v_op + B] for the predicted move (Alg. 3.10
//! lines 10–14). With B = 0 this is α-β search ("if B = 0 then bounded-sum pruning is equal
//! to α-β search", §3.3); with B = ∞ it is the β-pruning of Alg. 3.8. The enhanced form
//! (ties broken by the lowest value for MAX, Alg. 3.5) carries over: every tied move has the
//! same probe value, so the minimum over them lies within the same bounds.
//!
//! The probe window is exactly Alg. 3.10's: β-passing (Alg. 3.8) is not mixed in, so a
//! probe outside its window always proves a bound for MAX.

use super::{Driver, MAX_TYPES};
use crate::eval::Evaluator;
use crate::score::{INFINITE, Score};

impl<E: Evaluator + ?Sized> Driver<'_, E> {
    /// An OM MIN node under bounded-sum pruning with bound `bound` (MAX view, root frame),
    /// within the MAX window (`alpha`, `beta`).
    pub(super) fn bounded_min_node(
        &mut self,
        depth: i32,
        alpha: Score,
        beta: Score,
        bound: Score,
    ) -> Option<Score> {
        let ply = self.pos_ply();
        let t = self.om_type();
        let lo = if alpha <= -INFINITE {
            -INFINITE
        } else {
            alpha.saturating_sub(bound).max(-INFINITE)
        };
        let hi = if beta >= INFINITE {
            INFINITE
        } else {
            beta.saturating_add(bound).min(INFINITE)
        };
        let (v_op, moves) = self.probe_type(t, lo, hi, depth)?;
        if v_op <= lo {
            // The opponent reaches v_op ≤ α − B or less: v0 ≤ v_op + B ≤ α (line 12).
            return Some(v_op.saturating_add(bound).min(INFINITE));
        }
        if v_op >= hi {
            // Every opponent move leaves v_op ≥ β + B: v0 ≥ v_op − B ≥ β (line 11).
            return Some(v_op.saturating_sub(bound).max(-INFINITE));
        }
        // Lines 11–14: MAX's window shrinks to within B of the probe value.
        let a = alpha.max(v_op.saturating_sub(bound));
        let b = beta.min(v_op.saturating_add(bound));
        let child_betas = [INFINITE; MAX_TYPES];
        let line = std::mem::take(&mut self.probe_line);
        self.lowest_over_ties(&moves, a, |d, m| {
            if a < b {
                d.node(depth - 1, a, b, &child_betas)
            } else {
                // B = 0: the value is the probe's (line 14); so is the line.
                let tail = if line.first() == Some(&m) {
                    &line[1..]
                } else {
                    &[]
                };
                d.set_line(ply + 1, tail);
                Some(v_op)
            }
        })
    }
}
