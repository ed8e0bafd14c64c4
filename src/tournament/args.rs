//! The `nosce tournament` command line (clap: help, errors and defaults from one
//! declaration), turned into a [`TournamentConfig`]: the quick default (three evaluators,
//! North at depth 4, 4 games a pairing: a few minutes), `--full` (the paper's set-up: five
//! evaluators, depth 6, +2, 100 games a pairing), or any mix; `--budget N` asks the clock's
//! question instead (North with N nodes a move, South T2 and T6 with k·N).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::lab_args::{self, Parsed};

use super::config::Budget;
use super::config::{
    DEFAULT_DEPTH, DEFAULT_EXTRA, DEFAULT_HASH_MB, DEFAULT_MAX_PLIES, DEFAULT_SAMPLE_EVERY,
    DEFAULT_SPEC, QUICK_DEPTH, QUICK_GAMES, TournamentConfig, budget_treatments, paper_treatments,
    parse_players,
};

/// The evaluators of the quick default.
pub const QUICK_EVALS: &str =
    "material,hce,net:matches/2026-11-26-nnue-gen2/nosce-5dd66027bbd3.nnue=gen2";
/// The five evaluators of `--full`, in the order of their strength at T1 (measured on the
/// games of earlier sessions: gen0 −230 against hce, gen1 +123, gen2 +72 over gen1), with
/// the nets' paths relative to the repository.
pub const FULL_EVALS: &str = "material,net:matches/2026-11-25-nnue-gen0/nosce-20a6e878b5d6.nnue=gen0,\
hce,net:matches/2026-11-26-nnue-gen1/nosce-577e7f73b718.nnue=gen1,\
net:matches/2026-11-26-nnue-gen2/nosce-5dd66027bbd3.nnue=gen2";
/// The openings shipped with the repository.
pub const DEFAULT_OPENINGS: &str = "openings/2moves-1000.epd";
/// The Syzygy tables shipped with the repository.
pub const DEFAULT_SYZYGY: &str = "tables/syzygy";

/// `nosce tournament`.
#[derive(Parser, Debug)]
#[command(
    name = "nosce tournament",
    about = "The Bao tournaments of Donkers, van den Herik and Uiterwijk (OM search: \
conditions for success) replayed in chess: South under a treatment (T1 alpha-beta, T2 +2 \
plies, T3 OM, T4 OM +2, T5 OM with North's search replayed, T6 both, T7 OM with strict risk \
management) against North (alpha-beta), double round robin over the evaluators",
    after_help = "Quick run (a few minutes): nosce tournament\n\
Full run (hours; --shard I/N for array jobs, re-run to resume): nosce tournament --full --out runs/bao\n\
Budget run: nosce tournament --full --budget 5000 --k 3,10,30,100 --out runs/bao-budget"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Rewrite the report of a run folder (also of a run still going or stopped)
    Report {
        /// The run folder
        dir: PathBuf,
    },
    /// Merge the folders of a sharded run into one and report it
    Merge {
        /// The shard folders
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// The merged folder
        #[arg(long)]
        out: PathBuf,
    },
}

