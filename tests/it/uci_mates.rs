//! Mates through the real binary (UCI): positions whose mates an exhaustive search confirms,
//! found by `go depth` and `go mate` with the right length (`score mate N`), the key move as
//! `bestmove` and a PV that starts with it, for either side to move.

use crate::common;

use common::{
    Engine, SEARCH, forces_mate, info_tail, legal_bestmove, mated_within, position_after, pv_lines,
};
use shakmaty::{Chess, Position};

/// Moves of `pos` that force mate in at most `n`.
fn mating_moves(pos: &Chess, n: u32) -> Vec<String> {
    pos.legal_moves()
        .iter()
        .filter(|m| {
            let mut p = pos.clone();
            p.play_unchecked(**m);
            mated_within(&p, n)
        })
        .map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect()
}

/// Searches `fen` with `go` and asserts `score mate n` on the last line and a first move
/// from `keys`.
fn assert_mate(fen: &str, go: &str, n: u32, keys: &[&str]) {
    let (mut e, _) = Engine::start_uci();
    e.send(&format!("position fen {fen}"));
    let (lines, _) = e.go(go, SEARCH);
    let pos = position_after(Some(fen), &[]);
    let best = legal_bestmove(&mut e, &lines, &pos);
    let pvs = pv_lines(&lines);
    let Some(last) = pvs.last() else {
        e.fail("no info line with a score");
    };
    let score = info_tail(last, "score");
    let ok = score.len() >= 2 && score[0] == "mate" && score[1] == n.to_string();
    e.check(ok, &format!("expected 'score mate {n}' in '{last}'"));
    e.check(
        keys.contains(&best.as_str()),
        &format!("bestmove {best} does not mate in {n}; mating moves: {keys:?}"),
    );
    e.check(
        info_tail(last, "pv").first() == Some(&best.as_str()),
        "pv does not start with the bestmove",
    );
    e.close();
}

const MATE_IN_1: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
/// 1.Re8+ Rxe8 2.Rxe8#. (Not Morphy's `kbK5/pp6/1P6/8/8/8/8/R7 w`: that one is a
/// zugzwang, which null-move pruning is known to miss at low depth.)
const MATE_IN_2: &str = "2r3k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1";
/// 1.Qxh8+! Kxh8 2.Bf6+ Kg8 3.Re8#.
const MATE_IN_3: &str = "r1b3kr/ppp1Bp1p/1b6/n2P4/2p3q1/2Q2N2/P4PPP/RN2R1K1 w - - 1 0";
/// 1.Qe5+ and mate in four; e4e5 is the only move that mates in 4 (checked offline by an
/// exhaustive search; too slow to repeat in every test run).
const MATE_IN_4: &str = "r1bqr3/ppp1B1kp/1b4p1/n2B4/3PQ1P1/2P5/P4P2/RN4K1 w - - 1 0";

#[test]
fn mate_positions_are_what_they_claim() {
    for (fen, n, keys) in [
        (MATE_IN_1, 1, vec!["d1d8"]),
        (MATE_IN_2, 2, vec!["e2e8"]),
        (MATE_IN_3, 3, vec!["c3h8"]),
    ] {
        let pos = position_after(Some(fen), &[]);
        assert!(!forces_mate(&pos, n - 1), "{fen}: mate in fewer than {n}");
        assert_eq!(mating_moves(&pos, n), keys, "{fen}");
    }
    // Mate in 4: the key really forces mate in 4 (proving it is the only one is offline).
    let pos = position_after(Some(MATE_IN_4), &[]);
    assert!(!forces_mate(&pos, 3), "mate in 4 position has a mate in 3");
    let mut after = pos.clone();
    after.play_unchecked(common::parse_move(&pos, "e4e5").unwrap());
    assert!(mated_within(&after, 4), "e4e5 does not mate in 4");
}

#[test]
fn go_mate_2_finds_mate_in_2() {
    assert_mate(MATE_IN_2, "go mate 2", 2, &["e2e8"]);
}

#[test]
fn mate_in_1() {
    assert_mate(MATE_IN_1, "go depth 4", 1, &["d1d8"]);
}

#[test]
fn mate_in_2() {
    assert_mate(MATE_IN_2, "go depth 6", 2, &["e2e8"]);
}

#[test]
fn mate_in_3() {
    assert_mate(MATE_IN_3, "go depth 8", 3, &["c3h8"]);
}

#[test]
fn mate_in_4() {
    assert_mate(MATE_IN_4, "go depth 10", 4, &["e4e5"]);
}

#[test]
fn go_mate_4_finds_mate_in_4() {
    // `go mate 4` searches to depth 8 at most: the quiet checks of the mating line must
    // survive the pruning there.
    assert_mate(MATE_IN_4, "go mate 4", 4, &["e4e5"]);
}

#[test]
fn go_mate_3_finds_mate_in_3() {
    assert_mate(MATE_IN_3, "go mate 3", 3, &["c3h8"]);
}

#[test]
fn black_mates_too() {
    // The mate in 2 mirrored, Black to move: scores are from the side to move's view.
    let fen = "4r1k1/4rppp/8/8/8/8/5PPP/2R3K1 b - - 0 1";
    let pos = position_after(Some(fen), &[]);
    assert!(!forces_mate(&pos, 1));
    assert_eq!(mating_moves(&pos, 2), ["e7e1"]);
    assert_mate(fen, "go depth 6", 2, &["e7e1"]);
}
