//! What a tournament run plays: the evaluators (Donkers, van den Herik, Uiterwijk, *OM
//! Search in Bao*, §4: five evaluation functions of increasing quality), the treatments of
//! South (§5–6: the seven tournaments, T1–T7, and the budget variants that ask the clock's
//! question), North's search (α-β at depth D, or a node budget N, from a cleared table so
//! that a replay probe predicts it exactly), the openings and the run's folder. Every
//! tunable of the experiment is declared here, once.

use std::path::PathBuf;
use std::sync::Arc;

use crate::eval::NnueEval;
use crate::eval::{Evaluator, FullEval, MaterialEval};
use crate::nnue::Network;

/// Depth of North's α-β search when none is given (the paper's: 6).
pub const DEFAULT_DEPTH: u32 = 6;
/// Extra own depth of the extended treatments (the paper's: 2).
pub const DEFAULT_EXTRA: u32 = 2;
/// Plies of speculation of the OM treatments (the paper's: 1).
pub const DEFAULT_SPEC: usize = 1;
/// Transposition table of every search of a game, MiB (North's and the replay probe's must
/// be the same size for the replay to be exact; one size for all keeps that true).
pub const DEFAULT_HASH_MB: usize = 8;
/// A game still running after this many plies is adjudicated a draw.
pub const DEFAULT_MAX_PLIES: usize = 400;
/// Every this many South moves of a T1 game, the position is kept as an admissibility
/// sample (0: none).
pub const DEFAULT_SAMPLE_EVERY: usize = 4;
/// The quick default: evaluators, depth, games per pairing, treatments.
pub const QUICK_GAMES: usize = 4;
/// The quick default's North depth.
pub const QUICK_DEPTH: u32 = 4;

/// An evaluator named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalSpec {
    /// Material only.
    Material,
    /// The hand-crafted evaluation.
    Hce,
    /// The net compiled into the binary.
    Embedded,
    /// A net file.
    Net(PathBuf),
}

impl EvalSpec {
    /// Parses `material`, `hce`, `net` (the embedded net) or `net:PATH`.
    pub fn parse(text: &str) -> Result<EvalSpec, String> {
        let t = text.trim();
        match t {
            "material" => Ok(EvalSpec::Material),
            "hce" => Ok(EvalSpec::Hce),
            "net" | "nnue" => Ok(EvalSpec::Embedded),
            _ => match t.split_once(':') {
                Some(("net" | "nnue", path)) if !path.trim().is_empty() => {
                    Ok(EvalSpec::Net(PathBuf::from(path.trim())))
                }
                _ => Err(format!(
                    "unknown evaluator '{t}' (material, hce, net, or net:PATH)"
                )),
            },
        }
    }

    /// How it is written on the command line.
    pub fn spec(&self) -> String {
        match self {
            EvalSpec::Material => "material".into(),
            EvalSpec::Hce => "hce".into(),
            EvalSpec::Embedded => "net".into(),
            EvalSpec::Net(p) => format!("net:{}", p.display()),
        }
    }

    /// Builds the evaluator.
    ///
    /// # Errors
    /// A net file that cannot be read or is not a net.
    pub fn build(&self) -> Result<Arc<dyn Evaluator>, String> {
        Ok(match self {
            EvalSpec::Material => Arc::new(MaterialEval),
            EvalSpec::Hce => Arc::new(FullEval::default()),
            EvalSpec::Embedded => Arc::new(NnueEval::new(crate::nnue::embedded::network()?)),
            EvalSpec::Net(p) => Arc::new(NnueEval::new(
                Network::load(p).map_err(|e| format!("{}: {e}", p.display()))?,
            )),
        })
    }
}

/// A player: an evaluator with a short label for the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Label (`material`, `hce`, `gen0`, ...).
    pub label: String,
    /// The evaluator.
    pub eval: EvalSpec,
}

/// Parses `--evals`: `SPEC[=LABEL]` items separated by commas, e.g.
/// `material,net:a.nnue=gen0,hce`. Labels default to the spec (a net file: its file stem).
pub fn parse_players(text: &str) -> Result<Vec<Player>, String> {
    let mut out: Vec<Player> = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (spec, label) = match item.rsplit_once('=') {
            Some((s, l)) if !l.trim().is_empty() => (s, Some(l.trim().to_string())),
            _ => (item, None),
        };
        let eval = EvalSpec::parse(spec)?;
        let label = label.unwrap_or_else(|| match &eval {
            EvalSpec::Net(p) => p
                .file_stem()
                .map_or_else(|| eval.spec(), |s| s.to_string_lossy().into_owned()),
            e => e.spec(),
        });
        if label.contains([',', '"', ' ']) {
            return Err(format!(
                "label '{label}' may not contain commas, quotes or spaces"
            ));
        }
        if out.iter().any(|p| p.label == label) {
            return Err(format!("two evaluators are labelled '{label}'"));
        }
        out.push(Player { label, eval });
    }
    if out.len() < 2 {
        return Err("a tournament needs at least two evaluators (--evals A,B,...)".into());
    }
    Ok(out)
}

