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
use super::om::{self, Driver, DriverSettings, EngineProbe, OmMode, ProbeSpec};
use super::{Clock, SearchContext, SearchResult};
use crate::eval::Evaluator;
use crate::eval::score::MAX_PLY;
use crate::limits::Limits;
use crate::position::Position;
use crate::report::{ScoreBound, SearchInfo, wdl_from_score};
use crate::tt::TranspositionTable;

/// One opponent type ready to probe.
#[derive(Clone)]
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
    /// Replay the opponent's own search exactly (see [`super::om::ProbeSpec::replay`]).
    pub replay: bool,
    /// The external engine of an `engine` type (`None`: one of our own searches).
    pub engine: Option<EngineProbe>,
}

/// Everything the model driver needs besides the plain search context.
#[derive(Clone)]
pub struct ModelSetup {
    /// OM or PrOM.
    pub mode: OmMode,
    /// Speculative depth s.
    pub spec_depth: usize,
    /// Enhanced probes returning all equal-best moves.
    pub ties: bool,
    /// Root risk control by margin (centipawns below the α-β value), if any.
    pub root_margin: Option<i32>,
    /// Bounded-sum pruning with this bound B (OM mode), if any.
    pub bound: Option<i32>,
    /// The hedged root of `OM_Mode=auto` (OM mode), if any.
    pub hedge: Option<super::hedge::Hedge>,
    /// `OM_Mode=auto`: the types are the fit's candidate bases ([`super::auto`]).
    pub auto: Option<super::auto::AutoSetup>,
    /// On-line learning of the type probabilities.
    pub learning: crate::options::Learning,
    /// Learning parameters: fast reward, P_s (6.17), γ (6.19), as fractions.
    pub learning_params: crate::learning::LearningParams,
    /// The opponent types.
    pub types: Vec<TypeSetup>,
}

impl ModelSetup {
    /// `mode` with speculative depth `spec_depth` over `types`, and nothing else: no equal-best
    /// sets, root margin, bounded-sum pruning, hedge, fit or learning. Add those with struct
    /// update syntax.
    pub fn new(mode: OmMode, spec_depth: usize, types: Vec<TypeSetup>) -> Self {
        ModelSetup {
            mode,
            spec_depth,
            ties: false,
            root_margin: None,
            bound: None,
            hedge: None,
            auto: None,
            learning: crate::options::Learning::Off,
            learning_params: crate::learning::LearningParams::default(),
            types,
        }
    }
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
    own.contempt = cfg.contempt;
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
            replay: t.replay,
            engine: t.engine.clone(),
        })
        .collect();
    let settings = DriverSettings {
        mode: setup.mode,
        spec_depth: setup.spec_depth,
        ties: setup.ties,
        root_margin: setup.root_margin,
        bound: setup.bound.filter(|_| setup.mode == OmMode::Om),
        hedge: setup.hedge.filter(|_| setup.mode == OmMode::Om),
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
    // Where the nodes went: our own search and each opponent type's probes.
    ctx.reporter.message(&format!(
        "om nodes own {} types {:?}",
        driver.own.nodes,
        driver.opps.iter().map(|w| w.nodes).collect::<Vec<_>>()
    ));
    ctx.control.stop.store(true, Ordering::Relaxed);
    result
}

/// Learning settings and the per-game state of learned probabilities (§6.6.2).
#[derive(Clone, Debug, Default)]
pub struct LearnState {
    /// Current probabilities (None: the model's own).
    pub probs: Option<Vec<f64>>,
    /// Key of the position whose opponent move was learned last (never learn twice).
    pub last_learned: Option<u64>,
}

/// Depth of the searches that tell what each type would have played.
const LEARN_DEPTH: u32 = 4;

/// Learns from the opponent's last move in `pos` (the move that led to it), updating
/// `state` and returning the probabilities to search with. External engines are asked no
/// later than `deadline`.
pub fn learn_from_last_move<E: Evaluator + ?Sized>(
    ctx: &SearchContext<'_, E>,
    setup: &ModelSetup,
    learning: crate::options::Learning,
    params: crate::learning::LearningParams,
    pos: &Position,
    state: &mut LearnState,
    deadline: Option<std::time::Instant>,
) -> Vec<f64> {
    use crate::learning::{bayes_update, fast_update, rank_likelihoods, ranks};
    use crate::options::Learning;
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
                        -crate::eval::score::INFINITE,
                        crate::eval::score::INFINITE,
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
                    -crate::eval::score::INFINITE,
                    crate::eval::score::INFINITE,
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
        crate::position::uci(actual),
        probs
            .iter()
            .map(|p| format!("{p:.3}"))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    probs
}
