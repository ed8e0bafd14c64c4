//! The two sides of a tournament game and the searches beside them (*OM Search in Bao*,
//! §5): North plays α-β with its evaluator at depth D (or a node budget) from a cleared
//! table before every move, so that its move is a function of the position and the game's
//! history; South plays the treatment — α-β at its own budget, or OM search (Donkers 2003
//! Alg. 3.8 with α-β probes, equal-best replies broken by South's lowest value, Alg. 3.5;
//! restricted speculation, Alg. 3.6) whose model of North is North's evaluator probed one
//! ply short of North's horizon, or North's own search replayed (exact at the first ply),
//! with strict risk management as a root margin (§6, T7). Beside South's move: α-β's move
//! at North's budget (the paper's count of deviations, Table 9) and the admissibility
//! samples (thesis §4.2.2). Every search starts from a cleared table, so a game depends only
//! on its opening, its colours and its treatment.

use std::sync::Arc;

use shakmaty::Move;

use super::config::{Budget, Prediction, Treatment};
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::position::Position;
use crate::search::om::OmMode;
use crate::search::om::config::{OmConfig, TypeSetup};
use crate::search::om::model::search_model;
use crate::search::{SearchConfig, SearchContext, SearchControl, SearchResult, root_moves, search};
use crate::tt::TranspositionTable;

/// The tables of one game thread, all strict (a cleared table costs nothing) and of one
/// size, so that the replay probe's table is North's.
pub struct Tables {
    south: TranspositionTable,
    model: Arc<TranspositionTable>,
    north: TranspositionTable,
    reference: TranspositionTable,
}

impl Tables {
    /// Tables of `mb` MiB each.
    ///
    /// # Errors
    /// The memory cannot be had.
    pub fn new(mb: usize) -> Result<Self, String> {
        let t = || {
            TranspositionTable::try_new_kind(mb, true)
                .ok_or_else(|| format!("cannot allocate a table of {mb} MiB (--hash)"))
        };
        Ok(Tables {
            south: t()?,
            model: Arc::new(t()?),
            north: t()?,
            reference: t()?,
        })
    }
}

/// α-β with `eval` from a cleared `tt`: the search North plays, and every reference search.
pub fn fresh_search(
    eval: &dyn Evaluator,
    tt: &TranspositionTable,
    pos: &Position,
    limits: &Limits,
) -> SearchResult {
    // Exactly what a replay probe runs (search::om::probe): cleared table, default settings.
    tt.clear_fast();
    let control = SearchControl::default();
    let config = SearchConfig::default();
    let ctx = SearchContext::silent(eval, tt, &control, &config);
    let allowed = root_moves(pos, limits);
    search(&ctx, pos, limits, &allowed)
}

/// North's move.
pub fn north_move(
    eval: &dyn Evaluator,
    budget: Budget,
    tables: &Tables,
    pos: &Position,
) -> SearchResult {
    fresh_search(eval, &tables.north, pos, &budget.limits())
}

/// α-β's move at North's budget with South's evaluator: what South would have played
/// without the treatment (the deviation count of Table 9).
pub fn reference_move(
    eval: &dyn Evaluator,
    budget: Budget,
    tables: &Tables,
    pos: &Position,
) -> Option<Move> {
    fresh_search(eval, &tables.reference, pos, &budget.limits()).best
}

/// The value of `pos` for the side to move by a search of `depth` with `eval` (an
/// admissibility sample's estimate).
pub fn value(eval: &dyn Evaluator, depth: u32, tables: &Tables, pos: &Position) -> i32 {
    fresh_search(eval, &tables.reference, pos, &Limits::depth(depth)).score
}

/// South's decision.
pub struct SouthMove {
    /// The move.
    pub mv: Move,
    /// The reply South expects (the model's prediction under OM).
    pub predicted: Option<Move>,
    /// Nodes, probes included.
    pub nodes: u64,
    /// Last completed depth.
    pub depth: u32,
    /// The move came from a completed OM root (not α-β's, to which an OM root its budget
    /// cannot complete falls back).
    pub from_om: bool,
}

/// Remembers the last completed OM iteration (depth and move) of a search.
#[derive(Default)]
struct LastOmIteration(std::sync::Mutex<Option<(u32, Option<Move>)>>);

impl crate::report::Reporter for LastOmIteration {
    fn info(&self, _info: &crate::report::SearchInfo) {}
    fn message(&self, _text: &str) {}
    fn bestmove(&self, _best: Option<Move>, _ponder: Option<Move>) {}
    fn om_iteration(&self, report: &crate::report::OmReport) {
        if let Ok(mut last) = self.0.lock() {
            *last = Some((report.depth, report.best));
        }
    }
}

/// The opponent type South models North with under `prediction`.
fn model_of(
    north_eval: &Arc<dyn Evaluator>,
    north: Budget,
    prediction: Prediction,
    tt: &Arc<TranspositionTable>,
) -> TypeSetup {
    let (depth, nodes) = match (north, prediction) {
        // The probe at the first MIN node searches `depth`: one ply short of North, whose
        // own search from that node is `d` deep.
        (Budget::Depth(d), Prediction::Probe) => (Some(d.saturating_sub(1).max(1)), None),
        (Budget::Depth(d), Prediction::Replay) => (Some(d), None),
        (Budget::Nodes(n), _) => (None, Some(n)),
    };
    TypeSetup {
        eval: Arc::clone(north_eval),
        tt: Arc::clone(tt),
        probability: 1.0,
        depth,
        nodes,
        tablebases: false,
        replay: prediction == Prediction::Replay,
        engine: None,
    }
}

/// South's move under `treatment` (plies of speculation `spec`).
///
/// # Errors
/// No legal move (the game runner never asks then).
pub fn south_move(
    treatment: &Treatment,
    spec: usize,
    own_eval: &dyn Evaluator,
    north_eval: &Arc<dyn Evaluator>,
    north: Budget,
    tables: &Tables,
    pos: &Position,
) -> Result<SouthMove, String> {
    let limits = treatment.own.limits();
    let last_om = LastOmIteration::default();
    let r = match treatment.om {
        None => fresh_search(own_eval, &tables.south, pos, &limits),
        Some(om) => {
            tables.south.clear_fast();
            tables.model.clear_fast();
            let control = SearchControl::default();
            let config = SearchConfig::default();
            let ctx = SearchContext {
                reporter: &last_om,
                ..SearchContext::silent(own_eval, &tables.south, &control, &config)
            };
            let types = vec![model_of(north_eval, north, om.prediction, &tables.model)];
            let setup = OmConfig {
                ties: true,
                root_margin: om.margin,
                ..OmConfig::new(OmMode::Om, spec, types)
            };
            let allowed = root_moves(pos, &limits);
            search_model(&ctx, &setup, pos, &limits, &allowed)
        }
    };
    let mv = r.best.ok_or("South has no legal move")?;
    let last = last_om.0.lock().map(|l| *l).unwrap_or(None);
    Ok(SouthMove {
        mv,
        predicted: r.ponder,
        nodes: r.nodes,
        depth: r.depth,
        from_om: last.is_some_and(|(d, m)| d == r.depth && m == Some(mv)),
    })
}
