//! An evaluator built on the exact tables: the "perfect" evaluation of the K+R side in the
//! KQKR experiment (Donkers 2003 §5.4: OMCRAFTY played with the endgame database). Positions
//! the tables cover score by result and distance to mate (a win `d` plies from mate scores
//! `MAX_EVAL - d`, a loss `-(MAX_EVAL - d)`, a draw 0); anything else falls back to the full
//! evaluation. Only tables already in memory are used, so evaluation never blocks.

use std::sync::Arc;

use shakmaty::{Chess, Position as _};

use super::{ExactTables, Wdl};
use crate::eval::{Evaluator, FullEval, Score};
use crate::score::MAX_EVAL;

/// Exact tables first, [`FullEval`] elsewhere.
pub struct TableEval {
    exact: Arc<ExactTables>,
    fallback: FullEval,
}

impl TableEval {
    /// An evaluator over `exact`.
    pub fn new(exact: Arc<ExactTables>) -> Self {
        TableEval {
            exact,
            fallback: FullEval::default(),
        }
    }
}

impl Evaluator for TableEval {
    fn name(&self) -> &str {
        "tables"
    }

    fn evaluate(&self, pos: &Chess) -> Score {
        if pos.board().occupied().count() <= 4
            && let Some(e) = self.exact.probe_if_loaded(pos)
        {
            let d = Score::from(e.dtm.unwrap_or(0));
            return match e.wdl {
                Wdl::Win => MAX_EVAL - d,
                Wdl::Loss => -(MAX_EVAL - d),
                Wdl::Draw => 0,
            };
        }
        self.fallback.evaluate(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    #[test]
    fn table_positions_score_by_distance_to_mate() {
        let exact = Arc::new(ExactTables::in_memory());
        exact.generate("KQvKR").expect("generate KQvKR");
        let e = TableEval::new(exact);
        let pos: Chess = "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        assert_eq!(e.evaluate(&pos), MAX_EVAL - 69);
        let start = Chess::default();
        assert_eq!(e.evaluate(&start), FullEval::default().evaluate(&start));
    }
}
