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
//!
//! Cost control: the calls of one search may take at most a share of the move's planned time
//! ([`crate::params::TimeParams::engine_time_share`], the clock's
//! [`engine_budget`](crate::search::Clock::engine_budget)). Past it, a position the engine has
//! not answered yet gets our own α-β reply as the type's prediction (the move our table
//! keeps there; the engine is asked only where the table has none): the speculation below
//! that root move falls back to the hedge type's — α-β's — assumption. The root searches α-β's
//! best move first and the moves within the margin next, so the budget goes to the moves
//! that can be chosen. Unbounded, match 10 measured the cost: about 30 calls of about 11 ms
//! at gnuchess's depth 5 per move, 3 plies shallower than α-β at 5+0.05 (9.0 against 12.0)
//! and 18 % against α-β's 77 % over 60 games.

use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use shakmaty::Move;

use super::{Driver, OmMode};
use crate::eval::Evaluator;
use crate::external::{EngineLine, ErrorKind, GoLimit, ManagedEngine};
use crate::opponent::Policy;
use crate::score::{INFINITE, Score};

/// How long an engine may take beyond its own `movetime` before it counts as hung.
pub const ENGINE_ANSWER_TIMEOUT: Duration = Duration::from_secs(5);

/// What one driver's engine probes cost in one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineUse {
    /// Queries sent to an engine (answers it had given before not counted).
    pub calls: u32,
    /// Time spent waiting for them.
    pub time: Duration,
    /// Probes answered with our own reply because the budget was spent.
    pub fallbacks: u32,
}

/// The engine behind an `engine` type and the limit it is asked with.
#[derive(Clone)]
pub struct EngineProbe {
    /// The engine process, kept for the whole game (shared with the engine core).
    pub engine: Arc<Mutex<ManagedEngine>>,
    /// `go nodes N`, `go depth N` or `go movetime MS`.
    pub limit: GoLimit,
    /// A mixed strategy over the engine's MultiPV lines ([`super::policy`]): in PrOM search
    /// the probe returns every line's move, weighted by it; `None`: the engine's move.
    pub policy: Option<Policy>,
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

    /// Asks the engine for its move in `pos`, by `hard` at the latest (our hard deadline, or
    /// the end of the engine's share of the move's time).
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

    /// Whose failure an error of [`Self::ask`] asked `by` that deadline is: `None` when it is
    /// ours (our stop flag, or a timeout at our deadline), else the engine's fault as a
    /// message — also an engine that failed to start or exited while our deadline passed
    /// (a handshake cut short by our clock is still a start that failed). An engine that did
    /// not answer within its answer timeout hangs and is abandoned here, so that the next
    /// query starts it afresh instead of waiting on it again.
    pub fn fault(&self, e: &crate::external::ExternalError, by: Option<Instant>) -> Option<String> {
        let at_our_deadline = by.is_some_and(|d| Instant::now() >= d);
        if e.kind == ErrorKind::Stopped || (e.kind == ErrorKind::Timeout && at_our_deadline) {
            return None;
        }
        if e.kind == ErrorKind::Timeout {
            self.engine.lock().abandon(e);
        }
        Some(e.to_string())
    }
}

