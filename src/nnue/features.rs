//! The network's input: which of the 768 features of a perspective are active.
//!
//! For perspective colour `p`, a piece of colour `c` and role `r` (pawn..king = 0..5) on
//! square `s` (a1 = 0 … h8 = 63) is feature
//! `(c != p)·384 + r·64 + (s if p is White else s ^ 56)`: own pieces first, then the
//! opponent's, each by role and by square as seen from `p`'s side of the board (ranks
//! flipped for Black). So a position seen by White and its colour-mirror seen by Black
//! activate the same features, and one set of weights serves both perspectives.

use shakmaty::{Board, Color, Piece, Square};

/// Features per perspective: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;

/// The feature of `piece` on `square` seen from `perspective`.
#[inline]
pub fn feature_index(perspective: Color, piece: Piece, square: Square) -> usize {
    let rel = usize::from(piece.color != perspective);
    let role = piece.role as usize - 1;
    let sq = match perspective {
        Color::White => usize::from(square),
        Color::Black => usize::from(square) ^ 56,
    };
    rel * 384 + role * 64 + sq
}

/// The active features of one perspective, in square order (a1 first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureList {
    indices: [u16; 64],
    len: usize,
}

impl FeatureList {
    /// The active features of `board` seen from `perspective`. A board holds at most one
    /// piece per square, so the list never overflows; chess positions have at most
    /// [`MAX_ACTIVE`](crate::nnue::MAX_ACTIVE) pieces, the bound the quantised net's overflow check assumes.
    pub fn new(board: &Board, perspective: Color) -> FeatureList {
        let mut list = FeatureList {
            indices: [0; 64],
            len: 0,
        };
        for (square, piece) in board {
            list.indices[list.len] = feature_index(perspective, piece, square) as u16;
            list.len += 1;
        }
        list
    }

    /// The features.
    pub fn as_slice(&self) -> &[u16] {
        &self.indices[..self.len]
    }

    /// How many features are active.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no feature is active (an empty board).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The active features of the side to move and of the other side.
pub fn perspectives(board: &Board, turn: Color) -> (FeatureList, FeatureList) {
    (
        FeatureList::new(board, turn),
        FeatureList::new(board, !turn),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::MAX_ACTIVE;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, EnPassantMode, FromSetup, Position, Role};

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn mirrored(pos: &Chess) -> Chess {
        let mut setup = pos.to_setup(EnPassantMode::Legal);
        setup.mirror();
        Chess::from_setup(setup, CastlingMode::Standard).unwrap()
    }

    fn sorted(list: &FeatureList) -> Vec<u16> {
        let mut v = list.as_slice().to_vec();
        v.sort_unstable();
        v
    }

    #[test]
    fn indices_of_a_known_position() {
        // White: king e1 (4), rook a1 (0), pawn d4 (27); Black: king e8 (60), knight f6 (45).
        let pos = chess("4k3/8/5n2/8/3P4/8/8/R3K3 w - - 0 1");
        let white = FeatureList::new(pos.board(), Color::White);
        // In square order: a1 rook, e1 king, d4 pawn, f6 knight, e8 king.
        assert_eq!(
            white.as_slice(),
            &[3 * 64, 5 * 64 + 4, 27, 384 + 64 + 45, 384 + 5 * 64 + 60]
        );
        let black = FeatureList::new(pos.board(), Color::Black);
        // Ranks flipped, Black's pieces are "own".
        assert_eq!(
            black.as_slice(),
            &[
                384 + 3 * 64 + 56,
                384 + 5 * 64 + 60,
                384 + 35,
                64 + 21,
                5 * 64 + 4
            ]
        );
        assert_eq!(
            feature_index(
                Color::White,
                Piece {
                    color: Color::Black,
                    role: Role::King
                },
                Square::H8
            ),
            767
        );
        assert_eq!(
            feature_index(
                Color::Black,
                Piece {
                    color: Color::Black,
                    role: Role::Pawn
                },
                Square::A8
            ),
            0
        );
    }

    #[test]
    fn a_mirrored_position_has_the_same_features() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "4k3/8/5n2/8/3P4/8/8/R3K3 w - - 0 1",
        ] {
            let pos = chess(fen);
            let mir = mirrored(&pos);
            assert_ne!(pos.turn(), mir.turn());
            let (stm, other) = perspectives(pos.board(), pos.turn());
            let (mstm, mother) = perspectives(mir.board(), mir.turn());
            assert_eq!(sorted(&stm), sorted(&mstm), "{fen}");
            assert_eq!(sorted(&other), sorted(&mother), "{fen}");
            assert!(stm.len() <= MAX_ACTIVE && stm.len() == pos.board().occupied().count());
        }
    }
}
