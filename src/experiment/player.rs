//! The K+R side of the KQKR experiment (Donkers 2003 §5.4.1–5.4.2: OMCRAFTY with the
//! endgame database). Its evaluation is our exact tables ([`TableEval`], plus the tables as
//! WDL probes in the tree); its root is restricted to the DTM-optimal moves (§5.4.1: "we did
//! not allow OM search to play suboptimally"); among those it chooses with OM search (or
//! PrOM with a mixture model) with speculative depth s, or with plain α-β for s = 0 (the
//! base case). Its model of the opponent is built per game, so a model that knows the
//! game's perturbation seed knows the opponent exactly.
//!
//! An `engine` type of the model asks the program of `--opponent-uci` (with its options)
//! for its move, through one [`ManagedEngine`] per worker thread ([`model_engine`]), given
//! a `ucinewgame` per game and per decision (which also clears its answer cache). With
//! `replay=on` it is asked exactly as the K+Q side is (`ucinewgame`, the game line, `go
//! nodes N`), so a deterministic engine with the same budget is modelled exactly at ply 1.
//! With `--model-knows-budget` the type's budget at every probe of a decision is the one the
//! K+Q side draws for its reply to that decision (exact for the reply, an approximation
//! deeper in the tree). A fault of the model's engine aborts the game (the search would
//! have gone on without the type).

use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use shakmaty::{Chess, Move, Position as _};

use super::config::{
    KqkrConfig, ModelConfig, NodeSpread, OpponentConfig, PerturbKnowledge, SideLimit,
};
use super::opponent::evaluator;
use crate::external::{EngineCommand, GoLimit, ManagedEngine};
use crate::opponent::{EvalKind, OpponentType};
use crate::position::Position;
use crate::rng::mix64;
use crate::search::om::OmMode;
use crate::search::om::config::{OmConfig, TypeSetup};
use crate::search::om::engine_probe::EngineProbe;
use crate::search::om::model::search_model;
use crate::search::{SearchConfig, SearchContext, SearchControl, SearchResult, search};
use crate::tb::{ExactTables, Metric, TableEval, Tablebases, WdlProbe};
use crate::tt::TranspositionTable;

/// The exact tables in the three shapes the K+R side needs, shared by all games.
pub struct KrTables {
    /// The tables.
    pub exact: Arc<ExactTables>,
    /// As WDL probes for the search.
    pub probes: Tablebases,
    /// As evaluation.
    pub eval: TableEval,
}

impl KrTables {
    /// Wraps `exact` (KQvKR must be loaded already for the probes to answer).
    pub fn new(exact: Arc<ExactTables>) -> Self {
        let (probes, _) = Tablebases::new("", Arc::clone(&exact), false);
        KrTables {
            eval: TableEval::new(Arc::clone(&exact)),
            probes,
            exact,
        }
    }
}

/// The K+R side's decision and what it expected.
#[derive(Clone, Debug)]
pub struct KrMove {
    /// The move.
    pub mv: Move,
    /// Its line: our move, the predicted reply, ...
    pub pv: Vec<Move>,
    /// OM (or α-β) value, K+R side's view.
    pub value: i32,
    /// Last completed iteration.
    pub depth: u32,
    /// Nodes (own search, probes and replayed opponent searches).
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// Number of DTM-optimal root moves it chose from.
    pub allowed: usize,
}

/// Restarts of the model's engine allowed per game (any fault aborts the game anyway).
const MODEL_ENGINE_RESTARTS: u32 = 1;

/// The shared engine of the model's `engine` types: the program of `--opponent-uci` with its
/// options (started on first use). `None` if the model has no engine type.
///
/// # Errors
/// An engine type without a UCI K+Q side.
pub fn model_engine(cfg: &KqkrConfig) -> Result<Option<Arc<Mutex<ManagedEngine>>>, String> {
    if !cfg.model.uses_engine() {
        return Ok(None);
    }
    let OpponentConfig::Uci { path, options, .. } = &cfg.opponent else {
        return Err(ENGINE_NEEDS_UCI.into());
    };
    Ok(Some(Arc::new(Mutex::new(ManagedEngine::new(
        EngineCommand::program(path.display().to_string()),
        options.clone(),
        MODEL_ENGINE_RESTARTS,
    )))))
}

/// Why an engine type needs `--opponent-uci`.
pub const ENGINE_NEEDS_UCI: &str = "the model's engine type asks the K+Q side's program: it \
needs --opponent-uci PATH (the built-in K+Q side has no engine to ask)";

