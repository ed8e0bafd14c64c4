//! The K+R side of the KQKR experiment (Donkers 2003 §5.4.1–5.4.2: OMCRAFTY with the
//! endgame database). Its evaluation is our exact tables ([`TableEval`], plus the tables as
//! WDL probes in the tree); its root is restricted to the DTM-optimal moves (§5.4.1: "we did
//! not allow OM search to play suboptimally"); among those it chooses with OM search (or
//! PrOM with a mixture model) with speculative depth s, or with plain α-β for s = 0 (the
//! base case). Its model of the opponent is built per game, so a model that knows the
//! game's perturbation seed knows the opponent exactly.

use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position as _};

use super::config::{KqkrConfig, ModelConfig, PerturbKnowledge, SideLimit};
use super::opponent::evaluator;
use crate::eval::perturbed::mix64;
use crate::options::Learning;
use crate::position::Position;
use crate::report::Silent;
use crate::search::model::{ModelSetup, TypeSetup, search_model};
use crate::search::om::OmMode;
use crate::search::{SearchConfig, SearchContext, SearchControl, SearchResult, WdlProbe, search};
use crate::tb::{ExactTables, Metric, TableEval, Tablebases};
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

/// The K+R side for one speculative depth.
pub struct KrSide<'t> {
    tables: &'t KrTables,
    limit: SideLimit,
    spec_depth: usize,
    ties: bool,
    model: ModelConfig,
    amplitude: i32,
    opp_hash_mb: usize,
    tt: TranspositionTable,
    types: Vec<TypeSetup>,
}

impl<'t> KrSide<'t> {
    /// The K+R side of `cfg` with speculative depth `spec_depth`.
    pub fn new(cfg: &KqkrConfig, tables: &'t KrTables, spec_depth: usize) -> Self {
        let (amplitude, opp_hash_mb) = match &cfg.opponent {
            super::config::OpponentConfig::Builtin {
                amplitude, hash_mb, ..
            } => (*amplitude, *hash_mb),
            super::config::OpponentConfig::Uci { .. } => (0, 1),
        };
        KrSide {
            tables,
            limit: cfg.kr_limit,
            spec_depth,
            ties: cfg.ties,
            model: cfg.model.clone(),
            amplitude,
            opp_hash_mb,
            tt: TranspositionTable::new(cfg.kr_hash_mb),
            types: Vec::new(),
        }
    }

    /// Starts a game with perturbation seed `seed`: clears the table and builds the model.
    pub fn new_game(&mut self, seed: u64) {
        self.tt.clear();
        self.types = self
            .model
            .types
            .iter()
            .map(|t| {
                let seed = match t.perturb {
                    PerturbKnowledge::Game => Some(seed),
                    PerturbKnowledge::Other => Some(mix64(seed ^ 0x0000_5EED_0F07_E4E4)),
                    PerturbKnowledge::None => None,
                };
                TypeSetup {
                    eval: evaluator(t.base.eval, seed, self.amplitude),
                    // A replay probe must search with a table of the opponent's size; a
                    // strict table makes its "clear before every probe" O(1).
                    tt: Arc::new(if t.replay {
                        TranspositionTable::new_strict(self.opp_hash_mb)
                    } else {
                        TranspositionTable::new(self.opp_hash_mb)
                    }),
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

    /// Chooses a move in `pos` (the game so far in its history).
    pub fn choose(&mut self, pos: &Position) -> Result<KrMove, String> {
        let start = Instant::now();
        let allowed = self.allowed(pos.chess());
        if allowed.is_empty() {
            return Err("the K+R side has no legal move".into());
        }
        let control = SearchControl::default();
        let config = SearchConfig::default();
        let ctx = SearchContext {
            eval: &self.tables.eval,
            tt: &self.tt,
            control: &control,
            tb: Some(&self.tables.probes as &dyn WdlProbe),
            config: &config,
            reporter: &Silent,
            root_tb_score: None,
        };
        let limits = self.limit.limits();
        let r: SearchResult = if self.spec_depth == 0 {
            search(&ctx, pos, &limits, &allowed)
        } else {
            let setup = ModelSetup {
                mode: if self.types.len() > 1 {
                    OmMode::Prom
                } else {
                    OmMode::Om
                },
                spec_depth: self.spec_depth,
                ties: self.ties,
                root_margin: None,
                bound: None,
                hedge: None,
                auto: None,
                learning: Learning::Off,
                learning_params: (0.05, 0.6, 0.2),
                types: self.types.clone(),
            };
            search_model(&ctx, &setup, pos, &limits, &allowed)
        };
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
