//! An external engine as a search uses it: started on first use, kept across searches,
//! restarted after a fault a bounded number of times per game, and answering repeated
//! questions from a cache.
//!
//! A fault ([`ErrorKind::is_fault`]: the engine would not start, exited, hung, broke the
//! protocol or played an illegal move) kills the process and counts against the game's
//! restart budget; the next query starts a new process while the count is within the budget,
//! and once it is exceeded every query answers [`ErrorKind::Disabled`] until
//! [`ManagedEngine::new_game`]. A `Timeout` or `Stopped` caused by the caller is no fault:
//! the process stays, and its late `bestmove` is drained by the next query. The engine may
//! speak UCI or xboard ([`Protocol`]); the rest is the same.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::Move;

use super::{
    CecpEngine, EngineAnswer, EngineCommand, EngineLine, ErrorKind, ExternalError, GoLimit,
    Protocol, UciEngine,
};
use crate::position::Position;

/// The default bound on starting the process and its handshake.
const START_TIMEOUT: Duration = Duration::from_secs(5);
/// The bound on `ucinewgame` → `readyok` at the start of a game.
const NEW_GAME_TIMEOUT: Duration = Duration::from_secs(2);

/// One running process of either protocol.
enum Process {
    Uci(UciEngine),
    Xboard(CecpEngine),
}

impl Process {
    fn start(
        protocol: Protocol,
        cmd: &EngineCommand,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<Self, ExternalError> {
        match protocol {
            Protocol::Uci => UciEngine::start(cmd, options, timeout).map(Process::Uci),
            Protocol::Xboard => CecpEngine::start(cmd, options, timeout).map(Process::Xboard),
        }
    }

    fn name(&self) -> &str {
        match self {
            Process::Uci(e) => e.name(),
            Process::Xboard(e) => e.name(),
        }
    }

    fn is_alive(&mut self) -> bool {
        match self {
            Process::Uci(e) => e.is_alive(),
            Process::Xboard(e) => e.is_alive(),
        }
    }

    fn new_game_by(&mut self, deadline: Instant, stop: &AtomicBool) -> Result<(), ExternalError> {
        match self {
            Process::Uci(e) => e.new_game_by(deadline, stop),
            Process::Xboard(e) => e.new_game_by(deadline, stop),
        }
    }

    fn best_move(
        &mut self,
        pos: &Position,
        limit: GoLimit,
        deadline: Instant,
        stop: &AtomicBool,
    ) -> Result<EngineAnswer, ExternalError> {
        match self {
            Process::Uci(e) => e.best_move(pos, limit, deadline, stop),
            Process::Xboard(e) => e.best_move(pos, limit, deadline, stop),
        }
    }

    fn kill(self) {
        match self {
            Process::Uci(e) => e.kill(),
            Process::Xboard(e) => e.kill(),
        }
    }
}

/// A cached answer: the move and the engine's MultiPV lines (see [`EngineAnswer::lines`]).
#[derive(Clone, Debug)]
struct Answered {
    mv: Move,
    lines: Vec<EngineLine>,
}

/// An engine started lazily and restarted after faults (see the module docs).
pub struct ManagedEngine {
    cmd: EngineCommand,
    options: Vec<(String, String)>,
    protocol: Protocol,
    max_restarts: u32,
    start_timeout: Duration,
    engine: Option<Process>,
    /// The engine's name as last known (its program until it said otherwise).
    name: String,
    /// Faults this game; each one costs a restart.
    faults: u32,
    /// The message of the last fault.
    last_fault: String,
    /// Answers already given this game, per (position key, limit): the move and the
    /// MultiPV lines.
    cache: HashMap<(u64, GoLimit), Answered>,
}

impl ManagedEngine {
    /// An engine to run as `cmd` with the `setoption` pairs `options`, restarted at most
    /// `max_restarts` times per game. The process is not started yet.
    pub fn new(cmd: EngineCommand, options: Vec<(String, String)>, max_restarts: u32) -> Self {
        let name = cmd.program.clone();
        ManagedEngine {
            cmd,
            options,
            protocol: Protocol::Uci,
            max_restarts,
            start_timeout: START_TIMEOUT,
            engine: None,
            name,
            faults: 0,
            last_fault: String::new(),
            cache: HashMap::new(),
        }
    }

    /// The same engine speaking `protocol` (UCI unless set; xboard options are sent as
    /// `option NAME=VALUE`).
    #[must_use]
    pub fn with_protocol(mut self, protocol: Protocol) -> Self {
        self.protocol = protocol;
        self
    }

    /// Sets the bound on starting the process and completing the handshake (5 s by
    /// default); an engine that needs longer counts a fault.
    pub fn set_start_timeout(&mut self, timeout: Duration) {
        self.start_timeout = timeout;
    }

    /// The engine's `id name` once it started, else its program.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Starts a new game: clears the cache and the fault count, and sends `ucinewgame` to a
    /// running engine (one that does not answer is dropped and started again lazily).
    pub fn new_game(&mut self) {
        self.cache.clear();
        self.faults = 0;
        self.last_fault.clear();
        if let Some(e) = &mut self.engine
            && e.new_game_by(Instant::now() + NEW_GAME_TIMEOUT, &AtomicBool::new(false))
                .is_err()
        {
            self.kill();
        }
    }

