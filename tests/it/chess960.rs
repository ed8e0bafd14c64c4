//! Chess960 (Fischer random chess): perft of Chess960 positions with their published
//! counts through our `Position`, and transcripts through the real binary — UCI with
//! `UCI_Chess960` (X-FEN and Shredder-FEN castling rights, castling read and written as the
//! king taking its rook) and CECP with `variant fischerandom` (castling as `O-O`/`O-O-O`).
//! Standard chess is unchanged without them (the bench signature test covers the search).

use crate::common;

use common::{Engine, QUICK, SEARCH, parse_bestmove};
use nosce::perft::perft;
use nosce::position::Position;

/// Positions of the Chess960 perft list of the chess programming wiki ("Chess960 Perft
/// Results", also `fischer.epd` of Ethereal and `chess960.perft` of python-chess), chosen for
/// castling rights of every shape: both sides, one side, inner rooks (X-FEN file letters),
/// a king next to its rook, an en passant square, none. Counts at depth 4 and 5.
const PERFT: [(&str, u32, u64); 12] = [
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        4,
        326_672,
    ),
    (
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        4,
        667_366,
    ),
    (
        "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
        5,
        6_417_013,
    ),
    (
        "qn1rbbkr/ppp2p1p/1n1pp1p1/8/3P4/P6P/1PP1PPPK/QNNRBB1R w hd - 2 9",
        4,
        679_699,
    ),
    (
        "qn1rkrbb/pp1p1ppp/2p1p3/3n4/4P2P/2NP4/PPP2PP1/Q1NRKRBB w FDfd - 1 9",
        4,
        356_950,
    ),
    (
        "bnqnrbkr/1pp2pp1/p7/3pP2p/4P1P1/8/PPPP3P/BNQNRBKR w HEhe d6 0 9",
        4,
        962_591,
    ),
    (
        "nqn2krb/p1prpppp/1pbp4/7P/5P2/8/PPPPPKP1/NQNRB1RB w g - 3 9",
        4,
        248_069,
    ),
    (
        "1nqr1rbb/pppkp1pp/1n3p2/3p4/1P6/5P1P/P1PPPKP1/NNQR1RBB w - - 1 9",
        4,
        429_446,
    ),
    (
        "nnrqk1bb/p1ppp2p/5rp1/1p3p2/1P4P1/5P1P/P1PPP3/NNRQKRBB w FCc - 1 9",
        4,
        648_945,
    ),
    (
        "nbkr1qbr/1pp1pppp/pn1p4/8/3P2P1/5R2/PPP1PP1P/NBN1KQBR w H - 2 9",
        4,
        423_329,
    ),
    (
        "nnrkrbbq/pppp2pp/8/4pp2/4P3/P7/1PPPBPPP/NNKRR1BQ w c - 0 9",
        4,
        636_041,
    ),
    (
        "n1rk1qbb/pppprpp1/2n4p/4p3/2PP3P/8/PP2PPP1/NNRKRQBB w ECc - 1 9",
        4,
        425_247,
    ),
];

/// The only mate in one is castling: the king b1 and its rook a1 castle long (`b1a1` in
/// UCI's Chess960 form, `O-O-O` in CECP's).
const CASTLE_MATE: &str = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1";
const CASTLE_MATE_AFTER: &str = "2rkr3/2p1p3/8/8/8/8/8/2KR4 b - - 1 1";

#[test]
fn perft_of_chess960_positions() {
    for (fen, depth, expected) in PERFT {
        let mut pos = Position::from_fen_in(fen, true).expect("a Chess960 FEN");
        assert_eq!(perft(&mut pos, depth), expected, "perft({depth}) of {fen}");
    }
    // The standard start position is Chess960 position 518: the same tree.
    let mut start = Position::from_fen_in(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        true,
    )
    .unwrap();
    assert_eq!(perft(&mut start, 4), 197_281);
}

#[test]
fn chess960_castling_rights_need_the_mode() {
    let err = Position::from_fen(CASTLE_MATE).expect_err("standard chess has no such castling");
    assert!(err.contains("UCI_Chess960"), "{err}");
    // X-FEN and Shredder-FEN name the same rights.
    let x = Position::from_fen_in("2r1k3/8/8/8/8/8/8/RK5R w KQ - 0 1", true).unwrap();
    let s = Position::from_fen_in("2r1k3/8/8/8/8/8/8/RK5R w HA - 0 1", true).unwrap();
    assert_eq!(x.key(), s.key());
}

