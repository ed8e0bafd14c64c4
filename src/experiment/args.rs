//! The `nosce kqkr` command line (clap: help, errors and defaults from one declaration;
//! the lab's commands use clap, the engine's own — `bench`, `perft`, `tb`, `solve` — keep
//! small hand-written parsers so that the engine binary built without the lab carries no
//! command-line crate), parsed into a [`Command`] (bad input is reported with a reason,
//! never a panic). Run options build a [`KqkrConfig`] on top of the quick default (or
//! `--full`, the thesis-sized sweep of Donkers 2003 §5.4.2).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::lab_args::{self, Parsed};

use super::config::{
    KqkrConfig, ModelConfig, NodeSpread, OpponentConfig, PerturbKnowledge, SideLimit, read_epd,
};
use crate::opponent::EvalKind;

/// A list of depths, one value on the command line (an alias, so that clap does not read
/// a `Vec` as a repeated option).
type Depths = Vec<usize>;
/// `calibrate --candidates`'s depths.
type Candidates = Vec<u32>;

/// `nosce kqkr`.
#[derive(Parser, Debug)]
#[command(
    name = "nosce kqkr",
    args_override_self = true,
    about = "The KQKR opponent-modelling experiment of Donkers 2003 §5.4: a K+R side with \
perfect knowledge and an opponent model against a fallible K+Q side, from the Browne-BELLE \
positions",
    after_help = "Quick sweep (about two minutes on 2 cores): nosce kqkr\n  \
s = 0,1,3, 3 games, 2 positions, K+Q depth 11, K+R depth 5\n\
Thesis-sized sweep (about 75 minutes on 2 cores; --shard for array jobs): nosce kqkr --full\n  \
s = 0..11, 20 games, 2 positions, K+Q depth 13, K+R depth 6\n\
Re-running into the same --out folder resumes a run."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
    #[command(flatten)]
    sweep: SweepArgs,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Find the opponent depth whose base case (s = 0) looks like the thesis' (20-25 %
    /// errors, 37-40 moves); takes the sweep options (--games defaults to 4 per position)
    #[command(args_override_self = true)]
    Calibrate {
        /// Opponent depths to try
        #[arg(long, default_value = "10..14", value_parser = parse_candidates)]
        candidates: Candidates,
        #[command(flatten)]
        sweep: Box<SweepArgs>,
    },
    /// Merge the folders of sharded runs
    Merge {
        /// The run folders
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// The merged folder
        #[arg(long)]
        out: PathBuf,
        /// thesis-kqkr.csv format (default: the built-in Tables 5.2-5.4)
        #[arg(long)]
        reference: Option<PathBuf>,
    },
    /// The same tables from any PGN of KQKR games (s from the SpecDepth tag, else
    /// --spec-depth, else 0)
    #[command(alias = "analyse")]
    Analyze {
        /// The PGN file
        pgn: PathBuf,
        /// s for games without a SpecDepth tag
        #[arg(long, short = 's')]
        spec_depth: Option<usize>,
        /// Output folder (default runs/analyze-<time>)
        #[arg(long)]
        out: Option<PathBuf>,
        /// thesis-kqkr.csv format (default: the built-in Tables 5.2-5.4)
        #[arg(long)]
        reference: Option<PathBuf>,
        /// Exact table directory
        #[arg(long)]
        tables: Option<PathBuf>,
    },
}

