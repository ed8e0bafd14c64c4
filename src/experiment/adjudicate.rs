//! When a KQKR game ends and what each move cost, by the exact tables (Donkers 2003 §5.4.2–
//! 5.4.3): a game ends at conversion (the rook is captured, or mate: the K+Q side wins), at
//! the 50-move rule (a draw: the K+R side saved the game; counted as length 51 like Table
//! 5.2), by repetition or stalemate (draws), or when the K+Q side throws the win away (its
//! move leaves a position the tables no longer score as won). The error of a move is the
//! number of moves lost against optimal play (Jansen 1992b, as in §5.4.3): in DTM and in
//! Thompson's DTC, `(distance after the played move − distance after the best move) / 2`;
//! winning moves have odd distances, so the difference is a whole number of moves.

use std::fmt;

use shakmaty::{Chess, Color, Move, Position as _, Role};

use crate::position::Position;
use crate::tb::{ExactTables, Metric, Wdl};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The K+Q side captured the rook.
    Conversion,
    /// The K+Q side mated.
    Mate,
    /// 50 moves without capture: the K+R side saved the game.
    Fifty,
    /// Threefold repetition.
    Repetition,
    /// Stalemate.
    Stalemate,
    /// The K+Q side's move left a drawn position (by the tables).
    ThrownDraw,
    /// The K+Q side's move left a lost position (by the tables), or it lost its queen or
    /// was mated.
    ThrownLoss,
    /// The game could not be finished (an external engine failed).
    Aborted,
}

impl Outcome {
    /// Every outcome, in table order.
    pub const ALL: [Outcome; 8] = [
        Outcome::Conversion,
        Outcome::Mate,
        Outcome::Fifty,
        Outcome::Repetition,
        Outcome::Stalemate,
        Outcome::ThrownDraw,
        Outcome::ThrownLoss,
        Outcome::Aborted,
    ];

    /// The name used in the CSV files.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Conversion => "conversion",
            Outcome::Mate => "mate",
            Outcome::Fifty => "fifty",
            Outcome::Repetition => "repetition",
            Outcome::Stalemate => "stalemate",
            Outcome::ThrownDraw => "thrown-draw",
            Outcome::ThrownLoss => "thrown-loss",
            Outcome::Aborted => "aborted",
        }
    }

    /// Parses [`Outcome::name`].
    pub fn from_name(s: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.name() == s)
    }

    /// True if the K+Q side won (conversion or mate).
    pub fn kq_won(self) -> bool {
        matches!(self, Outcome::Conversion | Outcome::Mate)
    }

    /// The PGN result, given the K+Q side's colour.
    pub fn pgn_result(self, kq: Color) -> &'static str {
        let kq_white = kq == Color::White;
        match self {
            Outcome::Conversion | Outcome::Mate if kq_white => "1-0",
            Outcome::Conversion | Outcome::Mate => "0-1",
            Outcome::ThrownLoss if kq_white => "0-1",
            Outcome::ThrownLoss => "1-0",
            Outcome::Aborted => "*",
            _ => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Game length as the thesis counts it: the K+Q side's moves up to conversion; 51 for
/// every game the K+Q side did not win (Table 5.2: "the game length is 51").
pub fn thesis_length(outcome: Outcome, kq_moves: usize) -> usize {
    if outcome.kq_won() { kq_moves } else { 51 }
}

/// The K+Q side's colour in a K+Q versus K+R position, or why it is not one.
pub fn sides(fen: &str) -> Result<Color, String> {
    let pos = Position::from_fen(fen)?;
    let board = pos.chess().board();
    for color in [Color::White, Color::Black] {
        let us = board.by_color(color);
        let them = board.by_color(!color);
        let only = |set: shakmaty::Bitboard, role: Role| {
            set.count() == 2 && (set & board.by_role(role)).count() == 1
        };
        if only(us, Role::Queen) && only(them, Role::Rook) {
            return Ok(color);
        }
    }
    Err(format!("'{fen}' is not a K+Q versus K+R position"))
}

/// The outcome if the game is over after the last move, else `None`. `kq` is the K+Q
/// side's colour.
pub fn adjudicate(pos: &Position, kq: Color, tables: &ExactTables) -> Option<Outcome> {
    let chess = pos.chess();
    let board = chess.board();
    let rook_gone = (board.by_color(!kq) & board.by_role(Role::Rook)).is_empty();
    let queen_gone = (board.by_color(kq) & board.by_role(Role::Queen)).is_empty();
    if chess.is_checkmate() {
        return Some(if chess.turn() == kq {
            Outcome::ThrownLoss
        } else {
            Outcome::Mate
        });
    }
    if rook_gone {
        return Some(Outcome::Conversion);
    }
    if queen_gone {
        return Some(Outcome::ThrownLoss);
    }
    if chess.is_stalemate() {
        return Some(Outcome::Stalemate);
    }
    if pos.is_fifty_move_draw() {
        return Some(Outcome::Fifty);
    }
    if pos.is_threefold() {
        return Some(Outcome::Repetition);
    }
    // After a K+Q move: is the position still won for it?
    if chess.turn() != kq
        && let Some(e) = tables.probe(chess)
    {
        match e.wdl {
            Wdl::Loss => {}
            Wdl::Draw => return Some(Outcome::ThrownDraw),
            Wdl::Win => return Some(Outcome::ThrownLoss),
        }
    }
    None
}

/// The exact cost of one move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveCost {
    /// DTM of the position before the move (plies), if decisive.
    pub dtm_before: Option<u16>,
    /// DTC of the position before the move (plies), if decisive.
    pub dtc_before: Option<u16>,
    /// Moves lost by DTM (`None` when the move changed the result).
    pub err_dtm: Option<u32>,
    /// Moves lost by DTC (`None` when the move changed the result).
    pub err_dtc: Option<u32>,
    /// The move changed the game-theoretic result (a won position thrown away).
    pub thrown: bool,
}

