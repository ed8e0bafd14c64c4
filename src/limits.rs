//! Search limits: what a `go` command (UCI) or a `level`/`st`/`sd`/`time` state (xboard)
//! asks for, in protocol-neutral form. The [`crate::time`] module turns clock limits into
//! deadlines.

use std::time::Duration;

use shakmaty::Move;

/// The limits of one search. Empty limits mean "search until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum iterative-deepening depth.
    pub depth: Option<u32>,
    /// Maximum node count (summed over threads).
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Look for a mate in this many moves (searches to depth `2 * mate`).
    pub mate: Option<u32>,
    /// Remaining time of the side to move.
    pub time: Option<Duration>,
    /// Increment of the side to move.
    pub inc: Option<Duration>,
    /// Moves to the next time control (0 or `None`: sudden death).
    pub movestogo: Option<u32>,
    /// Search until `stop` (or `ponderhit` ends pondering).
    pub infinite: bool,
    /// Pondering: the clock only starts at `ponderhit`.
    pub ponder: bool,
    /// The user analyses (xboard `analyze`; UCI says so by `UCI_AnalyseMode` instead).
    pub analysis: bool,
    /// Restrict the root to these moves (UCI `searchmoves`).
    pub searchmoves: Vec<Move>,
    /// The opponent's remaining time (UCI `wtime`/`btime` of the other side, xboard
    /// `otim`): what `OM_Mode=auto` weighs our clock against.
    pub opponent_time: Option<Duration>,
    /// The opponent's increment.
    pub opponent_inc: Option<Duration>,
    /// The two clocks (ours, the opponent's) at this game's first search on a clock: the
    /// time control's odds, which the running clocks drift from as the two sides spend
    /// their time differently. Set by the engine core; `None` outside a game.
    pub game_clocks: Option<(Duration, Duration)>,
}

impl Limits {
    /// Limits for a fixed depth.
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Limits for a fixed node count.
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// True if the search uses the clock (time, movetime).
    pub fn is_timed(&self) -> bool {
        self.clock().is_some()
    }

    /// The time the search must keep within: the clock or the fixed move time, the smaller
    /// if both are given; `None` for an untimed search.
    pub fn clock(&self) -> Option<std::time::Duration> {
        match (self.time, self.movetime) {
            (Some(t), Some(m)) => Some(t.min(m)),
            (t, m) => t.or(m),
        }
    }

    /// These limits after `spent` of the move's time went elsewhere (fitting an opponent
    /// model, say): less time left on the clock and for `movetime`. A ponder search's clock
    /// has not started, so pondering limits stay as they are.
    pub fn after(&self, spent: std::time::Duration) -> Limits {
        let mut l = self.clone();
        if !l.ponder {
            l.time = l.time.map(|t| t.saturating_sub(spent));
            l.movetime = l.movetime.map(|t| t.saturating_sub(spent));
        }
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn time_spent_elsewhere_comes_off_the_clock_but_not_off_pondering() {
        let ms = Duration::from_millis;
        let timed = Limits {
            time: Some(ms(300)),
            inc: Some(ms(50)),
            movetime: Some(ms(100)),
            ..Limits::default()
        };
        let l = timed.after(ms(120));
        assert_eq!(
            (l.time, l.movetime, l.inc),
            (Some(ms(180)), Some(ms(0)), Some(ms(50)))
        );
        let pondering = Limits {
            ponder: true,
            ..timed.clone()
        };
        assert_eq!(pondering.after(ms(120)).time, Some(ms(300)));
        assert_eq!(Limits::depth(5).after(ms(10)).depth, Some(5));
    }
}
