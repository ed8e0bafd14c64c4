//! King safety basics (middlegame only): the pawn shield in front of a king that is still on
//! its first two ranks, and the weighted attack on the king zone (the king's square and its
//! neighbours) collected by `pieces.rs`.
//!
//! The attack term follows the classical scheme: the attackers' weights are summed and only a
//! fraction counts, growing with the number of attackers (one attacker alone counts nothing).

use shakmaty::{Board, Color};

use super::masks::{ADJACENT_FILES, FILES, relative_rank};
use super::params::{EvalParams, S};
use super::pieces::KingAttack;

/// The safety score of `us`'s king (positive is good for `us`), given the enemy's attack on
/// its zone.
#[inline]
pub(super) fn king_safety(board: &Board, us: Color, enemy: KingAttack, p: &EvalParams) -> S {
    let Some(king) = board.king_of(us) else {
        return S::ZERO;
    };
    let mut score = S::ZERO;
    let rank = relative_rank(us, king);
    if rank <= 1 {
        let file = king.file().to_usize();
        let files = FILES[file] | ADJACENT_FILES[file];
        let shield = files & (board.pawns() & board.by_color(us)).0;
        let r = king.rank().to_usize();
        let (one, two) = match us {
            Color::White => (r + 1, r + 2),
            Color::Black => (r.wrapping_sub(1), r.wrapping_sub(2)),
        };
        let rank_mask = |r: usize| if r < 8 { 0xffu64 << (8 * r) } else { 0 };
        score += p.pawn_shield[0] * (shield & rank_mask(one)).count_ones() as i32;
        score += p.pawn_shield[1] * (shield & rank_mask(two)).count_ones() as i32;
    }
    let scale = p.king_attack_scale[enemy.count.min(7)];
    score -= S::new(enemy.weight * scale / 100, 0);
    score
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
    fn shield_and_attack() {
        let p = EvalParams::default();
        let sheltered = king_safety(
            &board("6k1/8/8/8/8/8/5PPP/6K1 w - - 0 1"),
            Color::White,
            KingAttack::default(),
            &p,
        );
        let bare = king_safety(
            &board("6k1/8/8/8/8/8/8/6K1 w - - 0 1"),
            Color::White,
            KingAttack::default(),
            &p,
        );
        assert_eq!(sheltered.mg() - bare.mg(), 3 * p.pawn_shield[0].mg());
        let black = king_safety(
            &board("6k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"),
            Color::Black,
            KingAttack::default(),
            &p,
        );
        assert_eq!(black, sheltered);
        let attacked = KingAttack {
            count: 2,
            weight: 100,
        };
        let hit = king_safety(
            &board("6k1/8/8/8/8/8/8/6K1 w - - 0 1"),
            Color::White,
            attacked,
            &p,
        );
        assert!(hit.mg() < bare.mg());
    }
}
