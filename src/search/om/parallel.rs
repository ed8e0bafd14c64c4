//! `Threads` in the opponent-model driver: the root moves of one iteration searched in
//! parallel. Every root move's subtree — the MIN node's probes of each opponent type and our
//! own searches below the predicted replies (Donkers 2003 Alg. 3.8 / 6.5 below the root) —
//! depends on the others only through the bound α, so the moves are handed out one at a time
//! to N participants, each a whole [`Driver`] with its own workers, ordering tables and probe
//! memos. `ThreadUse` counts how many probes and root moves run at once.
//!
//! All root moves start at once. The first (α-β's best, first in [`Driver::iterate`]'s
//! order) is searched with an open window; every other move with the bound α-β's root value
//! (a root move's OM value is at least its α-β value, so a move that fails low there cannot
//! beat α-β's best):
//!
//! - **Fast mode** (the default): the main driver and `Threads − 1` helpers share the
//!   transposition tables of our evaluation and of each type (Lazy-SMP style), and α rises to
//!   the best exact value found so far by anyone. Which entries a search finds in the shared
//!   tables and which α it starts with depend on thread timing, so the chosen move can differ
//!   from run to run as with any parallel α-β search. The helpers' own workers also search the
//!   root during our α-β pass of each iteration as Lazy SMP helpers (filling the shared
//!   table); for that search their stop flag is the driver's `pass_stop`, raised when the
//!   main α-β search is done (which a stop of the search ends), and a helper that completes
//!   the pass first hands the main pass its value, line and root scores
//!   ([`crate::search::race`]). The participants also share one memory of the probes run in
//!   this search (`SharedProbes`): a root move is not bound to a participant from
//!   one iteration to the next, and a fixed-depth type's probe below it need not be run
//!   twice. An iteration whose root takes every move and whose types search to a fixed depth
//!   or node budget searches its root moves beside the pass instead of after it
//!   ([`super::overlap`]); the rest of this text is the root phase of the others.
//! - **Deterministic mode** (`OM_Search` `deterministic`): α stays α-β's root value (our α-β pass runs
//!   on one thread, in the main driver's table), and every root move is searched by one of
//!   `Threads` task drivers with private tables cleared before the move, so that a move's
//!   value is a function of the position, the depth and α alone: a depth-limited search returns
//!   the same OM value and move with any number of threads. It trades the tables' sharing
//!   (between root moves and iterations) for reproducibility.
//!
//! With MultiPV (k lines) α is the k-th best exact value instead (−∞ until k moves have one;
//! in deterministic mode −∞ throughout). A value is exact when it beats the α its search
//! started with; a move whose search failed low gives an upper bound. The best move is the
//! first (in the iteration's order) of the moves with the highest exact value. Replay types
//! (`ProbeSpec::replay`) clear their table for every probe, so each participant has a private
//! one for them in either mode.

use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use shakmaty::Move;

use super::Driver;
use super::root::{RootMoveValue, RootPass, kth_best};
use crate::eval::Evaluator;
use crate::score::{INFINITE, Score};
use crate::search::pool::{SearchPool, team};

/// A count of searches running at once: every participant enters it for each search of the
/// kind it starts and leaves it when that ends; the mean over a stretch of time is their
/// summed time over that time.
#[derive(Default)]
pub(crate) struct Gauge {
    in_flight: AtomicUsize,
    max: AtomicUsize,
    busy_ns: AtomicU64,
}

/// A search being counted by a [`Gauge`]; leaves it when dropped.
pub(super) struct InFlight<'g> {
    gauge: &'g Gauge,
    since: Instant,
}

