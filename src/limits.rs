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
    /// Restrict the root to these moves (UCI `searchmoves`).
    pub searchmoves: Vec<Move>,
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
        self.time.is_some() || self.movetime.is_some()
    }
}