/// The cost of `mv` in `pos` by the exact tables (`None` if the tables do not cover it).
pub fn move_cost(tables: &ExactTables, pos: &Chess, mv: Move) -> Option<MoveCost> {
    let entry = tables.probe(pos)?;
    let ranked = tables.rank_moves(pos, Metric::Dtm)?;
    let played = ranked.iter().find(|r| r.mv == mv)?.value;
    let best_wdl = ranked.first()?.value.wdl;
    let mut cost = MoveCost {
        dtm_before: entry.dtm,
        dtc_before: entry.dtc,
        ..MoveCost::default()
    };
    if played.wdl != best_wdl {
        cost.thrown = true;
        return Some(cost);
    }
    let lost = |metric: Metric| {
        let best = ranked
            .iter()
            .filter(|r| r.value.wdl == best_wdl)
            .map(|r| r.value.score(metric))
            .max()
            .unwrap_or(0);
        ((best - played.score(metric)) / 2) as u32
    };
    if best_wdl != Wdl::Draw {
        cost.err_dtm = Some(lost(Metric::Dtm));
        cost.err_dtc = Some(lost(Metric::Dtc));
    } else {
        cost.err_dtm = Some(0);
        cost.err_dtc = Some(0);
    }
    Some(cost)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_finds_the_queen_side() {
        assert_eq!(sides("K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1"), Ok(Color::White));
        assert_eq!(sides("k3R3/8/5K2/q7/8/8/8/8 b - - 0 1"), Ok(Color::Black));
        assert!(sides("8/8/8/8/8/8/8/K1k5 w - - 0 1").is_err());
        assert!(sides("KQ6/8/8/8/8/8/8/k1r1r3 w - - 0 1").is_err());
    }

    #[test]
    fn thesis_length_counts_draws_as_51() {
        assert_eq!(thesis_length(Outcome::Conversion, 33), 33);
        assert_eq!(thesis_length(Outcome::Fifty, 50), 51);
        assert_eq!(thesis_length(Outcome::ThrownDraw, 12), 51);
        for o in Outcome::ALL {
            assert_eq!(Outcome::from_name(o.name()), Some(o));
        }
    }
}