#[test]
fn uci_chess960_reads_and_writes_castling_as_king_takes_rook() {
    let (mut e, hello) = Engine::start_uci();
    e.check(
        hello
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false"),
        "UCI_Chess960 not announced",
    );
    // Without the option the position is refused, with a message, and the engine goes on.
    e.send(&format!("position fen {CASTLE_MATE}"));
    let said = e.sync();
    e.check(
        said.iter()
            .any(|l| l.starts_with("info string error") && l.contains("UCI_Chess960")),
        "no message for Chess960 castling rights in standard chess",
    );
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {CASTLE_MATE}"));
    let (lines, _) = e.go("go depth 4", SEARCH);
    let (best, _) = parse_bestmove(lines.last().unwrap());
    e.check(best == "b1a1", &format!("bestmove {best}, expected b1a1"));
    e.check(
        lines
            .iter()
            .any(|l| l.contains("score mate 1") && l.contains(" pv b1a1")),
        "no mate-in-1 line with the Chess960 castling move",
    );
    // The GUI's castling move in the same form is played.
    e.send(&format!("position fen {CASTLE_MATE} moves b1a1"));
    e.send("d");
    let fen = e.expect("info string fen", QUICK);
    e.check(
        fen.ends_with(CASTLE_MATE_AFTER),
        &format!("after b1a1: {fen}"),
    );
    // Standard chess positions in Chess960 mode: castling is the king taking its rook.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    e.send(&format!("position fen {kiwipete}"));
    let (lines, _) = e.go("go depth 3 searchmoves e1h1", SEARCH);
    let (best, _) = parse_bestmove(lines.last().unwrap());
    e.check(best == "e1h1", &format!("Chess960 form: bestmove {best}"));
    // The opponent-model driver's reports too.
    e.send("setoption name OM_Mode value om");
    e.send("setoption name OM_OpponentTypes value material:1:depth=2");
    let (lines, _) = e.go("go depth 3 searchmoves e1h1", SEARCH);
    e.check(
        lines
            .iter()
            .any(|l| l.starts_with("info string om depth") && l.contains(" move e1h1 ")),
        "no OM report with the Chess960 castling move",
    );
    e.send("setoption name OM_Mode value off");
    // And back: standard notation again.
    e.send("setoption name UCI_Chess960 value false");
    e.send(&format!("position fen {kiwipete}"));
    let (lines, _) = e.go("go depth 3 searchmoves e1g1", SEARCH);
    let (best, _) = parse_bestmove(lines.last().unwrap());
    e.check(best == "e1g1", &format!("standard form: bestmove {best}"));
    e.send("setoption name UCI_Chess960 value maybe");
    let said = e.sync();
    e.check(
        said.iter().any(|l| l.starts_with("info string error")),
        "no message for a nonsense value",
    );
    e.close();
}

#[test]
fn xboard_fischerandom_castles_as_o_o_o() {
    let (mut e, features) = Engine::start_xboard();
    e.check(
        features
            .iter()
            .any(|l| l.contains("variants=\"normal,fischerandom\"")),
        "fischerandom not among the variants",
    );
    for l in ["new", "variant fischerandom", "force"] {
        e.send(l);
    }
    e.send(&format!("setboard {CASTLE_MATE}"));
    e.send("sd 4");
    e.send("go");
    let mv = e.expect("move ", SEARCH);
    e.check(mv == "move O-O-O", &format!("{mv}, expected move O-O-O"));
    e.expect("1-0", QUICK);
    // The GUI castles: O-O-O read, the position is mate.
    for l in ["new", "variant fischerandom", "force"] {
        e.send(l);
    }
    e.send(&format!("setboard {CASTLE_MATE}"));
    e.send("usermove O-O-O");
    e.send("go");
    e.expect("1-0", QUICK);
    // `new` is standard chess again: the Chess960 position is refused.
    e.send("new");
    e.send(&format!("setboard {CASTLE_MATE}"));
    e.expect("Error (bad FEN)", QUICK);
    e.send("variant crazyhouse");
    e.expect("Error (unsupported variant)", QUICK);
    e.send("quit");
}