impl Gauge {
    /// A search starts.
    pub(super) fn enter(&self) -> InFlight<'_> {
        let now = self.in_flight.fetch_add(1, Ordering::Relaxed) + 1;
        self.max.fetch_max(now, Ordering::Relaxed);
        InFlight {
            gauge: self,
            since: Instant::now(),
        }
    }

    /// (mean searches in flight over `wall`, the most at once).
    fn summary(&self, wall: Duration) -> (f64, usize) {
        let busy = self.busy_ns.load(Ordering::Relaxed) as f64;
        (
            busy / (wall.as_nanos().max(1) as f64),
            self.max.load(Ordering::Relaxed),
        )
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        let ns = self.since.elapsed().as_nanos() as u64;
        self.gauge.busy_ns.fetch_add(ns, Ordering::Relaxed);
        self.gauge.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

/// How a search with helpers used its threads (the "probe parallelism"): the
/// opponent types' probes in flight (α-β probes, replays, engine calls; remembered answers
/// not counted) over the whole search, and the root moves in flight over the root phases,
/// whose share of the search's time it also keeps.
#[derive(Default)]
pub(crate) struct ThreadUse {
    pub(super) probes: Gauge,
    pub(super) root_moves: Gauge,
    root_phase_ns: AtomicU64,
}

impl ThreadUse {
    /// A root phase of `took` is over.
    pub(super) fn add_root_phase(&self, took: Duration) {
        self.root_phase_ns
            .fetch_add(took.as_nanos() as u64, Ordering::Relaxed);
    }

    /// The report line for a search of `wall` with `threads` participants.
    pub(crate) fn line(&self, threads: usize, wall: Duration) -> String {
        let (probes, probes_max) = self.probes.summary(wall);
        let phase = Duration::from_nanos(self.root_phase_ns.load(Ordering::Relaxed));
        let (roots, roots_max) = self.root_moves.summary(phase);
        format!(
            "om threads {threads} probes in flight mean {probes:.2} max {probes_max} root moves in flight mean {roots:.2} max {roots_max} root phases {:.0} % of the time",
            100.0 * phase.as_secs_f64() / wall.as_secs_f64().max(1e-9)
        )
    }
}

/// What the participants of one parallel iteration share: the root moves, the next one to
/// take, the bound α and the results.
pub(super) struct Shared {
    moves: Vec<Move>,
    next: AtomicUsize,
    alpha: AtomicI32,
    results: Mutex<Vec<RootMoveValue>>,
    deterministic: bool,
    /// Moves with exact values wanted (MultiPV).
    multipv: usize,
}

impl Shared {
    /// `moves` to be searched, every one but the first with at least `alpha`.
    pub(super) fn new(moves: Vec<Move>, alpha: Score, deterministic: bool, multipv: usize) -> Self {
        Shared {
            next: AtomicUsize::new(0),
            alpha: AtomicI32::new(alpha),
            results: Mutex::new(Vec::with_capacity(moves.len())),
            moves,
            deterministic,
            multipv,
        }
    }

    /// Every move's result in the iteration's order, `None` unless all have one.
    pub(super) fn into_results(self) -> Option<Vec<RootMoveValue>> {
        let mut results = self.results.into_inner();
        if results.len() != self.moves.len() {
            return None;
        }
        results.sort_by_key(|r| r.index);
        Some(results)
    }

    /// Raises the bound of the moves not yet taken to `alpha`.
    pub(super) fn raise_alpha(&self, alpha: Score) {
        self.alpha.fetch_max(alpha, Ordering::Relaxed);
    }
}

impl<'a, E: Evaluator + ?Sized> Driver<'a, E> {
    /// Our own α-β pass of an iteration over `root_moves` to `depth` (aspiration window
    /// around `guess`), returning the root value. In fast mode the helpers' own workers search
    /// the same root meanwhile, staggered by a ply as the plain search's Lazy SMP helpers are,
    /// filling the shared table; they stop when the main search is done.
    pub(super) fn ab_pass(
        &mut self,
        root_moves: &[Move],
        depth: i32,
        guess: Option<Score>,
    ) -> Option<Score> {
        let race = self.pass_race;
        let lazy = !self.settings.deterministic && !self.helpers.is_empty();
        let Some(pass_stop) = self.pass_stop.filter(|_| lazy) else {
            return self.main_pass(root_moves, depth, guess);
        };
        if let Some(r) = race {
            r.reset();
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        pass_stop.store(false, Ordering::SeqCst);
        let v = team(
            self.pool,
            helpers.iter_mut(),
            |place, h| {
                h.lazy_pass(
                    root_moves,
                    depth + ((place - 1) % 2) as i32,
                    race,
                    pass_stop,
                )
            },
            || {
                let v = self.main_pass(root_moves, depth, guess);
                pass_stop.store(true, Ordering::SeqCst);
                v
            },
            // A helper that cannot start leaves the pass to the others.
            |_, _| (),
        );
        self.helpers = helpers;
        v
    }

    /// The main driver's α-β pass (see [`Self::ab_pass`]): if a helper completed the pass
    /// first, its value, line and root scores are taken as ours.
    pub(super) fn main_pass(
        &mut self,
        root_moves: &[Move],
        depth: i32,
        guess: Option<Score>,
    ) -> Option<Score> {
        let race = self.pass_race;
        self.with_own(|w| {
            w.root_only = root_moves.to_vec();
            w.root_depth = depth;
            w.race = race;
            let mut v = w.aspirated(depth, guess, -INFINITE, INFINITE);
            w.race = None;
            if w.race_cut {
                w.race_cut = false;
                w.aborted = false;
                if let Some(f) = race.and_then(|r| r.taken_at(depth)) {
                    w.adopt_root(&f.pv, f.scores);
                    v = f.score;
                } else {
                    w.aborted = true;
                }
            }
            v
        })
    }

    /// A helper's share of our α-β pass: its own worker searches the root to `depth` as a
    /// Lazy SMP helper, stopped by `pass_stop` (raised when the main pass is done) or by the
    /// search's own stop, and publishes a pass it completes. The helper is ready for root
    /// moves afterwards.
    pub(super) fn lazy_pass(
        &mut self,
        root_moves: &[Move],
        depth: i32,
        race: Option<&crate::search::race::DepthRace>,
        pass_stop: &'a std::sync::atomic::AtomicBool,
    ) {
        let global = std::mem::replace(&mut self.own.stop, pass_stop);
        self.with_own(|w| {
            w.root_only = root_moves.to_vec();
            w.root_depth = depth;
            let s = w.search(-INFINITE, INFINITE, depth, false);
            if !w.aborted
                && let Some(r) = race
            {
                r.publish(crate::search::race::Finished {
                    depth,
                    score: s,
                    pv: w.root_pv(),
                    scores: w.root_scores.clone(),
                });
            }
        });
        self.own.stop = global;
        // Stopped on purpose (or by the search's stop, which the main driver sees itself).
        self.own.aborted = false;
        self.aborted = false;
    }

    /// The values of `moves` (in order, the first one α-β's best) with the helpers: every
    /// move's value and line, sorted by the moves' order. `None` if the search was stopped or
    /// an opponent type failed (then `failure` says which).
    pub(super) fn parallel_root(
        &mut self,
        moves: &[Move],
        pass: &RootPass,
    ) -> Option<Vec<RootMoveValue>> {
        let started = Instant::now();
        let mut helpers = std::mem::take(&mut self.helpers);
        for h in &mut helpers {
            h.own.root_depth = pass.depth;
        }
        let deterministic = self.settings.deterministic;
        let out = if deterministic {
            // Task drivers do all the work; the first one runs on this thread with the clock.
            let (first, rest) = helpers.split_at_mut(1);
            let first = &mut first[0];
            first.clock = self.clock.take();
            let r = run_tasks(self.pool, first, rest, moves, pass, true);
            self.clock = first.clock.take();
            r
        } else {
            run_tasks(self.pool, self, &mut helpers, moves, pass, false)
        };
        self.take_back(helpers, started, out)
    }

    /// Takes the helpers of a root phase that began at `started` back, with their failures
    /// and stops, and passes on its result `out` unless the search stopped or a type failed.
    pub(super) fn take_back<T>(
        &mut self,
        mut helpers: Vec<Driver<'a, E>>,
        started: Instant,
        out: Option<T>,
    ) -> Option<T> {
        for h in &mut helpers {
            if let Some(f) = h.failure.take() {
                self.failure.get_or_insert(f);
            }
            self.aborted |= h.aborted;
        }
        self.helpers = helpers;
        if let Some(u) = self.thread_use {
            u.add_root_phase(started.elapsed());
        }
        match out {
            Some(v) if !self.aborted && self.failure.is_none() => Some(v),
            _ => {
                self.aborted = true;
                None
            }
        }
    }

    /// Clears what a root move's search may leave behind for the next one: the private
    /// tables and ordering tables of every worker and the probe memos (deterministic mode).
    fn fresh_tables(&mut self) {
        self.own.tt.clear();
        self.own.tables.clear();
        for w in &mut self.opps {
            w.tt.clear();
            w.tables.clear();
        }
        self.probes.clear();
        self.replays.clear();
    }

    /// Takes root moves from `shared` until none are left or the search stops; `false` if
    /// the search stopped or an opponent type failed.
    pub(super) fn work(&mut self, shared: &Shared, pass: &RootPass) -> bool {
        loop {
            let i = shared.next.fetch_add(1, Ordering::Relaxed);
            let Some(&m) = shared.moves.get(i) else {
                return true;
            };
            if shared.deterministic {
                self.fresh_tables();
            }
            let alpha = if i == 0 {
                -INFINITE
            } else {
                shared.alpha.load(Ordering::Relaxed)
            };
            let in_flight = self.thread_use.map(|u| u.root_moves.enter());
            let Some((value, line)) = self.root_move(m, i, alpha, pass) else {
                return false;
            };
            drop(in_flight);
            let exact = value > alpha;
            let mut results = shared.results.lock();
            results.push(RootMoveValue {
                index: i,
                value,
                exact,
                line,
            });
            if exact && !shared.deterministic {
                // The best `multipv` exact values so far, the first move's among them.
                let v: Vec<Score> = results
                    .iter()
                    .filter(|r| r.exact)
                    .map(|r| r.value)
                    .collect();
                let a = kth_best(&v, shared.multipv);
                shared.alpha.fetch_max(a, Ordering::Relaxed);
            }
        }
    }
}

/// Counts a root-phase helper out and wakes the main thread when dropped.
struct Finished<'r>(&'r AtomicUsize, &'r std::thread::Thread);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
        self.1.unpark();
    }
}

