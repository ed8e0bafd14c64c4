//! When a self-play game ends, and with what result: the rules of chess (checkmate,
//! stalemate, insufficient material, the 50-move rule, threefold repetition), Syzygy WDL
//! when the tables cover the position, and score adjudication.
//!
//! Score adjudication follows the usual self-play conventions: a **win** when the searches
//! of both sides have agreed for [`WIN_PLIES`] consecutive plies that one side is at least
//! [`WIN_SCORE`] centipawns ahead (mate scores included); a **draw** when, from ply
//! [`DRAW_FROM_PLY`] on, [`DRAW_PLIES`] consecutive searches scored within ±[`DRAW_SCORE`].
//! Plies count from the game's start position, random opening plies included.
//!
//! Syzygy results are taken under the 50-move rule, like the games themselves: a cursed win
//! or a blessed loss (won or lost only if the 50-move rule is ignored) ends the game as a
//! draw.

use shakmaty::{Color, Position as _};

use super::record::GameResult;
use crate::eval::Score;
use crate::position::Position;
use crate::tb::{Wdl, WdlProbe};

/// Score (centipawns) both sides' searches must see for a win adjudication.
pub const WIN_SCORE: Score = 2500;
/// Consecutive plies of [`WIN_SCORE`] agreeing in sign for a win adjudication.
pub const WIN_PLIES: u32 = 6;
/// Largest |score| of a drawn-looking ply.
pub const DRAW_SCORE: Score = 10;
/// Consecutive drawn-looking plies for a draw adjudication.
pub const DRAW_PLIES: u32 = 40;
/// Plies before which no draw is adjudicated.
pub const DRAW_FROM_PLY: u32 = 80;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameEnd {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate.
    InsufficientMaterial,
    /// 100 plies without capture or pawn move.
    FiftyMoves,
    /// The position occurred for the third time.
    Threefold,
    /// Syzygy tables gave the result.
    Tablebase,
    /// Both searches agreed one side is winning.
    AdjudicatedWin,
    /// The searches agreed the game is a draw.
    AdjudicatedDraw,
    /// `--max-plies` reached.
    MaxPlies,
}

impl GameEnd {
    /// Every way a game can end, in summary order.
    pub const ALL: [GameEnd; 9] = [
        GameEnd::Checkmate,
        GameEnd::Stalemate,
        GameEnd::InsufficientMaterial,
        GameEnd::FiftyMoves,
        GameEnd::Threefold,
        GameEnd::Tablebase,
        GameEnd::AdjudicatedWin,
        GameEnd::AdjudicatedDraw,
        GameEnd::MaxPlies,
    ];

    /// A short name for summaries.
    pub fn name(self) -> &'static str {
        match self {
            GameEnd::Checkmate => "checkmate",
            GameEnd::Stalemate => "stalemate",
            GameEnd::InsufficientMaterial => "insufficient material",
            GameEnd::FiftyMoves => "50-move rule",
            GameEnd::Threefold => "threefold repetition",
            GameEnd::Tablebase => "tablebase",
            GameEnd::AdjudicatedWin => "adjudicated win",
            GameEnd::AdjudicatedDraw => "adjudicated draw",
            GameEnd::MaxPlies => "max plies",
        }
    }
}

/// A result seen by the side to move, turned into White's view.
pub fn white_view(result: GameResult, turn: Color) -> GameResult {
    match turn {
        Color::White => result,
        Color::Black => result.flip(),
    }
}

/// The end of the game by the rules, with the result for the side to move, or `None` if
/// the game goes on.
pub fn rule_end(pos: &Position) -> Option<(GameEnd, GameResult)> {
    if pos.legal_moves().is_empty() {
        return Some(if pos.chess().is_check() {
            (GameEnd::Checkmate, GameResult::Loss)
        } else {
            (GameEnd::Stalemate, GameResult::Draw)
        });
    }
    if pos.is_insufficient_material() {
        return Some((GameEnd::InsufficientMaterial, GameResult::Draw));
    }
    if pos.is_fifty_move_draw() {
        return Some((GameEnd::FiftyMoves, GameResult::Draw));
    }
    if pos.is_threefold() {
        return Some((GameEnd::Threefold, GameResult::Draw));
    }
    None
}

