//! KQ vs KR without tablebases: the knowledge the queen side needs to convert the
//! Browne–BELLE positions (Donkers 2003 §5.4, Appendix B) within a fixed node budget, and that
//! the rook side uses, negated, to resist.
//!
//! From the queen side's point of view the score is `base` plus gradients of tens of
//! centipawns toward the winning technique:
//!
//! * the defending king driven to the edge and into a corner (Manhattan and Chebyshev
//!   distance from the centre),
//! * the attacking king close to it (Chebyshev and Manhattan distance; opposition on the edge),
//! * the rook separated from its king (a far rook is forked by queen checks),
//! * few safe squares for the defending king, but not none while it is not in check (a boxed
//!   king with only rook moves invites rook sacrifices for stalemate),
//! * the queen near the defending king.
//!
//! Two short tactics are recognised statically, one per side to move, because the
//! quiescence search (captures only) does not see them:
//!
//! * rook side to move: a rook check that forks the queen (checking square defended by the
//!   rook's king) or skewers it (queen behind the checked king) and cannot be captured safely;
//!   the score collapses toward a draw (`rook_tactic_scale / 64`);
//! * queen side to move: a safe queen check that also attacks the undefended rook, where no
//!   king move defends the rook and no interposition holds; the rook is won (`queen_fork`).
//!
//! The result stays well below the lone-king scores of `endgame.rs`, so capturing the rook
//! (KQK) is always preferred. Captures themselves (a hanging queen or rook) are left to the
//! quiescence search.

use shakmaty::{Bitboard, Board, Color, Square, attacks};

use super::masks::{CENTRE_CHEBYSHEV, CENTRE_MANHATTAN, dist, manhattan};
use super::params::KqkrParams;
use crate::score::Score;

/// The KQ vs KR score from `strong`'s (the queen side's) point of view, with `turn` to move.
/// `None` unless the board is exactly K+Q (strong) against K+R.
pub(super) fn kqkr(board: &Board, strong: Color, turn: Color, p: &KqkrParams) -> Option<Score> {
    let weak = !strong;
    let q = (board.queens() & board.by_color(strong)).single_square()?;
    let r = (board.rooks() & board.by_color(weak)).single_square()?;
    let sk = board.king_of(strong)?;
    let wk = board.king_of(weak)?;
    let occ = board.occupied();

    let mut s = p.base;
    let wki = wk.to_usize();
    s += p.edge_manhattan * CENTRE_MANHATTAN[wki] + p.edge_chebyshev * CENTRE_CHEBYSHEV[wki];
    let d = dist(sk, wk);
    s += p.king_close * (7 - d) + p.king_close_manhattan * (14 - manhattan(sk, wk));
    s += p.rook_separation * dist(wk, r).min(5);
    s += p.queen_close * (7 - dist(q, wk).max(2));

    // Safe squares of the defending king: the queen's lines pass through the king (it cannot
    // step back along a checking line).
    let seen = attacks::king_attacks(sk) | attacks::queen_attacks(q, occ.without(wk));
    let safe = attacks::king_attacks(wk) & !seen & !board.by_color(weak);
    let in_check = attacks::queen_attacks(q, occ).contains(wk);
    s -= p.defender_mobility * safe.count() as i32;
    if safe.is_empty() && !in_check {
        s -= p.defender_no_moves;
    }
    if d == 2 && (sk.file() == wk.file() || sk.rank() == wk.rank()) && CENTRE_CHEBYSHEV[wki] == 3 {
        s += p.opposition;
    }

    if turn == weak {
        if rook_wins_queen(board, r, q, sk, wk) {
            s = s * p.rook_tactic_scale / 64;
        }
    } else if queen_wins_rook(board, weak, q, r, sk, wk) {
        s += p.queen_fork;
    }
    Some(s)
}

/// Rook side to move: does a rook check fork or skewer the queen so that the queen is lost
/// (for the rook at best)?
fn rook_wins_queen(board: &Board, r: Square, q: Square, sk: Square, wk: Square) -> bool {
    let occ = board.occupied();
    let occ_r = occ.without(r);
    let reach = attacks::rook_attacks(r, occ) & !occ;
    let checks = attacks::rook_attacks(sk, occ_r) & reach;
    let guarded = attacks::king_attacks(wk);
    for f in checks {
        let occ_f = occ_r.with(f);
        let defended = guarded.contains(f);
        let king_takes = attacks::king_attacks(sk).contains(f) && !defended;
        let queen_takes = attacks::queen_attacks(q, occ_f).contains(f) && !defended;
        if king_takes || queen_takes {
            continue;
        }
        let fork = attacks::rook_attacks(f, occ_f).contains(q);
        let skewer = attacks::between(f, q).contains(sk)
            && attacks::rook_attacks(f, occ_f.without(sk)).contains(q);
        if fork || skewer {
            return true;
        }
    }
    false
}

