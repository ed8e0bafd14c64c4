//! The opponent model: opponent *types* with probabilities, parsed and validated once.
//!
//! An opponent type (Donkers 2003 §6.1) is an evaluation function plus the search limits
//! its owner plays with (depth or nodes) and whether it sees endgame tables. OM search uses
//! one type (§2.3); PrOM search a mixture with probabilities Pr(ω_i) (§6.2), type 0 being
//! our own evaluation by convention (§6.1.3). The spec grammar, as in `docs/options.md`:
//!
//! ```text
//! spec  := type ("," type)*
//! type  := evaluator ":" probability (":" limit)*
//! limit := "depth=" N | "nodes=" N | "movetime=" MS | "tb=" ("on"|"off")
//!          | "skill=" L | "tau=" CP | "file=" PATH   (nnue types; last, PATH taken whole)
//! ```
//!
//! e.g. `self:0.5,material:0.3:depth=4,self:0.2:tb=off`. Evaluators: `self` (our own
//! evaluation: the network of `EvalFile` when one is loaded, else the hand-crafted one),
//! `hce` (the hand-crafted evaluation), `nnue` (the network of `EvalFile`, or of its own
//! `file=PATH`: any net file, e.g. an older generation as the opponent), `material`,
//! `notb` (short for `self` with `tb=off`), and `engine`: the
//! external UCI engine of the option `OM_OpponentEngine`, asked for its move with `go nodes
//! N`, `go depth N` or `go movetime MS` (at most one of them; none: [`DEFAULT_ENGINE_NODES`]
//! nodes unless `OM_Search`'s `nodes`/`depth` say otherwise) — the model of the
//! opponent can then be the opponent program itself. `movetime` is for engine types only,
//! `tb` for our own searches only. `skill=L` and `tau=CP` make an engine type a *mixed
//! strategy* ([`Policy`]): the engine's MultiPV lines (its option `MultiPV`) are the moves
//! the opponent may play, with probabilities from their scores. A single type may omit the probability
//! (`material:depth=3` or just `material`). Probabilities must be ≥ 0 and sum to 1 (±1e-6).

use std::fmt;
use std::str::FromStr;

/// The evaluators an opponent type can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// Our own evaluation, whichever we play with: the network of `EvalFile` when one is
    /// loaded, else the hand-crafted [`crate::eval::FullEval`].
    Full,
    /// The hand-crafted evaluation ([`crate::eval::FullEval`]), also while we play with a
    /// network.
    Hce,
    /// The network of `EvalFile` ([`crate::eval::NnueEval`]); a type of it leaves the model
    /// (with a message) while no network is loaded.
    Nnue,
    /// Material only ([`crate::eval::MaterialEval`]).
    Material,
    /// Not an evaluator of ours: the external UCI engine of `OM_OpponentEngine`
    /// ([`crate::external`]), asked for its move at each MIN node.
    Engine,
}

/// The node budget of an `engine` type that names no limit of its own.
pub const DEFAULT_ENGINE_NODES: u64 = 20_000;

impl EvalKind {
    /// The name used in specs.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Full => "self",
            EvalKind::Hce => "hce",
            EvalKind::Nnue => "nnue",
            EvalKind::Material => "material",
            EvalKind::Engine => "engine",
        }
    }
}

/// How an opponent whose moves are random picks among an engine's MultiPV lines chooses
/// (Donkers 2003 ch. 6: PrOM takes the expectation over the opponent's choices; here the
/// probabilities of the choices come from the engine's own scores).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Policy {
    /// Stockfish's `Skill Level` pick (`UCI_LimitStrength` sets the level from `UCI_Elo`):
    /// each line's score plus a deterministic push toward the best and a random term, the
    /// highest sum is played ([`crate::search::om::policy`]). The level, 0..20.
    Skill(f64),
    /// A softmax over the lines' scores with this temperature in centipawns: line j is
    /// played with probability ∝ exp((s_j − s_1) / τ).
    Softmax(u32),
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::Skill(l) => write!(f, "skill={l}"),
            Policy::Softmax(t) => write!(f, "tau={t}"),
        }
    }
}

