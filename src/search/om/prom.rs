//! PrOM search's MIN nodes: every opponent type is probed (Donkers 2003 Alg. 6.3, each type
//! with its own depth), the predicted moves are united, and the node's value for MAX is the
//! expectation Σ Pr(ω_i) · v0(h + m_i*) — with ties, a type's probability is split evenly
//! over its equal-best moves (§6.3.1); an engine type with a mixed strategy splits it over
//! the engine's lines by that strategy ([`super::policy`]). β-passing per type (Alg. 6.5): a child gets the bound
//! v_i + 1 for type i if type i chose it, +∞ otherwise.
//!
//! PrOM values are expectations, so no α bound is passed through them (a fail-low child
//! does not bound a weighted sum).

use shakmaty::Move;

use super::{Driver, MAX_TYPES};
use crate::eval::Evaluator;
use crate::score::{INFINITE, Score};

impl<E: Evaluator + ?Sized> Driver<'_, E> {
    /// A PrOM MIN node (MAX view, root frame).
    pub(super) fn prom_min_node(
        &mut self,
        depth: i32,
        betas: &[Score; MAX_TYPES],
    ) -> Option<Score> {
        let ply = self.pos_ply();
        let n = self.specs.len().min(MAX_TYPES);
        let mut choices: Vec<(usize, Score, Vec<Move>, Vec<f64>)> = Vec::with_capacity(n);
        let mut union: Vec<Move> = Vec::new();
        for (t, &beta) in betas.iter().enumerate().take(n) {
            if self.specs[t].probability <= 0.0 {
                continue;
            }
            let (v, moves) = self.probe_type(t, -INFINITE, beta, depth)?;
            for &m in &moves {
                if !union.contains(&m) {
                    union.push(m);
                }
            }
            let weights = self.choice_weights(t, &moves);
            choices.push((t, v, moves, weights));
        }
        let mut expectation = 0.0f64;
        let mut best_share = -1.0f64;
        for m in union {
            let mut child_betas = [INFINITE; MAX_TYPES];
            let mut share = 0.0;
            for (t, v, moves, weights) in &choices {
                if let Some(i) = moves.iter().position(|&x| x == m) {
                    child_betas[*t] = v.saturating_add(1).min(INFINITE);
                    share += self.specs[*t].probability * weights[i];
                }
            }
            self.play_move(m);
            let v = self.node(depth - 1, -INFINITE, INFINITE, &child_betas);
            self.undo_move();
            let v = v?;
            expectation += share * f64::from(v);
            // The speculated line follows the most probable reply.
            if share > best_share {
                best_share = share;
                self.set_pv(ply, m);
            }
        }
        Some(expectation.round() as Score)
    }
}
