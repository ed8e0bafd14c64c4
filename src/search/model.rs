//! Wiring of the opponent-model driver into a search: builds one probe worker per opponent
//! type (its evaluator, its transposition table, its move-ordering tables, tables on or off),
//! lends them the clock, and reports each iteration like the plain searcher does, plus an
//! `om ...` message with the predicted reply, the OM value, the α-β value and the
//! prediction surplus (Donkers 2003 §5.4.3, Fig. 5.11).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use shakmaty::Move;

use super::alphabeta::Worker;
use super::om::{self, Driver, DriverSettings, OmMode, ProbeSpec};
use super::{Clock, SearchContext, SearchResult};
use crate::eval::Evaluator;
use crate::eval::score::MAX_PLY;
use crate::limits::Limits;
use crate::position::Position;
use crate::report::{ScoreBound, SearchInfo, wdl_from_score};
use crate::tt::TranspositionTable;

/// One opponent type ready to probe.
pub struct TypeSetup {
    /// Its evaluation.
    pub eval: Arc<dyn Evaluator>,
    /// Its transposition table (shared by types with the same evaluator and table use).
    pub tt: Arc<TranspositionTable>,
    /// Probability, depth and node budget.
    pub probability: f64,
    /// Opponent's own depth, if fixed.
    pub depth: Option<u32>,
    /// Opponent's node budget, if fixed.
    pub nodes: Option<u64>,
    /// Whether its probes use endgame tables.
    pub tablebases: bool,
}

/// Everything the model driver needs besides the plain search context.
pub struct ModelSetup {
    /// OM or PrOM.
    pub mode: OmMode,
    /// Speculative depth s.
    pub spec_depth: usize,
    /// Enhanced probes returning all equal-best moves.
    pub ties: bool,
    /// Root risk control by margin (centipawns below the α-β value), if any.
    pub root_margin: Option<i32>,
    /// The opponent types.
    pub types: Vec<TypeSetup>,
}

/// Searches with the OM/PrOM driver and returns its result (no `bestmove` sent).
pub fn search_model<E: Evaluator + ?Sized>(
    ctx: &SearchContext<'_, E>,
    setup: &ModelSetup,
    pos: &Position,
    limits: &Limits,
    allowed: &[Move],
) -> SearchResult {
    let n = setup.types.len();
    let counters: Vec<AtomicU64> = (0..=n).map(|_| AtomicU64::new(0)).collect();
    ctx.tt.new_search();
    for t in &setup.types {
        t.tt.new_search();
    }
    let mut root = pos.clone();
    root.set_root();
    let cfg = ctx.config;
    let mut own = Worker::new(
        ctx.eval,
        ctx.tt,
        &cfg.params,
        &ctx.control.stop,
        root.clone(),
    );
    own.node_counter = Some(&counters[0]);
    own.tb = ctx.tb;
    own.tb_probe_depth = cfg.tb_probe_depth;
    own.tb_probe_limit = cfg.tb_probe_limit;
    let mut opps: Vec<Worker<'_, dyn Evaluator>> = Vec::with_capacity(n);
    for (i, t) in setup.types.iter().enumerate() {
        let mut w: Worker<'_, dyn Evaluator> = Worker::new(
            &*t.eval,
            &t.tt,
            &cfg.params,
            &ctx.control.stop,
            root.clone(),
        );
        w.node_counter = Some(&counters[i + 1]);
        w.tb = if t.tablebases { ctx.tb } else { None };
        w.tb_probe_depth = cfg.tb_probe_depth;
        w.tb_probe_limit = cfg.tb_probe_limit;
        opps.push(w);
    }
    let specs = setup
        .types
        .iter()
        .map(|t| ProbeSpec {
            probability: t.probability,
            depth: t.depth,
            nodes: t.nodes,
        })
        .collect();
    let settings = DriverSettings {
        mode: setup.mode,
        spec_depth: setup.spec_depth,
        ties: setup.ties,
        root_margin: setup.root_margin,
    };
    let mut driver = Driver::new(own, opps, specs, settings, root);
    driver.clock = Some(Clock::new(
        limits,
        cfg.move_overhead,
        &cfg.time_params,
        ctx.control,
        &counters,
    ));
    let max_depth = limits
        .depth
        .map(|d| d.clamp(1, MAX_PLY as u32 - 10))
        .unwrap_or(MAX_PLY as u32 - 10);
    let mut report = |d: &Driver<'_, E>, depth: u32, it: &om::OmIteration| {
        let nodes = d.nodes();
        let time = d.clock.as_ref().map_or(Duration::ZERO, |c| c.elapsed());
        let nps = (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64;
        ctx.reporter.info(&SearchInfo {
            depth,
            seldepth: (d.own.seldepth as u32).max(depth),
            multipv: 1,
            score: it.value,
            bound: ScoreBound::Exact,
            nodes,
            nps,
            time,
            hashfull: ctx.tt.hashfull(),
            tbhits: d.own.tbhits + d.opps.iter().map(|w| w.tbhits).sum::<u64>(),
            pv: it.pv.clone(),
            wdl: wdl_from_score(it.value),
        });
    };
    let result = om::run(&mut driver, allowed, max_depth, ctx.reporter, &mut report);
    if std::env::var_os("NOSCE_OM_STATS").is_some() {
        eprintln!(
            "om stats: own {} opp {:?}",
            driver.own.nodes,
            driver.opps.iter().map(|w| w.nodes).collect::<Vec<_>>()
        );
    }
    ctx.control.stop.store(true, Ordering::Relaxed);
    result
}
