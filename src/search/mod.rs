//! The searcher: iterative deepening with aspiration windows over the α-β probe, Lazy SMP
//! helper threads sharing one transposition table, MultiPV, stop and time checks, and
//! reporting through a [`Reporter`].
//!
//! Flow of one search (docs/architecture.md, "From `go` to `bestmove`"): the engine hands
//! over a position, [`Limits`] and a reporter; the root move list is filtered
//! (`searchmoves`, tablebase root filter); a single legal move in a timed search is played
//! after a shallow look; then the main thread deepens iteration by iteration while helper
//! threads search the same position, filling the shared table (Lazy SMP); whichever thread
//! completes a depth first publishes it and the others go on to the next ([`race`]: the
//! main thread takes a helper's completed iteration as its own). The main thread alone
//! reports and decides when to stop (soft deadline between iterations, hard deadline or
//! node limit at any node). In infinite and ponder mode `bestmove` waits for `stop` or
//! `ponderhit`. This module starts the threads; their iterations are `deepen`'s. The
//! opponent-model driver, which uses [`alphabeta::Worker`] as its probe, lives in [`om`].

pub mod alphabeta;
pub mod busy;
mod deepen;
pub mod history;
mod multicut;
mod noisy;
pub mod om;
pub mod ordering;
pub mod pool;
mod probcut;
pub mod qsearch;
pub mod race;
pub mod see;
mod singular;
pub mod window;
pub mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use shakmaty::{Move, Position as _};

pub use alphabeta::Worker;

use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::params::{SearchParams, TimeParams};
use crate::position::Position;
use crate::report::Reporter;
use crate::score::{MATE, Score, is_mate};
use crate::time::TimeManager;
use crate::tt::TranspositionTable;

/// Flags the engine shares with a running search.
#[derive(Debug, Default)]
pub struct SearchControl {
    /// Stop as soon as possible.
    pub stop: AtomicBool,
    /// True while pondering; cleared by `ponderhit` (the clock then starts).
    pub pondering: AtomicBool,
    /// Set by the engine core just before the `bestmove` goes out: the search is over for
    /// the GUI, and its thread is about to end.
    pub answered: AtomicBool,
}

/// Deadlines and limits of the main thread, checked every few thousand nodes.
pub struct Clock<'a> {
    tm: TimeManager,
    limits: &'a Limits,
    overhead: Duration,
    time_params: &'a TimeParams,
    control: &'a SearchControl,
    counters: &'a [AtomicU64],
    waiting_for_ponderhit: bool,
}

impl<'a> Clock<'a> {
    /// A clock for `limits`.
    pub fn new(
        limits: &'a Limits,
        overhead: Duration,
        time_params: &'a TimeParams,
        control: &'a SearchControl,
        counters: &'a [AtomicU64],
    ) -> Self {
        Clock {
            tm: TimeManager::new(limits, overhead, time_params),
            limits,
            overhead,
            time_params,
            control,
            counters,
            waiting_for_ponderhit: limits.ponder,
        }
    }

    /// Turns a ponder search into a timed one once `ponderhit` arrives.
    fn poll_ponderhit(&mut self) {
        if self.waiting_for_ponderhit && !self.control.pondering.load(Ordering::Relaxed) {
            self.waiting_for_ponderhit = false;
            let mut l = self.limits.clone();
            l.ponder = false;
            self.tm = TimeManager::new(&l, self.overhead, self.time_params);
        }
    }

    /// True if the search must stop now (hard deadline, node limit over all threads).
    pub fn expired(&mut self) -> bool {
        self.poll_ponderhit();
        if self.tm.hard_expired() {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            let total: u64 = self
                .counters
                .iter()
                .map(|c| c.load(Ordering::Relaxed))
                .sum();
            if total >= n {
                return true;
            }
        }
        false
    }

    /// Nodes left under a node limit (over all threads); `None` without one.
    pub fn nodes_left(&self) -> Option<u64> {
        let n = self.limits.nodes?;
        let total: u64 = self
            .counters
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum();
        Some(n.saturating_sub(total))
    }

    /// True if no further iteration should start.
    pub fn soft_expired(&mut self) -> bool {
        self.poll_ponderhit();
        self.tm.soft_expired()
    }

    /// Time since the search (or `ponderhit`) started.
    pub fn elapsed(&self) -> Duration {
        self.tm.elapsed()
    }

    /// The instant the search must stop by, if it has one (none while pondering).
    pub fn hard_deadline(&self) -> Option<std::time::Instant> {
        self.tm.hard_deadline()
    }