#[derive(Args, Debug)]
struct RunArgs {
    /// The paper's set-up: five evaluators, depth 6, extra depth 2, 100 games a pairing
    #[arg(long)]
    full: bool,
    /// Evaluators, weakest first: material, hce, net (embedded) or net:PATH, each with
    /// an optional =LABEL
    #[arg(long)]
    evals: Option<String>,
    /// North's alpha-beta depth D
    #[arg(long)]
    depth: Option<u32>,
    /// Extra own depth of T2, T4 and T6
    #[arg(long, default_value_t = DEFAULT_EXTRA)]
    extra: u32,
    /// Plies of speculation of the OM treatments
    #[arg(long, default_value_t = DEFAULT_SPEC)]
    spec: usize,
    /// T7's tolerance: deviate only among moves within this many centipawns of alpha-beta's value
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    margin: i32,
    /// Treatments to play (default T1..T7; with --budget the B2xK/B6xK pairs, and B6mxK)
    #[arg(long, value_delimiter = ',')]
    treatments: Option<Vec<String>>,
    /// Budget comparison: North searches N nodes a move (instead of depth D)
    #[arg(long)]
    budget: Option<u64>,
    /// Budget comparison: South's multiples of N
    #[arg(long, value_delimiter = ',', default_value = "3,10,30,100")]
    k: Vec<u64>,
    /// Budget comparison: also B6mxK, exact probes only for root moves within this many
    /// centipawns of alpha-beta's value (the cheaper exact prediction)
    #[arg(long, allow_negative_numbers = true)]
    probe_margin: Option<i32>,
    /// Games per pairing (even: each opening with both colours)
    #[arg(long)]
    games: Option<usize>,
    /// Opening file (FEN or EPD lines)
    #[arg(long, default_value = DEFAULT_OPENINGS)]
    openings: PathBuf,
    /// Seed of the opening choice
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Parallel games (default: available cores)
    #[arg(long)]
    jobs: Option<usize>,
    /// Play only every N-th game, the I-th of each N (array jobs: I = 1..N), as I/N
    #[arg(long)]
    shard: Option<String>,
    /// Run folder; re-running into it resumes (default runs/tournament-quick or runs/tournament-full)
    #[arg(long)]
    out: Option<PathBuf>,
    /// Table size of every search, MiB
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash: usize,
    /// A game still going after this many plies is a draw
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    max_plies: usize,
    /// Syzygy tables for adjudication, or 'none' (default $SYZYGY_PATH, else tables/syzygy)
    #[arg(long)]
    syzygy: Option<String>,
    /// Keep an admissibility sample every K South moves of T1 games (0: none)
    #[arg(long, default_value_t = DEFAULT_SAMPLE_EVERY)]
    sample_every: usize,
    /// Depth of the reference search of a sample (default D + extra), with the last evaluator
    #[arg(long)]
    truth_depth: Option<u32>,
    /// No progress lines
    #[arg(long)]
    quiet: bool,
    /// Check the options, print how many games the run (or shard) would play, and stop
    #[arg(long)]
    check: bool,
}

/// What `nosce tournament` was asked to do.
#[derive(Debug)]
pub enum Command {
    /// Play (or resume) a run and report it.
    Run(Box<TournamentConfig>),
    /// Check a run's options.
    Check(Box<TournamentConfig>),
    /// Report a folder.
    Report(PathBuf),
    /// Merge folders.
    Merge(Vec<PathBuf>, PathBuf),
    /// Help or version text to print (not an error).
    Text(String),
}

fn shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard wants I/N with 1 <= I <= N, not '{text}'");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

fn syzygy_dir(arg: Option<&str>) -> Option<PathBuf> {
    match arg {
        Some("none") => None,
        Some(d) => Some(PathBuf::from(d)),
        None => std::env::var_os("SYZYGY_PATH")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| Some(PathBuf::from(DEFAULT_SYZYGY)).filter(|p| p.is_dir())),
    }
}

