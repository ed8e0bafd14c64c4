//! The sweep's tunables in one struct, [`KqkrConfig`], recorded with every run
//! (CONTRIBUTING.md: each tunable declared once), and the pieces it is made of: search
//! limits, the fallible K+Q opponent, the K+R side's opponent model, and the start
//! positions (the two Browne–BELLE positions of Donkers 2003 §5.4, Fig. 5.9, built in; any
//! EPD on request).
//!
//! Defaults follow §5.4.2 in spirit: the K+R side searches with the exact tables as its
//! evaluation and knows its opponent perfectly (same evaluator, same depth, same per-game
//! perturbation), the K+Q side searches without tables at a fixed budget with a cleared table
//! before each move, and every (position, speculative depth) cell plays the same numbered
//! games. [`KqkrConfig::quick`] is the two-minute default, [`KqkrConfig::full`] the
//! thesis-sized sweep (12 depths × 20 games × 2 positions).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::opponent::{EvalKind, OpponentModel};
use crate::position::Position;
use crate::rng::mix64;

pub use super::budget::{NodeSpread, SideLimit};

/// The Browne–BELLE start positions (Donkers 2003 Fig. 5.9 and Appendix B).
pub const BROWNE_BELLE: [(&str, &str); 2] = [
    ("Browne-BELLE 1", "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1"),
    ("Browne-BELLE 2", "K2Q4/8/8/8/r7/2k5/8/8 w - - 0 1"),
];

/// Who plays the K+Q side.
#[derive(Clone, Debug, PartialEq)]
pub enum OpponentConfig {
    /// nosce without tables: `eval` plus a per-game perturbation of `amplitude` cp, a
    /// cleared table of `hash_mb` before every move, `limit` per move.
    Builtin {
        /// Its evaluator.
        eval: EvalKind,
        /// Budget per move.
        limit: SideLimit,
        /// Perturbation amplitude (cp); 0 = none (all games alike).
        amplitude: i32,
        /// Table size (MiB), cleared before every move.
        hash_mb: usize,
    },
    /// Any UCI engine, `ucinewgame` before every move.
    Uci {
        /// The executable.
        path: PathBuf,
        /// `setoption` pairs.
        options: Vec<(String, String)>,
        /// Budget per move (`go depth N` / `go nodes N`).
        limit: SideLimit,
        /// Draw each move's node budget around `limit`'s (`--opp-nodes-spread`).
        spread: Option<NodeSpread>,
    },
}

impl OpponentConfig {
    /// The budget per move.
    pub fn limit(&self) -> SideLimit {
        match self {
            OpponentConfig::Builtin { limit, .. } | OpponentConfig::Uci { limit, .. } => *limit,
        }
    }

    /// The per-move node draw and its centre, for a UCI side with a node limit and a spread.
    pub fn node_spread(&self) -> Option<(NodeSpread, u64)> {
        match self {
            OpponentConfig::Uci {
                limit: SideLimit::Nodes(n),
                spread: Some(s),
                ..
            } => Some((*s, *n)),
            _ => None,
        }
    }
}

/// What the model knows about the opponent's per-game perturbation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerturbKnowledge {
    /// The game's own seed (perfect knowledge).
    Game,
    /// Another seed derived from the game's (same amplitude, wrong offsets).
    Other,
    /// No perturbation.
    None,
}

impl FromStr for PerturbKnowledge {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "game" => Ok(PerturbKnowledge::Game),
            "other" => Ok(PerturbKnowledge::Other),
            "none" => Ok(PerturbKnowledge::None),
            _ => Err(format!(
                "'{s}': perturbation knowledge is game, other or none"
            )),
        }
    }
}

impl fmt::Display for PerturbKnowledge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PerturbKnowledge::Game => "game",
            PerturbKnowledge::Other => "other",
            PerturbKnowledge::None => "none",
        })
    }
}

/// One opponent type of the K+R side's model.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelType {
    /// Evaluator, probability, depth/nodes and table use (the `OpponentModel` grammar).
    pub base: crate::opponent::OpponentType,
    /// Which perturbation the type's evaluator carries.
    pub perturb: PerturbKnowledge,
    /// Probe by replaying the opponent's own search (exact at ply 1 for a true model).
    pub replay: bool,
}

/// The K+R side's opponent model.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelConfig {
    /// The types (one: OM search; several: PrOM search).
    pub types: Vec<ModelType>,
}