impl<E: Evaluator + ?Sized> Driver<'_, E> {
    /// Asks type `t`'s engine for its move at the current node. The value (MAX view) is +∞:
    /// no β is passed below an engine's choice.
    pub(super) fn engine_probe(&mut self, t: usize) -> Option<(Score, Vec<Move>)> {
        let probe = self.specs[t].engine.clone()?;
        let replay = self.specs[t].replay;
        let hard: Option<Instant> = self.clock.as_ref().and_then(|c| c.hard_deadline());
        let cached = probe.engine.lock().cached(self.position(), probe.limit);
        if let Some(m) = cached {
            self.probe_line = vec![m];
            return Some((INFINITE, self.engine_choices(t, m)));
        }
        // What is left of the engine's share of this move's time, if it has one.
        let left = self
            .clock
            .as_ref()
            .and_then(|c| c.engine_budget())
            .map(|budget| budget.saturating_sub(self.engine_use.time));
        if left.is_some_and(|l| l.is_zero()) {
            self.engine_use.fallbacks += 1;
            return self.own_reply_here();
        }
        // A call may not outlast the share: cut at its end, it is our own reply after all —
        // except the call that starts the engine (the handshake is bounded by the hard
        // deadline only: a start cut short would count as the engine's fault).
        let starting = !probe.engine.lock().is_running();
        let cut = left.filter(|_| !starting).map(|l| Instant::now() + l);
        let by = match (hard, cut) {
            (Some(h), Some(c)) => Some(h.min(c)),
            (h, c) => h.or(c),
        };
        let asked = Instant::now();
        let answer = probe.ask(self.position(), replay, by, self.own.stop);
        self.engine_use.calls += 1;
        self.engine_use.time += asked.elapsed();
        match answer {
            Ok(m) => {
                self.probe_line = vec![m];
                Some((INFINITE, self.engine_choices(t, m)))
            }
            Err(e)
                if e.kind == ErrorKind::Timeout
                    && cut.is_some_and(|c| Instant::now() >= c)
                    && hard.is_none_or(|h| Instant::now() < h) =>
            {
                // The share ran out during the call (the engine was told to stop and
                // its late answer is drained by the next call): our own reply instead.
                self.engine_use.time = self.engine_use.time.max(left.unwrap_or_default());
                self.engine_use.fallbacks += 1;
                self.own_reply_here()
            }
            Err(e) => {
                // Our own stop or clock ends the search quietly; the engine's fault is
                // reported by the root loop, which drops the type.
                if let Some(fault) = probe.fault(&e, hard) {
                    self.failure = Some((t, fault));
                }
                self.aborted = true;
                None
            }
        }
    }

    /// Type `t`'s [`Policy`] and the MultiPV lines its engine gave at the current node, if
    /// it has a policy and the engine has answered here with lines.
    pub(super) fn policy_lines(&self, t: usize) -> Option<(Policy, Vec<EngineLine>)> {
        let probe = self.specs.get(t)?.engine.as_ref()?;
        let policy = probe.policy?;
        let engine = probe.engine.lock();
        let lines = engine.cached_lines(self.position(), probe.limit)?;
        (!lines.is_empty()).then(|| (policy, lines.to_vec()))
    }

    /// The moves type `t`'s engine answer leaves the opponent at the current node: its move
    /// `m`, or — for a type with a [`Policy`] in PrOM search — every MultiPV line's move in
    /// the engine's order (weighted by [`Self::choice_weights`]; `m` alone when the engine
    /// sent no lines).
    fn engine_choices(&self, t: usize, m: Move) -> Vec<Move> {
        if self.settings.mode != OmMode::Prom {
            return vec![m];
        }
        match self.policy_lines(t) {
            Some((_, lines)) => lines.iter().map(|l| l.mv).collect(),
            None => vec![m],
        }
    }

    /// How PrOM splits type `t`'s probability over the `moves` its probe returned at the
    /// current node: by the type's [`Policy`] over the engine's lines when it has one and
    /// they are the moves, else evenly (equal-best moves, §6.3.1).
    pub(super) fn choice_weights(&self, t: usize, moves: &[Move]) -> Vec<f64> {
        match self.policy_lines(t) {
            Some((policy, lines))
                if lines.len() == moves.len()
                    && lines.iter().zip(moves).all(|(l, &m)| l.mv == m) =>
            {
                let scores: Vec<i32> = lines.iter().map(|l| l.score_cp).collect();
                super::policy::pick_probabilities(policy, &scores)
            }
            _ => vec![1.0 / moves.len().max(1) as f64; moves.len()],
        }
    }

    /// Our own prediction at the current node instead of the engine's: the move our table
    /// keeps here (α-β's root pass searched the position), else the one a depth-2 search of
    /// our own leaves there.
    fn own_reply_here(&mut self) -> Option<(Score, Vec<Move>)> {
        let m = match self.own_table_move() {
            Some(m) => m,
            None => {
                self.with_own(|own| own.search(-INFINITE, INFINITE, 2, false))?;
                // A table too small to keep even that: the first legal move is as good a
                // guess as any, and the search below it still values it.
                self.own_table_move()
                    .or_else(|| self.position().legal_moves().first().copied())?
            }
        };
        self.probe_line = vec![m];
        Some((INFINITE, vec![m]))
    }
}
