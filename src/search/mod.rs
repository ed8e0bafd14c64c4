//! The searcher: iterative deepening with aspiration windows over the α-β probe, Lazy SMP
//! helper threads sharing one transposition table, MultiPV, stop and time checks, and
//! reporting through a [`Reporter`].
//!
//! Flow of one search (see STYLE.md "From go to bestmove"): the engine hands over a position,
//! [`Limits`] and a reporter; the root move list is filtered (`searchmoves`, tablebase root
//! filter); a single legal move in a timed search is played after a shallow look; then the
//! main thread deepens iteration by iteration while helper threads search the same position,
//! filling the shared table (Lazy SMP); whichever thread completes a depth first publishes
//! it and the others go on to the next ([`race`]: the main thread takes a helper's completed
//! iteration as its own). The main thread alone reports and decides when to stop (soft
//! deadline between iterations, hard deadline or node limit at any node). In infinite and
//! ponder mode `bestmove` waits for `stop` or `ponderhit`. The opponent-model driver, which
//! uses [`alphabeta::Worker`] as its probe, lives in [`om`].

pub mod alphabeta;
pub mod busy;
pub mod history;
mod multicut;
pub mod om;
pub mod ordering;
pub mod pool;
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
use window::{Aspiration, Fail};

use crate::eval::Evaluator;
use crate::eval::score::{INFINITE, MATE, MAX_PLY, Score, is_decisive, is_mate, mate_moves};
use crate::limits::Limits;
use crate::params::{SearchParams, TimeParams};
use crate::position::Position;
use crate::report::{Reporter, ScoreBound, SearchInfo, wdl_from_score};
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
            helper_loop(&mut w, id);
            give_back(id, &mut w);
        },
        || {
            let mut w = worker(0);
            let r = main_loop(ctx, &mut w, limits, allowed, &counters);
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

fn helper_loop<E: Evaluator + ?Sized>(w: &mut Worker<'_, E>, id: usize) {
    // Odd helpers start a ply ahead; once any thread has completed a depth, every thread
    // goes on from the next one (the race).
    let stagger = (id % 2) as i32;
    let mut depth = 1 + stagger;
    while depth < MAX_PLY as i32 - 10 {
        if let Some(r) = w.race {
            depth = depth.max(r.completed() + 1);
        }
        w.root_depth = depth;
        let s = w.search(-INFINITE, INFINITE, depth, false);
        if w.race_cut {
            // Another thread finished this depth first: go on from there.
            w.aborted = false;
            w.race_cut = false;
            continue;
        }
        if w.aborted {
            break;
        }
        if let Some(r) = w.race {
            r.publish(race::Finished {
                depth,
                score: s,
                pv: w.root_pv(),
                scores: Vec::new(),
            });
        }
        depth += 1;
    }
    if let Some(c) = w.node_counter {
        c.store(w.nodes, Ordering::Relaxed);
    }
}

struct Line {
    score: Score,
    pv: Vec<Move>,
    /// `Lower` for a cut iteration's new best move that failed high (fail-soft score).
    bound: ScoreBound,
}

fn main_loop<'a, E: Evaluator + ?Sized>(
    ctx: &SearchContext<'a, E>,
    w: &mut Worker<'a, E>,
    limits: &'a Limits,
    allowed: &[Move],
    counters: &'a [AtomicU64],
) -> SearchResult {
    let cfg = ctx.config;
    let race = w.race;
    w.clock = Some(Clock::new(
        limits,
        cfg.move_overhead,
        &cfg.time_params,
        ctx.control,
        counters,
    ));
    w.reporter = Some(ctx.reporter);
    if counters.len() == 1 {
        w.node_limit = limits.nodes.unwrap_or(u64::MAX);
    }
    let mut result = SearchResult {
        best: allowed.first().copied(),
        ..SearchResult::default()
    };
    if allowed.is_empty() {
        return result;
    }
    let max_depth = limits
        .depth
        .map(|d| d.clamp(1, MAX_PLY as u32 - 10))
        .unwrap_or(MAX_PLY as u32 - 10);
    // One legal move in a timed game: answer after a shallow look.
    let max_depth = if allowed.len() == 1 && limits.is_timed() && !limits.ponder {
        max_depth.min(4)
    } else {
        max_depth
    };
    let multipv = cfg.multipv.clamp(1, allowed.len());
    let mut prev_best: Option<Move> = None;
    let mut stable = 0u32;
    w.root_effort.clear();

    let mut depth = 0;
    while depth < max_depth as i32 {
        depth += 1;
        w.root_depth = depth;
        w.seldepth = 0;
        let mut lines: Vec<Line> = Vec::with_capacity(multipv);
        w.root_exclude.clear();
        // A helper may have completed this depth (or a deeper one) already.
        let mut taken = race.and_then(|r| r.taken_at(depth));
        if taken.is_none() {
            for pv_idx in 0..multipv {
                let prev_score = if depth > 1 {
                    result_score_hint(&result, pv_idx)
                } else {
                    None
                };
                let line = aspiration(ctx, w, depth, prev_score, pv_idx, counters);
                let Some(line) = line else { break };
                if let Some(&m) = line.pv.first() {
                    w.root_exclude.push(m);
                }
                lines.push(line);
            }
            if w.race_cut {
                // Abandoned for a helper's result of this depth (or deeper).
                w.aborted = false;
                w.race_cut = false;
                lines.clear();
                taken = race.and_then(|r| r.taken_at(depth));
            } else if !w.aborted
                && let Some(r) = race
                && let Some(l) = lines.first()
            {
                r.publish(race::Finished {
                    depth,
                    score: l.score,
                    pv: l.pv.clone(),
                    scores: Vec::new(),
                });
            }
        }
        if let Some(f) = taken {
            depth = f.depth.min(max_depth as i32);
            lines = vec![Line {
                score: f.score,
                pv: f.pv,
                bound: ScoreBound::Exact,
            }];
        }
        let completed = !w.aborted && lines.len() == multipv;
        if lines.is_empty() || (!completed && !w.root_pv_changed) {
            break;
        }
        // A partial iteration still counts when its first line beat the previous best.
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        let best_line = &lines[0];
        if best_line.pv.is_empty() {
            break;
        }
        result.best = best_line.pv.first().copied();
        result.ponder = best_line.pv.get(1).copied();
        result.own_reply = result.ponder;
        result.score = best_line.score;
        result.pv = best_line.pv.clone();
        if !completed {
            // The new best move of a cut iteration is shown: the last pv a GUI sees starts
            // with the move we play (match runners check it). Other root moves were not
            // searched, so the root's value is only known to be at least this line's: a
            // lower bound (an aborted depth 1 could otherwise claim "mate -1" for a root that
            // mates, as the first move searched happened to be a blunder).
            let bound = match best_line.bound {
                ScoreBound::Upper => ScoreBound::Upper,
                _ => ScoreBound::Lower,
            };
            report(ctx, w, depth, 1, best_line, bound, counters);
            break;
        }
        result.depth = depth as u32;
        for (i, l) in lines.iter().enumerate() {
            report(ctx, w, depth, i as u32 + 1, l, ScoreBound::Exact, counters);
        }
        // Stop conditions between iterations.
        if let Some(mate) = limits.mate
            && is_mate(result.score)
            && result.score > 0
            && mate_moves(result.score) as u32 <= mate
        {
            break;
        }
        if result.best == prev_best {
            stable += 1;
        } else {
            stable = 0;
        }
        prev_best = result.best;
        let mut factor = stability_factor(stable);
        if cfg.params.features.node_time
            && let Some(share) = node_share(&w.root_effort, result.best)
        {
            let tp = &cfg.time_params;
            factor *= ((tp.node_share_base - share) * tp.node_share_scale).clamp(0.5, 2.0);
        }
        let clock = w.clock.as_mut().expect("main thread has a clock");
        clock.adjust(factor);
        if clock.soft_expired() {
            break;
        }
        if mate_searched_out(result.score, depth) {
            break;
        }
    }
    counters[0].store(w.nodes, Ordering::Relaxed);
    result.nodes = counters.iter().map(|c| c.load(Ordering::Relaxed)).sum();
    result
}

