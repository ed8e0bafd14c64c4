//! Pawn structure: passed pawns (by rank, with a bonus for a free path and, in the endgame,
//! for the enemy king being far from and the own king near the stop square), isolated,
//! doubled and backward pawns.
//!
//! Everything is computed with whole-board masks from `masks.rs`; the result is a packed
//! (mg, eg) pair from White's point of view. No pawn hash: the evaluator is pure and holds no
//! mutable state.

use shakmaty::{Board, Color, Square};

use super::masks::{
    ADJACENT_FILES, FORWARD_FILE, FORWARD_RANKS, PASSED_SPAN, dist, pawn_attacks, push_square,
    relative_rank,
};
use super::params::{EvalParams, S};

/// The pawn-structure score of `board` from White's point of view.
#[inline]
pub(super) fn pawn_structure(board: &Board, p: &EvalParams) -> S {
    side(board, Color::White, p) - side(board, Color::Black, p)
}

/// The pawn-structure terms of `us`'s pawns (positive is good for `us`).
fn side(board: &Board, us: Color, p: &EvalParams) -> S {
    let pawns = board.pawns().0;
    let ours = pawns & board.by_color(us).0;
    let theirs = pawns & board.by_color(!us).0;
    if ours == 0 {
        return S::ZERO;
    }
    let their_attacks = pawn_attacks(!us, theirs);
    let occupied = board.occupied().0;
    let c = us as usize;
    let own_king = board.king_of(us);
    let their_king = board.king_of(!us);

    let mut score = S::ZERO;
    let mut rest = ours;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let sq = Square::new(i as u32);
        let file = i % 8;
        let rank = relative_rank(us, sq);
        let doubled = ours & FORWARD_FILE[c][i] != 0;
        if doubled {
            score += p.doubled;
        }
        if ours & ADJACENT_FILES[file] == 0 {
            score += p.isolated;
        } else {
            // Backward: no own pawn beside or behind on the adjacent files, and the stop square
            // is covered by an enemy pawn.
            let support = ADJACENT_FILES[file] & !FORWARD_RANKS[c][i / 8];
            let stop = push_square(us, sq);
            if ours & support == 0 && their_attacks & (1u64 << stop.to_usize()) != 0 {
                score += p.backward;
            }
        }
        if !doubled && theirs & PASSED_SPAN[c][i] == 0 {
            score += p.passed_rank[rank];
            if occupied & FORWARD_FILE[c][i] == 0 {
                score += p.passed_free_path[rank];
            }
            let w = p.passed_king_rank_weight[rank];
            if w != 0 {
                let stop = push_square(us, sq);
                let theirs_far = their_king.map_or(0, |k| dist(k, stop));
                let ours_far = own_king.map_or(0, |k| dist(k, stop));
                score += S::new(
                    0,
                    w * (p.passed_king_their * theirs_far - p.passed_king_own * ours_far),
                );
            }
        }
    }
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
    fn passed_pawn_scores_more_when_advanced() {
        let p = EvalParams::default();
        let low = pawn_structure(&board("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"), &p);
        let high = pawn_structure(&board("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"), &p);
        assert!(high.eg() > low.eg() + 50, "{high:?} {low:?}");
    }

    #[test]
    fn doubled_and_isolated_pawns_are_penalised() {
        let p = EvalParams::default();
        let healthy = pawn_structure(&board("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1"), &p);
        let broken = pawn_structure(&board("4k3/pp6/8/8/8/P7/P7/4K3 w - - 0 1"), &p);
        assert_eq!(healthy, S::ZERO);
        assert!(broken.eg() < 0 && broken.mg() < 0);
    }
}