/// The tables' result for the side to move, when they cover the position.
pub fn tablebase_end(pos: &Position, tb: &dyn WdlProbe) -> Option<GameResult> {
    if pos.chess().board().occupied().count() > tb.max_pieces() {
        return None;
    }
    Some(match tb.probe_wdl(pos.chess())? {
        Wdl::Win => GameResult::Win,
        Wdl::Draw => GameResult::Draw,
        Wdl::Loss => GameResult::Loss,
    })
}

/// The running counts of score adjudication over one game.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    /// Consecutive plies at or beyond the win score, and for which side (true: White).
    win_streak: u32,
    win_white: bool,
    /// Consecutive drawn-looking plies from [`DRAW_FROM_PLY`] on.
    draw_streak: u32,
}

impl Adjudicator {
    /// Takes the search score of the position at `ply` (White's view) and returns the end
    /// of the game, with White's result, once a rule fires.
    pub fn update(&mut self, ply: u32, white_score: Score) -> Option<(GameEnd, GameResult)> {
        if white_score.abs() >= WIN_SCORE {
            let white = white_score > 0;
            if self.win_streak > 0 && self.win_white == white {
                self.win_streak += 1;
            } else {
                self.win_streak = 1;
                self.win_white = white;
            }
        } else {
            self.win_streak = 0;
        }
        if self.win_streak >= WIN_PLIES {
            let result = if self.win_white {
                GameResult::Win
            } else {
                GameResult::Loss
            };
            return Some((GameEnd::AdjudicatedWin, result));
        }
        if ply >= DRAW_FROM_PLY && white_score.abs() <= DRAW_SCORE {
            self.draw_streak += 1;
        } else {
            self.draw_streak = 0;
        }
        if self.draw_streak >= DRAW_PLIES {
            return Some((GameEnd::AdjudicatedDraw, GameResult::Draw));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_needs_six_agreeing_plies() {
        let mut a = Adjudicator::default();
        for ply in 0..5 {
            assert_eq!(a.update(ply, 2600), None);
        }
        assert_eq!(
            a.update(5, 31_000),
            Some((GameEnd::AdjudicatedWin, GameResult::Win))
        );
        // A sign change or a dip below the threshold starts again.
        let mut a = Adjudicator::default();
        for ply in 0..5 {
            assert_eq!(a.update(ply, -2500), None);
        }
        assert_eq!(a.update(5, 2500), None);
        assert_eq!(a.update(6, 2499), None);
        for ply in 7..12 {
            assert_eq!(a.update(ply, -3000), None);
        }
        assert_eq!(
            a.update(12, -2500),
            Some((GameEnd::AdjudicatedWin, GameResult::Loss))
        );
    }

    #[test]
    fn a_draw_needs_forty_quiet_plies_after_ply_80() {
        let mut a = Adjudicator::default();
        for ply in 0..119 {
            assert_eq!(a.update(ply, 0), None, "ply {ply}");
        }
        assert_eq!(
            a.update(119, -10),
            Some((GameEnd::AdjudicatedDraw, GameResult::Draw))
        );
        let mut a = Adjudicator::default();
        for ply in 80..119 {
            assert_eq!(a.update(ply, 5), None);
        }
        assert_eq!(a.update(119, 11), None);
        assert_eq!(a.update(120, 0), None);
    }

    #[test]
    fn rules_end_games() {
        let end = |fen: &str| rule_end(&Position::from_fen(fen).unwrap());
        assert_eq!(
            end("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"),
            Some((GameEnd::Checkmate, GameResult::Loss))
        );
        assert_eq!(
            end("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            Some((GameEnd::Stalemate, GameResult::Draw))
        );
        assert_eq!(
            end("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"),
            Some((GameEnd::InsufficientMaterial, GameResult::Draw))
        );
        assert_eq!(
            end("8/8/4k3/8/8/3RK3/8/8 w - - 100 80"),
            Some((GameEnd::FiftyMoves, GameResult::Draw))
        );
        assert_eq!(end("8/8/4k3/8/8/3RK3/8/8 w - - 99 80"), None);
        let mut pos = Position::default();
        for _ in 0..2 {
            for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                assert_eq!(rule_end(&pos), None);
                pos.play_uci(m).unwrap();
            }
        }
        assert_eq!(rule_end(&pos), Some((GameEnd::Threefold, GameResult::Draw)));
        assert_eq!(white_view(GameResult::Win, Color::Black), GameResult::Loss);
        assert_eq!(white_view(GameResult::Win, Color::White), GameResult::Win);
    }
}