impl ModelConfig {
    /// Perfect knowledge of a built-in opponent: its evaluator, its budget, its perturbation,
    /// replayed searches without tables.
    pub fn perfect(opponent: &OpponentConfig) -> Self {
        let (eval, limit) = match opponent {
            OpponentConfig::Builtin { eval, limit, .. } => (*eval, *limit),
            OpponentConfig::Uci { limit, .. } => (EvalKind::Full, *limit),
        };
        let perturb = match opponent {
            OpponentConfig::Builtin { .. } => PerturbKnowledge::Game,
            OpponentConfig::Uci { .. } => PerturbKnowledge::None,
        };
        let (depth, nodes) = match limit {
            SideLimit::Depth(d) => (Some(d), None),
            SideLimit::Nodes(n) => (None, Some(n)),
        };
        ModelConfig {
            types: vec![ModelType {
                base: crate::opponent::OpponentType {
                    eval,
                    probability: 1.0,
                    depth,
                    nodes,
                    movetime: None,
                    tablebases: false,
                    policy: None,
                    net: None,
                },
                perturb,
                replay: true,
            }],
        }
    }

    /// True if a type asks the external engine.
    pub fn uses_engine(&self) -> bool {
        self.types.iter().any(|t| t.base.eval == EvalKind::Engine)
    }

    /// True for PrOM search (more than one type).
    pub fn is_prom(&self) -> bool {
        self.types.len() > 1
    }
}

/// Parses `--model SPEC`: the [`OpponentModel`] grammar plus two limits per type,
/// `perturb=game|other|none` (default none) and `replay=on|off` (default off). An
/// `engine` type asks the program of `--opponent-uci` (the command line checks that there
/// is one); without a limit of its own it uses the K+Q side's budget.
impl FromStr for ModelConfig {
    type Err = String;
    fn from_str(spec: &str) -> Result<Self, String> {
        let mut extras = Vec::new();
        let mut plain = Vec::new();
        for item in spec.split(',') {
            let mut perturb = PerturbKnowledge::None;
            let mut replay = false;
            let mut kept = Vec::new();
            for part in item.split(':').map(str::trim) {
                if let Some(v) = part.strip_prefix("perturb=") {
                    perturb = v.parse()?;
                } else if let Some(v) = part.strip_prefix("replay=") {
                    replay = match v {
                        "on" | "true" | "1" => true,
                        "off" | "false" | "0" => false,
                        _ => return Err(format!("'{part}': replay takes on or off")),
                    };
                } else {
                    kept.push(part);
                }
            }
            extras.push((perturb, replay));
            plain.push(kept.join(":"));
        }
        let model: OpponentModel = plain.join(",").parse()?;
        for (t, (perturb, _)) in model.types.iter().zip(&extras) {
            if t.eval == EvalKind::Nnue {
                return Err(
                    "the sweep plays with the hand-crafted evaluation: no nnue type (self, hce, material or engine)"
                        .into(),
                );
            }
            if t.eval == EvalKind::Engine && *perturb != PerturbKnowledge::None {
                return Err("an engine type has no perturbation of ours (perturb=none)".into());
            }
        }
        Ok(ModelConfig {
            types: model
                .types
                .into_iter()
                .zip(extras)
                .map(|(base, (perturb, replay))| ModelType {
                    base,
                    perturb,
                    replay,
                })
                .collect(),
        })
    }
}

impl fmt::Display for ModelConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.types.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            let one = OpponentModel {
                types: vec![t.base.clone()],
            };
            write!(f, "{one}:perturb={}", t.perturb)?;
            if t.replay {
                f.write_str(":replay=on")?;
            }
        }
        Ok(())
    }
}

/// A start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartPosition {
    /// Its number (1-based, as in "Browne-BELLE 1").
    pub id: usize,
    /// Its name (EPD `id`).
    pub name: String,
    /// FEN (with move counters).
    pub fen: String,
}

/// The built-in Browne–BELLE positions.
pub fn browne_belle() -> Vec<StartPosition> {
    BROWNE_BELLE
        .iter()
        .enumerate()
        .map(|(i, (name, fen))| StartPosition {
            id: i + 1,
            name: (*name).to_string(),
            fen: (*fen).to_string(),
        })
        .collect()
}

/// Reads an EPD file: four FEN fields, optional operations (`id "name";`). Each position
/// must be a K+Q versus K+R position.
pub fn read_epd(path: &Path) -> Result<Vec<StartPosition>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read positions '{}': {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // FEN move counters may follow the four EPD fields.
        let Some((fen, _)) = crate::position::epd_fen(line, true) else {
            return Err(format!("{}:{}: not an EPD line", path.display(), n + 1));
        };
        Position::from_fen(&fen).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        let id = out.len() + 1;
        let name = line
            .split_once("id \"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map_or_else(|| format!("position {id}"), |(name, _)| name.to_string());
        let p = StartPosition { id, name, fen };
        super::adjudicate::sides(&p.fen)
            .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        out.push(p);
    }
    if out.is_empty() {
        return Err(format!("no positions in '{}'", path.display()));
    }
    Ok(out)
}