/// The `go` limit of an engine type: its own, else the K+Q side's.
fn engine_limit(t: &OpponentType, opp: SideLimit) -> GoLimit {
    match (t.movetime, t.nodes, t.depth, opp) {
        (Some(ms), _, _, _) => GoLimit::MoveTime(ms),
        (_, Some(n), _, _) => GoLimit::Nodes(n),
        (_, _, Some(d), _) => GoLimit::Depth(d),
        (_, _, _, SideLimit::Nodes(n)) => GoLimit::Nodes(n),
        (_, _, _, SideLimit::Depth(d)) => GoLimit::Depth(d),
    }
}

/// The K+R side for one speculative depth.
pub struct KrSide<'t> {
    tables: &'t KrTables,
    limit: SideLimit,
    spec_depth: usize,
    ties: bool,
    model: ModelConfig,
    amplitude: i32,
    tt: TranspositionTable,
    /// One table per non-engine model type (`--opp-hash` MB each), allocated with the side
    /// and cleared at every new game.
    type_tts: Vec<Arc<TranspositionTable>>,
    types: Vec<TypeSetup>,
    /// The model's engine (engine types only).
    engine: Option<Arc<Mutex<ManagedEngine>>>,
    /// The K+Q side's budget per move.
    opp_limit: SideLimit,
    /// The K+Q side's node draw, if the model knows it.
    known_spread: Option<(NodeSpread, u64)>,
    /// This game's seed.
    seed: u64,
}

impl<'t> KrSide<'t> {
    /// The K+R side of `cfg` with speculative depth `spec_depth`; `engine` is the model's
    /// engine ([`model_engine`]), kept by the caller across games.
    ///
    /// # Errors
    /// A table (`--kr-hash`, or `--opp-hash` for a model type) that cannot be allocated.
    pub fn new(
        cfg: &KqkrConfig,
        tables: &'t KrTables,
        spec_depth: usize,
        engine: Option<Arc<Mutex<ManagedEngine>>>,
    ) -> Result<Self, String> {
        let (amplitude, opp_hash_mb) = match &cfg.opponent {
            super::config::OpponentConfig::Builtin {
                amplitude, hash_mb, ..
            } => (*amplitude, *hash_mb),
            super::config::OpponentConfig::Uci { .. } => (0, 1),
        };
        let tt = TranspositionTable::try_new(cfg.kr_hash_mb).ok_or_else(|| {
            format!(
                "cannot allocate {} MB for the K+R side's table (--kr-hash)",
                cfg.kr_hash_mb
            )
        })?;
        let mut type_tts = Vec::new();
        for t in cfg
            .model
            .types
            .iter()
            .filter(|t| t.base.eval != EvalKind::Engine)
        {
            // A replay probe must search with a table of the opponent's size; a strict
            // table makes its "clear before every probe" O(1).
            let t = TranspositionTable::try_new_kind(opp_hash_mb, t.replay).ok_or_else(|| {
                format!("cannot allocate {opp_hash_mb} MB for a model type's table (--opp-hash)")
            })?;
            type_tts.push(Arc::new(t));
        }
        Ok(KrSide {
            tables,
            limit: cfg.kr_limit,
            spec_depth,
            ties: cfg.ties,
            model: cfg.model.clone(),
            amplitude,
            tt,
            type_tts,
            types: Vec::new(),
            engine,
            opp_limit: cfg.opponent.limit(),
            known_spread: cfg
                .opponent
                .node_spread()
                .filter(|_| cfg.model_knows_budget),
            seed: 0,
        })
    }

    /// Starts a game with perturbation seed `seed`: clears the table, starts a new game of
    /// the model's engine and builds the model.
    pub fn new_game(&mut self, seed: u64) {
        self.tt.clear();
        self.seed = seed;
        if let Some(e) = &self.engine {
            e.lock().new_game();
        }
        let (engine, opp_limit) = (self.engine.clone(), self.opp_limit);
        for t in &self.type_tts {
            t.clear();
        }
        let mut tts = self.type_tts.iter();
        self.types = self
            .model
            .types
            .iter()
            .map(|t| {
                if t.base.eval == EvalKind::Engine {
                    return TypeSetup {
                        eval: evaluator(EvalKind::Engine, None, 0),
                        tt: Arc::new(TranspositionTable::new(1)),
                        probability: t.base.probability,
                        depth: None,
                        nodes: None,
                        tablebases: false,
                        replay: t.replay,
                        engine: engine.clone().map(|engine| EngineProbe {
                            engine,
                            limit: engine_limit(&t.base, opp_limit),
                            policy: t.base.policy,
                        }),
                    };
                }
                let seed = match t.perturb {
                    PerturbKnowledge::Game => Some(seed),
                    PerturbKnowledge::Other => Some(mix64(seed ^ 0x0000_5EED_0F07_E4E4)),
                    PerturbKnowledge::None => None,
                };
                TypeSetup {
                    eval: evaluator(t.base.eval, seed, self.amplitude),
                    tt: Arc::clone(tts.next().expect("one table per non-engine type")),
                    probability: t.base.probability,
                    depth: t.base.depth,
                    nodes: t.base.nodes,
                    tablebases: t.base.tablebases,
                    replay: t.replay,
                    engine: None,
                }
            })
            .collect();
    }