fn result_score_hint(result: &SearchResult, pv_idx: usize) -> Option<Score> {
    if pv_idx == 0 && !result.pv.is_empty() {
        Some(result.score)
    } else {
        None
    }
}

/// One root search with an aspiration window around the previous score, widened on
/// failure. Returns `None` if aborted before any line was found.
fn aspiration<E: Evaluator + ?Sized>(
    ctx: &SearchContext<'_, E>,
    w: &mut Worker<'_, E>,
    depth: i32,
    prev: Option<Score>,
    pv_idx: usize,
    counters: &[AtomicU64],
) -> Option<Line> {
    let p = &ctx.config.params;
    let mut window = Aspiration::root(p, prev.filter(|_| depth >= p.aspiration_min_depth));
    w.root_pv_changed = false;
    loop {
        let (alpha, beta) = window.window();
        let s = w.search(alpha, beta, depth, false);
        if w.aborted {
            if !(w.root_pv_changed && pv_idx == 0) {
                return None;
            }
            // The cut search returns no value: the new best move's own score is the one it
            // returned before the cut.
            let pv = w.root_pv();
            let score = pv
                .first()
                .and_then(|m| w.root_scores.iter().find(|(r, _)| r == m))
                .map_or(alpha, |&(_, sc)| sc);
            let bound = if score >= beta {
                ScoreBound::Lower
            } else {
                ScoreBound::Exact
            };
            return Some(Line { score, pv, bound });
        }
        let Some(fail) = window.outcome(s) else {
            return Some(Line {
                score: s,
                pv: w.root_pv(),
                bound: ScoreBound::Exact,
            });
        };
        let long = w
            .clock
            .as_ref()
            .is_some_and(|c| c.elapsed() > Duration::from_secs(2));
        if long {
            let (score, bound) = match fail {
                Fail::Low => (alpha, ScoreBound::Upper),
                Fail::High => (beta, ScoreBound::Lower),
            };
            let l = Line {
                score,
                pv: w.root_pv(),
                bound,
            };
            report(ctx, w, depth, pv_idx as u32 + 1, &l, bound, counters);
        }
        if fail == Fail::Low {
            w.root_pv_changed = false;
        }
        window.widen(s, fail);
    }
}

