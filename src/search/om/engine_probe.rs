//! Probes of the `engine` opponent type: at a MIN node the OM/PrOM driver asks an external
//! UCI engine for its move (`position fen … moves …`, `go nodes N` / `depth N` /
//! `movetime MS`; with replay a `ucinewgame` first, so that a deterministic engine answers
//! as it would in a fresh game), and our own search continues below the predicted move as
//! usual (Donkers 2003 Alg. 3.8/6.3: the probe is any procedure that returns the opponent
//! type's choice; here the type is the opponent program itself, or one that plays like it).
//!
//! An engine has no value in our scale, so its probe passes no β bound (β-passing, Alg. 3.8
//! and 6.5, needs the type's own value; the bound is +∞ and the engine is simply asked).
//! Answers are cached per (position, limit) for the rest of the game by
//! [`ManagedEngine`]. A fault (crash, hang, garbage, an illegal move) is recorded in
//! [`Driver`]'s failure slot: the root loop reports it, drops the type from this search and
//! repeats the iteration. Our stop flag and the clock's hard deadline bound every wait, so
//! the engine can never make us late.

use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use shakmaty::Move;

use super::Driver;
use crate::eval::Evaluator;
use crate::eval::score::{INFINITE, Score};
use crate::external::{ErrorKind, GoLimit, ManagedEngine};

/// How long an engine may take beyond its own `movetime` before it counts as hung.
pub const ENGINE_ANSWER_TIMEOUT: Duration = Duration::from_secs(5);

/// The engine behind an `engine` type and the limit it is asked with.
#[derive(Clone)]
pub struct EngineProbe {
    /// The engine process, kept for the whole game (shared with the engine core).
    pub engine: Arc<Mutex<ManagedEngine>>,
    /// `go nodes N`, `go depth N` or `go movetime MS`.
    pub limit: GoLimit,
}

impl EngineProbe {
    /// The longest a healthy engine takes to answer one query with this limit.
    pub fn answer_timeout(&self) -> Duration {
        match self.limit {
            GoLimit::MoveTime(ms) => ENGINE_ANSWER_TIMEOUT + Duration::from_millis(ms),
            _ => ENGINE_ANSWER_TIMEOUT,
        }
    }

    /// The deadline of a query starting now: the answer timeout, or our own `hard`
    /// deadline if that comes first.
    pub fn deadline(&self, hard: Option<Instant>) -> Instant {
        let answer = Instant::now() + self.answer_timeout();
        hard.map_or(answer, |h| h.min(answer))
    }

    /// Asks the engine for its move in `pos`, by our `hard` deadline at the latest.
    pub fn ask(
        &self,
        pos: &crate::position::Position,
        replay: bool,
        hard: Option<Instant>,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Result<Move, crate::external::ExternalError> {
        self.engine
            .lock()
            .query(pos, self.limit, replay, self.deadline(hard), stop)
    }
}

impl<E: Evaluator + ?Sized> Driver<'_, E> {
    /// Asks type `t`'s engine for its move at the current node. The value (MAX view) is +∞:
    /// no β is passed below an engine's choice.
    pub(super) fn engine_probe(&mut self, t: usize) -> Option<(Score, Vec<Move>)> {
        let probe = self.specs[t].engine.clone()?;
        let replay = self.specs[t].replay;
        let hard: Option<Instant> = self.clock.as_ref().and_then(|c| c.hard_deadline());
        match probe.ask(self.position(), replay, hard, self.own.stop) {
            Ok(m) => {
                self.probe_line = vec![m];
                Some((INFINITE, vec![m]))
            }
            Err(e)
                if e.kind == ErrorKind::Stopped
                    || (e.kind == ErrorKind::Timeout
                        && hard.is_some_and(|h| Instant::now() >= h)) =>
            {
                // Our own stop or clock, not the engine's fault.
                self.aborted = true;
                None
            }
            Err(e) => {
                if e.kind == ErrorKind::Timeout {
                    // No answer within the answer timeout: the engine hangs.
                    probe.engine.lock().abandon(&e);
                }
                self.failure = Some((t, e.to_string()));
                self.aborted = true;
                None
            }
        }
    }
}
