//! When a KQKR game ends and what a move costs (Donkers 2003 §5.4.2–5.4.3), on hand-made
//! positions: conversion by capture, mate, the 50-move rule, threefold repetition, a capture
//! that stalemates, a thrown win (draw and loss), and errors of known size. The positions
//! were found with python-chess (mates, forced sequences) and Syzygy (the thrown draw),
//! independently of our tables.

use std::sync::{Arc, OnceLock};

use nosce::experiment::adjudicate::{Outcome, adjudicate, move_cost, sides};
use nosce::position::Position;
use nosce::tb::ExactTables;
use shakmaty::Color;

fn tables() -> Arc<ExactTables> {
    static T: OnceLock<Arc<ExactTables>> = OnceLock::new();
    T.get_or_init(|| {
        let t = Arc::new(ExactTables::from_env());
        nosce::experiment::sweep::prepare_tables(&t).expect("KQvKR tables");
        t
    })
    .clone()
}

/// Plays `moves` from `fen`; returns the outcome after each move.
fn play(fen: &str, moves: &[&str]) -> Vec<Option<Outcome>> {
    let t = tables();
    let kq = sides(fen).expect("a KQ v KR position");
    let mut pos = Position::from_fen(fen).unwrap();
    assert_eq!(
        adjudicate(&pos, kq, &t),
        None,
        "{fen} is over before it starts"
    );
    moves
        .iter()
        .map(|m| {
            pos.play_uci(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            adjudicate(&pos, kq, &t)
        })
        .collect()
}

#[test]
fn capturing_the_rook_is_conversion() {
    assert_eq!(
        play("8/8/8/3r4/3Q4/8/8/K6k w - - 0 1", &["d4d5"]),
        vec![Some(Outcome::Conversion)]
    );
}

#[test]
fn mate_with_the_rook_on_the_board() {
    assert_eq!(
        play("7k/8/6K1/8/8/8/8/r2Q4 w - - 0 1", &["d1d8"]),
        vec![Some(Outcome::Mate)]
    );
}

#[test]
fn fifty_moves_without_capture_is_a_draw() {
    // Browne–BELLE 1 with the counter at 98: the K+R side's reply is the 100th half-move.
    assert_eq!(
        play("K3r3/8/5k2/Q7/8/8/8/8 w - - 98 1", &["a8b7", "e8e7"]),
        vec![None, Some(Outcome::Fifty)]
    );
}

#[test]
fn threefold_repetition_is_a_draw() {
    let r = play(
        "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1",
        &[
            "a8b7", "e8e7", "b7a8", "e7e8", "a8b7", "e8e7", "b7a8", "e7e8",
        ],
    );
    assert!(r[..7].iter().all(Option::is_none), "{r:?}");
    assert_eq!(r[7], Some(Outcome::Repetition));
}

#[test]
fn a_capture_that_stalemates_is_still_conversion() {
    // No K+Q v K+R position with the rook on the board is stalemate (every placement checked
    // with python-chess), so stalemate can only follow the rook's capture: conversion.
    assert_eq!(
        play("7k/8/7K/6r1/8/8/8/6Q1 w - - 0 1", &["g1g5"]),
        vec![Some(Outcome::Conversion)]
    );
}

#[test]
fn a_thrown_win_ends_the_game() {
    // Browne–BELLE 1: blocking the check with the queen loses it (the tables: a K+R win).
    assert_eq!(
        play("K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1", &["a5d8"]),
        vec![Some(Outcome::ThrownLoss)]
    );
    // A quiet queen move into a drawn position (Syzygy WDL 0 after it).
    assert_eq!(
        play("4r3/8/7k/8/6K1/Q7/8/8 w - - 0 1", &["a3g3"]),
        vec![Some(Outcome::ThrownDraw)]
    );
    let t = tables();
    let pos = Position::from_fen("4r3/8/7k/8/6K1/Q7/8/8 w - - 0 1").unwrap();
    let m = pos.parse_uci("a3g3").unwrap();
    let c = move_cost(&t, pos.chess(), m).unwrap();
    assert!(
        c.thrown && c.err_dtm.is_none() && c.err_dtc.is_none(),
        "{c:?}"
    );
}

#[test]
fn errors_of_known_size() {
    let t = tables();
    let cost = |fen: &str, mv: &str| {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci(mv).unwrap();
        move_cost(&t, pos.chess(), m).unwrap()
    };
    // A mate in one is on the board, but 1. Qa8+ only forces mate in two: one move lost
    // by DTM.
    let c = cost("8/8/8/1r6/4Q3/8/k1K5/8 w - - 0 1", "e4a8");
    assert_eq!(c.err_dtm, Some(1), "{c:?}");
    assert_eq!(c.dtm_before, Some(1));
    // Qxd2+ converts at once (DTC 1, the king guards the queen); 1. Qg1+ forces conversion
    // a move later (every reply allows a safe capture or mate): one move lost by DTC.
    let c = cost("8/8/8/6k1/8/2K5/3r4/3Q4 w - - 0 1", "d1g1");
    assert_eq!(c.err_dtc, Some(1), "{c:?}");
    assert_eq!(c.dtc_before, Some(1));
    assert!(!c.thrown);
    // Optimal moves cost nothing: both king moves in Browne–BELLE 1.
    for mv in ["a8b7", "a8a7"] {
        let c = cost("K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1", mv);
        assert_eq!((c.err_dtm, c.err_dtc), (Some(0), Some(0)), "{mv}: {c:?}");
        assert_eq!((c.dtm_before, c.dtc_before), (Some(69), Some(61)));
    }
}

#[test]
fn the_queen_side_is_found_in_either_colour() {
    assert_eq!(sides("k3R3/8/5K2/q7/8/8/8/8 b - - 0 1"), Ok(Color::Black));
    assert!(sides("8/8/8/8/8/8/8/K1k5 w - - 0 1").is_err());
}