/// One opponent type.
#[derive(Clone, Debug, PartialEq)]
pub struct OpponentType {
    /// Its evaluation.
    pub eval: EvalKind,
    /// Its probability Pr(ω).
    pub probability: f64,
    /// Fixed search depth of the opponent (plies), if known.
    pub depth: Option<u32>,
    /// Fixed node budget of the opponent, if known.
    pub nodes: Option<u64>,
    /// Fixed time per move in milliseconds (engine types only).
    pub movetime: Option<u64>,
    /// Whether the opponent uses endgame tables.
    pub tablebases: bool,
    /// Engine types only: the opponent plays a random pick among the engine's MultiPV
    /// lines by this rule (`None`: the engine's best move).
    pub policy: Option<Policy>,
    /// `nnue` types only: the net file of this type (`None`: the network of `EvalFile`).
    pub net: Option<String>,
}

/// A validated set of opponent types.
#[derive(Clone, Debug, PartialEq)]
pub struct OpponentModel {
    /// The types; probabilities sum to 1.
    pub types: Vec<OpponentType>,
}

impl Default for OpponentModel {
    /// One type: our own evaluation with tables, same depth as ours.
    fn default() -> Self {
        OpponentModel {
            types: vec![OpponentType {
                eval: EvalKind::Full,
                probability: 1.0,
                depth: None,
                nodes: None,
                movetime: None,
                tablebases: true,
                policy: None,
                net: None,
            }],
        }
    }
}

fn parse_type(text: &str, single: bool) -> Result<OpponentType, String> {
    // A net file comes last and is taken whole (a path may hold ':', as `C:\nets`).
    let (text, net) = match text.split_once(":file=") {
        Some((head, path)) => {
            let path = path.trim();
            if path.is_empty() {
                return Err(format!("type '{text}': file= needs a path"));
            }
            (head, Some(path.to_string()))
        }
        None => (text, None),
    };
    let mut parts = text.split(':').map(str::trim);
    let name = parts.next().unwrap_or("");
    let (eval, mut tablebases) = match name {
        "self" | "full" => (EvalKind::Full, true),
        "notb" => (EvalKind::Full, false),
        "material" => (EvalKind::Material, true),
        "hce" => (EvalKind::Hce, true),
        "nnue" => (EvalKind::Nnue, true),
        "engine" => (EvalKind::Engine, false),
        "" => return Err("empty opponent type".into()),
        other => {
            return Err(format!(
                "unknown evaluator '{other}' (known: self, material, notb, hce, nnue, engine)"
            ));
        }
    };
    let mut probability = None;
    let mut depth = None;
    let mut nodes = None;
    let mut movetime = None;
    let mut policy = None;
    for p in parts {
        if let Some(v) = p.strip_prefix("depth=") {
            let d: u32 = v
                .parse()
                .map_err(|_| format!("'{p}': depth must be a whole number"))?;
            if !(1..=64).contains(&d) {
                return Err(format!("'{p}': depth must be 1..64"));
            }
            depth = Some(d);
        } else if let Some(v) = p.strip_prefix("nodes=") {
            let n: u64 = v
                .parse()
                .map_err(|_| format!("'{p}': nodes must be a whole number"))?;
            if n == 0 {
                return Err(format!("'{p}': nodes must be positive"));
            }
            nodes = Some(n);
        } else if let Some(v) = p.strip_prefix("movetime=") {
            if eval != EvalKind::Engine {
                return Err(format!("'{p}': movetime is for engine types only"));
            }
            let ms: u64 = v
                .parse()
                .map_err(|_| format!("'{p}': movetime must be a whole number of ms"))?;
            if !(1..=60_000).contains(&ms) {
                return Err(format!("'{p}': movetime must be 1..60000 ms"));
            }
            movetime = Some(ms);
        } else if let Some(v) = p.strip_prefix("skill=") {
            if eval != EvalKind::Engine {
                return Err(format!("'{p}': skill is for engine types only"));
            }
            let l: f64 = v
                .parse()
                .map_err(|_| format!("'{p}': skill must be a number"))?;
            if !(0.0..=20.0).contains(&l) {
                return Err(format!("'{p}': skill must be 0..20"));
            }
            policy = Some(Policy::Skill(l));
        } else if let Some(v) = p.strip_prefix("tau=") {
            if eval != EvalKind::Engine {
                return Err(format!("'{p}': tau is for engine types only"));
            }
            let t: u32 = v
                .parse()
                .map_err(|_| format!("'{p}': tau must be a whole number of cp"))?;
            if !(1..=10_000).contains(&t) {
                return Err(format!("'{p}': tau must be 1..10000 cp"));
            }
            policy = Some(Policy::Softmax(t));
        } else if let Some(v) = p.strip_prefix("tb=") {
            if eval == EvalKind::Engine {
                return Err(format!(
                    "'{p}': an engine type uses whatever tables its engine has"
                ));
            }
            tablebases = match v {
                "on" | "true" | "1" => true,
                "off" | "false" | "0" => false,
                _ => return Err(format!("'{p}': tb takes on or off")),
            };
        } else if probability.is_none() && !p.contains('=') {
            let x: f64 = p
                .parse()
                .map_err(|_| format!("'{p}' is not a probability"))?;
            if !x.is_finite() || !(0.0..=1.0).contains(&x) {
                return Err(format!("probability {p} is outside 0..1"));
            }
            probability = Some(x);
        } else {
            return Err(format!(
                "'{p}': expected a probability, depth=N, nodes=N, movetime=MS, tb=on|off, \
                 skill=L or tau=CP"
            ));
        }
    }
    let limits = [depth.is_some(), nodes.is_some(), movetime.is_some()];
    if eval == EvalKind::Engine && limits.iter().filter(|&&l| l).count() > 1 {
        return Err(format!(
            "type '{text}': an engine type takes one of depth=, nodes=, movetime="
        ));
    }
    if net.is_some() && eval != EvalKind::Nnue {
        return Err(format!("type '{text}': file= is for nnue types only"));
    }
    if text.contains("skill=") && text.contains("tau=") {
        return Err(format!("type '{text}': skill= and tau= exclude each other"));
    }
    let probability = match probability {
        Some(p) => p,
        None if single => 1.0,
        None => return Err(format!("type '{text}' needs a probability")),
    };
    Ok(OpponentType {
        eval,
        probability,
        depth,
        nodes,
        movetime,
        tablebases,
        policy,
        net,
    })
}

