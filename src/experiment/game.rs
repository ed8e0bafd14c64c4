//! One KQKR game between the fallible K+Q side and the K+R side (Donkers 2003 §5.4.2):
//! from the start position until [`adjudicate`] ends it, recording per move the exact cost
//! (Tables 5.3/5.4), whether the K+R side predicted the opponent's reply (the second move of
//! its PV), the prediction surplus (Fig. 5.11), depth, nodes, effective branching factor
//! (Fig. 5.14), time, and the K+Q side's drawn node budget if it has one.

use std::time::Instant;

use shakmaty::san::SanPlus;
use shakmaty::{Color, Move};

use super::adjudicate::{Outcome, adjudicate, move_cost, sides};
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

/// Records a side's search effort on its move row.
fn record_search(row: &mut MoveRow, depth: u32, nodes: u64, time: std::time::Duration) {
    row.depth = Some(depth);
    row.nodes = Some(nodes);
    row.ebf = ebf(nodes, depth);
    row.time_ms = Some(time.as_secs_f64() * 1e3);
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
                    record_search(&mut row, r.depth, r.nodes, r.time);
                    row.budget = r.budget;
                    r.mv
                }
                Err(e) => {
                    error = Some(e);
                    continue;
                }
            }
        } else {
            match kr.choose(&pos, row.ply) {
                Ok(r) => {
                    prediction = r.pv.get(1).copied();
                    row.value = Some(r.value);
                    // The PV within the search horizon (moves past it come from
                    // extensions and quiescence, not from the prediction).
                    let horizon = r.pv.len().min(r.depth.max(1) as usize);
                    row.surplus = prediction_surplus(tables, &before, &r.pv[..horizon]);
                    record_search(&mut row, r.depth, r.nodes, r.time);
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
    let row = GameRow::from_moves(
        (spec.position, spec.spec_depth, spec.game),
        spec.seed,
        outcome,
        spec.fen.clone(),
        &rows,
        start.elapsed().as_secs_f64(),
    );
    GameRecord {
        row,
        moves: rows,
        error,
    }
}
