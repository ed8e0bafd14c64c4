//! The search thread's body: what one `go` hands to its thread ([`SearchJob`]), and the run
//! that chooses between the mate prover (`mate_driver`), the opponent-model drivers and
//! plain α-β, honours infinite and ponder mode and sends exactly one `bestmove`, even when
//! the search fails.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::mate_driver::{self, MateSettings, Plan};
use super::table_mate;
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::position::Position;
use crate::report::Reporter;
use crate::score::TB_WIN;
use crate::search::om::auto::search_auto;
use crate::search::om::config::{Learning, OmConfig};
use crate::search::om::model::{LearnState, learn_from_last_move, search_model};
use crate::search::om::settings::RootSafety;
use crate::search::pool::SearchPool;
use crate::search::{self, SearchConfig, SearchContext, SearchControl};
use crate::tb::{Tablebases, Wdl, WdlProbe};
use crate::tt::TranspositionTable;
use parking_lot::Mutex;

/// Reports (once each) what went wrong with the Syzygy tables: failed probes and tables
/// disabled by the root cross-check.
pub(super) fn report_table_warnings(tables: &Tablebases, reporter: &dyn Reporter) {
    if let Some(sz) = &tables.syzygy {
        for w in sz.take_warnings() {
            reporter.message(&format!("warning: {w}"));
        }
    }
    for d in tables.take_declined() {
        reporter.message(&d);
    }
}

/// What a search thread needs besides its evaluator.
pub(super) struct SearchJob {
    pub(super) tt: Arc<TranspositionTable>,
    pub(super) control: Arc<SearchControl>,
    pub(super) stop_requested: Arc<AtomicBool>,
    pub(super) tables: Arc<Tablebases>,
    pub(super) root_safety: RootSafety,
    pub(super) config: SearchConfig,
    pub(super) pos: Position,
    pub(super) limits: Limits,
    pub(super) model: Option<OmConfig>,
    pub(super) learn: Arc<Mutex<LearnState>>,
    pub(super) reporter: Arc<dyn Reporter>,
    pub(super) mate: MateSettings,
    pub(super) pool: Option<Arc<SearchPool>>,
}

