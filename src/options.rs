//! Engine options: their declarations (name, type, default, range — announced by both
//! protocols) and their validated values. Setting an option parses and checks the value
//! once; a bad value is rejected with a clear message and the old value is kept.
//!
//! The opponent-model options follow Donkers 2003: `OM_Mode` (plain α-β, OM §3, PrOM §6),
//! `OM_SpeculationDepth` (restricted speculation, Alg. 3.6), `OM_OpponentDepth` (unequal
//! depths, §3.1.3), `OM_OpponentTypes` (the PrOM mixture, §6.1), `OM_RootSafety` (the
//! root restriction of §5.4.1), and `OM_Learning` (on-line learning of the type
//! probabilities, §6.6.2: `fast` reward/punish, `bayes` = formulas 6.17–6.19).
//! `OM_OpponentEngine`, `OM_OpponentEngineOptions` and `OM_OpponentEngineProtocol` name the
//! external engine (UCI or xboard) behind the `engine` opponent type ([`crate::external`]).

use crate::external::{EngineCommand, Protocol, parse_engine_options};
use crate::opponent::OpponentModel;
use crate::opponent_id::OpponentId;
use crate::search::om::OmMode;

/// The type of an engine option, with its default and range.
#[derive(Clone, Debug)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A boolean.
    Check {
        /// Default value.
        default: bool,
    },
    /// One of a list of strings.
    Combo {
        /// Default value.
        default: &'static str,
        /// The allowed values.
        vars: &'static [&'static str],
    },
    /// A free string.
    Str {
        /// Default value.
        default: &'static str,
    },
    /// An action without value.
    Button,
}

/// An option as both protocols announce it.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    /// The option's name (case-insensitive when set).
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
}

const fn spin(name: &'static str, default: i64, min: i64, max: i64) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Spin { default, min, max },
    }
}

const fn combo_spec(
    name: &'static str,
    default: &'static str,
    vars: &'static [&'static str],
) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Combo { default, vars },
    }
}

const fn check(name: &'static str, default: bool) -> OptionSpec {
    OptionSpec {
        name,
        kind: OptionKind::Check { default },
    }
}

/// `UCI_Elo`'s default (it matters only with `UCI_LimitStrength`).
pub const DEFAULT_ELO: i64 = 1500;

/// Default opponent model spec.
pub const DEFAULT_TYPES: &str = "self:1";

/// All options of the engine, in the order they are announced.
pub fn option_specs() -> Vec<OptionSpec> {
    vec![
        spin("Hash", 16, 1, 65536),
        spin("Threads", 1, 1, 256),
        spin("MultiPV", 1, 1, 256),
        check("Ponder", false),
        spin("Move Overhead", 50, 0, 5000),
        OptionSpec {
            name: "Clear Hash",
            kind: OptionKind::Button,
        },
        check("UCI_ShowWDL", false),
        check("UCI_AnalyseMode", false),
        check("UCI_Chess960", false),
        check("UCI_LimitStrength", false),
        spin(
            "UCI_Elo",
            DEFAULT_ELO,
            crate::strength::MIN_ELO,
            crate::strength::MAX_ELO,
        ),
        OptionSpec {
            name: "EvalFile",
            kind: OptionKind::Str {
                default: crate::nnue::embedded::FILE_NAME,
            },
        },
        OptionSpec {
            name: "SyzygyPath",
            kind: OptionKind::Str { default: "" },
        },
        spin("SyzygyProbeDepth", 1, 1, 100),
        spin("SyzygyProbeLimit", 7, 0, 7),
        check("Syzygy50MoveRule", true),
        check("ExactTables", true),
        combo_spec("OM_Mode", "off", &["off", "om", "prom", "auto"]),
        spin("OM_SpeculationDepth", 2, 0, 20),
        spin("OM_OpponentDepth", 0, 0, 64),
        spin("OM_OpponentNodes", 0, 0, 1_000_000_000),
        OptionSpec {
            name: "OM_OpponentTypes",
            kind: OptionKind::Str {
                default: DEFAULT_TYPES,
            },
        },
        OptionSpec {
            name: "OM_OpponentEngine",
            kind: OptionKind::Str { default: "" },
        },
        OptionSpec {
            name: "OM_OpponentEngineOptions",
            kind: OptionKind::Str { default: "" },
        },
        combo_spec("OM_OpponentEngineProtocol", "uci", &["uci", "xboard"]),
        OptionSpec {
            name: "UCI_Opponent",
            kind: OptionKind::Str { default: "" },
        },
        check("OM_Profiles", true),
        OptionSpec {
            name: "OM_ProfileDir",
            kind: OptionKind::Str { default: "" },
        },
        check("OM_OpponentTablebases", true),
        check("OM_Ties", true),
        check("OM_Deterministic", false),
        check("OM_OpponentReplay", false),
        combo_spec(
            "OM_RootSafety",
            "tb-optimal",
            &["none", "tb-optimal", "margin"],
        ),
        spin("OM_RootMargin", 50, 0, 10_000),
        spin("OM_ContemptCeiling", 0, 0, 500),
        combo_spec("OM_BoundedSum", "auto", &["auto", "off", "on"]),
        combo_spec("OM_PolicyValue", "search", &["search", "engine"]),
        spin("OM_Bound", 0, 0, 10_000),
        combo_spec("OM_Learning", "off", &["off", "fast", "bayes"]),
        spin("OM_LearningReward", 5, 1, 50),
        spin("OM_LearningPs", 60, 1, 100),
        spin("OM_LearningGamma", 20, 0, 100),
    ]
}