fn report<E: Evaluator + ?Sized>(
    ctx: &SearchContext<'_, E>,
    w: &Worker<'_, E>,
    depth: i32,
    multipv: u32,
    line: &Line,
    bound: ScoreBound,
    counters: &[AtomicU64],
) {
    counters[0].store(w.nodes, Ordering::Relaxed);
    let nodes: u64 = counters.iter().map(|c| c.load(Ordering::Relaxed)).sum();
    let time = w.clock.as_ref().map_or(Duration::ZERO, |c| c.elapsed());
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64;
    let score = match ctx.root_tb_score {
        Some(tb) if !is_decisive(line.score) => tb,
        _ => line.score,
    };
    ctx.reporter.info(&SearchInfo {
        depth: depth as u32,
        seldepth: w.seldepth.max(depth as usize) as u32,
        multipv,
        score,
        bound,
        nodes,
        nps,
        time,
        hashfull: ctx.tt.hashfull(),
        tbhits: w.tbhits,
        pv: line.pv.clone(),
        wdl: wdl_from_score(score),
    });
}

/// A forced mate found (`score`) and searched well beyond its length at `depth`: iterative
/// deepening has nothing left to find (the plain search and the OM driver's root loop).
pub(crate) fn mate_searched_out(score: Score, depth: i32) -> bool {
    is_mate(score) && depth > 2 * (MATE - score.abs()) + 8
}

/// The soft limit's factor after the best move stayed the same for `stable` iterations in
/// a row: a changing best move buys time, a settled one gives some back. Both root drivers
/// (plain and opponent-model) use it, so that they spend a move's time alike.
pub(crate) fn stability_factor(stable: u32) -> f64 {
    match stable {
        0 => 1.6,
        1 => 1.2,
        2 => 1.0,
        3 => 0.85,
        _ => 0.7,
    }
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