/// Queen side to move: does a safe queen check also attack the rook so that the rook falls
/// (no king move defends it, no interposition is defended)?
fn queen_wins_rook(
    board: &Board,
    weak: Color,
    q: Square,
    r: Square,
    sk: Square,
    wk: Square,
) -> bool {
    let wk_zone = attacks::king_attacks(wk);
    if wk_zone.contains(r) {
        return false;
    }
    let sk_zone = attacks::king_attacks(sk);
    let occ = board.occupied();
    let occ_q = occ.without(q);
    let reach = attacks::queen_attacks(q, occ) & !occ;
    let checks = attacks::queen_attacks(wk, occ_q) & reach;
    let rook_guard = attacks::king_attacks(r);
    for f in checks {
        let occ_f = occ_q.with(f);
        if !attacks::queen_attacks(f, occ_f).contains(r) {
            continue;
        }
        if attacks::rook_attacks(r, occ_f).contains(f)
            || (wk_zone.contains(f) && !sk_zone.contains(f))
        {
            continue;
        }
        let seen = attacks::queen_attacks(f, occ_f.without(wk)) | sk_zone;
        let escapes = wk_zone & !seen & !board.by_color(weak) & !Bitboard::from_square(f);
        if escapes.intersects(rook_guard) {
            continue;
        }
        let blocks = attacks::between(f, wk) & attacks::rook_attacks(r, occ_f);
        if blocks.intersects(wk_zone) {
            continue;
        }
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    fn eval(fen: &str) -> Score {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap_or_else(|e| panic!("test FEN '{fen}' does not parse: {e}"))
            .into_position(CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("test FEN '{fen}' is not a legal position: {e}"));
        let strong = if (pos.board().queens() & pos.board().white()).any() {
            Color::White
        } else {
            Color::Black
        };
        kqkr(pos.board(), strong, pos.turn(), &KqkrParams::default()).unwrap_or(i32::MIN)
    }

    #[test]
    fn only_kqkr() {
        assert_eq!(eval("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"), i32::MIN);
    }

    #[test]
    fn edge_and_close_kings_score_higher() {
        let centre = eval("8/8/8/3k4/8/8/1r6/Q3K3 w - - 0 1");
        let edge = eval("3k4/8/8/8/8/8/1r6/Q3K3 w - - 0 1");
        let edge_close = eval("3k4/8/3K4/8/8/8/1r6/Q7 w - - 0 1");
        assert!(edge > centre + 50, "{edge} {centre}");
        assert!(edge_close > edge + 50, "{edge_close} {edge}");
    }

    #[test]
    fn separated_rook_is_better_for_the_queen() {
        let near = eval("3k4/3r4/8/8/3K4/8/8/Q7 w - - 0 1");
        let far = eval("3k4/8/8/8/3K4/8/7r/Q7 w - - 0 1");
        assert!(far > near, "{far} {near}");
    }

    #[test]
    fn rook_fork_and_skewer_are_seen() {
        // Black to move: ...Rd4+ forks king e4? No: rook d5-d4 checks Kc4 along the rank and
        // hits the queen on d1 along the file; d4 is defended by the black king on e5.
        let fork = eval("8/8/8/3rk3/2K5/8/8/3Q4 b - - 0 1");
        let quiet = eval("8/8/8/3rk3/2K5/8/8/Q7 b - - 0 1");
        assert!(fork < quiet / 2, "{fork} {quiet}");
        // Skewer: ...Ra4+ along the 4th rank, king d4, queen h4 behind it.
        let skewer = eval("r7/8/8/8/3K3Q/8/8/6k1 b - - 0 1");
        assert!(skewer < 200, "{skewer}");
    }

    #[test]
    fn queen_fork_is_seen() {
        // White to move: Qa5+? The queen on d2 checks the king on e8 from a4 (diagonal) or
        // b5 and attacks the rook on h5 along the 5th rank from b5.
        let fork = eval("4k3/8/8/7r/8/8/3Q4/4K3 w - - 0 1");
        let same_black = eval("4k3/8/8/7r/8/8/3Q4/4K3 b - - 0 1");
        assert!(fork > same_black + 100, "{fork} {same_black}");
    }
}
