//! The user's opponent-model settings: what the `OM_*` options say, as one value owned by
//! the OM module. The engine's option table fills it (the options module never sees these
//! types, and nothing here reads options); `engine::model_setup` turns it into the
//! driver's [`super::config::OmConfig`] before each search.
//!
//! The settings follow Donkers 2003: the mode (OM §3, PrOM §6), the speculative depth
//! (restricted speculation, Alg. 3.6), the opponent types (§6.1) and the limits they search
//! with (unequal depths, §3.1.3), equal-best probes (enhanced OM, Alg. 3.5), the root's risk
//! control (§5.4.1), bounded-sum pruning (Alg. 3.10) and on-line learning (§6.6.2). The
//! `Default` here is only the blank the option table fills: the defaults are declared in
//! the table.

use super::OmMode;
use super::config::Learning;
use super::policy::PolicyValue;
use crate::external::{EngineCommand, Protocol};
use crate::learning::LearningParams;
use crate::opponent::OpponentModel;

/// Root risk control of the opponent-model driver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RootSafety {
    /// Every legal root move is a candidate.
    None,
    /// With tables at the root, only moves keeping the tablebase-optimal result and
    /// distance (§5.4.1).
    #[default]
    TbOptimal,
    /// Only moves within [`OmSettings::root_margin`] centipawns of the α-β value.
    Margin,
}

/// Bounded-sum pruning of the OM driver (Donkers 2003 §3.2.4, Alg. 3.10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BoundedSum {
    /// B = 0 when the modelled type searches exactly like us (our evaluator, our depth, our
    /// tables): OM search then equals α-β (Lemma 1) and costs what α-β costs. Off otherwise.
    #[default]
    Auto,
    /// β-pruning only (Alg. 3.8).
    Off,
    /// B = [`OmSettings::bound`] centipawns, for a type that searches to our depth.
    On,
}

/// Everything the `OM_*` options set.
#[derive(Clone, Debug, Default)]
pub struct OmSettings {
    /// Root driver.
    pub mode: OmMode,
    /// Speculative depth s (0: plain α-β).
    pub spec_depth: u32,
    /// The opponent's depth for types that name none (0: ours minus the ply).
    pub opponent_depth: u32,
    /// The opponent's node budget for types that name none (0: none).
    pub opponent_nodes: u64,
    /// Opponent types with probabilities.
    pub types: OpponentModel,
    /// The command line of the external engine behind `engine` types (`None`: not set).
    pub engine: Option<EngineCommand>,
    /// Options sent to the external engine after its handshake.
    pub engine_options: Vec<(String, String)>,
    /// The protocol the external engine speaks.
    pub engine_protocol: Protocol,
    /// Keep fitted models per opponent name between games (`OM_Mode=auto`).
    pub profiles: bool,
    /// Where the profiles live (empty: the user's data directory).
    pub profile_dir: String,
    /// Opponent probes may use endgame tables (and-ed with each type's own `tb=`).
    pub opponent_tablebases: bool,
    /// Enhanced probes: all equal-best moves.
    pub ties: bool,
    /// The parallel root in deterministic mode ([`super::parallel`]): the same value and
    /// move with any `Threads`, at the cost of the tables' sharing.
    pub deterministic: bool,
    /// Replay probes: the opponent's own search repeated with a cleared table.
    pub replay: bool,
    /// Root risk control.
    pub root_safety: RootSafety,
    /// The margin of [`RootSafety::Margin`], and the ceiling of the margin `auto`'s fitted
    /// model earns, centipawns.
    pub root_margin: i32,
    /// The most contempt (centipawns, either sign) `OM_Mode=auto` may derive from the
    /// opponent's measured drift in earlier games ([`super::draw_value`]); 0: off.
    pub contempt_ceiling: i32,
    /// The least ratio of our time to the opponent's at which `OM_Mode=auto` speculates
    /// under a clock ([`super::resources`]); `None`: the tunable's value
    /// (`params::om::FitParams::min_time_odds`).
    pub min_time_odds: Option<f64>,
    /// Bounded-sum pruning.
    pub bounded_sum: BoundedSum,
    /// The bound B of [`BoundedSum::On`], centipawns.
    pub bound: i32,
    /// How PrOM values a root move against a mixed strategy.
    pub policy_value: PolicyValue,
    /// On-line learning.
    pub learning: Learning,
    /// Its parameters.
    pub learning_params: LearningParams,
}