/// Root risk control of the opponent-model driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootSafety {
    /// Every legal root move is a candidate.
    None,
    /// With tables at the root, only moves keeping the tablebase-optimal result and
    /// distance (§5.4.1).
    TbOptimal,
    /// Only moves within `OM_RootMargin` centipawns of the α-β value.
    Margin,
}

/// Bounded-sum pruning of the OM driver (Donkers 2003 §3.2.4, Alg. 3.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundedSum {
    /// B = 0 when the modelled type searches exactly like us (our evaluator, our depth, our
    /// tables): OM search then equals α-β (Lemma 1) and costs what α-β costs. Off otherwise.
    Auto,
    /// β-pruning only (Alg. 3.8).
    Off,
    /// B = `OM_Bound` centipawns, for a type that searches to our depth.
    On,
}

// The OM settings' own types live with the OM driver; options only fill them.
pub use crate::search::om::config::{Learning, PolicyValue};

/// What the engine must do after an option changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    /// Nothing beyond storing the value.
    Stored,
    /// Resize the transposition tables.
    ResizeHash,
    /// Clear the transposition tables.
    ClearHash,
    /// (Re)load the Syzygy tables.
    LoadSyzygy,
    /// Load what `EvalFile` names: the embedded net, a net file, or the hand-crafted evaluation.
    LoadNet,
    /// The opponent model changed (reset learning).
    NewModel,
    /// The external opponent engine or its options changed (restart it on first use).
    NewEngine,
    /// Another opponent (or profile directory): the fit starts again from its profile.
    NewOpponent,
    /// `UCI_LimitStrength` or `UCI_Elo` changed (say what it means now).
    Strength,
}