    /// The time external engine probes may take in this search: the move's planned time
    /// times [`TimeParams::engine_time_share`]; `None` without a planned time (a depth,
    /// node or infinite search, or pondering before `ponderhit`).
    pub fn engine_budget(&self) -> Option<Duration> {
        self.tm
            .planned()
            .map(|t| t.mul_f64(self.time_params.engine_time_share.clamp(0.0, 1.0)))
    }

    /// Scales the soft deadline (see [`TimeManager::adjust`]).
    pub fn adjust(&mut self, factor: f64) {
        self.tm.adjust(factor);
    }

    /// Scales the soft deadline by the stability factor of a best move that stayed the same
    /// for `stable` iterations ([`TimeParams::stability_factor`]).
    pub fn adjust_for_stability(&mut self, stable: u32) {
        let f = self.time_params.stability_factor(stable);
        self.tm.adjust(f);
    }

    /// True while still pondering.
    pub fn is_pondering(&self) -> bool {
        self.waiting_for_ponderhit
    }
}

/// Configuration of one search, set through engine options.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    /// Search threads.
    pub threads: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Time reserved for communication.
    pub move_overhead: Duration,
    /// Search tunables.
    pub params: SearchParams,
    /// Time tunables.
    pub time_params: TimeParams,
    /// Report win/draw/loss with scores.
    pub show_wdl: bool,
    /// Write moves in messages in Chess960 form (castling as the king taking its rook).
    pub chess960: bool,
    /// Tablebase probing: minimum remaining depth.
    pub tb_probe_depth: i32,
    /// Tablebase probing: most pieces to probe.
    pub tb_probe_limit: usize,
    /// What a draw is worth less than 0 to the side to move at the root (centipawns; set
    /// per search by `OM_Mode=auto` from its evidence, see [`om::draw_value`]; 0 otherwise).
    pub contempt: Score,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(50),
            params: SearchParams::default(),
            time_params: TimeParams::default(),
            show_wdl: false,
            chess960: false,
            tb_probe_depth: 1,
            tb_probe_limit: 7,
            contempt: 0,
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play (`None` only without legal moves).
    pub best: Option<Move>,
    /// The expected reply (in an OM search the model's prediction).
    pub ponder: Option<Move>,
    /// Our own α-β search's expected reply to `best` — the same as `ponder` in a plain
    /// search; in an OM search the reply our own search refutes `best` with, which is what
    /// `OM_Mode=auto` scores the opponent's move against (the model's own prediction there
    /// would make every candidate agree with itself).
    pub own_reply: Option<Move>,
    /// Score of the best move, side to move's view.
    pub score: Score,
    /// Last completed depth.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Everything a search needs besides the position and limits.
pub struct SearchContext<'a, E: Evaluator + ?Sized> {
    /// Evaluation.
    pub eval: &'a E,
    /// Transposition table for `eval`.
    pub tt: &'a TranspositionTable,
    /// Stop and ponder flags.
    pub control: &'a SearchControl,
    /// Endgame tables, if any.
    pub tb: Option<&'a dyn crate::tb::WdlProbe>,
    /// Options.
    pub config: &'a SearchConfig,
    /// Where output goes.
    pub reporter: &'a dyn Reporter,
    /// The root's tablebase value, if known: reported instead of heuristic scores.
    pub root_tb_score: Option<Score>,
    /// The engine's threads and their ordering tables ([`pool`]); without one, helpers
    /// run on threads of their own and every search starts with fresh ordering tables.
    pub pool: Option<&'a pool::SearchPool>,
}

impl<'a, E: Evaluator + ?Sized> SearchContext<'a, E> {
    /// A context without endgame tables and without output: for searches whose reports
    /// nobody reads (experiments, probes, tests). Add tables with struct update syntax.
    pub fn silent(
        eval: &'a E,
        tt: &'a TranspositionTable,
        control: &'a SearchControl,
        config: &'a SearchConfig,
    ) -> Self {
        SearchContext {
            eval,
            tt,
            control,
            tb: None,
            config,
            reporter: &crate::report::Silent,
            root_tb_score: None,
            pool: None,
        }
    }
}

/// Root moves allowed by `limits.searchmoves` (all legal moves when empty or when none of
/// the listed moves is legal).
pub fn root_moves(pos: &Position, limits: &Limits) -> Vec<Move> {
    let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
    let only: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| limits.searchmoves.contains(m))
        .collect();
    if only.is_empty() { legal } else { only }
}

