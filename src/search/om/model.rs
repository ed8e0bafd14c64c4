//! Wiring of the opponent-model driver into a search: builds one probe worker per opponent
//! type (its evaluator, its transposition table, its move-ordering tables, tables on or off),
//! lends them the clock, and reports each iteration like the plain searcher does, plus an
//! `om ...` message with the predicted reply, the OM value, the α-β value and the
//! prediction surplus (Donkers 2003 §5.4.3, Fig. 5.11).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use shakmaty::{Move, Position as _};

use super::config::OmConfig;
use super::root::{self, OmIteration, OmLine};
use super::{Driver, ProbeSpec};
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::position::{Position, uci_in};
use crate::report::{ScoreBound, SearchInfo, wdl_from_score};
use crate::score::{MATE, MAX_PLY, Score, TB_WIN_BOUND, is_mate};
use crate::search::alphabeta::Worker;
use crate::search::pool::ThreadTables;
use crate::search::{Clock, SearchContext, SearchResult};
use crate::tt::TranspositionTable;
use parking_lot::Mutex;

/// Memory set aside per worker of a helper when deciding how many helpers fit.
const WORKER_HEADROOM: usize = 2 << 20;

/// Searches with the OM/PrOM driver and returns its result (no `bestmove` sent).
pub fn search_model<E: Evaluator + ?Sized>(
    ctx: &SearchContext<'_, E>,
    setup: &OmConfig,
    pos: &Position,
    limits: &Limits,
    allowed: &[Move],
) -> SearchResult {
    let n = setup.types.len();
    // Participants of the root: the main driver and `Threads − 1` helpers (fast mode), or the
    // main driver for our α-β pass and `Threads` task drivers (deterministic mode).
    let threads = ctx.config.threads.max(1);
    let deterministic = setup.deterministic;
    let helper_count = if deterministic { threads } else { threads - 1 };
    let counters: Vec<AtomicU64> = (0..(n + 1) * (1 + helper_count))
        .map(|_| AtomicU64::new(0))
        .collect();
    ctx.tt.new_search();
    for t in &setup.types {
        t.tt.new_search();
    }
    let mut root = pos.clone();
    root.set_root();
    // Private tables of the helpers ([`super::parallel`]): all of them in deterministic mode,
    // replay types' in fast mode (a replay clears its table).
    let private_mb = ctx.config.params.om_private_table_mb;
    // A helper whose tables cannot be had is left out (with a message): fewer threads, and
    // without any, deterministic mode searches the root on this thread.
    let mut private: Vec<Vec<Option<TranspositionTable>>> = Vec::with_capacity(helper_count);
    for h in 0..helper_count {
        let wanted = std::iter::once(deterministic)
            .chain(setup.types.iter().map(|t| deterministic || t.replay));
        let tables: Option<Vec<Option<TranspositionTable>>> = wanted
            .map(|w| match w {
                true => TranspositionTable::try_new(private_mb).map(Some),
                false => Some(None),
            })
            .collect();
        // Headroom for the workers of every helper so far (each about 1.2 MB: its line
        // table and ordering tables), checked before they are built.
        let headroom = (h + 1) * (n + 1) * WORKER_HEADROOM;
        let room = Vec::<u8>::new().try_reserve_exact(headroom).is_ok();
        let Some(tables) = tables.filter(|_| room) else {
            ctx.reporter.message(&format!(
                "error: cannot allocate the private tables ({private_mb} MB each) of OM thread {}; searching with {h} helper(s)",
                h + 1
            ));
            break;
        };
        private.push(tables);
    }
    let shared: Vec<&TranspositionTable> = std::iter::once(ctx.tt)
        .chain(setup.types.iter().map(|t| &*t.tt))
        .collect();
    // The helpers' own workers stop on `pass_stop` while they join our α-β pass of an
    // iteration in fast mode (Lazy SMP; `parallel`), which is over when the main pass is.
    let pass_stop = std::sync::atomic::AtomicBool::new(false);
    // The engine's threads run the helpers; in fast mode the participants also take their
    // ordering tables from the pool's slots and give them back after the search
    // (deterministic mode promises values that depend on the position alone).
    let pool = ctx.pool.filter(|p| p.threads() >= threads);
    let slots = pool.filter(|_| !deterministic);
    let slot = |i: usize| slots.and_then(|p| p.slot(i));
    let mut driver = build_driver(ctx, setup, &root, &shared, &counters[..=n], slot(0));
    driver.pool = pool;
    // In fast mode our own workers (the main driver's and the helpers') share one table of
    // the moves being searched, so that they spread over the tree (`search::busy`).
    let busy = crate::search::busy::BusyMoves::default();
    let pass_race = crate::search::race::DepthRace::default();
    let shared_probes = super::SharedProbes::default();
    let thread_use = super::parallel::ThreadUse::default();
    let fast = !deterministic && helper_count > 0;
    if fast {
        driver.pass_stop = Some(&pass_stop);
        driver.pass_race = Some(&pass_race);
        driver.shared_probes = Some(&shared_probes);
        driver.own.busy = Some(&busy);
    }
    if !private.is_empty() {
        driver.thread_use = Some(&thread_use);
    }
    for (h, tables) in private.iter().enumerate() {
        let tts: Vec<&TranspositionTable> = tables
            .iter()
            .zip(&shared)
            .map(|(p, &s)| p.as_ref().unwrap_or(s))
            .collect();
        let counters = &counters[(n + 1) * (h + 1)..(n + 1) * (h + 2)];
        let mut helper = build_driver(ctx, setup, &root, &tts, counters, slot(h + 1));
        if fast {
            helper.own.busy = Some(&busy);
            helper.shared_probes = Some(&shared_probes);
        }
        helper.thread_use = Some(&thread_use);
        driver.helpers.push(helper);
    }
    driver.clock = Some(Clock::new(
        limits,
        ctx.config.move_overhead,
        &ctx.config.time_params,
        ctx.control,
        &counters,
    ));
    let max_depth = limits
        .depth
        .map(|d| d.clamp(1, MAX_PLY as u32 - 10))
        .unwrap_or(MAX_PLY as u32 - 10);
    let mut report = |d: &Driver<'_, E>, depth: u32, it: &OmIteration| {
        let nodes = d.nodes();
        let time = d.clock.as_ref().map_or(Duration::ZERO, |c| c.elapsed());
        let nps = (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64;
        let single = [OmLine {
            value: it.value,
            ab_value: it.ab_value,
            pv: it.pv.clone(),
        }];
        let lines = if it.lines.is_empty() {
            &single[..]
        } else {
            &it.lines[..]
        };
        for (i, line) in lines.iter().enumerate() {
            let (score, pv) = shown_line(pos, line.value, &line.pv);
            ctx.reporter.info(&SearchInfo {
                depth,
                seldepth: (d.own.seldepth as u32).max(depth),
                multipv: i as u32 + 1,
                score,
                bound: ScoreBound::Exact,
                nodes,
                nps,
                time,
                hashfull: ctx.tt.hashfull(),
                tbhits: d.tbhits(),
                pv,
                wdl: wdl_from_score(score),
            });
        }
        if !it.lines.is_empty() {
            for (i, line) in it.lines.iter().enumerate() {
                ctx.reporter.message(&format!(
                    "om multipv {} move {} predicted {} om {} ab {} surplus {}",
                    i + 1,
                    line.pv
                        .first()
                        .map_or("none".into(), |&m| uci_in(m, ctx.config.chess960)),
                    line.pv
                        .get(1)
                        .map_or("none".into(), |&m| uci_in(m, ctx.config.chess960)),
                    line.value,
                    line.ab_value,
                    line.value - line.ab_value
                ));
            }
        }
    };
    let result = root::run(&mut driver, allowed, max_depth, ctx.reporter, &mut report);
    give_back(&mut driver.own, &mut driver.opps, slot(0));
    for (h, helper) in driver.helpers.iter_mut().enumerate() {
        give_back(&mut helper.own, &mut helper.opps, slot(h + 1));
    }
    // Where the nodes went: our own search and each opponent type's probes.
    ctx.reporter.message(&format!(
        "om nodes own {} types {:?}",
        driver.own_nodes(),
        driver.type_nodes()
    ));
    if driver.thread_use.is_some() {
        let wall = driver
            .clock
            .as_ref()
            .map_or(Duration::ZERO, |c| c.elapsed());
        let threads = driver.helpers.len() + usize::from(!deterministic);
        ctx.reporter.message(&thread_use.line(threads, wall));
    }
    if setup.hedge.is_some() {
        let u = driver.hedge_use;
        ctx.reporter.message(&format!(
            "om hedge iterations {} settled by alpha-beta {} time alpha-beta {} ms hedged {} ms",
            u.iterations,
            u.settled,
            u.pass.as_millis(),
            u.root.as_millis()
        ));
    }
    if setup.types.iter().any(|t| t.engine.is_some()) {
        let used = std::iter::once(&driver).chain(&driver.helpers).fold(
            (0, Duration::ZERO, 0),
            |(c, t, f), d| {
                let u = d.engine_use;
                (c + u.calls, t + u.time, f + u.fallbacks)
            },
        );
        let budget = driver.clock.as_ref().and_then(|c| c.engine_budget());
        ctx.reporter.message(&format!(
            "om engine calls {} time {} ms budget {} own replies {}",
            used.0,
            used.1.as_millis(),
            budget.map_or_else(|| "none".to_string(), |b| format!("{} ms", b.as_millis())),
            used.2
        ));
    }
    ctx.control.stop.store(true, Ordering::Relaxed);
    result
}

