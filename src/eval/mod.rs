//! Static evaluation behind the [`Evaluator`] trait.
//!
//! The α-β probe is generic over its evaluator so that the opponent-model driver can search
//! with an opponent type's evaluation function (Donkers 2003 §3.4: "move ordering by the
//! opponent's evaluation, separate tables per evaluator"). Opponent types are evaluators too.
//! Built in: [`FullEval`] (tapered middlegame/endgame terms plus endgame knowledge) and
//! [`MaterialEval`] (material only).

pub mod score;

pub use score::Score;

use shakmaty::Chess;

/// A static evaluation function: a score in centipawns for the side to move.
///
/// Must be pure (the same position always gives the same score) so that searches are
/// deterministic and transposition tables stay valid; must stay within
/// ±[`score::MAX_EVAL`].
pub trait Evaluator: Send + Sync {
    /// Short name, as used in opponent-type specs (`self`, `material`, ...).
    fn name(&self) -> &str;
    /// The score of `pos` from the side to move's point of view.
    fn evaluate(&self, pos: &Chess) -> Score;
}

pub mod material;

pub use material::MaterialEval;
/// Placeholder until the full evaluation lands.
pub type FullEval = MaterialEval;
