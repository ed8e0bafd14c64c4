//! [`MaterialEval`]: material only (pawn 100, knight 320, bishop 330, rook 500, queen 900),
//! the simplest opponent type of the OM experiments.

use shakmaty::{Chess, Color, Position, Role};

use super::Evaluator;
use crate::score::Score;

/// Material values used by [`MaterialEval`], indexed by `Role as usize - 1`.
pub const MATERIAL_VALUES: [Score; 6] = [100, 320, 330, 500, 900, 0];

/// Material-only evaluation (name `"material"`), side to move relative.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MaterialEval;

impl MaterialEval {
    /// A material evaluator.
    pub const fn new() -> Self {
        MaterialEval
    }
}

impl Evaluator for MaterialEval {
    fn name(&self) -> &str {
        "material"
    }

    #[inline]
    fn evaluate(&self, pos: &Chess) -> Score {
        let board = pos.board();
        let white = board.white();
        let mut score = 0;
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            let pieces = board.by_role(role);
            let diff = (pieces & white).count() as i32 - (pieces & !white).count() as i32;
            score += MATERIAL_VALUES[role as usize - 1] * diff;
        }
        match pos.turn() {
            Color::White => score,
            Color::Black => -score,
        }
    }
}