/// The options of a sweep (and of `calibrate`).
#[derive(Args, Debug)]
struct SweepArgs {
    /// The thesis-sized sweep (s = 0..11, 20 games, K+Q depth 13, K+R depth 6)
    #[arg(long)]
    full: bool,
    /// Speculative depths, e.g. 0,1,2 or 0..11 (0 = plain alpha-beta)
    #[arg(long, value_name = "LIST", value_parser = parse_depths)]
    depths: Option<Depths>,
    /// Games per position and depth
    #[arg(long, value_name = "N", value_parser = games)]
    games: Option<usize>,
    /// EPD of K+Q v K+R start positions (default: Browne-BELLE 1 and 2)
    #[arg(long, value_name = "FILE")]
    positions: Option<PathBuf>,
    /// Master seed (games depend only on it)
    #[arg(long)]
    seed: Option<u64>,
    /// Parallel games (default: available cores)
    #[arg(long, short = 'j', value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// Run folder (default runs/kqkr-<time>); re-running resumes
    #[arg(long, short = 'o', value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play only every N-th game starting at I (array jobs)
    #[arg(long, value_name = "I/N", value_parser = shard)]
    shard: Option<(usize, usize)>,
    /// K+R side: depth per move
    #[arg(long, value_name = "N", conflicts_with = "kr_nodes", value_parser = clap::value_parser!(u32).range(1..))]
    kr_depth: Option<u32>,
    /// K+R side: nodes per move
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    kr_nodes: Option<u64>,
    /// K+R side table size, MiB
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u32).range(1..))]
    kr_hash: Option<u32>,
    /// K+Q side: depth per move
    #[arg(long, value_name = "N", conflicts_with = "opp_nodes", value_parser = clap::value_parser!(u32).range(1..))]
    opp_depth: Option<u32>,
    /// K+Q side: nodes per move
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    opp_nodes: Option<u64>,
    /// K+Q side evaluator: self or material
    #[arg(long, value_name = "E", value_parser = eval_kind)]
    opp_eval: Option<EvalKind>,
    /// K+Q side table size, MiB (cleared before every move)
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u32).range(1..))]
    opp_hash: Option<u32>,
    /// Per-game evaluation perturbation of the K+Q side, cp (0 = none)
    #[arg(long, value_name = "CP", value_parser = clap::value_parser!(i32).range(0..=10_000))]
    perturb: Option<i32>,
    /// A UCI engine plays the K+Q side (ucinewgame before each move)
    #[arg(long, value_name = "PATH")]
    opponent_uci: Option<PathBuf>,
    /// setoption for it (repeatable)
    #[arg(long, value_name = "NAME=VALUE", value_parser = name_value)]
    opponent_option: Vec<(String, String)>,
    /// UCI K+Q side with --opp-nodes N: every move's node budget is drawn from
    /// [N(1-F), N(1+F)], seeded by the game seed and the ply (reproducible); moves.csv
    /// gains a 'budget' column
    #[arg(long, value_name = "F")]
    opp_nodes_spread: Option<NodeSpread>,
    /// The K+R side's model: OpponentModel grammar plus perturb=game|other|none and
    /// replay=on|off per type, e.g. 'notb:0.7:depth=9:perturb=game:replay=on,material:0.3:depth=5';
    /// 'engine:1:nodes=N:replay=on' asks the --opponent-uci program itself
    #[arg(long, value_name = "SPEC")]
    model: Option<ModelConfig>,
    /// Engine types ask with the budget the K+Q side draws for its reply (needs
    /// --opp-nodes-spread), not their own
    #[arg(long)]
    model_knows_budget: bool,
    /// Change the default (perfect) model's depth
    #[arg(long, value_name = "N", conflicts_with = "model_nodes", value_parser = clap::value_parser!(u32).range(1..))]
    model_depth: Option<u32>,
    /// Change the default model's node budget
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    model_nodes: Option<u64>,
    /// Change the default model's evaluator: self or material
    #[arg(long, value_name = "E", value_parser = eval_kind)]
    model_eval: Option<EvalKind>,
    /// Change the default model's perturbation knowledge: game, other or none
    #[arg(long, value_name = "P")]
    model_perturb: Option<PerturbKnowledge>,
    /// Plain OM probes (no equal-best move sets)
    #[arg(long)]
    no_ties: bool,
    /// thesis-kqkr.csv format (default: the built-in Tables 5.2-5.4)
    #[arg(long, value_name = "FILE")]
    reference: Option<PathBuf>,
    /// Exact table directory (default: $NOSCE_TABLES, the cache, ./tables)
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// No progress bar
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Check the options, print how many games the run (or this shard) would play, and
    /// exit without playing
    #[arg(long)]
    check: bool,
}

/// What `nosce kqkr` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Help text to print (not an error).
    Text(String),
    /// Run a sweep.
    Run(Box<KqkrConfig>),
    /// Check a sweep's options (`--check`) without running it.
    Check(Box<KqkrConfig>),
    /// Calibrate the opponent budget over these depths.
    Calibrate(Box<KqkrConfig>, Vec<u32>),
    /// Merge run folders.
    Merge {
        /// The folders.
        dirs: Vec<PathBuf>,
        /// The merged folder.
        out: PathBuf,
        /// Reference file.
        reference: Option<PathBuf>,
    },
    /// Analyse a PGN file.
    Analyze {
        /// The PGN.
        pgn: PathBuf,
        /// s for games without a SpecDepth tag.
        spec_depth: Option<usize>,
        /// Output folder.
        out: PathBuf,
        /// Reference file.
        reference: Option<PathBuf>,
        /// Table directory.
        tables: Option<PathBuf>,
    },
}

