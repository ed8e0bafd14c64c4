//! A network as an evaluator ([`NnueEval`], the opponent-type name `nnue`): its
//! [`Evaluator::evaluate`] is the network's full-refresh evaluation ([`Network::evaluate`],
//! the reference), and its [`Evaluator::network`] tells the search to keep a
//! [`crate::nnue::AccumulatorStack`] and evaluate move by move instead (the same numbers,
//! `tests/it/nnue_search.rs`). It lives with the other evaluators so that the network code
//! (`crate::nnue`) depends on the score type alone, not on this trait.

use super::{Evaluator, Score};
use crate::nnue::Network;

/// A network as an evaluator (the opponent-type name `nnue`).
pub struct NnueEval {
    net: Network,
}

impl NnueEval {
    /// The evaluator of `net`.
    pub fn new(net: Network) -> Self {
        NnueEval { net }
    }
}

impl Evaluator for NnueEval {
    fn name(&self) -> &str {
        "nnue"
    }

    fn evaluate(&self, pos: &shakmaty::Chess) -> Score {
        self.net.evaluate(pos)
    }

    fn network(&self) -> Option<&Network> {
        Some(&self.net)
    }
}
