//! Unit tests of the fit of `OM_Mode=auto` (`super`).

use super::*;
use crate::eval::{FullEval, MaterialEval};
use std::sync::atomic::AtomicBool;

/// A settled fit (`only = Some(b)`) updates base `b`'s record alone: the other bases and
/// every candidate's likelihood wait for a move that scores them all.
#[test]
fn scoring_one_base_leaves_the_others_alone() {
    let full = FullEval::default();
    let tts: Vec<TranspositionTable> = (0..2).map(|_| TranspositionTable::new(1)).collect();
    let params = FitParams::default();
    let search = SearchParams::default();
    let stop = AtomicBool::new(false);
    let names: Vec<String> = vec!["self:depth=1".into(), "self:depth=2".into()];
    let mut state = FitState::new(&names, &[false; 2], &params);
    let pos =
        Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
            .unwrap();
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    // A reference no base predicts is a differing move for both.
    let (played, reference) = (moves[0], Some(moves[1]));
    let mut bases: Vec<Base<'_>> = (0..2)
        .map(|d| Base::Search {
            eval: &full,
            tt: &tts[d],
            depth: d as u32 + 1,
        })
        .collect();
    let before: Vec<f64> = state.candidates.iter().map(|c| c.log_likelihood).collect();
    let seen = Observation {
        before: &pos,
        played,
        reference,
    };
    assert!(score_move(
        &mut state,
        &mut bases,
        &params,
        &search,
        &stop,
        seen,
        Some(1)
    ));
    assert_eq!(state.moves, 1);
    assert_eq!((state.bases[0].moves, state.bases[0].differ), (0, 0));
    assert_eq!(state.bases[1].moves, 1);
    let after: Vec<f64> = state.candidates.iter().map(|c| c.log_likelihood).collect();
    assert_eq!(before, after);
    // The next move scores them all again.
    let seen = Observation {
        before: &pos,
        played,
        reference,
    };
    assert!(score_move(
        &mut state, &mut bases, &params, &search, &stop, seen, None
    ));
    assert_eq!((state.bases[0].moves, state.bases[1].moves), (1, 2));
    let changed: Vec<f64> = state.candidates.iter().map(|c| c.log_likelihood).collect();
    assert!(changed.iter().zip(&after).all(|(a, b)| a != b));
}

/// A synthetic opponent whose type is known (our evaluation at depth 1) plays a game
/// against a depth-3 player; the fit must find depth 1 among depths 1–3 and material.
#[test]
fn the_fit_finds_a_known_opponent_type() {
    let full = FullEval::default();
    let material = MaterialEval;
    let tts: Vec<TranspositionTable> = (0..4).map(|_| TranspositionTable::new(1)).collect();
    let params = FitParams::default();
    let search = SearchParams::default();
    let stop = AtomicBool::new(false);
    let names: Vec<String> = [
        "self:depth=1",
        "self:depth=2",
        "self:depth=3",
        "material:depth=2",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut state = FitState::new(&names, &[false; 4], &params);
    let mut pos =
        Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
            .unwrap();
    let choose = |pos: &Position, depth: u32| -> Option<Move> {
        let tt = TranspositionTable::new(1);
        let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        let v = move_values(&full, &tt, depth, &search, &stop, pos, &moves)?;
        let max = v.iter().copied().max()?;
        moves
            .into_iter()
            .zip(v)
            .find(|&(_, x)| x == max)
            .map(|(m, _)| m)
    };
    for ply in 0..24 {
        if pos.legal_moves().is_empty() {
            break;
        }
        // White is the "strong" side, Black the synthetic opponent of depth 1.
        let depth = if ply % 2 == 0 { 3 } else { 1 };
        let m = choose(&pos, depth).unwrap();
        if ply % 2 == 1 {
            let mut bases: Vec<Base<'_>> = (0..3)
                .map(|d| Base::Search {
                    eval: &full,
                    tt: &tts[d],
                    depth: d as u32 + 1,
                })
                .collect();
            bases.push(Base::Search {
                eval: &material,
                tt: &tts[3],
                depth: 2,
            });
            let seen = Observation {
                before: &pos,
                played: m,
                reference: None,
            };
            assert!(score_move(
                &mut state, &mut bases, &params, &search, &stop, seen, None
            ));
        }
        pos.play(m);
    }
    assert_eq!(state.moves, 12);
    let post = state.posterior();
    let (best, _) = post
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .unwrap();
    let name = state.candidate_name(&state.candidates[best]);
    assert!(
        name.starts_with("self:depth=1"),
        "{}",
        state.report(&params)
    );
    assert!(state.bases[0].hits >= 10, "{}", state.report(&params));
    assert!(state.report(&params).starts_with("om model self:depth=1"));
    // It predicted every move, so where it differed from depth 3 it was right.
    let (b, weight) = state.chosen(&params).unwrap();
    assert_eq!(b, 0);
    let s = &state.bases[0];
    assert_eq!(s.differ_hits, s.differ);
    assert!(weight > 0.0 || s.differ == 0);
}

#[test]
fn unscored_moves_are_the_opponents_and_only_once() {
    let mut pos = Position::default();
    for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        pos.play_uci(m).unwrap();
    }
    let state = FitState::new(&["self:depth=1".into()], &[false], &FitParams::default());
    let todo = unscored_moves(&pos, &state, 10);
    // White to move: Black's moves e7e5 and b8c6.
    assert_eq!(todo.len(), 2);
    assert_eq!(crate::position::uci(todo[0].1), "e7e5");
    assert_eq!(crate::position::uci(todo[1].1), "b8c6");
    let mut state = state;
    state
        .scored
        .push((todo[0].0.key(), todo[0].0.history_len()));
    state
        .scored
        .push((todo[1].0.key(), todo[1].0.history_len()));
    assert!(unscored_moves(&pos, &state, 10).is_empty());
}

#[test]
fn likelihoods_are_distributions() {
    let params = FitParams::default();
    let v = Some(vec![10, 50, -30, 50]);
    let best = vec![1, 3];
    for t in [0, 40, 120] {
        let sum: f64 = (0..4)
            .map(|i| likelihood(&v, &best, i, 4, t, &params))
            .sum();
        assert!((sum - 1.0).abs() < 1e-9, "τ={t}: {sum}");
    }
    let oracle: f64 = (0..4)
        .map(|i| likelihood(&None, &[2], i, 4, 0, &params))
        .sum();
    assert!((oracle - 1.0).abs() < 1e-9);
}