fn config(a: RunArgs) -> Result<TournamentConfig, String> {
    let players =
        parse_players(
            a.evals
                .as_deref()
                .unwrap_or(if a.full { FULL_EVALS } else { QUICK_EVALS }),
        )?;
    let depth = a
        .depth
        .unwrap_or(if a.full { DEFAULT_DEPTH } else { QUICK_DEPTH });
    if !(2..=20).contains(&depth) {
        return Err(format!(
            "--depth must be 2..20 (the probes search D - 1), not {depth}"
        ));
    }
    if a.extra > 10 || a.spec == 0 || a.spec > 8 {
        return Err("--extra must be 0..10 and --spec 1..8".into());
    }
    if a.margin < 0 {
        return Err(format!("--margin must be at least 0 cp, not {}", a.margin));
    }
    let games = a.games.unwrap_or(if a.full { 100 } else { QUICK_GAMES });
    if games == 0 || !games.is_multiple_of(2) {
        return Err(format!(
            "--games must be even and positive (each opening with both colours), not {games}"
        ));
    }
    let (north, all) = match a.budget {
        Some(0) => return Err("--budget must be at least 1 node".into()),
        Some(n) => {
            if a.k.is_empty() || a.k.contains(&0) {
                return Err("--k wants positive multiples, e.g. 3,10,30,100".into());
            }
            if a.probe_margin.is_some_and(|m| m < 0) {
                return Err("--probe-margin must be at least 0 cp".into());
            }
            (Budget::Nodes(n), budget_treatments(n, &a.k, a.probe_margin))
        }
        None => (
            Budget::Depth(depth),
            paper_treatments(depth, a.extra, a.margin),
        ),
    };
    let treatments = match a.treatments {
        None => all,
        Some(codes) => {
            let mut picked = Vec::new();
            for c in codes.iter().map(|c| c.trim().to_uppercase()) {
                let t = all
                    .iter()
                    .find(|t| t.code.to_uppercase() == c)
                    .ok_or_else(|| {
                        format!(
                            "unknown treatment '{c}' (this run has {})",
                            all.iter()
                                .map(|t| t.code.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    })?;
                if !picked.contains(t) {
                    picked.push(t.clone());
                }
            }
            picked
        }
    };
    if a.hash == 0 || a.hash > 4096 {
        return Err(format!("--hash must be 1..4096 MiB, not {}", a.hash));
    }
    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 || jobs > 256 {
        return Err(format!("--jobs must be 1..256, not {jobs}"));
    }
    let out = a.out.unwrap_or_else(|| {
        PathBuf::from(if a.full {
            "runs/tournament-full"
        } else {
            "runs/tournament-quick"
        })
    });
    Ok(TournamentConfig {
        players,
        treatments,
        north,
        spec: a.spec,
        games,
        openings: a.openings,
        seed: a.seed,
        jobs,
        shard: a.shard.as_deref().map(shard).transpose()?,
        out,
        hash_mb: a.hash,
        max_plies: a.max_plies.max(1),
        syzygy: syzygy_dir(a.syzygy.as_deref()),
        sample_every: a.sample_every,
        truth_depth: a.truth_depth.unwrap_or(depth + a.extra).clamp(1, 30),
        verbose: !a.quiet,
    })
}

/// Parses the arguments after `nosce tournament`.
///
/// # Errors
/// A message naming the bad argument.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let cli: Cli = match lab_args::parse("nosce tournament", args)? {
        Parsed::Args(c) => c,
        Parsed::Text(t) => return Ok(Command::Text(t)),
    };
    match cli.command {
        Some(Sub::Report { dir }) => Ok(Command::Report(dir)),
        Some(Sub::Merge { dirs, out }) => Ok(Command::Merge(dirs, out)),
        None => {
            let check = cli.run.check;
            let cfg = Box::new(config(cli.run)?);
            Ok(if check {
                Command::Check(cfg)
            } else {
                Command::Run(cfg)
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn run(s: &str) -> TournamentConfig {
        match parse(&args(s)).unwrap() {
            Command::Run(c) | Command::Check(c) => *c,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn defaults_and_full() {
        let q = run("");
        assert_eq!(
            (q.players.len(), q.games, q.north),
            (3, 4, Budget::Depth(4))
        );
        assert_eq!(q.treatments.len(), 7);
        let f = run("--full --jobs 2");
        assert_eq!(
            (f.players.len(), f.games, f.north),
            (5, 100, Budget::Depth(6))
        );
        assert_eq!(f.truth_depth, 8);
        let b = run("--budget 5000 --k 3,10 --treatments b6x10");
        assert_eq!(b.treatments.len(), 1);
        assert_eq!(b.treatments[0].own, Budget::Nodes(50_000));
        let m = run("--budget 2000 --k 3 --probe-margin 50");
        let codes: Vec<&str> = m.treatments.iter().map(|t| t.code.as_str()).collect();
        assert_eq!(codes, ["B2x3", "B6x3", "B6mx3"]);
        assert_eq!(run("--shard 4/4").shard, Some((4, 4)));
    }

    #[test]
    fn bad_arguments_are_rejected_with_a_reason() {
        for (bad, says) in [
            ("--games 3", "even"),
            ("--depth 1", "--depth"),
            ("--shard 5/4", "--shard"),
            ("--shard 0/4", "--shard"),
            ("--shard x", "--shard"),
            ("--treatments T9", "T9"),
            ("--evals material", "two"),
            ("--evals material,bishop", "bishop"),
            ("--budget 0", "--budget"),
            ("--budget 10 --k 0", "--k"),
            ("--budget 10 --probe-margin -1", "--probe-margin"),
            ("--margin -5", "--margin"),
            ("--hash 0", "--hash"),
            ("--frobnicate", "frobnicate"),
            ("--games lots", "lots"),
        ] {
            let e = parse(&args(bad)).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
        assert!(matches!(parse(&args("--help")), Ok(Command::Text(_))));
        assert!(matches!(
            parse(&args("merge a b --out c")),
            Ok(Command::Merge(..))
        ));
    }
}