/// The largest speculative depth `--depths` accepts.
const MAX_SPEC_DEPTH: usize = 60;

/// Parses a list of depths: `0,1,5` or ranges `0..11` / `0-11`, each at most
/// `MAX_SPEC_DEPTH` (checked before a range is expanded: `0..4000000000000000000` is an
/// error, not an allocation of exabytes — found by `tests/it/fuzz_parsers.rs`).
pub fn parse_depths(s: &str) -> Result<Depths, String> {
    let too_deep = || format!("speculative depths must be at most {MAX_SPEC_DEPTH}");
    let mut out = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let range = part.split_once("..").or_else(|| part.split_once('-'));
        let bad = || format!("'{part}' is not a depth or a range like 0..11");
        match range {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (
                    a.trim().parse().map_err(|_| bad())?,
                    b.trim()
                        .trim_start_matches('=')
                        .parse()
                        .map_err(|_| bad())?,
                );
                if a > b {
                    return Err(bad());
                }
                if b > MAX_SPEC_DEPTH {
                    return Err(too_deep());
                }
                out.extend(a..=b);
            }
            None => out.push(part.parse().map_err(|_| bad())?),
        }
    }
    out.sort_unstable();
    out.dedup();
    if out.is_empty() {
        return Err("empty depth list".into());
    }
    if out.iter().any(|&d| d > MAX_SPEC_DEPTH) {
        return Err(too_deep());
    }
    Ok(out)
}

/// `calibrate --candidates`: depths of at least 1.
fn parse_candidates(s: &str) -> Result<Candidates, String> {
    let out: Vec<u32> = parse_depths(s)?
        .into_iter()
        .filter(|&d| d > 0)
        .map(|d| d as u32)
        .collect();
    if out.is_empty() {
        return Err("--candidates needs depths >= 1".into());
    }
    Ok(out)
}

/// The most games per position and depth `--games` accepts (the game list is built in
/// memory).
const MAX_GAMES: usize = 1_000_000;

fn games(v: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n) if (1..=MAX_GAMES).contains(&n) => Ok(n),
        _ => Err(format!("a whole number 1..={MAX_GAMES}")),
    }
}