/// Runs a complete search (the plain α-β root driver) and returns its result; does not
/// send `bestmove` (the caller does, after honouring infinite/ponder mode).
pub fn search<E: Evaluator + ?Sized>(
    ctx: &SearchContext<'_, E>,
    pos: &Position,
    limits: &Limits,
    allowed: &[Move],
) -> SearchResult {
    let threads = ctx.config.threads.max(1);
    let counters: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    ctx.tt.new_search();
    let mut root = pos.clone();
    root.set_root();
    let busy = (threads > 1).then(busy::BusyMoves::default);
    let busy = busy.as_ref();
    // Helpers search one line: with MultiPV the main thread's iterations are its own.
    let race = (threads > 1 && ctx.config.multipv <= 1).then(race::DepthRace::default);
    let race = race.as_ref();

    let pool = ctx.pool.filter(|p| p.threads() >= threads);
    // Said once: threads that find no room for their histories would all say it.
    let no_room = AtomicBool::new(false);
    let slot = |id: usize| pool.and_then(|p| p.slot(id));
    // Every thread's worker: our evaluation on the shared table, the root moves allowed, and
    // the ordering tables kept in its pool slot (fresh ones without a pool).
    let worker = |id: usize| {
        let mut w = Worker::new(
            ctx.eval,
            ctx.tt,
            &ctx.config.params,
            &ctx.control.stop,
            root.clone(),
        );
        w.configure(ctx.config, &counters[id], ctx.tb, ctx.config.contempt);
        w.root_only = allowed.to_vec();
        w.busy = busy;
        w.race = race;
        if let Some(s) = slot(id) {
            w.tables = s.lock().take_own();
        }
        if !w.tables.configure(&ctx.config.params) && !no_room.swap(true, Ordering::Relaxed) {
            ctx.reporter.message(&format!(
                "warning: no memory for the search histories of thread {id}; it searches \
                 without the refinements that need them ({})",
                ctx.config.params.features.to_words()
            ));
        }
        w
    };
    let give_back = |id: usize, w: &mut Worker<'_, E>| {
        if let Some(s) = slot(id) {
            s.lock().own = w.tables.take();
        }
    };
    pool::team(
        pool,
        1..threads,
        |_, id| {
            let mut w = worker(id);
            deepen::helper_loop(&mut w, id);
            give_back(id, &mut w);
        },
        || {
            let mut w = worker(0);
            let r = deepen::main_loop(ctx, &mut w, limits, allowed, &counters);
            give_back(0, &mut w);
            ctx.control.stop.store(true, Ordering::Relaxed);
            r
        },
        |started, e| {
            // The threads that could not start would fail alike (memory, a limit on
            // threads): say so once and search with the helpers running.
            ctx.reporter.message(&format!(
                "warning: could not start helper thread {} of {}: {e}; searching with {} thread(s)",
                started + 1,
                threads - 1,
                started + 1
            ));
        },
    )
}

/// A forced mate found (`score`) and searched well beyond its length at `depth`: iterative
/// deepening has nothing left to find (the plain search and the OM driver's root loop).
pub(crate) fn mate_searched_out(score: Score, depth: i32) -> bool {
    is_mate(score) && depth > 2 * (MATE - score.abs()) + 8
}

/// The share (0..=1) of the root's nodes that `best` took, from a search's per-root-move
/// effort; `None` before any node was counted.
pub(crate) fn node_share(effort: &[(Move, u64)], best: Option<Move>) -> Option<f64> {
    let total: u64 = effort.iter().map(|(_, n)| n).sum();
    let best = best?;
    let mine = effort
        .iter()
        .find(|(m, _)| *m == best)
        .map_or(0, |(_, n)| *n);
    (total > 0).then(|| mine as f64 / total as f64)
}

/// Searches `pos` to a fixed depth with one thread and no output; used by tests, the
/// benchmark and the opponent model's probes.
pub fn search_depth<E: Evaluator + ?Sized>(
    eval: &E,
    tt: &TranspositionTable,
    pos: &Position,
    depth: u32,
) -> SearchResult {
    let control = SearchControl::default();
    let config = SearchConfig::default();
    let ctx = SearchContext::silent(eval, tt, &control, &config);
    let limits = Limits::depth(depth);
    let allowed = root_moves(pos, &limits);
    search(&ctx, pos, &limits, &allowed)
}

/// True if `m` is legal in `pos` (used to validate `searchmoves` and ponder moves).
pub fn is_legal(pos: &Position, m: Move) -> bool {
    pos.chess().is_legal(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_share_is_the_best_moves_part_of_the_effort() {
        let pos = Position::default();
        let moves: Vec<Move> = pos.legal_moves().into_iter().take(3).collect();
        let effort = vec![(moves[0], 600), (moves[1], 300), (moves[2], 100)];
        assert_eq!(node_share(&effort, Some(moves[0])), Some(0.6));
        assert_eq!(node_share(&effort, Some(moves[2])), Some(0.1));
        assert_eq!(node_share(&[], Some(moves[0])), None);
        assert_eq!(node_share(&effort, None), None);
        let e = [(moves[0], 0)];
        assert_eq!(node_share(&e, Some(moves[0])), None, "nothing counted yet");
    }
}