/// Validated option values.
#[derive(Clone, Debug)]
pub struct Options {
    /// Hash in MB (shared by our table and the opponent types' tables).
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations reported.
    pub multipv: usize,
    /// Pondering allowed.
    pub ponder: bool,
    /// Milliseconds kept back for communication.
    pub move_overhead_ms: u64,
    /// Show WDL in info lines.
    pub show_wdl: bool,
    /// Analysis mode.
    pub analyse_mode: bool,
    /// Chess960: FENs with its castling rights, castling written as the king taking its rook.
    pub chess960: bool,
    /// Play below full strength (`UCI_LimitStrength`, at `UCI_Elo`; [`crate::strength`]).
    pub limit_strength: bool,
    /// The rating to play at when `limit_strength` is on.
    pub elo: i64,
    /// The NNUE we play with (`EvalFile`): the embedded net's name (the default; also an
    /// empty value), `hce` for the hand-crafted evaluation, or a net file
    /// ([`crate::nnue::embedded::EvalChoice`]).
    pub eval_file: String,
    /// Syzygy directories (platform path-list syntax).
    pub syzygy_path: String,
    /// Minimum remaining depth for table probes in the search.
    pub syzygy_probe_depth: i32,
    /// Most pieces probed (0: no probes in the search).
    pub syzygy_probe_limit: usize,
    /// Respect the 50-move rule in table results.
    pub syzygy_50_move_rule: bool,
    /// Use our own exact DTM/DTC tables (pawnless, up to four pieces).
    pub exact_tables: bool,
    /// Root driver.
    pub om_mode: OmMode,
    /// Speculative depth s (0: plain α-β).
    pub om_spec_depth: u32,
    /// Opponent depth (0: ours minus the ply).
    pub om_opponent_depth: u32,
    /// Opponent node budget (0: none).
    pub om_opponent_nodes: u64,
    /// Opponent types with probabilities.
    pub om_types: OpponentModel,
    /// The command line of the external engine behind `engine` types (`None`: not set).
    pub om_engine: Option<EngineCommand>,
    /// Options sent to the external engine after its handshake.
    pub om_engine_options: Vec<(String, String)>,
    /// The protocol the external engine speaks.
    pub om_engine_protocol: Protocol,
    /// Who the opponent is (`UCI_Opponent`, xboard `name`/`rating`/`computer`).
    pub opponent: Option<OpponentId>,
    /// Keep fitted models per opponent name between games (`OM_Mode=auto`).
    pub om_profiles: bool,
    /// Where the profiles live (empty: the user's data directory).
    pub om_profile_dir: String,
    /// Opponent probes may use endgame tables.
    pub om_opponent_tablebases: bool,
    /// Enhanced probes: all equal-best moves.
    pub om_ties: bool,
    /// The OM driver's parallel root in deterministic mode (`search::om::parallel`): the same
    /// value and move with any `Threads`, at the cost of the tables' sharing.
    pub om_deterministic: bool,
    /// Replay probes: the opponent's own search repeated with a cleared table.
    pub om_replay: bool,
    /// Root risk control.
    pub om_root_safety: RootSafety,
    /// Margin for `OM_RootSafety=margin`, centipawns.
    pub om_root_margin: i32,
    /// The most contempt (centipawns, either sign) `OM_Mode=auto` may derive from the
    /// opponent's measured drift in earlier games (`search::om::draw_value`); 0 (the default)
    /// turns it off.
    pub om_contempt_ceiling: i32,
    /// Bounded-sum pruning.
    pub om_bounded_sum: BoundedSum,
    /// `OM_PolicyValue`: how PrOM values a root move against a mixed strategy.
    pub om_policy_value: PolicyValue,
    /// The bound B of `OM_BoundedSum=on`, centipawns.
    pub om_bound: i32,
    /// On-line learning.
    pub om_learning: Learning,
    /// Fast learning: reward/punishment size, percent.
    pub om_learning_reward: u32,
    /// Bayes: P_s of formula 6.17, percent.
    pub om_learning_ps: u32,
    /// Bayes: γ of formula 6.19, percent.
    pub om_learning_gamma: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: 50,
            show_wdl: false,
            analyse_mode: false,
            chess960: false,
            limit_strength: false,
            elo: DEFAULT_ELO,
            eval_file: crate::nnue::embedded::FILE_NAME.to_string(),
            syzygy_path: String::new(),
            syzygy_probe_depth: 1,
            syzygy_probe_limit: 7,
            syzygy_50_move_rule: true,
            exact_tables: true,
            om_mode: OmMode::Off,
            om_spec_depth: 2,
            om_opponent_depth: 0,
            om_opponent_nodes: 0,
            om_types: OpponentModel::default(),
            om_engine: None,
            om_engine_options: Vec::new(),
            om_engine_protocol: Protocol::Uci,
            opponent: None,
            om_profiles: true,
            om_profile_dir: String::new(),
            om_opponent_tablebases: true,
            om_ties: true,
            om_deterministic: false,
            om_replay: false,
            om_root_safety: RootSafety::TbOptimal,
            om_root_margin: 50,
            om_contempt_ceiling: 0,
            om_bounded_sum: BoundedSum::Auto,
            om_policy_value: PolicyValue::Search,
            om_bound: 0,
            om_learning: Learning::Off,
            om_learning_reward: 5,
            om_learning_ps: 60,
            om_learning_gamma: 20,
        }
    }
}

