//! What a search thread keeps to evaluate with a network move by move: one [`Accumulator`]
//! pair per position of its [`Position`] history, filled lazily. When the search asks for an
//! evaluation, the stack finds the nearest position below the current one whose accumulator
//! is up to date (its Zobrist key matches: the accumulator depends on the board alone) and
//! applies the moves from there ([`Accumulator::update_from_last`]); with none within a few
//! plies it refreshes from the board. The result equals [`Network::evaluate`] of the current
//! board bit for bit (`tests/it/nnue_search.rs` checks a whole search).
//!
//! The search keeps a stack when its evaluator names a network (`Evaluator::network`, which
//! the network's evaluator `crate::eval::NnueEval` does).

use shakmaty::Position as _;

use crate::position::Position;
use crate::score::Score;

use super::{Accumulator, Network};

/// How far below the current position a stale accumulator is still updated from, rather than
/// refreshed (an update costs a few rows, a refresh ~30).
const MAX_CATCH_UP: usize = 8;

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
                let (chess, key, _) = pos.at(top);
                self.accs[top].refresh_in_place(self.net, chess.board());
                self.keys[top] = Some(key);
                top
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
