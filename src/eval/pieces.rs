//! Piece activity: mobility per piece type over safe squares, the bishop pair, rooks on open
//! and semi-open files, rooks and queens on the 7th rank; while walking the pieces it also
//! records which of them attack the enemy king zone, for `king_safety.rs`.
//!
//! Mobility counts attacked squares that are not occupied by an own pawn or the own king and
//! not attacked by an enemy pawn (a "safe square"); sliders see through nothing.

use shakmaty::{Bitboard, Board, Color, Square, attacks};

use super::masks::{FILES, bb, pawn_attacks, relative_rank};
use super::params::{EvalParams, S};

/// Pieces of one side that attack the enemy king zone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct KingAttack {
    /// Number of attacking pieces.
    pub count: usize,
    /// Sum of their [`EvalParams::king_attacker_weight`]s.
    pub weight: i32,
}

/// Activity score of `us`'s knights, bishops, rooks and queens (positive is good for `us`) and
/// their attack on the enemy king zone.
#[inline]
pub(super) fn pieces(board: &Board, us: Color, p: &EvalParams) -> (S, KingAttack) {
    let own = board.by_color(us);
    let their = board.by_color(!us);
    let occupied = board.occupied();
    let pawns = board.pawns();
    let own_pawns = (pawns & own).0;
    let their_pawns = (pawns & their).0;
    let area = bb(!(own_pawns | (board.kings() & own).0 | pawn_attacks(!us, their_pawns)));
    let zone = board
        .king_of(!us)
        .map_or(Bitboard::EMPTY, |k| attacks::king_attacks(k).with(k));

    let mut score = S::ZERO;
    let mut attack = KingAttack::default();
    let mut note = |a: Bitboard, role: usize| {
        if a.intersects(zone) {
            attack.count += 1;
            attack.weight += p.king_attacker_weight[role];
        }
    };

    for sq in board.knights() & own {
        let a = attacks::knight_attacks(sq);
        score += p.mobility_knight[(a & area).count()];
        note(a, 1);
    }
    let bishops = board.bishops() & own;
    if bishops.more_than_one() {
        score += p.bishop_pair;
    }
    for sq in bishops {
        let a = attacks::bishop_attacks(sq, occupied);
        score += p.mobility_bishop[(a & area).count()];
        note(a, 2);
    }

    // The 7th-rank bonus needs the enemy king on the 8th or enemy pawns on the 7th.
    let seventh_matters = |sq: Square| {
        relative_rank(us, sq) == 6
            && (board
                .king_of(!us)
                .is_some_and(|k| relative_rank(us, k) == 7)
                || (Bitboard::from_rank(sq.rank()).0 & their_pawns) != 0)
    };
    for sq in board.rooks() & own {
        let a = attacks::rook_attacks(sq, occupied);
        score += p.mobility_rook[(a & area).count()];
        note(a, 3);
        let file = FILES[sq.file().to_usize()];
        if file & own_pawns == 0 {
            score += if file & their_pawns == 0 {
                p.rook_open_file
            } else {
                p.rook_semi_open_file
            };
        }
        if seventh_matters(sq) {
            score += p.major_on_seventh;
        }
    }
    for sq in board.queens() & own {
        let a = attacks::queen_attacks(sq, occupied);
        score += p.mobility_queen[(a & area).count()];
        note(a, 4);
        if seventh_matters(sq) {
            score += p.major_on_seventh;
        }
    }
    (score, attack)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    fn board(fen: &str) -> Board {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap_or_else(|e| panic!("test FEN '{fen}' does not parse: {e}"))
            .into_position(CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("test FEN '{fen}' is not a legal position: {e}"));
        pos.board().clone()
    }

    #[test]
    fn centralised_knight_is_more_mobile() {
        let p = EvalParams::default();
        let (corner, _) = pieces(&board("4k3/8/8/8/8/8/8/N3K3 w - - 0 1"), Color::White, &p);
        let (centre, _) = pieces(&board("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1"), Color::White, &p);
        assert!(centre.mg() > corner.mg() && centre.eg() > corner.eg());
    }

    #[test]
    fn rook_on_open_file_and_king_attack() {
        let p = EvalParams::default();
        let b = board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        let (s, attack) = pieces(&b, Color::White, &p);
        assert!(s.mg() >= p.rook_open_file.mg() - 20);
        assert_eq!(attack, KingAttack::default());
        let b = board("6k1/5ppp/8/6N1/8/8/5PPP/3Q2K1 w - - 0 1");
        let (_, attack) = pieces(&b, Color::White, &p);
        assert_eq!(attack.count, 1);
    }
}