fn int(spec: &OptionSpec, value: &str) -> Result<i64, String> {
    let OptionKind::Spin { min, max, .. } = spec.kind else {
        return Err(format!("option {} is not a number", spec.name));
    };
    let v: i64 = value
        .parse()
        .map_err(|_| format!("option {}: '{value}' is not a whole number", spec.name))?;
    if v < min || v > max {
        return Err(format!("option {}: {v} is outside {min}..{max}", spec.name));
    }
    Ok(v)
}

fn boolean(spec: &OptionSpec, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(format!(
            "option {}: '{value}' is not true or false",
            spec.name
        )),
    }
}

fn combo<'v>(spec: &OptionSpec, value: &'v str) -> Result<String, String> {
    let OptionKind::Combo { vars, .. } = spec.kind else {
        return Err(format!("option {} is not a choice", spec.name));
    };
    let v: &'v str = value;
    vars.iter()
        .find(|x| x.eq_ignore_ascii_case(v))
        .map(|x| x.to_string())
        .ok_or_else(|| {
            format!(
                "option {}: '{v}' is not one of {}",
                spec.name,
                vars.join(", ")
            )
        })
}

/// Whether an opponent type shares our own search's transposition table: only one that
/// searches exactly like us (our evaluation, the same tables, no replay). Every other
/// (evaluator, tables, replay) combination gets a table of its own of `Hash/2` MB.
pub fn shares_own_table(eval: crate::opponent::EvalKind, tablebases: bool, replay: bool) -> bool {
    eval == crate::opponent::EvalKind::Full && tablebases && !replay
}

impl Options {
    /// How many opponent-type tables the engine holds for these options (0 when the
    /// opponent model is off); used to split a memory budget.
    pub fn opponent_tables(&self) -> usize {
        if self.om_mode == OmMode::Off || self.om_spec_depth == 0 {
            return 0;
        }
        let mut keys = Vec::new();
        for t in &self.om_types.types {
            if t.eval == crate::opponent::EvalKind::Engine {
                // An external engine keeps its own memory.
                continue;
            }
            let key = (
                t.eval,
                t.net.clone(),
                t.tablebases && self.om_opponent_tablebases,
                self.om_replay,
            );
            if !shares_own_table(key.0, key.2, key.3) && !keys.contains(&key) {
                keys.push(key);
            }
        }
        keys.len()
    }

