//! [`FullEval`] (name `"self"`), the engine's own evaluation: endgame knowledge first (by
//! material signature, `endgame.rs` and `kqkr.rs`), otherwise a tapered sum of middlegame and
//! endgame terms:
//!
//! material and piece-square tables (PeSTO), pawn structure (`pawns.rs`), piece activity
//! (`pieces.rs`), king safety (`king_safety.rs`) and a tempo bonus. The game phase counts
//! non-pawn material (knight and bishop 1, rook 2, queen 4; 24 at the start):
//! `score = (mg * phase + eg * scale / 64 * (24 - phase)) / 24`, with the endgame scale for
//! drawish material from `endgame::scale_factor`.
//!
//! Every term is computed for White and for Black in the same way and subtracted, and integer
//! division truncates toward zero, so the colour-flipped position scores exactly the same for
//! its side to move.

use shakmaty::{Board, Chess, Color, Position, Role};

use super::Evaluator;
use super::endgame::{self, SCALE_NORMAL};
use super::king_safety::king_safety;
use super::params::{EvalParams, S};
use super::pawns::pawn_structure;
use super::pieces::pieces;
use crate::score::{MAX_EVAL, Score};

/// Packed material + piece-square values: `[color][role - 1][square]`, positive for both
/// colours (Black's are read from the vertically mirrored square).
type Psqt = [[[S; 64]; 6]; 2];

/// The full evaluation. Holds its [`EvalParams`] and a derived material + PST table.
#[derive(Clone, Debug)]
pub struct FullEval {
    params: EvalParams,
    psqt: Box<Psqt>,
}

impl FullEval {
    /// An evaluator with the given weights.
    pub fn new(params: EvalParams) -> Self {
        let mut psqt = Box::new([[[S::ZERO; 64]; 6]; 2]);
        for role in 0..6 {
            for sq in 0..64 {
                let material = params.material[role];
                // PeSTO tables start at a8: White reads sq ^ 56, Black reads sq.
                psqt[Color::White as usize][role][sq] = material + params.pst[role][sq ^ 56];
                psqt[Color::Black as usize][role][sq] = material + params.pst[role][sq];
            }
        }
        FullEval { params, psqt }
    }

    /// The weights in use.
    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// The general (non-endgame-rule) evaluation from White's point of view, including the
    /// tempo bonus for `turn`.
    fn general(&self, board: &Board, turn: Color) -> Score {
        let p = &self.params;
        let mut packed = S::ZERO;
        let mut phase = 0;
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ] {
            let r = role as usize - 1;
            let pieces = board.by_role(role);
            for color in [Color::White, Color::Black] {
                let mine = pieces & board.by_color(color);
                let table = &self.psqt[color as usize][r];
                let mut sum = S::ZERO;
                for sq in mine {
                    sum += table[sq.to_usize()];
                }
                phase += p.phase_weight[r] * mine.count() as i32;
                match color {
                    Color::White => packed += sum,
                    Color::Black => packed -= sum,
                }
            }
        }
        packed += pawn_structure(board, p);
        let (white_pieces, white_attack) = pieces(board, Color::White, p);
        let (black_pieces, black_attack) = pieces(board, Color::Black, p);
        packed += white_pieces - black_pieces;
        packed += king_safety(board, Color::White, black_attack, p);
        packed -= king_safety(board, Color::Black, white_attack, p);
        packed += match turn {
            Color::White => p.tempo,
            Color::Black => -p.tempo,
        };

        let phase = phase.min(p.phase_total);
        let (mg, mut eg) = (packed.mg(), packed.eg());
        if eg != 0 {
            let strong = if eg > 0 { Color::White } else { Color::Black };
            let scale = endgame::scale_factor(board, strong, &p.endgame);
            if scale != SCALE_NORMAL {
                eg = eg * scale / SCALE_NORMAL;
            }
        }
        (mg * phase + eg * (p.phase_total - phase)) / p.phase_total
    }
}

impl Default for FullEval {
    fn default() -> Self {
        FullEval::new(EvalParams::default())
    }
}

impl Evaluator for FullEval {
    fn name(&self) -> &str {
        "self"
    }

    #[inline]
    fn evaluate(&self, pos: &Chess) -> Score {
        let board = pos.board();
        let turn = pos.turn();
        let score = match endgame::probe(board, turn, &self.params.endgame) {
            Some(s) => s,
            None => {
                let white = self.general(board, turn);
                match turn {
                    Color::White => white,
                    Color::Black => -white,
                }
            }
        };
        score.clamp(-MAX_EVAL, MAX_EVAL)
    }
}
