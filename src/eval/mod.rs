//! Static evaluation behind the [`Evaluator`] trait.
//!
//! The α-β probe is generic over its evaluator so that the opponent-model driver can search
//! with an opponent type's evaluation function (Donkers 2003 §3.4: "move ordering by the
//! opponent's evaluation, separate tables per evaluator"). Opponent types are evaluators too.
//! Built in: [`FullEval`] (tapered middlegame/endgame terms plus endgame knowledge, KQ vs KR
//! for the Browne–BELLE experiment of §5.4), [`MaterialEval`] (material only),
//! [`Perturbed`] (any evaluator plus a seeded per-position offset: the fallible K+Q side of
//! the KQKR experiment, §5.4.2) and [`NnueEval`] (a network of `crate::nnue`). The score
//! type and its mate band are `crate::score`.
//!
//! Files: `params.rs` (every weight, [`EvalParams`]), `pst.rs` (PeSTO tables), `masks.rs`
//! (constant bitboards), `pawns.rs`, `pieces.rs`, `king_safety.rs` (the general terms),
//! `endgame.rs` and `kqkr.rs` (endgame knowledge), `full.rs`, `material.rs` and
//! `nnue_eval.rs` (the evaluators).

mod endgame;
mod full;
mod king_safety;
mod kqkr;
mod masks;
mod material;
mod nnue_eval;
pub mod params;
mod pawns;
pub mod perturbed;
mod pieces;
pub mod pst;
#[cfg(test)]
mod tests;

pub use self::params::{EndgameParams, EvalParams, KqkrParams, S};
pub use crate::score::Score;
pub use full::FullEval;
pub use material::{MATERIAL_VALUES, MaterialEval};
pub use nnue_eval::NnueEval;
pub use perturbed::Perturbed;

use shakmaty::Chess;

/// A static evaluation function: a score in centipawns for the side to move.
///
/// Must be pure (the same position always gives the same score) so that searches are
/// deterministic and transposition tables stay valid; must stay within
/// ±[`crate::score::MAX_EVAL`].
pub trait Evaluator: Send + Sync {
    /// Short name, as used in opponent-type specs (`self`, `material`, ...).
    fn name(&self) -> &str;
    /// The score of `pos` from the side to move's point of view.
    fn evaluate(&self, pos: &Chess) -> Score;
    /// The network this evaluator is, if it is an NNUE: the search then keeps accumulators
    /// per ply and updates them move by move ([`crate::nnue::AccumulatorStack`]) instead of
    /// calling [`Evaluator::evaluate`], with the same result.
    fn network(&self) -> Option<&crate::nnue::Network> {
        None
    }
}