fn shard(v: &str) -> Result<(usize, usize), String> {
    let bad = || format!("I/N with 1 <= I <= N, not '{v}'");
    let (i, n) = v.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

fn eval_kind(v: &str) -> Result<EvalKind, String> {
    match v {
        "self" | "full" => Ok(EvalKind::Full),
        "material" => Ok(EvalKind::Material),
        _ => Err("the evaluator is self or material".into()),
    }
}

fn name_value(v: &str) -> Result<(String, String), String> {
    let (k, x) = v
        .split_once('=')
        .ok_or_else(|| "NAME=VALUE (e.g. Hash=16)".to_string())?;
    Ok((k.trim().to_string(), x.trim().to_string()))
}

/// Parses the arguments after `kqkr`.
///
/// # Errors
/// A message naming the bad argument (clap's, or the sweep's own checks).
pub fn parse(args: &[String]) -> Result<Command, String> {
    let cli: Cli = match lab_args::parse("nosce kqkr", args)? {
        Parsed::Args(c) => c,
        Parsed::Text(t) => return Ok(Command::Text(t)),
    };
    match cli.command {
        Some(Sub::Calibrate { candidates, sweep }) => {
            let games = sweep.games;
            let mut cfg = config(*sweep)?;
            cfg.spec_depths = vec![0];
            cfg.games = games.unwrap_or(4);
            Ok(Command::Calibrate(Box::new(cfg), candidates))
        }
        Some(Sub::Merge {
            dirs,
            out,
            reference,
        }) => Ok(Command::Merge {
            dirs,
            out,
            reference,
        }),
        Some(Sub::Analyze {
            pgn,
            spec_depth,
            out,
            reference,
            tables,
        }) => {
            let out = out.unwrap_or_else(|| {
                let mut d = super::config::default_out_dir();
                d.set_file_name(d.file_name().map_or_else(
                    || "analyze".into(),
                    |n| n.to_string_lossy().replace("kqkr-", "analyze-"),
                ));
                d
            });
            Ok(Command::Analyze {
                pgn,
                spec_depth,
                out,
                reference,
                tables,
            })
        }
        None => {
            let check = cli.sweep.check;
            let cfg = Box::new(config(cli.sweep)?);
            Ok(if check {
                Command::Check(cfg)
            } else {
                Command::Run(cfg)
            })
        }
    }
}

/// Builds a sweep's configuration from its options: the quick default (or `--full`) with
/// each given option put in, then the checks that involve several options.
fn config(a: SweepArgs) -> Result<KqkrConfig, String> {
    let mut cfg = if a.full {
        KqkrConfig::full()
    } else {
        KqkrConfig::quick()
    };
    let (mut opp_eval, mut amplitude, mut opp_hash) = (EvalKind::Full, 0, 1);
    if let OpponentConfig::Builtin {
        eval,
        amplitude: am,
        hash_mb,
        ..
    } = &cfg.opponent
    {
        (opp_eval, amplitude, opp_hash) = (*eval, *am, *hash_mb);
    }
    cfg.progress = !a.quiet;
    cfg.ties = !a.no_ties;
    cfg.model_knows_budget = a.model_knows_budget;
    if let Some(d) = a.depths {
        cfg.spec_depths = d;
    }
    if let Some(g) = a.games {
        cfg.games = g;
    }
    if let Some(p) = a.positions {
        cfg.positions = read_epd(&p)?;
    }
    if let Some(s) = a.seed {
        cfg.seed = s;
    }
    if let Some(j) = a.jobs {
        cfg.jobs = j as usize;
    }
    if let Some(o) = a.out {
        cfg.out = o;
    }
    cfg.shard = a.shard;
    if let Some(d) = a.kr_depth {
        cfg.kr_limit = SideLimit::Depth(d);
    }
    if let Some(n) = a.kr_nodes {
        cfg.kr_limit = SideLimit::Nodes(n);
    }
    if let Some(h) = a.kr_hash {
        cfg.kr_hash_mb = h as usize;
    }
    let opp_limit = match (a.opp_depth, a.opp_nodes) {
        (Some(d), _) => SideLimit::Depth(d),
        (_, Some(n)) => SideLimit::Nodes(n),
        _ => cfg.opponent.limit(),
    };
    opp_eval = a.opp_eval.unwrap_or(opp_eval);
    amplitude = a.perturb.unwrap_or(amplitude);
    opp_hash = a.opp_hash.map_or(opp_hash, |h| h as usize);
    let spread = a.opp_nodes_spread;
    if spread.is_some() && !matches!(opp_limit, SideLimit::Nodes(_)) {
        return Err("--opp-nodes-spread needs a node budget (--opp-nodes N)".into());
    }
    cfg.opponent = match a.opponent_uci {
        Some(path) => {
            if !path.exists() {
                return Err(format!("UCI engine '{}' not found", path.display()));
            }
            OpponentConfig::Uci {
                path,
                options: a.opponent_option,
                limit: opp_limit,
                spread,
            }
        }
        None if spread.is_some() => {
            return Err(
                "--opp-nodes-spread is for a UCI K+Q side (--opponent-uci); the built-in one \
                 varies by --perturb"
                    .into(),
            );
        }
        None if !a.opponent_option.is_empty() => {
            return Err("--opponent-option needs --opponent-uci".into());
        }
        None => OpponentConfig::Builtin {
            eval: opp_eval,
            limit: opp_limit,
            amplitude,
            hash_mb: opp_hash,
        },
    };
    let shortcuts = a.model_depth.is_some()
        || a.model_nodes.is_some()
        || a.model_eval.is_some()
        || a.model_perturb.is_some();
    cfg.model = match a.model {
        Some(_) if shortcuts => {
            return Err(
                "--model cannot be combined with --model-depth/-nodes/-eval/-perturb".into(),
            );
        }
        Some(m) => m,
        None => {
            let mut m = ModelConfig::perfect(&cfg.opponent);
            let t = &mut m.types[0];
            if let Some(d) = a.model_depth {
                t.base.depth = Some(d);
                t.base.nodes = None;
            }
            if let Some(n) = a.model_nodes {
                t.base.nodes = Some(n);
                t.base.depth = None;
            }
            if let Some(e) = a.model_eval {
                t.base.eval = e;
            }
            if let Some(p) = a.model_perturb {
                t.perturb = p;
            }
            m
        }
    };
    cfg.reference = a.reference;
    cfg.tables_dir = a.tables;
    if cfg.model.uses_engine() && !matches!(cfg.opponent, OpponentConfig::Uci { .. }) {
        return Err(format!("--model: {}", super::player::ENGINE_NEEDS_UCI));
    }
    if cfg.model_knows_budget && (cfg.opponent.node_spread().is_none() || !cfg.model.uses_engine())
    {
        return Err(
            "--model-knows-budget needs --opp-nodes-spread and an engine type in --model".into(),
        );
    }
    Ok(cfg)
}

#[cfg(test)]
mod tests;
