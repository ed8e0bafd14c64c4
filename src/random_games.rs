//! Test support: random legal games from given positions, for tests that check a fast
//! routine against shakmaty's own answer position by position (the Zobrist key update of
//! [`crate::zobrist`], the quiescence search's move generation). The moves are drawn by the
//! crate's [`GameRng`], so a failing position is found again from its seed.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position as _};

use crate::rng::GameRng;

/// Start positions rich in what fast routines get wrong: castling both ways (Chess960 too),
/// en passant (legal and not), promotions and under-promotions, pins, king walks.
pub const STARTS: [(&str, CastlingMode); 10] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CastlingMode::Standard,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        CastlingMode::Standard,
    ),
    (
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        CastlingMode::Standard,
    ),
    (
        "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
        CastlingMode::Standard,
    ),
    ("8/8/8/K2pP2r/8/8/8/7k w - d6 0 2", CastlingMode::Standard),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        CastlingMode::Standard,
    ),
    (
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        CastlingMode::Standard,
    ),
    ("8/P1k5/8/8/8/8/5Kp1/8 w - - 0 1", CastlingMode::Standard),
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        CastlingMode::Chess960,
    ),
    (
        "2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1",
        CastlingMode::Chess960,
    ),
];

/// Plays `games` random games of at most `plies` plies from each of `starts` (FEN, castling
/// mode), calling `visit` with every position reached and the move about to be played from
/// it; returns how many positions were visited.
pub fn walk(
    starts: &[(&str, CastlingMode)],
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&Chess, Move),
) -> usize {
    let mut visited = 0;
    for (i, &(fen, mode)) in starts.iter().enumerate() {
        let start: Chess = fen
            .parse::<Fen>()
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .into_position(mode)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        for game in 0..games {
            let mut rng = GameRng::new(i as u64, game as u64);
            let mut pos = start.clone();
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                visit(&pos, m);
                visited += 1;
                pos.play_unchecked(m);
            }
        }
    }
    visited
}
