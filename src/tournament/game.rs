//! One tournament game (*OM Search in Bao*, §5, in chess): South (the row player, under
//! the treatment) against North (the column player, α-β) from an opening, South with the
//! colour the game names. Games end by the rules (mate, stalemate, threefold repetition,
//! the fifty-move rule, insufficient material), by the Syzygy tables where they cover the
//! position (win, loss, or draw — cursed wins and blessed losses are draws), or as a draw
//! at the ply cap. Beside the moves the game counts South's deviations from α-β at North's
//! budget (Table 9), its predictions of North's replies and how many came true, and keeps
//! admissibility samples (thesis §4.2.2) where the run asks for them.

use std::sync::Arc;
use std::time::Instant;

use shakmaty::{Color, Position as _};

use super::config::{Budget, Treatment};
use super::players::{Tables, north_move, reference_move, south_move, value};
use crate::eval::Evaluator;
use crate::position::{Position, uci};
use crate::tb::SyzygyTables;

/// What identifies a game: treatment, South, North (labels), opening index, South's colour.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameKey {
    /// Treatment code.
    pub treatment: String,
    /// South's label.
    pub south: String,
    /// North's label.
    pub north: String,
    /// Index of the opening in the run's selection.
    pub opening: usize,
    /// South plays White.
    pub south_white: bool,
}

/// A position kept to measure admissibility: estimates from South's side (it is to move).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Ply of the game.
    pub ply: usize,
    /// South's estimate (its evaluator, a depth-1 search).
    pub v_south: i32,
    /// North's estimate, from South's side.
    pub v_north: i32,
    /// The reference estimate standing for the true value.
    pub v_truth: i32,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Which game.
    pub key: GameKey,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// South's points: 1, ½ or 0.
    pub south_score: f64,
    /// How it ended.
    pub termination: String,
    /// Plies played.
    pub plies: usize,
    /// South's moves.
    pub south_moves: usize,
    /// South's moves that differ from α-β's at North's budget (with South's evaluator).
    pub deviations: usize,
    /// South's moves after which it predicted a reply and North replied.
    pub predictions: usize,
    /// Of those, replies predicted right.
    pub correct: usize,
    /// South's nodes.
    pub south_nodes: u64,
    /// North's nodes.
    pub north_nodes: u64,
    /// South's thinking time, ms.
    pub south_ms: u64,
    /// South's moves played from a completed OM root (the rest were α-β's: plain treatments,
    /// or an OM root its budget could not complete); `None` in records from before it was kept.
    pub om_moves: Option<usize>,
    /// The opening's FEN.
    pub fen: String,
    /// The moves, UCI.
    pub moves: Vec<String>,
    /// Admissibility samples.
    pub samples: Vec<Sample>,
}

#[cfg(test)]
impl GameRecord {
    /// A record for the analysis tests: South's points in one game, nothing else played.
    pub(crate) fn for_test(
        treatment: &str,
        south: &str,
        north: &str,
        opening: usize,
        south_white: bool,
        south_score: f64,
    ) -> GameRecord {
        GameRecord {
            key: GameKey {
                treatment: treatment.into(),
                south: south.into(),
                north: north.into(),
                opening,
                south_white,
            },
            result: String::new(),
            south_score,
            termination: String::new(),
            plies: 10,
            south_moves: 5,
            deviations: 0,
            predictions: 0,
            correct: 0,
            south_nodes: 0,
            north_nodes: 0,
            south_ms: 0,
            om_moves: None,
            fen: String::new(),
            moves: Vec::new(),
            samples: Vec::new(),
        }
    }
}

/// Everything a game needs besides its key.
pub struct GameSetup<'a> {
    /// South's treatment.
    pub treatment: &'a Treatment,
    /// Plies of speculation.
    pub spec: usize,
    /// South's evaluator.
    pub south_eval: &'a Arc<dyn Evaluator>,
    /// North's evaluator.
    pub north_eval: &'a Arc<dyn Evaluator>,
    /// North's budget.
    pub north: Budget,
    /// Ply cap.
    pub max_plies: usize,
    /// Adjudication tables.
    pub syzygy: Option<&'a SyzygyTables>,
    /// Samples: (every this many South moves, reference evaluator, its depth).
    pub samples: Option<(usize, &'a Arc<dyn Evaluator>, u32)>,
    /// This thread's tables.
    pub tables: &'a Tables,
}