/// Body of the search thread: search, honour infinite/ponder, send exactly one bestmove.
pub(super) fn run_search<E: Evaluator + ?Sized>(eval: &E, job: &SearchJob) {
    let SearchJob {
        tt,
        control,
        stop_requested,
        tables,
        root_safety,
        config,
        pos,
        limits,
        model,
        learn,
        reporter,
        mate,
        pool,
    } = job;
    let (tt, control, tables, reporter) = (&**tt, &**control, &**tables, &**reporter);
    let (root_safety, model) = (*root_safety, model.as_ref());
    let mut allowed = search::root_moves(pos, limits);
    // A timed search never starts a table generation and reads table files only within a
    // share of its time (`tb::set`): the generation would take a core, a large read the move.
    tables.set_clock(limits.clock());
    // Tablebase root filter: the search chooses among the table-optimal moves (for the
    // opponent-model driver only with OM_Search root=tb-optimal, §5.4.1).
    let filter = model.is_none() || root_safety == RootSafety::TbOptimal;
    if filter && let Some(best) = tables.root_moves(pos.chess()) {
        let kept: Vec<_> = allowed
            .iter()
            .copied()
            .filter(|m| best.contains(m))
            .collect();
        if !kept.is_empty() && kept.len() < allowed.len() {
            reporter.message(&format!(
                "tablebase root filter: {} of {} moves keep the optimal result and distance",
                kept.len(),
                allowed.len()
            ));
            allowed = kept;
        }
    }
    report_table_warnings(tables, reporter);
    let tb: Option<&dyn WdlProbe> = Some(tables);
    // With the root in the tables, scores are shown as tablebase values (large cp).
    let root_tb_score = tables.probe_wdl(pos.chess()).map(|w| match w {
        Wdl::Win => TB_WIN,
        Wdl::Loss => -TB_WIN,
        Wdl::Draw => 0,
    });
    let start = std::time::Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let ctx = SearchContext {
            eval,
            tt,
            control,
            tb,
            config,
            reporter,
            root_tb_score,
            pool: pool.as_deref(),
        };
        // Learning and fitting may take a quarter of the move's hard limit at most.
        let tm = crate::time::TimeManager::new(limits, config.move_overhead, &config.time_params);
        let hard = tm.hard_deadline();
        let deadline = hard.map(|d| start + (d - start.min(d)) / 4);
        let alpha_beta = |limits: &Limits| match model {
            Some(m) if m.auto.is_some() => {
                let auto = m.auto.as_ref().expect("checked");
                search_auto(&ctx, m, auto, pos, limits, &allowed, deadline)
            }
            Some(m) if m.learning != Learning::Off => {
                let probs = learn_from_last_move(
                    &ctx,
                    m,
                    m.learning,
                    m.learning_params,
                    pos,
                    &mut learn.lock(),
                    deadline,
                );
                let mut learned = m.clone();
                for (t, p) in learned.types.iter_mut().zip(probs) {
                    t.probability = p;
                }
                search_model(&ctx, &learned, pos, limits, &allowed)
            }
            Some(m) => search_model(&ctx, m, pos, limits, &allowed),
            None => search::search(&ctx, pos, limits, &allowed),
        };
        let proven = |p: &mate_driver::Proof, nodes: u64| {
            mate_driver::report(reporter, p, nodes, start);
            search::SearchResult {
                best: p.pv.first().copied(),
                ponder: p.pv.get(1).copied(),
                ..search::SearchResult::default()
            }
        };
        // Plain α-β and `auto` (whose gate plays α-β unless it measured a reason to
        // speculate: a table root needs none); `om`/`prom` choose among the table's moves
        // themselves (the KQKR experiment).
        if model.is_none_or(|m| m.auto.is_some())
            && let Some((won, pv)) = table_mate::line(tables, pos)
            && allowed.contains(&pv[0])
        {
            table_mate::report(reporter, won, &pv, start);
            return search::SearchResult {
                best: Some(pv[0]),
                ponder: pv.get(1).copied(),
                ..search::SearchResult::default()
            };
        }
        match mate.plan(limits, stop_requested, hard) {
            Plan::None => alpha_beta(limits),
            Plan::First(algo, pl) => {
                let (proof, r) = mate_driver::run(pos, algo, &pl, reporter);
                if let Some(p) = proof.filter(|p| !p.pv.is_empty()) {
                    return proven(&p, p.nodes);
                }
                if stop_requested.load(Ordering::SeqCst) {
                    // Stopped before a proof: answer at once from a depth-1 search.
                    let fresh = SearchControl::default();
                    let quick = SearchContext {
                        control: &fresh,
                        ..ctx
                    };
                    return search::search(&quick, pos, &Limits::depth(1), &allowed);
                }
                let mut rest = limits.after(start.elapsed());
                rest.nodes = limits.nodes.map(|n| n.saturating_sub(r.nodes).max(1));
                alpha_beta(&rest)
            }
            Plan::Beside(algo, pl, ab) => {
                let (proof, result) = mate_driver::run_beside(
                    pos,
                    algo,
                    pl,
                    reporter,
                    stop_requested,
                    limits.infinite,
                    &control.stop,
                    || alpha_beta(&ab),
                );
                match proof.filter(|p| !p.pv.is_empty()) {
                    Some(p) if !mate_driver::alpha_beta_is_better(&p, result.score) => {
                        proven(&p, p.nodes + result.nodes)
                    }
                    _ => result,
                }
            }
        }
    }));
    report_table_warnings(tables, reporter);
    let (best, ponder) = match outcome {
        Ok(r) => (r.best, r.ponder),
        Err(_) => {
            reporter.message("error: the search failed; playing the first legal move");
            (allowed.first().copied(), None)
        }
    };
    // In infinite and ponder mode the answer waits for `stop` or `ponderhit`, also when the
    // search ended by itself (a mate found, the depth limit reached).
    while (limits.infinite || control.pondering.load(Ordering::SeqCst))
        && !stop_requested.load(Ordering::SeqCst)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    let ponder = ponder.filter(|&p| {
        let mut after = pos.clone();
        best.is_some_and(|b| {
            after.play(b);
            search::is_legal(&after, p)
        })
    });
    control.answered.store(true, Ordering::SeqCst);
    reporter.bestmove(best, ponder);
}