/// Searches `moves` with `main` (which holds the clock) on this thread and `others` on
/// threads of their own.
fn run_tasks<'a, E: Evaluator + ?Sized>(
    pool: Option<&SearchPool>,
    main: &mut Driver<'a, E>,
    others: &mut [Driver<'a, E>],
    moves: &[Move],
    pass: &RootPass,
    deterministic: bool,
) -> Option<Vec<RootMoveValue>> {
    // α for every move but the first, which is searched with an open window: α-β's root
    // value (a root move's OM value is at least its α-β value, so a move that fails low
    // there cannot beat α-β's best, searched first), raised in fast mode to the best exact
    // value found so far; with MultiPV −∞ until enough moves have exact values (in
    // deterministic mode for the whole iteration). All moves start at once.
    let multipv = main.multipv.max(1);
    let alpha = if multipv > 1 {
        -INFINITE
    } else {
        pass.ab_value
    };
    let shared = Shared::new(moves.to_vec(), alpha, deterministic, multipv);
    run_gang(
        pool,
        main,
        others,
        |m| {
            m.work(&shared, pass);
        },
        |_, h| {
            h.work(&shared, pass);
        },
    );
    if main.aborted || main.own.stop.load(Ordering::Relaxed) {
        main.aborted = true;
        return None;
    }
    shared.into_results()
}