/// The result by the rules or the tables, if the game is over in `pos`.
fn game_over(
    pos: &Position,
    syzygy: Option<&SyzygyTables>,
) -> Option<(Option<Color>, &'static str)> {
    if pos.legal_moves().is_empty() {
        return Some(if pos.chess().is_check() {
            (Some(!pos.turn()), "checkmate")
        } else {
            (None, "stalemate")
        });
    }
    if pos.is_insufficient_material() {
        return Some((None, "insufficient material"));
    }
    if pos.is_threefold() {
        return Some((None, "threefold repetition"));
    }
    if pos.is_fifty_move_draw() {
        return Some((None, "fifty-move rule"));
    }
    let tb = syzygy?;
    let board = pos.chess();
    if board.board().occupied().count() > tb.max_pieces() || board.castles().any() {
        return None;
    }
    use shakmaty_syzygy::Wdl;
    Some(match tb.probe_wdl(board)? {
        Wdl::Win => (Some(pos.turn()), "tablebase"),
        Wdl::Loss => (Some(!pos.turn()), "tablebase"),
        Wdl::Draw | Wdl::CursedWin | Wdl::BlessedLoss => (None, "tablebase"),
    })
}

/// Plays the game `key` from `fen`.
///
/// # Errors
/// A bad opening FEN, or a side without a move where the rules say it has one.
pub fn play_game(key: GameKey, fen: &str, g: &GameSetup<'_>) -> Result<GameRecord, String> {
    let mut pos = Position::from_fen(fen).map_err(|e| format!("opening '{fen}': {e}"))?;
    let south_color = if key.south_white {
        Color::White
    } else {
        Color::Black
    };
    // T1-like treatments are α-β at North's budget already: no second search for Table 9.
    let same_as_reference = g.treatment.om.is_none() && g.treatment.own == g.north;
    let mut rec = GameRecord {
        key,
        result: String::new(),
        south_score: 0.0,
        termination: String::new(),
        plies: 0,
        south_moves: 0,
        deviations: 0,
        predictions: 0,
        correct: 0,
        south_nodes: 0,
        north_nodes: 0,
        south_ms: 0,
        om_moves: Some(0),
        fen: fen.to_string(),
        moves: Vec::new(),
        samples: Vec::new(),
    };
    let mut predicted = None;
    let winner = loop {
        if let Some((winner, why)) = game_over(&pos, g.syzygy) {
            rec.termination = why.into();
            break winner;
        }
        if rec.plies >= g.max_plies {
            rec.termination = "ply cap".into();
            break None;
        }
        let mv = if pos.turn() == south_color {
            if let Some((every, truth, depth)) = g.samples
                && every > 0
                && rec.south_moves.is_multiple_of(every)
            {
                rec.samples.push(Sample {
                    ply: rec.plies,
                    v_south: value(&**g.south_eval, 1, g.tables, &pos),
                    v_north: value(&**g.north_eval, 1, g.tables, &pos),
                    v_truth: value(&**truth, depth, g.tables, &pos),
                });
            }
            let start = Instant::now();
            let s = south_move(
                g.treatment,
                g.spec,
                &**g.south_eval,
                g.north_eval,
                g.north,
                g.tables,
                &pos,
            )?;
            rec.south_ms += start.elapsed().as_millis() as u64;
            rec.south_nodes += s.nodes;
            rec.south_moves += 1;
            if s.from_om {
                rec.om_moves = rec.om_moves.map(|m| m + 1);
            }
            if !same_as_reference
                && reference_move(&**g.south_eval, g.north, g.tables, &pos) != Some(s.mv)
            {
                rec.deviations += 1;
            }
            predicted = Some(s.predicted);
            s.mv
        } else {
            let r = north_move(&**g.north_eval, g.north, g.tables, &pos);
            rec.north_nodes += r.nodes;
            let mv = r.best.ok_or("North has no legal move")?;
            if let Some(p) = predicted.take() {
                rec.predictions += 1;
                if p == Some(mv) {
                    rec.correct += 1;
                }
            }
            mv
        };
        rec.moves.push(uci(mv));
        pos.play(mv);
        rec.plies += 1;
    };
    rec.result = match winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
    .into();
    rec.south_score = match winner {
        Some(c) if c == south_color => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    Ok(rec)
}
