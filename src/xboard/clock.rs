//! CECP time control (§11 "Time control", §8 `level`, `st`, `sd`, `time`): the session's
//! clock state, turned into protocol-neutral [`Limits`] for the engine's time manager.
//!
//! - `level MPS BASE INC`: our clock is the last `time` (centiseconds), the increment is
//!   INC, and with MPS > 0 the moves to go are counted from the ply at which `level` arrived
//!   (§11: MPS counts the moves still to do before BASE is added again).
//! - `st T`: a fixed time per move (`movetime`); whichever of `level` and `st` came last
//!   applies.
//! - `sd D`: a depth limit on top of either (§8 `sd`: orthogonal to the time control).
//!
//! After each of our moves the clock is estimated (minus the time spent, plus what the
//! control adds) so that a ponder search started before the next `time` plans with a
//! realistic clock.

use std::time::{Duration, Instant};

use super::command::Level;
use crate::limits::Limits;
use crate::position::Position;

/// The time control when the GUI sends none (xboard's own default: 40 moves in 5 minutes).
pub const DEFAULT_LEVEL: Level = Level {
    mps: 40,
    base: Duration::from_secs(300),
    inc: Duration::ZERO,
};

/// `level` or `st`: whichever came last applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// A conventional or incremental clock.
    Level(Level),
    /// Fixed time per move.
    St(Duration),
}

/// The time-control state of a CECP session.
#[derive(Clone, Debug)]
pub struct Clock {
    control: Control,
    depth: Option<u32>,
    /// The engine's clock in centiseconds (`time`; estimated after our moves).
    ours: Option<i64>,
    /// The opponent's clock in centiseconds (`otim`).
    theirs: Option<i64>,
    /// Plies played when `level` arrived: moves per session count from there.
    level_ply: usize,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            control: Control::Level(DEFAULT_LEVEL),
            depth: None,
            ours: None,
            theirs: None,
            level_ply: 0,
        }
    }
}

/// Plies played in `pos` (since the start position or `setboard`).
fn plies(pos: &Position) -> usize {
    pos.history_len() - 1
}

fn centis(d: Duration) -> i64 {
    i64::try_from(d.as_millis() / 10).unwrap_or(i64::MAX)
}

impl Clock {
    /// `new`: clocks back to the start of a game, no depth limit (§8 `new`); the time
    /// control itself stays until the next `level`/`st`.
    pub fn new_game(&mut self) {
        self.depth = None;
        self.ours = None;
        self.theirs = None;
        self.level_ply = 0;
    }

    /// `setboard`: the move count starts again.
    pub fn new_position(&mut self) {
        self.level_ply = 0;
    }

    /// `level`, received with `pos` on the board.
    pub fn set_level(&mut self, level: Level, pos: &Position) {
        self.control = Control::Level(level);
        self.level_ply = plies(pos);
    }

    /// `st`.
    pub fn set_st(&mut self, t: Duration) {
        self.control = Control::St(t);
    }

    /// `sd`.
    pub fn set_depth(&mut self, depth: u32) {
        self.depth = Some(depth);
    }

    /// `time`: our clock in centiseconds.
    pub fn set_time(&mut self, centiseconds: i64) {
        self.ours = Some(centiseconds);
    }

    /// `otim`: the opponent's clock in centiseconds.
    pub fn set_otim(&mut self, centiseconds: i64) {
        self.theirs = Some(centiseconds);
    }

    /// The time control in force.
    pub fn control(&self) -> Control {
        self.control
    }

    /// Our moves since `level` when we are on move in `pos`.
    fn moves_made(&self, pos: &Position) -> usize {
        plies(pos).saturating_sub(self.level_ply) / 2
    }

    /// Limits for the engine on move in `pos`.
    pub fn limits(&self, pos: &Position) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        match self.control {
            Control::St(t) => limits.movetime = Some(t),
            Control::Level(level) => {
                let ours = self.ours.map_or(level.base, |cs| {
                    Duration::from_millis(cs.max(0).saturating_mul(10) as u64)
                });
                limits.time = Some(ours);
                limits.inc = (!level.inc.is_zero()).then_some(level.inc);
                // CECP has one control for both sides: the opponent's increment is ours.
                limits.opponent_time = self
                    .theirs
                    .map(|cs| Duration::from_millis(cs.max(0).saturating_mul(10) as u64));
                limits.opponent_inc = limits.inc;
                if level.mps > 0 {
                    let made = self.moves_made(pos) % level.mps as usize;
                    limits.movestogo = Some(level.mps - made as u32);
                }
            }
        }
        limits
    }

    /// We played a move in `before` whose search started (or had its `ponderhit`) at
    /// `since`: estimate our clock until the next `time` arrives.
    pub fn after_our_move(&mut self, before: &Position, since: Instant) {
        let (Control::Level(level), Some(cs)) = (self.control, self.ours) else {
            return;
        };
        let mut bonus = centis(level.inc);
        if level.mps > 0 && (self.moves_made(before) + 1).is_multiple_of(level.mps as usize) {
            bonus = bonus.saturating_add(centis(level.base));
        }
        let spent = centis(since.elapsed());
        self.ours = Some(cs.saturating_sub(spent).saturating_add(bonus));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_counts_moves_to_go() {
        let mut clock = Clock::default();
        let mut pos = Position::default();
        clock.set_level(
            Level {
                mps: 2,
                base: Duration::from_secs(60),
                inc: Duration::ZERO,
            },
            &pos,
        );
        clock.set_time(6000);
        let l = clock.limits(&pos);
        assert_eq!(
            (l.time, l.movestogo),
            (Some(Duration::from_secs(60)), Some(2))
        );
        pos.play_uci("e2e4").unwrap();
        assert_eq!(clock.limits(&pos).movestogo, Some(2)); // Black's first move
        pos.play_uci("e7e5").unwrap();
        assert_eq!(clock.limits(&pos).movestogo, Some(1));
        // Our second move completes the session: BASE comes back.
        clock.after_our_move(&pos, Instant::now());
        pos.play_uci("g1f3").unwrap();
        pos.play_uci("b8c6").unwrap();
        assert_eq!(clock.limits(&pos).movestogo, Some(2));
        assert!(clock.limits(&pos).time >= Some(Duration::from_secs(119)));
        clock.set_st(Duration::from_millis(300));
        clock.set_depth(5);
        let l = clock.limits(&pos);
        assert_eq!(
            (l.movetime, l.time, l.depth),
            (Some(Duration::from_millis(300)), None, Some(5))
        );
    }
}