impl OpponentType {
    /// The type in the grammar without its probability, e.g. `self:depth=3` or
    /// `engine:nodes=5000`: its name in fit reports and profiles.
    pub fn spec(&self) -> String {
        let one = OpponentModel {
            types: vec![OpponentType {
                probability: 1.0,
                ..self.clone()
            }],
        }
        .to_string();
        one.replacen(":1", "", 1)
    }
}

impl OpponentModel {
    /// True if any type is the external engine.
    pub fn uses_engine(&self) -> bool {
        self.types.iter().any(|t| t.eval == EvalKind::Engine)
    }
}

impl FromStr for OpponentModel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let items: Vec<&str> = s.split(',').map(str::trim).collect();
        if items.iter().all(|i| i.is_empty()) {
            return Err("empty opponent model".into());
        }
        let single = items.len() == 1;
        let types = items
            .iter()
            .map(|t| parse_type(t, single))
            .collect::<Result<Vec<_>, _>>()?;
        let sum: f64 = types.iter().map(|t| t.probability).sum();
        if (sum - 1.0).abs() > 1e-6 {
            return Err(format!("probabilities sum to {sum}, not 1"));
        }
        Ok(OpponentModel { types })
    }
}

impl fmt::Display for OpponentModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.types.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{}:{}", t.eval.name(), t.probability)?;
            if let Some(d) = t.depth {
                write!(f, ":depth={d}")?;
            }
            if let Some(n) = t.nodes {
                write!(f, ":nodes={n}")?;
            }
            if let Some(ms) = t.movetime {
                write!(f, ":movetime={ms}")?;
            }
            if !t.tablebases && t.eval != EvalKind::Engine {
                write!(f, ":tb=off")?;
            }
            if let Some(p) = t.policy {
                write!(f, ":{p}")?;
            }
            if let Some(n) = &t.net {
                write!(f, ":file={n}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_nnue_type_names_its_own_net_file() {
        let m: OpponentModel = "self:0.5,nnue:0.5:depth=3:file=C:\\nets\\gen0.nnue"
            .parse()
            .unwrap();
        assert_eq!(m.types[1].net.as_deref(), Some("C:\\nets\\gen0.nnue"));
        assert_eq!(m.types[1].depth, Some(3));
        assert_eq!(m.types[0].net, None);
        // The file comes back last in the spec, and the spec parses to the same type.
        let spec = m.types[1].spec();
        assert_eq!(spec, "nnue:depth=3:file=C:\\nets\\gen0.nnue");
        let again: OpponentModel = spec.parse().unwrap();
        assert_eq!(again.types[0].net, m.types[1].net);
        for (bad, says) in [
            ("material:depth=2:file=x.nnue", "nnue types only"),
            ("nnue:depth=2:file= ", "needs a path"),
        ] {
            let e = bad.parse::<OpponentModel>().unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn parses_the_documented_example() {
        let m: OpponentModel = "self:0.5,material:0.3:depth=4,self:0.2:tb=off"
            .parse()
            .unwrap();
        assert_eq!(m.types.len(), 3);
        assert_eq!(m.types[1].eval, EvalKind::Material);
        assert_eq!(m.types[1].depth, Some(4));
        assert!(!m.types[2].tablebases);
        let again: OpponentModel = m.to_string().parse().unwrap();
        assert_eq!(again, m);
        let n: OpponentModel = "self:0.5,material:0.3,notb:0.2".parse().unwrap();
        assert!(!n.types[2].tablebases);
        let one: OpponentModel = "material:depth=3".parse().unwrap();
        assert_eq!(one.types[0].probability, 1.0);
    }

    #[test]
    fn parses_engine_types() {
        let m: OpponentModel = "engine:0.6:nodes=5000,self:0.2,engine:0.2:movetime=30"
            .parse()
            .unwrap();
        assert!(m.uses_engine());
        assert_eq!(m.types[0].eval, EvalKind::Engine);
        assert_eq!(m.types[0].nodes, Some(5000));
        assert_eq!(m.types[2].movetime, Some(30));
        let again: OpponentModel = m.to_string().parse().unwrap();
        assert_eq!(again, m);
        assert_eq!(m.types[0].spec(), "engine:nodes=5000");
        assert_eq!(m.types[1].spec(), "self");
        let mixed: OpponentModel = "engine:0.5:depth=8:skill=7.19,engine:0.5:depth=6:tau=40"
            .parse()
            .unwrap();
        assert_eq!(mixed.types[0].policy, Some(Policy::Skill(7.19)));
        assert_eq!(mixed.types[1].policy, Some(Policy::Softmax(40)));
        assert_eq!(mixed.types[0].spec(), "engine:depth=8:skill=7.19");
        assert_eq!(mixed.to_string().parse::<OpponentModel>().unwrap(), mixed);
        assert_eq!(m.types[0].policy, None);
        let bare: OpponentModel = "engine".parse().unwrap();
        assert_eq!(bare.types[0].eval, EvalKind::Engine);
        assert!(!"self:1".parse::<OpponentModel>().unwrap().uses_engine());
    }

    #[test]
    fn rejects_nonsense_with_a_reason() {
        for bad in [
            "",
            "self:0.5",
            "self:0.5,material:0.6",
            "magic:1",
            "self:-0.5,material:1.5",
            "self:1:depth=0",
            "self:1:depth=x",
            "self:1:nodes=0",
            "self:1:tb=maybe",
            "self:1:colour=red",
            "self:nan",
            "self:0.5,,material:0.5",
            "self:1:movetime=20",
            "engine:1:tb=on",
            "engine:1:movetime=0",
            "engine:1:movetime=abc",
            "engine:1:nodes=100:depth=3",
            "engine:1:depth=3:movetime=10",
            "engines:1",
            "self:1:skill=5",
            "engine:1:skill=21",
            "engine:1:skill=-1",
            "engine:1:skill=x",
            "engine:1:tau=0",
            "engine:1:tau=2.5",
            "engine:1:skill=3:tau=50",
        ] {
            let e = bad.parse::<OpponentModel>();
            assert!(e.is_err(), "accepted '{bad}'");
            assert!(!e.unwrap_err().is_empty());
        }
    }
}