    /// Sets option `name` (case-insensitive) to `value`.
    ///
    /// # Errors
    /// Unknown option or bad value; nothing changes then.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Applied, String> {
        let spec = option_specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| format!("unknown option '{}'", name.trim()))?;
        let value = value.map(str::trim).unwrap_or("");
        let s = &spec;
        let applied = match spec.name {
            "Hash" => {
                self.hash_mb = int(s, value)? as usize;
                Applied::ResizeHash
            }
            "Threads" => {
                self.threads = int(s, value)? as usize;
                Applied::Stored
            }
            "MultiPV" => {
                self.multipv = int(s, value)? as usize;
                Applied::Stored
            }
            "Ponder" => {
                self.ponder = boolean(s, value)?;
                Applied::Stored
            }
            "Move Overhead" => {
                self.move_overhead_ms = int(s, value)? as u64;
                Applied::Stored
            }
            "Clear Hash" => Applied::ClearHash,
            "UCI_ShowWDL" => {
                self.show_wdl = boolean(s, value)?;
                Applied::Stored
            }
            "UCI_Chess960" => {
                self.chess960 = boolean(s, value)?;
                Applied::Stored
            }
            "UCI_LimitStrength" => {
                self.limit_strength = boolean(s, value)?;
                Applied::Strength
            }
            "UCI_Elo" => {
                self.elo = int(s, value)?;
                Applied::Strength
            }
            "UCI_AnalyseMode" => {
                self.analyse_mode = boolean(s, value)?;
                Applied::Stored
            }
            "EvalFile" => {
                self.eval_file = if value == "<empty>" {
                    String::new()
                } else {
                    value.to_string()
                };
                Applied::LoadNet
            }
            "SyzygyPath" => {
                self.syzygy_path = if value == "<empty>" {
                    String::new()
                } else {
                    value.to_string()
                };
                Applied::LoadSyzygy
            }
            "SyzygyProbeDepth" => {
                self.syzygy_probe_depth = int(s, value)? as i32;
                Applied::Stored
            }
            "SyzygyProbeLimit" => {
                self.syzygy_probe_limit = int(s, value)? as usize;
                Applied::Stored
            }
            "ExactTables" => {
                self.exact_tables = boolean(s, value)?;
                Applied::LoadSyzygy
            }
            "Syzygy50MoveRule" => {
                self.syzygy_50_move_rule = boolean(s, value)?;
                Applied::LoadSyzygy
            }
            "OM_Mode" => {
                self.om_mode = match combo(s, value)?.as_str() {
                    "om" => OmMode::Om,
                    "prom" => OmMode::Prom,
                    "auto" => OmMode::Auto,
                    _ => OmMode::Off,
                };
                Applied::Stored
            }
            "OM_SpeculationDepth" => {
                self.om_spec_depth = int(s, value)? as u32;
                Applied::Stored
            }
            "OM_OpponentDepth" => {
                self.om_opponent_depth = int(s, value)? as u32;
                Applied::Stored
            }
            "OM_OpponentNodes" => {
                self.om_opponent_nodes = int(s, value)? as u64;
                Applied::Stored
            }
            "OM_OpponentTypes" => {
                let model: OpponentModel = value
                    .parse()
                    .map_err(|e| format!("option OM_OpponentTypes: {e}; model unchanged"))?;
                if model.types.len() > crate::search::om::MAX_TYPES {
                    return Err(format!(
                        "option OM_OpponentTypes: at most {} types",
                        crate::search::om::MAX_TYPES
                    ));
                }
                self.om_types = model;
                Applied::NewModel
            }
            "OM_OpponentEngine" => {
                self.om_engine = match value {
                    "" | "<empty>" => None,
                    v => Some(
                        v.parse()
                            .map_err(|e| format!("option OM_OpponentEngine: {e}"))?,
                    ),
                };
                Applied::NewEngine
            }
            "OM_OpponentEngineOptions" => {
                self.om_engine_options = match value {
                    "<empty>" => Vec::new(),
                    v => parse_engine_options(v)
                        .map_err(|e| format!("option OM_OpponentEngineOptions: {e}"))?,
                };
                Applied::NewEngine
            }
            "OM_OpponentEngineProtocol" => {
                self.om_engine_protocol = match combo(s, value)?.as_str() {
                    "xboard" => Protocol::Xboard,
                    _ => Protocol::Uci,
                };
                Applied::NewEngine
            }
            "UCI_Opponent" => {
                self.opponent = match value {
                    "" | "<empty>" => None,
                    v => Some(v.parse().map_err(|e| format!("option UCI_Opponent: {e}"))?),
                };
                Applied::NewOpponent
            }
            "OM_Profiles" => {
                self.om_profiles = boolean(s, value)?;
                Applied::Stored
            }
            "OM_ProfileDir" => {
                self.om_profile_dir = if value == "<empty>" {
                    String::new()
                } else {
                    value.to_string()
                };
                Applied::NewOpponent
            }
            "OM_OpponentTablebases" => {
                self.om_opponent_tablebases = boolean(s, value)?;
                Applied::Stored
            }
            "OM_OpponentReplay" => {
                self.om_replay = boolean(s, value)?;
                Applied::Stored
            }
            "OM_Deterministic" => {
                self.om_deterministic = boolean(s, value)?;
                Applied::Stored
            }
            "OM_Ties" => {
                self.om_ties = boolean(s, value)?;
                Applied::Stored
            }
            "OM_RootSafety" => {
                self.om_root_safety = match combo(s, value)?.as_str() {
                    "none" => RootSafety::None,
                    "margin" => RootSafety::Margin,
                    _ => RootSafety::TbOptimal,
                };
                Applied::Stored
            }
            "OM_RootMargin" => {
                self.om_root_margin = int(s, value)? as i32;
                Applied::Stored
            }
            "OM_ContemptCeiling" => {
                self.om_contempt_ceiling = int(s, value)? as i32;
                Applied::Stored
            }
            "OM_BoundedSum" => {
                self.om_bounded_sum = match combo(s, value)?.as_str() {
                    "off" => BoundedSum::Off,
                    "on" => BoundedSum::On,
                    _ => BoundedSum::Auto,
                };
                Applied::Stored
            }
            "OM_PolicyValue" => {
                self.om_policy_value = match combo(s, value)?.as_str() {
                    "engine" => PolicyValue::Engine,
                    _ => PolicyValue::Search,
                };
                Applied::Stored
            }
            "OM_Bound" => {
                self.om_bound = int(s, value)? as i32;
                Applied::Stored
            }
            "OM_Learning" => {
                self.om_learning = match combo(s, value)?.as_str() {
                    "fast" => Learning::Fast,
                    "bayes" => Learning::Bayes,
                    _ => Learning::Off,
                };
                Applied::NewModel
            }
            "OM_LearningReward" => {
                self.om_learning_reward = int(s, value)? as u32;
                Applied::Stored
            }
            "OM_LearningPs" => {
                self.om_learning_ps = int(s, value)? as u32;
                Applied::Stored
            }
            "OM_LearningGamma" => {
                self.om_learning_gamma = int(s, value)? as u32;
                Applied::Stored
            }
            other => return Err(format!("option {other} is not handled")),
        };
        Ok(applied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_announced_option_can_be_set_to_its_default() {
        for spec in option_specs() {
            let mut o = Options::default();
            let v = match &spec.kind {
                OptionKind::Spin { default, .. } => default.to_string(),
                OptionKind::Check { default } => default.to_string(),
                OptionKind::Combo { default, .. } => default.to_string(),
                OptionKind::Str { default } => default.to_string(),
                OptionKind::Button => String::new(),
            };
            o.set(spec.name, Some(&v))
                .unwrap_or_else(|e| panic!("{}: {e}", spec.name));
        }
    }

    #[test]
    fn bad_values_keep_the_old_value() {
        let mut o = Options::default();
        assert!(o.set("Hash", Some("abc")).is_err());
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("OM_Mode", Some("sometimes")).is_err());
        assert!(
            o.set("OM_OpponentTypes", Some("self:0.4,material:0.4"))
                .is_err()
        );
        assert!(o.set("Nope", Some("1")).is_err());
        assert_eq!(o.hash_mb, 16);
        assert_eq!(o.om_types, OpponentModel::default());
        assert!(o.set("OM_OpponentEngineOptions", Some("Threads")).is_err());
        assert!(o.set("OM_OpponentEngine", Some("\"unterminated")).is_err());
        assert_eq!(o.om_engine, None);
        assert_eq!(
            o.set("OM_OpponentEngine", Some("stockfish --flag")),
            Ok(Applied::NewEngine)
        );
        assert_eq!(o.om_engine.as_ref().map(|c| c.args.len()), Some(1));
        assert!(o.set("UCI_Opponent", Some("XM 2800 human X")).is_err());
        assert_eq!(o.opponent, None);
        assert_eq!(
            o.set("UCI_Opponent", Some("GM 2800 human Gary Kasparov")),
            Ok(Applied::NewOpponent)
        );
        assert_eq!(o.opponent.as_ref().map(|p| p.elo), Some(Some(2800)));
        assert_eq!(o.set("om_mode", Some("PROM")), Ok(Applied::Stored));
        assert_eq!(o.om_mode, OmMode::Prom);
    }
}
