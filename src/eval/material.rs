//! Placeholder material evaluator (replaced by the evaluation module).

use shakmaty::{Chess, Color, Position, Role};

use super::{Evaluator, Score};

/// Material only.
#[derive(Clone, Debug, Default)]
pub struct MaterialEval;

const VALUES: [Score; 7] = [0, 100, 320, 330, 500, 900, 0];

impl Evaluator for MaterialEval {
    fn name(&self) -> &str {
        "material"
    }
    fn evaluate(&self, pos: &Chess) -> Score {
        let b = pos.board();
        let mut s = 0;
        for role in Role::ALL {
            let v = VALUES[role as usize];
            s += v * (b.by_role(role) & b.white()).count() as Score;
            s -= v * (b.by_role(role) & b.black()).count() as Score;
        }
        if pos.turn() == Color::White { s } else { -s }
    }
}