    /// The DTM-optimal moves in `pos` (all legal moves if the tables do not cover it).
    pub fn allowed(&self, pos: &Chess) -> Vec<Move> {
        self.tables
            .exact
            .best_moves(pos, Metric::Dtm)
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| pos.legal_moves().into_iter().collect())
    }

    /// Chooses a move in `pos` (the game so far in its history), the game's ply `ply`.
    pub fn choose(&mut self, pos: &Position, ply: usize) -> Result<KrMove, String> {
        let start = Instant::now();
        let allowed = self.allowed(pos.chess());
        if allowed.is_empty() {
            return Err("the K+R side has no legal move".into());
        }
        let mut types = self.types.clone();
        if let Some((spread, centre)) = self.known_spread {
            // The budget the K+Q side draws for its reply, at ply + 1.
            let budget = spread.draw(centre, self.seed, ply + 1);
            for p in types.iter_mut().filter_map(|t| t.engine.as_mut()) {
                p.limit = GoLimit::Nodes(budget);
            }
        }
        if self.spec_depth > 0 && self.model.uses_engine() && self.engine.is_none() {
            return Err(ENGINE_NEEDS_UCI.into());
        }
        if let Some(e) = &self.engine {
            // The engine's answer cache is keyed by position, not by the game line: a
            // position met again later in the game (on the way to a repetition) would get
            // the old answer, where the engine, seeing the repetition, answers differently.
            // A fresh cache per decision keeps the model exact.
            e.lock().new_game();
        }
        let faults = self.engine.as_ref().map_or(0, |e| e.lock().restarts());
        let control = SearchControl::default();
        let config = SearchConfig::default();
        let ctx = SearchContext {
            tb: Some(&self.tables.probes as &dyn WdlProbe),
            ..SearchContext::silent(&self.tables.eval, &self.tt, &control, &config)
        };
        let limits = self.limit.limits();
        let r: SearchResult = if self.spec_depth == 0 {
            search(&ctx, pos, &limits, &allowed)
        } else {
            let mode = if self.types.len() > 1 {
                OmMode::Prom
            } else {
                OmMode::Om
            };
            let setup = OmConfig {
                ties: self.ties,
                ..OmConfig::new(mode, self.spec_depth, types)
            };
            search_model(&ctx, &setup, pos, &limits, &allowed)
        };
        if let Some(e) = &self.engine {
            let e = e.lock();
            if e.restarts() > faults {
                return Err(format!(
                    "the model's engine {} failed during a search of the K+R side",
                    e.name()
                ));
            }
        }
        let mv = r.best.unwrap_or(allowed[0]);
        let mut pv = r.pv.clone();
        if pv.first() != Some(&mv) {
            pv = vec![mv];
        }
        Ok(KrMove {
            mv,
            pv,
            value: r.score,
            depth: r.depth,
            nodes: r.nodes,
            time: start.elapsed(),
            allowed: allowed.len(),
        })
    }
}

/// The prediction surplus of a K+R decision in moves (Fig. 5.11), measured by the tables:
/// the line the search expects (its PV within the search horizon: our move, the predicted
/// reply, ...; the caller cuts the PV to the completed depth) is played out
/// and the tables value its end, so the predicted distance to mate is
/// `plies(PV) + DTM(end)`; the surplus is `(that − DTM(root)) / 2`, the number of moves the
/// K+R side expects to gain over optimal play by the opponent. 0 when the PV is optimal
/// play; `None` if the PV is empty or leaves the tables, or its end is no longer a K+Q win
/// (the search expects the opponent to throw the win away: an unbounded gain).
pub fn prediction_surplus(tables: &ExactTables, pos: &Chess, pv: &[Move]) -> Option<f64> {
    let root = tables.probe(pos)?;
    let mut end = pos.clone();
    let mut plies = 0u32;
    for &m in pv {
        if !end.is_legal(m) {
            break;
        }
        end.play_unchecked(m);
        plies += 1;
        if end.is_game_over() {
            break;
        }
    }
    if plies == 0 {
        return None;
    }
    let e = tables.probe(&end)?;
    // The K+Q side must still be winning at the end of the line.
    let kq_to_move = end.turn() != pos.turn();
    let kq_wins = match e.wdl {
        crate::tb::Wdl::Win => kq_to_move,
        crate::tb::Wdl::Loss => !kq_to_move,
        crate::tb::Wdl::Draw => false,
    };
    if !kq_wins {
        return None;
    }
    let predicted = f64::from(plies) + f64::from(e.dtm?);
    Some((predicted - f64::from(root.dtm?)) / 2.0)
}
