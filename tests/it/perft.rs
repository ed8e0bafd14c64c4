//! Perft through our `Position` (keys, make/undo and repetition bookkeeping included):
//! the standard positions of the chess programming wiki, named tests.

use nosce::perft::perft;
use nosce::position::Position;

fn check(fen: &str, depth: u32, expected: u64) {
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    assert_eq!(perft(&mut pos, depth), expected, "perft({depth}) of {fen}");
}

#[test]
fn startpos_depth_5() {
    check(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        4_865_609,
    );
}

#[test]
fn kiwipete_depth_4() {
    check(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        4_085_603,
    );
}

#[test]
fn position_3_en_passant_and_pins_depth_5() {
    check("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624);
}

#[test]
fn position_4_promotions_and_castling_depth_4() {
    check(
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        4,
        422_333,
    );
}

#[test]
fn position_4_mirrored_depth_4() {
    check(
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        4,
        422_333,
    );
}

#[test]
fn position_5_depth_4() {
    check(
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        4,
        2_103_487,
    );
}

#[test]
fn position_6_depth_4() {
    check(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        4,
        3_894_594,
    );
}

#[test]
fn illegal_en_passant_avoided_depth_6() {
    check("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1_134_888);
}

#[test]
fn en_passant_capture_gives_check_depth_6() {
    check("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1_440_467);
}

#[test]
fn short_castling_gives_check_depth_6() {
    check("5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661_072);
}

#[test]
fn promote_out_of_check_depth_6() {
    check("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3_821_001);
}