    /// The engine's move in `pos` with `limit`, waiting at most until `deadline` and
    /// giving up when `stop` is set. A cached answer for the same position, history
    /// ([`Position::history_key`]) and limit
    /// is returned without asking the engine. With `replay`, `ucinewgame` and `isready` go
    /// before the position, so that an engine whose search is deterministic (e.g.
    /// Stockfish with `Threads=1` and a node limit) gives the same answer as in any other
    /// replay.
    ///
    /// # Errors
    /// The engine's error ([`UciEngine::best_move`]); after a fault the process is killed
    /// and a restart counted; `Disabled` once the faults exceed the budget.
    pub fn query(
        &mut self,
        pos: &Position,
        limit: GoLimit,
        replay: bool,
        deadline: Instant,
        stop: &AtomicBool,
    ) -> Result<Move, ExternalError> {
        // The history matters: an engine answers differently where a repetition is near.
        if let Some(a) = self.cache.get(&(pos.history_key(), limit)) {
            return Ok(a.mv);
        }
        if self.is_disabled() {
            return Err(self.error(ErrorKind::Disabled(self.last_fault.clone())));
        }
        if stop.load(Ordering::Relaxed) {
            return Err(self.error(ErrorKind::Stopped));
        }
        let engine = match &mut self.engine {
            Some(e) => e,
            // The handshake never outlasts the caller's deadline (nor the start timeout).
            None => match Process::start(self.protocol, &self.cmd, &self.options, {
                let left = deadline.saturating_duration_since(Instant::now());
                self.start_timeout.min(left.max(Duration::from_millis(1)))
            }) {
                Ok(e) => {
                    self.name = e.name().to_string();
                    self.engine.insert(e)
                }
                Err(e) => {
                    self.fault(&e);
                    return Err(e);
                }
            },
        };
        let answer = if replay {
            engine
                .new_game_by(deadline, stop)
                .and_then(|()| engine.best_move(pos, limit, deadline, stop))
        } else {
            engine.best_move(pos, limit, deadline, stop)
        };
        match answer {
            Ok(a) => {
                let mv = a.mv;
                self.cache
                    .insert((pos.history_key(), limit), Answered { mv, lines: a.lines });
                Ok(mv)
            }
            Err(e) => {
                if e.kind.is_fault() {
                    self.kill();
                    self.fault(&e);
                }
                Err(e)
            }
        }
    }

    /// Starts the process now, if it is not running (bounded by the start timeout), so
    /// that the first query of a game does not pay for the handshake: an engine that loads
    /// a network can take longer to start than a fast move lasts. A failure counts a fault,
    /// as it would at the first query.
    ///
    /// # Errors
    /// The start error ([`ErrorKind::Start`]), or `Disabled` after too many faults.
    pub fn warm_up(&mut self) -> Result<(), ExternalError> {
        if self.is_running() {
            return Ok(());
        }
        if self.is_disabled() {
            return Err(self.error(ErrorKind::Disabled(self.last_fault.clone())));
        }
        self.kill();
        match Process::start(self.protocol, &self.cmd, &self.options, self.start_timeout) {
            Ok(e) => {
                self.name = e.name().to_string();
                self.engine = Some(e);
                Ok(())
            }
            Err(e) => {
                self.fault(&e);
                Err(e)
            }
        }
    }

    /// Faults counted this game (each one costs a restart).
    pub fn restarts(&self) -> u32 {
        self.faults
    }

    /// True when the faults of this game exceed the restart budget: queries answer
    /// `Disabled` until [`Self::new_game`].
    pub fn is_disabled(&self) -> bool {
        self.faults > self.max_restarts
    }

    /// The answer already given this game for `pos` with `limit`, if any.
    pub fn cached(&self, pos: &Position, limit: GoLimit) -> Option<Move> {
        self.cache.get(&(pos.history_key(), limit)).map(|a| a.mv)
    }

    /// The MultiPV lines of the answer already given this game for `pos` with `limit`
    /// (empty if the engine sent none); `None` if it has not answered there.
    pub fn cached_lines(&self, pos: &Position, limit: GoLimit) -> Option<&[EngineLine]> {
        self.cache
            .get(&(pos.history_key(), limit))
            .map(|a| a.lines.as_slice())
    }

    /// Answers cached this game.
    pub fn cache_len(&self) -> usize {
        self.cache.len()
    }

    /// True when the process is running (it has started and not failed since).
    pub fn is_running(&mut self) -> bool {
        self.engine.as_mut().is_some_and(Process::is_alive)
    }

    /// Gives up on the running process after `e` (e.g. no answer within the caller's
    /// answer timeout): kills it at once and counts a fault, as for a crash.
    pub fn abandon(&mut self, e: &ExternalError) {
        self.kill();
        self.fault(e);
    }

    /// Counts the fault `e`.
    fn fault(&mut self, e: &ExternalError) {
        self.faults += 1;
        self.last_fault = e.kind.to_string();
    }

    /// Kills the process, if any, without waiting for `quit`.
    fn kill(&mut self) {
        if let Some(e) = self.engine.take() {
            e.kill();
        }
    }

    /// An error of this engine.
    fn error(&self, kind: ErrorKind) -> ExternalError {
        ExternalError {
            protocol: self.protocol,
            ..ExternalError::new(&self.name, kind)
        }
    }
}
