//! Scores: centipawns from the side to move's point of view, with a band of mate and
//! tablebase scores above every evaluation.
//!
//! Layout (all `i32`): ordinary evaluations stay inside ±[`MAX_EVAL`]; tablebase wins lie in
//! `TB_WIN - MAX_PLY ..= TB_WIN` and mates in `MATE - MAX_PLY ..= MATE`, both distance-adjusted
//! by ply so that shorter wins score higher (the usual negamax mate convention, Winands 2004
//! §2.2). [`INFINITE`] bounds every window.

/// A search or evaluation score in centipawns, side to move's point of view.
pub type Score = i32;

/// Larger than any score the search can return.
pub const INFINITE: Score = 32_001;
/// Score of giving mate right now (the mated side sees `-MATE` at ply 0).
pub const MATE: Score = 32_000;
/// Longest line the search can follow; also bounds the mate and tablebase bands.
pub const MAX_PLY: usize = 246;
/// Scores at or above this are mates.
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;
/// A won tablebase position at the root of the probe.
pub const TB_WIN: Score = MATE_BOUND - 1;
/// Scores at or above this (and below [`MATE_BOUND`]) are tablebase wins.
pub const TB_WIN_BOUND: Score = TB_WIN - MAX_PLY as Score;
/// The largest score a static evaluation may return.
pub const MAX_EVAL: Score = TB_WIN_BOUND - 1;
/// Score of a draw.
pub const DRAW: Score = 0;

/// The score of mating the opponent `ply` plies from the root.
pub const fn mate_in(ply: usize) -> Score {
    MATE - ply as Score
}

/// The score of being mated `ply` plies from the root.
pub const fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

/// True for mate scores (either sign).
pub const fn is_mate(s: Score) -> bool {
    s.abs() >= MATE_BOUND && s.abs() <= MATE
}

/// True for decisive scores that are not ordinary evaluations: mates and tablebase results.
pub const fn is_decisive(s: Score) -> bool {
    s.abs() >= TB_WIN_BOUND
}

/// Converts a score found `ply` plies from the root into the node-relative form stored in a
/// transposition table (mate distances counted from that node).
pub const fn to_tt(s: Score, ply: usize) -> Score {
    if s >= TB_WIN_BOUND {
        s + ply as Score
    } else if s <= -TB_WIN_BOUND {
        s - ply as Score
    } else {
        s
    }
}

/// Inverse of [`to_tt`]: a stored node-relative score seen `ply` plies from the root.
pub const fn from_tt(s: Score, ply: usize) -> Score {
    if s >= TB_WIN_BOUND {
        s - ply as Score
    } else if s <= -TB_WIN_BOUND {
        s + ply as Score
    } else {
        s
    }
}

/// Full moves to mate for a mate score (positive: we mate, negative: we are mated), as the
/// UCI `score mate N` wants it.
pub const fn mate_moves(s: Score) -> i32 {
    if s > 0 {
        (MATE - s + 1) / 2
    } else {
        -(MATE + s) / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_moves_counts_full_moves() {
        assert_eq!(mate_moves(mate_in(1)), 1);
        assert_eq!(mate_moves(mate_in(3)), 2);
        assert_eq!(mate_moves(mated_in(0)), 0);
        assert_eq!(mate_moves(mated_in(2)), -1);
    }

    #[test]
    fn tt_round_trip_keeps_distance() {
        for ply in [0, 5, 40] {
            for s in [mate_in(7 + ply), mated_in(9 + ply), 123, -45, TB_WIN - 3] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        assert!(is_mate(mate_in(10)) && !is_mate(TB_WIN) && is_decisive(TB_WIN));
    }
}