/// Every tunable of a sweep. Fields that do not change results (jobs, output folder, shard,
/// progress display) are kept apart from the others in [`KqkrConfig::record`].
#[derive(Clone, Debug, PartialEq)]
pub struct KqkrConfig {
    /// Start positions.
    pub positions: Vec<StartPosition>,
    /// Speculative depths s (0 = plain α-β).
    pub spec_depths: Vec<usize>,
    /// Games per (position, s).
    pub games: usize,
    /// Master seed: every game's seed derives from it, its position and its number.
    pub seed: u64,
    /// The K+R side's budget per move.
    pub kr_limit: SideLimit,
    /// The K+R side's table size (MiB), kept through a game.
    pub kr_hash_mb: usize,
    /// Enhanced probes returning every equal-best move (Alg. 3.5).
    pub ties: bool,
    /// The K+Q side.
    pub opponent: OpponentConfig,
    /// The K+R side's model of it.
    pub model: ModelConfig,
    /// The model's engine types ask with the node budget the K+Q side draws for its reply
    /// (`--model-knows-budget`; needs a node spread).
    pub model_knows_budget: bool,
    /// Parallel games.
    pub jobs: usize,
    /// This run's share of the games: (i, n), 1-based.
    pub shard: Option<(usize, usize)>,
    /// Output folder.
    pub out: PathBuf,
    /// The thesis' reference numbers (`thesis-kqkr.csv`), if given.
    pub reference: Option<PathBuf>,
    /// Directory of the exact tables (`None`: `NOSCE_TABLES`, the user's cache or an existing `tables/`).
    pub tables_dir: Option<PathBuf>,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

impl KqkrConfig {
    /// The quick default sweep (about two minutes on two cores).
    pub fn quick() -> Self {
        let opponent = OpponentConfig::Builtin {
            eval: EvalKind::Full,
            limit: SideLimit::Depth(11),
            amplitude: 20,
            hash_mb: 1,
        };
        KqkrConfig {
            positions: browne_belle(),
            spec_depths: vec![0, 1, 3],
            games: 3,
            seed: 1,
            kr_limit: SideLimit::Depth(5),
            kr_hash_mb: 8,
            ties: true,
            model: ModelConfig::perfect(&opponent),
            model_knows_budget: false,
            opponent,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            shard: None,
            out: default_out_dir(),
            reference: None,
            tables_dir: None,
            progress: true,
        }
    }

    /// The thesis-sized sweep: s = 0..11, 20 games per cell, both positions; the K+Q side
    /// at depth 13, the budget `calibrate` finds (21 % errors, 40 moves at s = 0), the K+R
    /// side at depth 6. With a depth-limited K+R side a speculative depth beyond its
    /// depth − 1 changes nothing (no MIN node deeper is probed), so s ≥ 5 play like s = 5,
    /// and s = 2k like 2k − 1 ([`Self::equivalent_spec_depth`]): four classes of games.
    pub fn full() -> Self {
        let opponent = OpponentConfig::Builtin {
            eval: EvalKind::Full,
            limit: SideLimit::Depth(13),
            amplitude: 20,
            hash_mb: 1,
        };
        KqkrConfig {
            spec_depths: (0..=11).collect(),
            games: 20,
            kr_limit: SideLimit::Depth(6),
            model: ModelConfig::perfect(&opponent),
            opponent,
            ..KqkrConfig::quick()
        }
    }

    /// The seed of game `game` (0-based) from position `pos_id`. The same for every s:
    /// the cells of a position play against the same sequence of opponents (common random
    /// numbers), so differences between depths come from the K+R side's play.
    pub fn game_seed(&self, pos_id: usize, game: usize) -> u64 {
        mix64(self.seed ^ mix64((pos_id as u64) << 32 | game as u64))
    }

