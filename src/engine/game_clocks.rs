//! The clocks at a game's first search: the time control's odds for `OM_Mode=auto`'s
//! resources gate (Donkers, van den Herik, Uiterwijk, *Opponent-Model Search in Bao*, §7:
//! OM pays only with extra resources). The running clocks of `go`/`time`+`otim` drift
//! from the time control as the two sides spend differently, so the engine core keeps the
//! first clocks it saw in a game, by colour, and hands them to every search of that game
//! ([`crate::limits::Limits::game_clocks`]; `search::om::resources::time_odds`).

use std::time::Duration;

use shakmaty::{Color, Position as _};

use crate::limits::Limits;
use crate::position::Position;

/// The first clocks of the game, by colour, and the move number they were seen at.
#[derive(Clone, Copy, Debug, Default)]
pub struct GameClocks {
    start: Option<Start>,
}

#[derive(Clone, Copy, Debug)]
struct Start {
    white: Duration,
    black: Duration,
    fullmoves: u32,
}

impl GameClocks {
    /// Forgets the game's clocks (a new game).
    pub fn clear(&mut self) {
        self.start = None;
    }

    /// Notes the clocks of a search of `pos` if they are the game's first (or the game went
    /// back before the move they were seen at: a new game the GUI did not announce), and
    /// sets `limits.game_clocks` from the game's first clocks, seen from the side to move.
    /// Limits without both clocks are left as they are.
    pub fn note(&mut self, pos: &Position, limits: &mut Limits) {
        let (Some(ours), Some(theirs)) = (limits.time, limits.opponent_time) else {
            return;
        };
        let chess = pos.chess();
        let turn = chess.turn();
        let fullmoves = chess.fullmoves().get();
        if self.start.is_none_or(|s| fullmoves < s.fullmoves) {
            let (white, black) = match turn {
                Color::White => (ours, theirs),
                Color::Black => (theirs, ours),
            };
            self.start = Some(Start {
                white,
                black,
                fullmoves,
            });
        }
        limits.game_clocks = self.start.map(|s| match turn {
            Color::White => (s.white, s.black),
            Color::Black => (s.black, s.white),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clocks(ours: u64, theirs: u64) -> Limits {
        Limits {
            time: Some(Duration::from_millis(ours)),
            opponent_time: Some(Duration::from_millis(theirs)),
            ..Limits::default()
        }
    }

    fn after(moves: &[&str]) -> Position {
        let mut pos = Position::default();
        for m in moves {
            pos.play_uci(m).unwrap();
        }
        pos
    }

    #[test]
    fn the_first_clocks_of_a_game_are_kept_by_colour() {
        let ms = Duration::from_millis;
        let mut g = GameClocks::default();
        let mut l = clocks(30_000, 10_000);
        g.note(&after(&[]), &mut l);
        assert_eq!(l.game_clocks, Some((ms(30_000), ms(10_000))));
        // Later in the game, the running clocks change; the first ones stay.
        let mut l = clocks(16_000, 9_000);
        g.note(&after(&["e2e4", "e7e5"]), &mut l);
        assert_eq!(l.game_clocks, Some((ms(30_000), ms(10_000))));
        // Seen from Black (the user switched sides): White's first clock is the opponent's.
        let mut l = clocks(9_000, 16_000);
        g.note(&after(&["e2e4"]), &mut l);
        assert_eq!(l.game_clocks, Some((ms(10_000), ms(30_000))));
        // Limits without the opponent's clock get none.
        let mut l = Limits::depth(5);
        g.note(&after(&["e2e4"]), &mut l);
        assert_eq!(l.game_clocks, None);
        // Back before the first clocks' move: a new game, whose clocks count from now.
        let mut g = GameClocks::default();
        let mut l = clocks(5_000, 5_000);
        g.note(&after(&["e2e4", "e7e5", "g1f3", "b8c6"]), &mut l);
        let mut l = clocks(8_000, 4_000);
        g.note(&after(&[]), &mut l);
        assert_eq!(l.game_clocks, Some((ms(8_000), ms(4_000))));
        // A cleared record starts again.
        g.clear();
        let mut l = clocks(1_000, 2_000);
        g.note(&after(&["e2e4", "e7e5", "g1f3", "b8c6"]), &mut l);
        assert_eq!(l.game_clocks, Some((ms(1_000), ms(2_000))));
    }
}
