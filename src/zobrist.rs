//! The Zobrist key of a position: the full hash of a board ([`zobrist`]) and its update after
//! a move ([`key_after`]), which the search uses on every move it plays (Zobrist's hashing,
//! the transposition table's key of Winands 2004 §2.6).
//!
//! Keys are shakmaty's 64-bit Zobrist values with the *legal* en passant square (a square
//! enters the key only when an en passant capture is legal there, so that positions which
//! differ in nothing else transpose). shakmaty updates a key itself for most moves, but gives
//! up — and the full hash of every piece had to be computed again — for king moves, castling,
//! double pawn steps, moves from or to a castling rook's square and every move made while an
//! en passant square is set; hashing those positions afresh was 1.9 % of the search's
//! instructions in a profile of `bench 8` (callgrind). [`key_after`] updates those too, from the pieces the move changes,
//! the castling rights it changes and the en passant squares before and after it. shakmaty has
//! no such update, hence this file; it gives exactly the full hash's value (checked against it
//! on random games in the tests), so the search is unchanged by it.

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{CastlingSide, Chess, Color, EnPassantMode, Move, Position as _, Square};

/// The Zobrist key of a shakmaty position (legal en passant squares only).
pub fn zobrist(chess: &Chess) -> u64 {
    chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key of `after`, the position the legal move `m` leads to from `before`, whose key is
/// `key`: the same value as [`zobrist`] of `after`, found from what the move changed.
#[inline]
pub fn key_after(before: &Chess, key: u64, m: Move, after: &Chess) -> u64 {
    if let Some(k) = before.update_zobrist_hash(Zobrist64(key), m, EnPassantMode::Legal) {
        return k.0;
    }
    let turn = before.turn();
    let mut k = Zobrist64(key) ^ Zobrist64::zobrist_for_white_turn();
    let mut piece = |sq: Square, p| k ^= Zobrist64::zobrist_for_piece(sq, p);
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            piece(from, role.of(turn));
            piece(to, promotion.unwrap_or(role).of(turn));
            if let Some(c) = capture {
                piece(to, c.of(!turn));
            }
        }
        Move::EnPassant { from, to } => {
            piece(from, turn.pawn());
            piece(to, turn.pawn());
            piece(Square::from_coords(to.file(), from.rank()), (!turn).pawn());
        }
        Move::Castle { king, rook } => {
            // As shakmaty plays it (Chess960 too): both pieces leave, then land on the
            // side's files; a piece that stays where it was cancels out.
            let side = CastlingSide::from_queen_side(rook < king);
            piece(king, turn.king());
            piece(rook, turn.rook());
            piece(
                Square::from_coords(side.king_to_file(), king.rank()),
                turn.king(),
            );
            piece(
                Square::from_coords(side.rook_to_file(), rook.rank()),
                turn.rook(),
            );
        }
        Move::Put { .. } => return zobrist(after),
    }
    let (was, now) = (before.castles(), after.castles());
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if was.has(color, side) != now.has(color, side) {
                k ^= Zobrist64::zobrist_for_castling_right(color, side);
            }
        }
    }
    for sq in [before, after]
        .iter()
        .filter_map(|c| c.ep_square(EnPassantMode::Legal))
    {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
    }
    k.0
}

/// The key of the position after a null move from `before`, whose key is `key`: the other
/// side to move and no en passant square (what shakmaty's `swap_turn` gives).
#[inline]
pub fn key_after_null(before: &Chess, key: u64) -> u64 {
    let mut k = Zobrist64(key) ^ Zobrist64::zobrist_for_white_turn();
    if let Some(sq) = before.ep_square(EnPassantMode::Legal) {
        k ^= Zobrist64::zobrist_for_en_passant_file(sq.file());
    }
    k.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, uci::UciMove};

    fn chess(fen: &str, mode: CastlingMode) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(mode).unwrap()
    }

    /// Random games from positions rich in what shakmaty does not update (castling both
    /// ways, Chess960 castling, en passant, promotions, king walks): every key equals the
    /// full hash.
    #[test]
    fn every_key_after_a_move_is_the_full_hash() {
        let checked = crate::random_games::walk(&crate::random_games::STARTS, 40, 160, |pos, m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            let mode = pos.castles().mode();
            let key = key_after(pos, zobrist(pos), m, &next);
            assert_eq!(key, zobrist(&next), "after {}", UciMove::from_move(m, mode));
        });
        assert!(checked > 20_000, "{checked} moves");
    }

    #[test]
    fn a_null_move_key_is_the_full_hash() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
            "8/8/8/8/k2Pp3/8/8/4K3 b - d3 0 1",
        ] {
            let before = chess(fen, CastlingMode::Standard);
            let after = before.clone().swap_turn().unwrap();
            assert_eq!(
                key_after_null(&before, zobrist(&before)),
                zobrist(&after),
                "{fen}"
            );
        }
    }
}