/// Runs `main_job` on `main` (which holds the clock) on this thread and `helper_job` on each
/// of `others` (with its place among them) on another thread (`pool`'s, or one of its own),
/// then keeps the clock's watch until every helper is done: its expiry stops them too.
pub(super) fn run_gang<'a, E: Evaluator + ?Sized, R>(
    pool: Option<&SearchPool>,
    main: &mut Driver<'a, E>,
    others: &mut [Driver<'a, E>],
    main_job: impl FnOnce(&mut Driver<'a, E>) -> R,
    helper_job: impl Fn(usize, &mut Driver<'a, E>) + Sync,
) -> R {
    let running = AtomicUsize::new(others.len());
    let stop = main.own.stop;
    // Helpers wake this thread when they finish: it waits for them between clock checks.
    let this = std::thread::current();
    let total = others.len();
    team(
        pool,
        others.iter_mut(),
        |place, h| {
            // Counted out however the helper ends: a helper that panicked must not leave
            // this thread waiting for it (the team then passes the panic on to the engine,
            // which reports it and answers).
            let _done = Finished(&running, &this);
            helper_job(place - 1, h);
        },
        || {
            let r = main_job(main);
            while running.load(Ordering::SeqCst) > 0 {
                if let Some(c) = main.clock.as_mut()
                    && c.expired()
                {
                    stop.store(true, Ordering::Relaxed);
                }
                // Woken at once by a finishing helper (a sleep here cost a millisecond per
                // iteration and position: an eighth of a bench run's time with two threads).
                std::thread::park_timeout(Duration::from_millis(1));
            }
            r
        },
        // The shares of the helpers that could not start fall to the others (the engine
        // keeps working).
        |started, _| {
            running.fetch_sub(total - started, Ordering::SeqCst);
        },
    )
}
