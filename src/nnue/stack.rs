//! What a search thread keeps to evaluate with a network move by move: one [`Accumulator`]
//! pair per position of its [`Position`] history, filled lazily. When the search asks for an
//! evaluation, the stack finds the nearest position below the current one whose accumulator
//! is up to date (its Zobrist key matches: the accumulator depends on the board alone) and
//! applies the moves from there ([`Accumulator::update_from_last`]), which leaves every
//! position in between up to date for the next evaluation; with none within
//! [`MAX_CATCH_UP`] plies it refreshes the position that many plies below from the board and
//! applies the moves from there. The result equals [`Network::evaluate`] of the current
//! board bit for bit (`tests/it/nnue_search.rs` checks a whole search).
//!
//! Why so far: the search takes most interior nodes' static evaluations from the
//! transposition table, so the positions above a leaf are often never evaluated. With a
//! reach of 8 plies and a refresh of the leaf itself, 56 % of the evaluations of a datagen
//! run (2 games, 5,000 nodes a move, generation 2's net) refreshed, and the refreshes' row
//! additions were 23 % of the run's instructions. An update costs about 1.3 rows per
//! perspective, a refresh one per piece (~26), so catching up is cheaper for up to ~20
//! plies; and a refresh below the leaf leaves the positions on the way up to date for the
//! leaf's neighbours, where a refresh of the leaf serves it alone.
//!
//! The search keeps a stack when its evaluator names a network (`Evaluator::network`, which
//! the network's evaluator `crate::eval::NnueEval` does).

use shakmaty::Position as _;

use crate::position::Position;
use crate::score::Score;

use super::{Accumulator, Network};

/// How far below the current position an up-to-date accumulator is still updated from; with
/// none that near, the position this far below is refreshed and updated from (an update
/// costs ~1.3 rows per perspective, a refresh ~26: see the module text).
pub const MAX_CATCH_UP: usize = 20;

/// The accumulators of one search thread, by history index.
pub struct AccumulatorStack<'a> {
    net: &'a Network,
    accs: Vec<Accumulator>,
    /// The key of the position each accumulator was computed for (`None`: never).
    keys: Vec<Option<u64>>,
}

impl<'a> AccumulatorStack<'a> {
    /// An empty stack for `net`.
    pub fn new(net: &'a Network) -> Self {
        AccumulatorStack {
            net,
            accs: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The network's score of `pos`'s current position, from the side to move's view.
    pub fn evaluate(&mut self, pos: &Position) -> Score {
        let top = pos.history_len() - 1;
        if self.accs.len() <= top {
            let net = self.net;
            self.accs.resize_with(top + 1, || Accumulator::new(net));
            self.keys.resize(top + 1, None);
        }
        // The nearest up-to-date accumulator at or below the top, within reach.
        let lowest = top.saturating_sub(MAX_CATCH_UP);
        let mut base = None;
        for i in (lowest..=top).rev() {
            if self.keys[i] == Some(pos.at(i).1) {
                base = Some(i);
                break;
            }
        }
        let start = match base {
            Some(i) => i,
            None => {
                let (chess, key, _) = pos.at(lowest);
                self.accs[lowest].refresh_in_place(self.net, chess.board());
                self.keys[lowest] = Some(key);
                lowest
            }
        };
        for i in start + 1..=top {
            let (parent, _, _) = pos.at(i - 1);
            let (_, key, m) = pos.at(i);
            let (below, above) = self.accs.split_at_mut(i);
            above[0].update_from_last(&below[i - 1], self.net, parent, m.as_ref());
            self.keys[i] = Some(key);
        }
        self.accs[top].evaluate(self.net, pos.chess().turn())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Evaluations far from any up-to-date accumulator (a long line evaluated only at its
    /// end, then after going back and down another way) equal the board's own evaluation.
    #[test]
    fn far_and_sparse_evaluations_match_the_board() {
        let net = Network::random(32, 7, 60, 60).expect("a random net");
        let mut stack = AccumulatorStack::new(&net);
        let mut pos = Position::default();
        let mut rng = crate::rng::GameRng::new(3, 1);
        let mut seen = 0;
        for ply in 0..70 {
            if ply == 40 {
                // Back five plies and down another way.
                for _ in 0..5 {
                    pos.undo();
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos.play(m);
            if ply % 5 == 0 {
                // A null move where one is allowed (not in check): a copy, no feature moves.
                let _ = pos.play_null();
            }
            // Evaluated at a few plies only: 1, 27 (far beyond the reach), then every ply.
            if ply == 1 || ply == 27 || ply > 60 {
                assert_eq!(stack.evaluate(&pos), net.evaluate(pos.chess()), "ply {ply}");
                seen += 1;
            }
        }
        assert!(seen >= 3);
    }
}