    /// The result-determining settings as `key = value` lines (also the resume check).
    pub fn record(&self) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = Vec::new();
        let mut put = |k: &str, val: String| v.push((k.to_string(), val));
        for p in &self.positions {
            put(
                &format!("position.{}", p.id),
                format!("{} | {}", p.name, p.fen),
            );
        }
        put(
            "spec_depths",
            self.spec_depths
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(","),
        );
        put("games", self.games.to_string());
        put("seed", self.seed.to_string());
        put("kr.limit", self.kr_limit.to_string());
        put("kr.hash_mb", self.kr_hash_mb.to_string());
        put(
            "kr.eval",
            "tables (exact DTM/DTC, TableEval + WDL probes)".into(),
        );
        put("kr.root", "DTM-optimal moves only (§5.4.1)".into());
        put("kr.ties", self.ties.to_string());
        match &self.opponent {
            OpponentConfig::Builtin {
                eval,
                limit,
                amplitude,
                hash_mb,
            } => {
                put("opponent", "builtin (nosce, no tables)".into());
                put("opponent.eval", eval.name().into());
                put("opponent.limit", limit.to_string());
                put("opponent.perturb_cp", amplitude.to_string());
                put("opponent.hash_mb", hash_mb.to_string());
            }
            OpponentConfig::Uci {
                path,
                options,
                limit,
                spread,
            } => {
                put("opponent", format!("uci {}", path.display()));
                for (k, val) in options {
                    put(&format!("opponent.option.{k}"), val.clone());
                }
                put("opponent.limit", limit.to_string());
                if let Some(f) = spread {
                    put("opponent.nodes_spread", f.to_string());
                }
            }
        }
        put("model", self.model.to_string());
        put(
            "model.mode",
            if self.model.is_prom() { "prom" } else { "om" }.into(),
        );
        if self.model_knows_budget {
            put("model.knows_budget", "on".into());
        }
        v
    }

    /// The speculative depth that plays exactly like `s` with this K+R budget (Alg. 3.6):
    /// MIN nodes lie at odd plies, so s = 2k and s = 2k − 1 speculate in the same nodes; with
    /// a depth limit D no MIN node deeper than ply D − 1 is probed, so every s beyond the
    /// deepest odd ply below D plays like that ply. `s` itself under a node limit (the depth
    /// reached varies) and for s = 0 (plain α-β, not the driver).
    pub fn equivalent_spec_depth(&self, s: usize) -> usize {
        let SideLimit::Depth(d) = self.kr_limit else {
            return s;
        };
        let deepest_min = match d as usize {
            0 | 1 => return s,
            d if d.is_multiple_of(2) => d - 1,
            d => d - 2,
        };
        if s == 0 {
            return 0;
        }
        let odd = if s.is_multiple_of(2) { s - 1 } else { s };
        odd.min(deepest_min)
    }

    /// The games of this run: (position index, s, game index), sharded round-robin.
    pub fn jobs_list(&self) -> Vec<(usize, usize, usize)> {
        let mut all = Vec::new();
        for (pi, _) in self.positions.iter().enumerate() {
            for &s in &self.spec_depths {
                for g in 0..self.games {
                    all.push((pi, s, g));
                }
            }
        }
        match self.shard {
            Some((i, n)) => all
                .into_iter()
                .enumerate()
                .filter(|(k, _)| k % n == i - 1)
                .map(|(_, j)| j)
                .collect(),
            None => all,
        }
    }
}

/// `runs/kqkr-<unix seconds>` under the working directory.
pub fn default_out_dir() -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    PathBuf::from("runs").join(format!("kqkr-{secs}"))
}

/// The git revision of the working directory, or "unknown".
pub fn git_revision() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_specs_round_trip() {
        let m: ModelConfig = "self:0.7:depth=4:tb=off:perturb=game:replay=on,material:0.3"
            .parse()
            .unwrap();
        assert_eq!(m.types.len(), 2);
        assert_eq!(m.types[0].perturb, PerturbKnowledge::Game);
        assert!(m.types[0].replay && !m.types[1].replay);
        assert_eq!(m.to_string().parse::<ModelConfig>().unwrap(), m);
        assert!("self:perturb=maybe".parse::<ModelConfig>().is_err());
        assert!("self:replay=x".parse::<ModelConfig>().is_err());
        let e: ModelConfig = "engine:1:nodes=900:replay=on".parse().unwrap();
        assert!(e.uses_engine() && e.types[0].replay);
        assert_eq!(e.types[0].base.nodes, Some(900));
        assert_eq!(e.to_string().parse::<ModelConfig>().unwrap(), e);
        assert!("engine:1:perturb=game".parse::<ModelConfig>().is_err());
    }

    #[test]
    fn limits_parse() {
        assert_eq!("depth=5".parse(), Ok(SideLimit::Depth(5)));
        assert_eq!("nodes=900".parse(), Ok(SideLimit::Nodes(900)));
        assert!("depth=0".parse::<SideLimit>().is_err());
        assert!("time=3".parse::<SideLimit>().is_err());
    }

    #[test]
    fn shards_partition_the_games() {
        let mut c = KqkrConfig::quick();
        let all = c.jobs_list();
        let mut joined = Vec::new();
        for i in 1..=3 {
            c.shard = Some((i, 3));
            joined.extend(c.jobs_list());
        }
        joined.sort_unstable();
        let mut sorted = all.clone();
        sorted.sort_unstable();
        assert_eq!(joined, sorted);
    }
}
