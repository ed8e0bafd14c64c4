//! One KQKR game between the fallible K+Q side and the K+R side (Donkers 2003 §5.4.2):
//! from the start position until [`adjudicate`] ends it, recording per move the exact cost
//! (Tables 5.3/5.4), whether the K+R side predicted the opponent's reply (the second move of
//! its PV), the prediction surplus (Fig. 5.11), depth, nodes, effective branching factor
//! (Fig. 5.14) and time.

use std::time::Instant;

use shakmaty::san::SanPlus;
use shakmaty::{Color, Move};

use super::adjudicate::{Outcome, adjudicate, move_cost, sides, thesis_length};
use super::opponent::Opponent;
use super::player::{KrSide, prediction_surplus};
use super::records::{GameRow, MoveRow};
use crate::position::{Position, uci};
use crate::tb::ExactTables;

/// Which game to play.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// Position id.
    pub position: usize,
    /// Start FEN.
    pub fen: String,
    /// Speculative depth of the K+R side.
    pub spec_depth: usize,
    /// Game index.
    pub game: usize,
    /// Perturbation seed.
    pub seed: u64,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The game row.
    pub row: GameRow,
    /// Its moves.
    pub moves: Vec<MoveRow>,
    /// Why it was aborted, if it was.
    pub error: Option<String>,
}

/// Effective branching factor: the `depth`-th root of `nodes` (§5.4.3, Fig. 5.14).
pub fn ebf(nodes: u64, depth: u32) -> Option<f64> {
    (depth > 0 && nodes > 0).then(|| (nodes as f64).powf(1.0 / f64::from(depth)))
}

/// Plays the game `spec` (the sides must have been built for its s).
pub fn play_game(
    spec: &GameSpec,
    tables: &ExactTables,
    kr: &mut KrSide<'_>,
    opp: &mut dyn Opponent,
) -> GameRecord {
    let start = Instant::now();
    let mut rows: Vec<MoveRow> = Vec::new();
    let mut played: Vec<Move> = Vec::new();
    let mut error = None;
    let setup = sides(&spec.fen).and_then(|c| Position::from_fen(&spec.fen).map(|p| (c, p)));
    let (kq, mut pos) = match setup {
        Ok(x) => x,
        Err(e) => {
            error = Some(e);
            (Color::White, Position::default())
        }
    };
    kr.new_game(spec.seed);
    if error.is_none()
        && let Err(e) = opp.new_game(spec.seed)
    {
        error = Some(e);
    }
    let mut prediction: Option<Move> = None;
    let outcome = loop {
        if error.is_some() {
            break Outcome::Aborted;
        }
        if let Some(o) = adjudicate(&pos, kq, tables) {
            break o;
        }
        let before = pos.chess().clone();
        let mut row = MoveRow {
            position: spec.position,
            spec_depth: spec.spec_depth,
            game: spec.game,
            ply: played.len() + 1,
            kq: pos.turn() == kq,
            ..MoveRow::default()
        };
        let mv = if row.kq {
            match opp.choose(&pos, &spec.fen, &played) {
                Ok(r) => {
                    row.predicted = prediction.take().map(uci);
                    row.correct = row.predicted.as_ref().map(|p| *p == uci(r.mv));
                    row.depth = Some(r.depth);
                    row.nodes = Some(r.nodes);
                    row.ebf = ebf(r.nodes, r.depth);
                    row.time_ms = Some(r.time.as_secs_f64() * 1e3);
                    r.mv
                }
                Err(e) => {
                    error = Some(e);
                    continue;
                }
            }
        } else {
            match kr.choose(&pos) {
                Ok(r) => {
                    prediction = r.pv.get(1).copied();
                    row.value = Some(r.value);
                    // The PV within the search horizon (moves past it come from
                    // extensions and quiescence, not from the prediction).
                    let horizon = r.pv.len().min(r.depth.max(1) as usize);
                    row.surplus = prediction_surplus(tables, &before, &r.pv[..horizon]);
                    row.depth = Some(r.depth);
                    row.nodes = Some(r.nodes);
                    row.ebf = ebf(r.nodes, r.depth);
                    row.time_ms = Some(r.time.as_secs_f64() * 1e3);
                    r.mv
                }
                Err(e) => {
                    error = Some(e);
                    continue;
                }
            }
        };
        if let Some(c) = move_cost(tables, &before, mv) {
            row.dtm_before = c.dtm_before;
            row.dtc_before = c.dtc_before;
            row.err_dtm = c.err_dtm;
            row.err_dtc = c.err_dtc;
            row.thrown = c.thrown;
        }
        row.mv = uci(mv);
        row.san = SanPlus::from_move(before, mv).to_string();
        rows.push(row);
        pos.play(mv);
        played.push(mv);
    };
    let kq_rows = || rows.iter().filter(|r| r.kq);
    let kq_moves = kq_rows().count();
    let row = GameRow {
        position: spec.position,
        spec_depth: spec.spec_depth,
        game: spec.game,
        seed: spec.seed,
        outcome,
        length: thesis_length(outcome, kq_moves),
        kq_moves,
        plies: played.len(),
        errors_dtm: kq_rows()
            .filter(|r| r.err_dtm.is_some_and(|e| e > 0))
            .count(),
        errors_dtc: kq_rows()
            .filter(|r| r.err_dtc.is_some_and(|e| e > 0))
            .count(),
        thrown: kq_rows().filter(|r| r.thrown).count(),
        fen: spec.fen.clone(),
        moves: played.iter().map(|&m| uci(m)).collect::<Vec<_>>().join(" "),
        time_s: start.elapsed().as_secs_f64(),
    };
    GameRecord {
        row,
        moves: rows,
        error,
    }
}