/// How South predicts North in an OM treatment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prediction {
    /// α-β probes with North's evaluator reaching North's horizon from our root: one ply
    /// short of the search North runs when it moves (§2.2, the third risk), equal-best
    /// replies broken by our lowest value (§5).
    Probe,
    /// North's own search, replayed: same depth (or budget), a cleared table of the same
    /// size, default settings — exact at the first ply.
    Replay,
}

/// A budget per move: a depth or a node count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Fixed depth.
    Depth(u32),
    /// Node count (iterative deepening until spent).
    Nodes(u64),
}

impl Budget {
    /// Search limits for it.
    pub fn limits(self) -> crate::limits::Limits {
        match self {
            Budget::Depth(d) => crate::limits::Limits::depth(d),
            Budget::Nodes(n) => crate::limits::Limits::nodes(n),
        }
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Depth(d) => write!(f, "depth {d}"),
            Budget::Nodes(n) => write!(f, "{n} nodes"),
        }
    }
}

/// South's opponent-model settings in a treatment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OmTreatment {
    /// How North is predicted.
    pub prediction: Prediction,
    /// Strict risk management: deviate from α-β only among moves within this many
    /// centipawns of α-β's value (T7; 0 = equal value).
    pub margin: Option<i32>,
}

/// One tournament: how South searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Treatment {
    /// Short code: `T1`..`T7`, or `B2x10`, `B6x10` (budget runs).
    pub code: String,
    /// The paper's name.
    pub title: String,
    /// South's own budget.
    pub own: Budget,
    /// OM settings; `None`: plain α-β.
    pub om: Option<OmTreatment>,
}

/// The seven tournaments of §6 for North depth `d`, extra depth `extra` and T7's margin.
pub fn paper_treatments(d: u32, extra: u32, margin: i32) -> Vec<Treatment> {
    let t = |code: &str, title: &str, own: u32, om: Option<OmTreatment>| Treatment {
        code: code.into(),
        title: title.into(),
        own: Budget::Depth(own),
        om,
    };
    let om = |prediction, margin| Some(OmTreatment { prediction, margin });
    vec![
        t("T1", "alpha-beta plain", d, None),
        t("T2", "alpha-beta extended", d + extra, None),
        t("T3", "OM plain", d, om(Prediction::Probe, None)),
        t("T4", "OM extended", d + extra, om(Prediction::Probe, None)),
        t(
            "T5",
            "OM perfect prediction",
            d,
            om(Prediction::Replay, None),
        ),
        t("T6", "OM perfect", d + extra, om(Prediction::Replay, None)),
        t(
            "T7",
            "OM strict risk management",
            d,
            om(Prediction::Probe, Some(margin)),
        ),
    ]
}

/// The budget comparison: α-β and OM with exact prediction, each with `k·n` nodes a move
/// against North's `n` (probe nodes counted in South's budget); with `probe_margin`, also OM
/// with exact prediction for the root moves within that many centipawns of α-β's value only
/// (`B6mxK`: fewer replays, the cheaper exact prediction).
pub fn budget_treatments(n: u64, ks: &[u64], probe_margin: Option<i32>) -> Vec<Treatment> {
    let mut out = Vec::new();
    for &k in ks {
        let own = Budget::Nodes(n.saturating_mul(k));
        out.push(Treatment {
            code: format!("B2x{k}"),
            title: format!("alpha-beta with {k}N nodes"),
            own,
            om: None,
        });
        out.push(Treatment {
            code: format!("B6x{k}"),
            title: format!("OM perfect with {k}N nodes"),
            own,
            om: Some(OmTreatment {
                prediction: Prediction::Replay,
                margin: None,
            }),
        });
        if let Some(m) = probe_margin {
            out.push(Treatment {
                code: format!("B6mx{k}"),
                title: format!("OM perfect within {m} cp of alpha-beta with {k}N nodes"),
                own,
                om: Some(OmTreatment {
                    prediction: Prediction::Replay,
                    margin: Some(m),
                }),
            });
        }
    }
    out
}

