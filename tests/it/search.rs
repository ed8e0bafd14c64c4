//! Search correctness through the library: known mates with their exact distance (the
//! pawnless ones verified with the Gaviota DTM tables in `tables/gaviota`), determinism
//! for a fixed depth and node count, and draw recognition.

use nosce::eval::FullEval;
use nosce::position::{Position, uci};
use nosce::score::{is_mate, mate_moves};
use nosce::search::search_depth;
use nosce::tt::TranspositionTable;

fn solve(fen: &str, depth: u32) -> (String, i32, i32) {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let tt = TranspositionTable::new(16);
    let r = search_depth(&FullEval::default(), &tt, &pos, depth);
    let best = r.best.map(uci).unwrap_or_default();
    let mate = if is_mate(r.score) {
        mate_moves(r.score)
    } else {
        0
    };
    (best, mate, r.score)
}

fn assert_mate(fen: &str, depth: u32, moves: i32, first: &[&str]) {
    let (best, mate, score) = solve(fen, depth);
    assert_eq!(mate, moves, "{fen}: expected mate {moves}, score {score}");
    assert!(
        first.is_empty() || first.contains(&best.as_str()),
        "{fen}: first move {best}, expected one of {first:?}"
    );
}

#[test]
fn mate_in_1_rook() {
    // Gaviota DTM 1 ply.
    assert_mate("4k3/8/4K3/8/8/8/8/6R1 w - - 0 1", 4, 1, &["g1g8"]);
}

#[test]
fn mate_in_2_rook() {
    // Gaviota DTM 3 plies; Rb8 is the only mate in 2.
    assert_mate("R7/8/8/8/8/3K4/8/2k5 w - - 0 1", 6, 2, &["a8b8"]);
}

#[test]
fn mate_in_2_sacrifice() {
    // 1. Nf6+ gxf6 2. Bxf7#.
    assert_mate(
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
        6,
        2,
        &["d5f6"],
    );
}

#[test]
fn mate_in_3_queen() {
    // Gaviota DTM 5 plies.
    assert_mate("8/8/8/8/8/k3K3/8/1Q6 w - - 0 1", 10, 3, &["e3d3", "e3d4"]);
}

#[test]
fn mate_in_3_black_king_hunt() {
    // 1... Bc5+ 2. Kxc5 Qb6+ 3. Kd5 Qd6#.
    assert_mate(
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
        8,
        3,
        &["f8c5"],
    );
}

#[test]
fn mate_in_4_queen_wins_rook() {
    // KQ v KR, Gaviota DTM 7 plies: 1. Qxe4 is the only mate in 4.
    assert_mate("8/8/4K1k1/8/4r3/8/2Q5/8 w - - 0 1", 12, 4, &["c2e4"]);
}

#[test]
fn mated_side_sees_negative_mate() {
    // Black to move, mated next move whatever it does (Gaviota: white mates in 1 after any reply).
    let (_, mate, _) = solve("k7/8/1K6/8/8/8/8/7R b - - 0 1", 6);
    assert_eq!(mate, -1);
}

#[test]
fn stalemate_and_insufficient_material_are_draws() {
    let (_, _, s) = solve("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", 5);
    assert_eq!(s, 0);
    let (_, _, s) = solve("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", 6);
    assert_eq!(s, 0);
}

#[test]
fn fixed_depth_search_is_deterministic() {
    let fen = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14";
    let pos = Position::from_fen(fen).unwrap();
    let a = search_depth(&FullEval::default(), &TranspositionTable::new(16), &pos, 8);
    let b = search_depth(&FullEval::default(), &TranspositionTable::new(16), &pos, 8);
    assert_eq!((a.best, a.nodes, a.score), (b.best, b.nodes, b.score));
    assert!(a.nodes > 1000);
}
