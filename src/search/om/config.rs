//! The opponent-model driver's configuration: the opponent types ready to probe (evaluator,
//! table, probability, depth or node limit, replay, external engine) and one [`OmConfig`] with
//! the mode (OM, Alg. 3.8; PrOM, Alg. 6.5; auto), the speculative depth s (Alg. 3.6), equal-best
//! probes (Alg. 3.5), root risk control (§5.4.1), bounded-sum pruning (Alg. 3.10), the hedged
//! root, learning (§6.6) and the parallel root's determinism — built once and read by the
//! engine, the driver and the experiment.

use std::sync::Arc;

use super::OmMode;
use super::engine_probe::EngineProbe;
use super::hedge::Hedge;
use super::policy::PolicyValue;
use crate::eval::Evaluator;
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
    /// Replay the opponent's own search exactly (see [`super::ProbeSpec::replay`]).
    pub replay: bool,
    /// The external engine of an `engine` type (`None`: one of our own searches).
    pub engine: Option<EngineProbe>,
}

/// Everything the opponent-model driver needs besides the plain search context, built once
/// from the options (`engine::model_setup`) or by the experiment, and read by the driver.
#[derive(Clone)]
pub struct OmConfig {
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
    pub hedge: Option<Hedge>,
    /// `OM_Mode=auto`: the types are the fit's candidate bases ([`super::auto`]).
    pub auto: Option<super::auto_setup::AutoSetup>,
    /// On-line learning of the type probabilities.
    pub learning: Learning,
    /// Learning parameters: fast reward, P_s (6.17), γ (6.19), as fractions.
    pub learning_params: crate::learning::LearningParams,
    /// The opponent types.
    pub types: Vec<TypeSetup>,
    /// Deterministic parallel root (`OM_Search` `deterministic`, [`super::parallel`]).
    pub deterministic: bool,
    /// PrOM against a mixed strategy: how a root move is valued (`OM_Search` `policy`).
    pub policy_value: PolicyValue,
}

impl OmConfig {
    /// The bound B of bounded-sum pruning, OM mode only.
    pub fn bound_sum(&self) -> Option<i32> {
        self.bound.filter(|_| self.mode == OmMode::Om)
    }

    /// The hedged root, OM mode only.
    pub fn hedged(&self) -> Option<Hedge> {
        self.hedge.filter(|_| self.mode == OmMode::Om)
    }

    /// `mode` with speculative depth `spec_depth` over `types`, and nothing else: no equal-best
    /// sets, root margin, bounded-sum pruning, hedge, fit or learning. Add those with struct
    /// update syntax.
    pub fn new(mode: OmMode, spec_depth: usize, types: Vec<TypeSetup>) -> Self {
        OmConfig {
            mode,
            spec_depth,
            ties: false,
            root_margin: None,
            bound: None,
            hedge: None,
            auto: None,
            learning: Learning::Off,
            learning_params: crate::learning::LearningParams::default(),
            types,
            deterministic: false,
            policy_value: PolicyValue::Search,
        }
    }
}

/// On-line learning of opponent-type probabilities (§6.6.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Learning {
    /// Probabilities stay as given.
    #[default]
    Off,
    /// Reward the types that predicted the opponent's move, punish the others.
    Fast,
    /// Naive Bayes with rank-based move likelihoods (formulas 6.17–6.19).
    Bayes,
}