/// A whole run.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The players, in the order of the tables (increasing quality expected).
    pub players: Vec<Player>,
    /// The treatments played.
    pub treatments: Vec<Treatment>,
    /// North's budget per move.
    pub north: Budget,
    /// Plies of speculation.
    pub spec: usize,
    /// Games per pairing (even: each opening twice, South once with each colour).
    pub games: usize,
    /// Opening file (EPD/FEN lines).
    pub openings: PathBuf,
    /// Seed of the opening choice.
    pub seed: u64,
    /// Parallel games.
    pub jobs: usize,
    /// This shard (index 1..=count, count).
    pub shard: Option<(usize, usize)>,
    /// Run folder.
    pub out: PathBuf,
    /// Table size of every search, MiB.
    pub hash_mb: usize,
    /// Ply cap (draw).
    pub max_plies: usize,
    /// Syzygy directory for adjudication (`None`: rules only).
    pub syzygy: Option<PathBuf>,
    /// Admissibility sample every this many South moves of T1 games (0: none).
    pub sample_every: usize,
    /// Depth of the reference search that stands for the true value of a sample.
    pub truth_depth: u32,
    /// Progress on stderr.
    pub verbose: bool,
}

impl TournamentConfig {
    /// Openings used (games / 2).
    pub fn openings_needed(&self) -> usize {
        self.games / 2
    }

    /// The lines of `config.txt`: what a resumed or merged run must agree with.
    pub fn lines(&self) -> Vec<(String, String)> {
        let mut v = vec![
            (
                "players".to_string(),
                self.players
                    .iter()
                    .map(|p| format!("{}={}", p.eval.spec(), p.label))
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            (
                "treatments".into(),
                self.treatments
                    .iter()
                    .map(|t| t.code.clone())
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            ("north".into(), self.north.to_string()),
            ("spec".into(), self.spec.to_string()),
            ("games".into(), self.games.to_string()),
            ("openings".into(), self.openings.display().to_string()),
            ("seed".into(), self.seed.to_string()),
            ("hash_mb".into(), self.hash_mb.to_string()),
            ("max_plies".into(), self.max_plies.to_string()),
            (
                "syzygy".into(),
                self.syzygy
                    .as_ref()
                    .map_or_else(|| "none".into(), |p| p.display().to_string()),
            ),
            ("sample_every".into(), self.sample_every.to_string()),
            ("truth_depth".into(), self.truth_depth.to_string()),
        ];
        for t in &self.treatments {
            v.push((
                format!("treatment {}", t.code),
                format!(
                    "{}; own {}; {}",
                    t.title,
                    t.own,
                    match t.om {
                        None => "alpha-beta".to_string(),
                        Some(o) => format!(
                            "OM, {:?} prediction{}",
                            o.prediction,
                            o.margin
                                .map_or(String::new(), |m| format!(", margin {m} cp"))
                        ),
                    }
                ),
            ));
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluators_parse_and_bad_ones_are_named() {
        let p = parse_players("material,net:x/gen0.nnue,hce,net=gen2").unwrap();
        let labels: Vec<&str> = p.iter().map(|p| p.label.as_str()).collect();
        assert_eq!(labels, ["material", "gen0", "hce", "gen2"]);
        assert_eq!(p[1].eval, EvalSpec::Net("x/gen0.nnue".into()));
        assert!(parse_players("material").unwrap_err().contains("two"));
        assert!(
            parse_players("material,queen")
                .unwrap_err()
                .contains("queen")
        );
        assert!(parse_players("hce,hce").unwrap_err().contains("labelled"));
        assert!(parse_players("net:,hce").is_err());
    }

    #[test]
    fn the_seven_treatments_follow_the_paper() {
        let t = paper_treatments(6, 2, 0);
        let own: Vec<Budget> = t.iter().map(|t| t.own).collect();
        use Budget::Depth as D;
        assert_eq!(own, [D(6), D(8), D(6), D(8), D(6), D(8), D(6)]);
        assert!(t[0].om.is_none() && t[1].om.is_none());
        assert_eq!(t[4].om.unwrap().prediction, Prediction::Replay);
        assert_eq!(t[6].om.unwrap().margin, Some(0));
        let b = budget_treatments(5000, &[3, 10], None);
        assert_eq!(b.len(), 4);
        assert_eq!(b[3].own, Budget::Nodes(50_000));
        let b = budget_treatments(5000, &[3, 10], Some(50));
        assert_eq!(b.len(), 6);
        assert_eq!(
            (b[5].code.as_str(), b[5].own),
            ("B6mx10", Budget::Nodes(50_000))
        );
        assert_eq!(b[5].om.unwrap().margin, Some(50));
    }
}