/// One participant of the root: our own worker on `tts[0]`, one probe worker per type on
/// `tts[1..]`, node counters `counters` (our own, then each type's), all stopping on the
/// search's stop.
fn build_driver<'a, E: Evaluator + ?Sized>(
    ctx: &SearchContext<'a, E>,
    setup: &'a OmConfig,
    root: &Position,
    tts: &[&'a TranspositionTable],
    counters: &'a [AtomicU64],
    slot: Option<&Mutex<ThreadTables>>,
) -> Driver<'a, E> {
    let mut kept = slot.map(|s| s.lock());
    let cfg = ctx.config;
    let mut own = Worker::new(
        ctx.eval,
        tts[0],
        &cfg.params,
        &ctx.control.stop,
        root.clone(),
    );
    own.configure(cfg, &counters[0], ctx.tb, cfg.contempt);
    if let Some(k) = kept.as_mut() {
        own.tables = k.take_own();
    }
    let n = setup.types.len();
    let mut opps: Vec<Worker<'a, dyn Evaluator>> = Vec::with_capacity(setup.types.len());
    for (i, t) in setup.types.iter().enumerate() {
        let mut w: Worker<'a, dyn Evaluator> = Worker::new(
            &*t.eval,
            tts[i + 1],
            &cfg.params,
            &ctx.control.stop,
            root.clone(),
        );
        w.configure(cfg, &counters[i + 1], ctx.tb.filter(|_| t.tablebases), 0);
        if let Some(k) = kept.as_mut() {
            w.tables = k.take_type(i, n);
        }
        opps.push(w);
    }
    let specs = setup
        .types
        .iter()
        .map(|t| ProbeSpec {
            probability: t.probability,
            depth: t.depth,
            nodes: t.nodes,
            replay: t.replay,
            engine: t.engine.clone(),
        })
        .collect();
    Driver::new(own, opps, specs, setup, ctx.config.multipv, root.clone())
}

/// Puts a participant's ordering tables (our own worker's, each type's) back in its pool
/// slot for the next move.
fn give_back<E: Evaluator + ?Sized>(
    own: &mut Worker<'_, E>,
    opps: &mut [Worker<'_, dyn Evaluator>],
    slot: Option<&Mutex<ThreadTables>>,
) {
    let Some(s) = slot else { return };
    let mut kept = s.lock();
    kept.own = own.tables.take();
    if kept.types.len() == opps.len() {
        for (k, w) in kept.types.iter_mut().zip(opps) {
            *k = w.tables.take();
        }
    }
}

/// Learning settings and the per-game state of learned probabilities (§6.6.2).
#[derive(Clone, Debug, Default)]
pub struct LearnState {
    /// Current probabilities (None: the model's own).
    pub probs: Option<Vec<f64>>,
    /// Key of the position whose opponent move was learned last (never learn twice).
    pub last_learned: Option<u64>,
}

use crate::params::om::LEARN_DEPTH;

/// Learns from the opponent's last move in `pos` (the move that led to it), updating
/// `state` and returning the probabilities to search with. External engines are asked no
/// later than `deadline`.
pub fn learn_from_last_move<E: Evaluator + ?Sized>(
    ctx: &SearchContext<'_, E>,
    setup: &OmConfig,
    learning: super::config::Learning,
    params: crate::learning::LearningParams,
    pos: &Position,
    state: &mut LearnState,
    deadline: Option<std::time::Instant>,
) -> Vec<f64> {
    use super::config::Learning;
    use crate::learning::{bayes_update, fast_update, rank_likelihoods, ranks};
    let mut probs = state
        .probs
        .clone()
        .unwrap_or_else(|| setup.types.iter().map(|t| t.probability).collect());
    let Some(actual) = pos.last_move() else {
        return probs;
    };
    let mut before = pos.clone();
    before.undo();
    if before.history_len() == pos.history_len() || state.last_learned == Some(before.key()) {
        return probs;
    }
    state.last_learned = Some(before.key());
    before.set_root();
    let crate::learning::LearningParams { reward, ps, gamma } = params;
    let mut predicted = Vec::with_capacity(setup.types.len());
    let mut likelihood = Vec::with_capacity(setup.types.len());
    for t in &setup.types {
        if let Some(probe) = &t.engine {
            // The engine's own choice; its rank-likelihood is P_s for the move it names.
            let guess = probe.ask(&before, t.replay, deadline, &ctx.control.stop);
            let hit = guess.as_ref().is_ok_and(|&m| m == actual);
            if let Err(e) = &guess {
                ctx.reporter.message(&format!("om learning: {e}"));
            }
            predicted.push(hit);
            let n = before.legal_moves().len().max(2) as f64;
            likelihood.push(if hit { ps } else { (1.0 - ps) / (n - 1.0) });
            continue;
        }
        let mut w: Worker<'_, dyn Evaluator> = Worker::new(
            &*t.eval,
            &t.tt,
            &ctx.config.params,
            &ctx.control.stop,
            before.clone(),
        );
        w.tb = if t.tablebases { ctx.tb } else { None };
        let depth = t.depth.unwrap_or(LEARN_DEPTH).min(LEARN_DEPTH) as i32;
        match learning {
            Learning::Bayes => {
                // Each move's value for this type, then formula 6.17 on the ranks.
                let moves: Vec<Move> = before.legal_moves().into_iter().collect();
                let mut values = Vec::with_capacity(moves.len());
                for &m in &moves {
                    w.pos.play(m);
                    values.push(-w.search(
                        -crate::score::INFINITE,
                        crate::score::INFINITE,
                        depth - 1,
                        false,
                    ));
                    w.pos.undo();
                }
                let l = rank_likelihoods(&ranks(&values), ps);
                let idx = moves.iter().position(|&m| m == actual);
                likelihood.push(idx.map_or(0.0, |i| l[i]));
            }
            _ => {
                let r = w.probe(
                    -crate::score::INFINITE,
                    crate::score::INFINITE,
                    depth,
                    false,
                );
                predicted.push(r.is_some_and(|r| r.moves.first() == Some(&actual)));
            }
        }
        if w.aborted {
            return probs;
        }
    }
    match learning {
        Learning::Fast => fast_update(&mut probs, &predicted, reward),
        Learning::Bayes => bayes_update(&mut probs, &likelihood, gamma),
        Learning::Off => {}
    }
    state.probs = Some(probs.clone());
    ctx.reporter.message(&format!(
        "om learning ({}) after {}: probabilities {}",
        if learning == Learning::Fast {
            "fast"
        } else {
            "bayes"
        },
        crate::position::uci_in(actual, ctx.config.chess960),
        probs
            .iter()
            .map(|p| format!("{p:.3}"))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    probs
}

/// What an OM/PrOM line is shown as: a mate score only where its line delivers that mate,
/// cut at the mate (match runners check it: fastchess's "Too long" / "Incomplete mating
/// PV"). An OM value is a mate when the predicted replies lead to one, and the speculated
/// line usually shows it; a PrOM value is an expectation over the types, which can be in the
/// mate range without any line mating in that many moves: it is shown as the largest value
/// that is not a mate or a table result.
fn shown_line(root: &Position, value: Score, pv: &[Move]) -> (Score, Vec<Move>) {
    if !is_mate(value) {
        return (value, pv.to_vec());
    }
    let plies = (MATE - value.abs()) as usize;
    let mut pos = root.clone();
    let delivers = plies <= pv.len()
        && pv[..plies].iter().all(|&m| {
            let legal = pos.legal_moves().contains(&m);
            if legal {
                pos.play(m);
            }
            legal
        })
        && pos.chess().is_checkmate();
    if delivers {
        (value, pv[..plies].to_vec())
    } else {
        ((TB_WIN_BOUND - 1) * value.signum(), pv.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black mates in 2: Re1+ Rxe1 Rxe1#.
    const MATE_IN_2: &str = "4r1k1/4rppp/8/8/8/8/5PPP/2R3K1 b - - 0 1";

    fn line(pos: &Position, moves: &[&str]) -> Vec<Move> {
        let mut p = pos.clone();
        moves
            .iter()
            .map(|m| p.play_uci(m).expect("legal"))
            .collect()
    }

    #[test]
    fn a_mate_score_is_shown_only_with_the_line_that_mates() {
        let root = Position::from_fen(MATE_IN_2).unwrap();
        let mating = line(&root, &["e7e1", "c1e1", "e8e1"]);
        // The right distance: shown as it is.
        assert_eq!(
            shown_line(&root, MATE - 3, &mating),
            (MATE - 3, mating.clone())
        );
        // A PrOM expectation in the mate range that no line delivers (mate in 3 claimed,
        // 2 shown; mate in 1 claimed, the first move does not mate): not a mate.
        for value in [MATE - 5, MATE - 1] {
            let (score, pv) = shown_line(&root, value, &mating);
            assert!(!is_mate(score) && score > 0, "{value} shown as {score}");
            assert_eq!(pv, mating);
        }
        // An incomplete line, and the losing side's view of it.
        let short = &mating[..2];
        assert!(!is_mate(shown_line(&root, MATE - 3, short).0));
        let after = {
            let mut p = root.clone();
            p.play(mating[0]);
            p
        };
        let rest = &mating[1..];
        assert_eq!(
            shown_line(&after, -(MATE - 2), rest),
            (-(MATE - 2), rest.to_vec())
        );
        assert!(shown_line(&after, -(MATE - 4), rest).0 > -(MATE - 4) + 100);
        // Not a mate score: untouched.
        assert_eq!(shown_line(&root, 123, short), (123, short.to_vec()));
    }
}
