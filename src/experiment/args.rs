//! The `nosce kqkr` command line, parsed into a [`Command`] (STYLE.md habit 5: bad input is
//! reported with a reason, never a panic). Run options build a [`KqkrConfig`] on top of the
//! quick default (or `--full`, the thesis-sized sweep of Donkers 2003 §5.4.2).

use std::path::PathBuf;

use super::config::{
    KqkrConfig, ModelConfig, NodeSpread, OpponentConfig, PerturbKnowledge, SideLimit, read_epd,
};
use crate::opponent::EvalKind;

/// Usage text.
pub const USAGE: &str = "\
nosce kqkr — the KQKR opponent-modelling experiment of Donkers 2003 §5.4

Usage:
  nosce kqkr [options]                 quick sweep: s = 0,1,3, 3 games, 2 positions,
                                       K+Q depth 11, K+R depth 5 (about two minutes)
  nosce kqkr --full [options]          thesis-sized sweep: s = 0..11, 20 games, 2 positions,
                                       K+Q depth 13, K+R depth 6 (about 75 minutes
                                       on 2 cores; --shard for array jobs)
  nosce kqkr calibrate [options]       find the opponent depth whose base case (s = 0)
                                       looks like the thesis' (20-25 % errors, 37-40 moves)
  nosce kqkr merge DIR... --out DIR    merge the folders of sharded runs
  nosce kqkr analyze FILE.pgn [--spec-depth N] [--out DIR]
                                       the same tables from any PGN of KQKR games
                                       (s from the SpecDepth tag, else --spec-depth, else 0)

Sweep options:
  --depths LIST          speculative depths, e.g. 0,1,2 or 0..11 (0 = plain alpha-beta)
  --games N              games per position and depth
  --positions FILE       EPD of K+Q v K+R start positions (default: Browne-BELLE 1 and 2)
  --seed N               master seed (games depend only on it)
  --jobs N               parallel games (default: available cores)
  --out DIR              run folder (default runs/kqkr-<time>); re-running resumes
  --shard I/N            play only every N-th game starting at I (array jobs)
  --kr-depth N | --kr-nodes N   K+R side budget per move
  --kr-hash MB           K+R side table size
  --opp-depth N | --opp-nodes N K+Q side budget per move
  --opp-eval self|material      K+Q side evaluator
  --opp-hash MB          K+Q side table size (cleared before every move)
  --perturb CP           per-game evaluation perturbation of the K+Q side (0 = none)
  --opponent-uci PATH    a UCI engine plays the K+Q side (ucinewgame before each move)
  --opponent-option NAME=VALUE  setoption for it (repeatable)
  --opp-nodes-spread F   UCI K+Q side with --opp-nodes N: every move's node budget is
                         drawn from [N(1-F), N(1+F)], seeded by the game seed and the
                         ply (reproducible); moves.csv gains a 'budget' column
  --model SPEC           the K+R side's model: OpponentModel grammar plus
                         perturb=game|other|none and replay=on|off per type, e.g.
                         'notb:0.7:depth=9:perturb=game:replay=on,material:0.3:depth=5';
                         'engine:1:nodes=N:replay=on' asks the --opponent-uci program
                         itself (with its options; no limit: the K+Q side's budget)
  --model-knows-budget   engine types ask with the budget the K+Q side draws for its
                         reply (needs --opp-nodes-spread), not their own
  --model-depth N | --model-nodes N | --model-eval E | --model-perturb game|other|none
                         change one thing in the default (perfect) model
  --no-ties              plain OM probes (no equal-best move sets)
  --reference FILE       thesis-kqkr.csv format (default: the built-in Tables 5.2-5.4)
  --tables DIR           exact table directory (default: $NOSCE_TABLES, the cache, ./tables)
  --quiet                no progress bar
  --check                check the options, print how many games the run (or this
                         shard) would play, and exit without playing

Calibrate options: the sweep options, plus --candidates LIST (opponent depths, default
10,11,12,13,14) and --games N (default 4 per position).
";

/// What `nosce kqkr` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Print the usage.
    Help,
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
/// error, not an allocation of exabytes — found by `tests/fuzz_parsers.rs`).
pub fn parse_depths(s: &str) -> Result<Vec<usize>, String> {
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

/// The most games per position and depth `--games` accepts (the game list is built in
/// memory).
const MAX_GAMES: usize = 1_000_000;

/// [`num`] with an upper bound.
fn num_at_most(flag: &str, v: &str, min: usize, max: usize) -> Result<usize, String> {
    match num(flag, v, min)? {
        x if x <= max => Ok(x),
        _ => Err(format!("{flag} must be at most {max}, not '{v}'")),
    }
}

fn num<T>(flag: &str, v: &str, min: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    match v.parse::<T>() {
        Ok(x) if x >= min => Ok(x),
        _ => Err(format!("{flag} needs a whole number >= {min}, not '{v}'")),
    }
}

fn eval_kind(flag: &str, v: &str) -> Result<EvalKind, String> {
    match v {
        "self" | "full" => Ok(EvalKind::Full),
        "material" => Ok(EvalKind::Material),
        _ => Err(format!("{flag}: evaluator is self or material, not '{v}'")),
    }
}

/// Parses the arguments after `kqkr`.
pub fn parse(args: &[String]) -> Result<Command, String> {
    match args.first().map(String::as_str) {
        Some("help" | "--help" | "-h") => return Ok(Command::Help),
        Some("merge") => return parse_merge(&args[1..]),
        Some("analyze" | "analyse") => return parse_analyze(&args[1..]),
        Some("calibrate") => {
            let mut rest = Vec::new();
            let mut candidates = vec![10, 11, 12, 13, 14];
            let mut games = None;
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--candidates" => {
                        let v = it.next().ok_or("--candidates needs a list")?;
                        candidates = parse_depths(v)?
                            .into_iter()
                            .map(|d| d as u32)
                            .filter(|&d| d > 0)
                            .collect();
                        if candidates.is_empty() {
                            return Err("--candidates needs depths >= 1".into());
                        }
                    }
                    "--games" => {
                        let v = it.next().ok_or("--games needs N")?;
                        games = Some(num_at_most("--games", v, 1, MAX_GAMES)?);
                    }
                    _ => rest.push(a.clone()),
                }
            }
            let mut cfg = parse_run(&rest)?;
            cfg.spec_depths = vec![0];
            cfg.games = games.unwrap_or(4);
            return Ok(Command::Calibrate(Box::new(cfg), candidates));
        }
        _ => {}
    }
    if args.iter().any(|a| a == "--check") {
        let rest: Vec<String> = args.iter().filter(|a| *a != "--check").cloned().collect();
        return Ok(Command::Check(Box::new(parse_run(&rest)?)));
    }
    Ok(Command::Run(Box::new(parse_run(args)?)))
}

fn parse_merge(args: &[String]) -> Result<Command, String> {
    let mut dirs = Vec::new();
    let (mut out, mut reference) = (None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => out = Some(PathBuf::from(it.next().ok_or("--out needs a folder")?)),
            "--reference" => {
                reference = Some(PathBuf::from(it.next().ok_or("--reference needs a file")?));
            }
            s if s.starts_with("--") => return Err(format!("merge: unknown option '{s}'")),
            d => dirs.push(PathBuf::from(d)),
        }
    }
    if dirs.is_empty() {
        return Err("merge needs the run folders to merge".into());
    }
    let out = out.ok_or("merge needs --out DIR")?;
    Ok(Command::Merge {
        dirs,
        out,
        reference,
    })
}

fn parse_analyze(args: &[String]) -> Result<Command, String> {
    let (mut pgn, mut spec_depth, mut out, mut reference, mut tables) =
        (None, None, None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = |f: &str| it.next().cloned().ok_or(format!("{f} needs a value"));
        match a.as_str() {
            "--spec-depth" | "-s" => spec_depth = Some(num(a, &val(a)?, 0usize)?),
            "--out" => out = Some(PathBuf::from(val(a)?)),
            "--reference" => reference = Some(PathBuf::from(val(a)?)),
            "--tables" => tables = Some(PathBuf::from(val(a)?)),
            s if s.starts_with("--") => return Err(format!("analyze: unknown option '{s}'")),
            f if pgn.is_none() => pgn = Some(PathBuf::from(f)),
            f => return Err(format!("analyze: unexpected argument '{f}'")),
        }
    }
    let pgn = pgn.ok_or("analyze needs a PGN file")?;
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

/// Parses sweep options into a configuration.
pub fn parse_run(args: &[String]) -> Result<KqkrConfig, String> {
    let mut cfg = if args.iter().any(|a| a == "--full") {
        KqkrConfig::full()
    } else {
        KqkrConfig::quick()
    };
    let mut opp_limit = cfg.opponent.limit();
    let (mut opp_eval, mut amplitude, mut opp_hash) = (EvalKind::Full, None, None);
    if let OpponentConfig::Builtin {
        eval,
        amplitude: a,
        hash_mb,
        ..
    } = &cfg.opponent
    {
        opp_eval = *eval;
        amplitude = Some(*a);
        opp_hash = Some(*hash_mb);
    }
    let mut uci: Option<PathBuf> = None;
    let mut uci_options = Vec::new();
    let mut spread: Option<NodeSpread> = None;
    let mut model_spec: Option<ModelConfig> = None;
    let (mut m_depth, mut m_nodes, mut m_eval, mut m_perturb) = (None, None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let flag = a.as_str();
        let mut val = || it.next().cloned().ok_or(format!("{flag} needs a value"));
        match flag {
            "--full" => {}
            "--quiet" | "-q" => cfg.progress = false,
            "--no-ties" => cfg.ties = false,
            "--depths" => cfg.spec_depths = parse_depths(&val()?)?,
            "--games" => cfg.games = num_at_most(flag, &val()?, 1, MAX_GAMES)?,
            "--positions" => cfg.positions = read_epd(&PathBuf::from(val()?))?,
            "--seed" => cfg.seed = num(flag, &val()?, 0)?,
            "--jobs" | "-j" => cfg.jobs = num(flag, &val()?, 1)?,
            "--out" | "-o" => cfg.out = PathBuf::from(val()?),
            "--shard" => {
                let v = val()?;
                let bad = || format!("--shard needs I/N with 1 <= I <= N, not '{v}'");
                let (i, n) = v.split_once('/').ok_or_else(bad)?;
                let (i, n): (usize, usize) =
                    (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
                if i == 0 || i > n {
                    return Err(bad());
                }
                cfg.shard = Some((i, n));
            }
            "--kr-depth" => cfg.kr_limit = SideLimit::Depth(num(flag, &val()?, 1)?),
            "--kr-nodes" => cfg.kr_limit = SideLimit::Nodes(num(flag, &val()?, 1)?),
            "--kr-hash" => cfg.kr_hash_mb = num(flag, &val()?, 1)?,
            "--opp-depth" => opp_limit = SideLimit::Depth(num(flag, &val()?, 1)?),
            "--opp-nodes" => opp_limit = SideLimit::Nodes(num(flag, &val()?, 1)?),
            "--opp-eval" => opp_eval = eval_kind(flag, &val()?)?,
            "--opp-hash" => opp_hash = Some(num(flag, &val()?, 1)?),
            "--perturb" => amplitude = Some(num(flag, &val()?, 0)?),
            "--opponent-uci" => uci = Some(PathBuf::from(val()?)),
            "--opponent-option" => {
                let v = val()?;
                let (k, x) = v
                    .split_once('=')
                    .ok_or(format!("--opponent-option needs NAME=VALUE, not '{v}'"))?;
                uci_options.push((k.trim().to_string(), x.trim().to_string()));
            }
            "--opp-nodes-spread" => {
                spread = Some(val()?.parse().map_err(|e| format!("{flag}: {e}"))?)
            }
            "--model-knows-budget" => cfg.model_knows_budget = true,
            "--model" => model_spec = Some(val()?.parse().map_err(|e| format!("--model: {e}"))?),
            "--model-depth" => m_depth = Some(num(flag, &val()?, 1u32)?),
            "--model-nodes" => m_nodes = Some(num(flag, &val()?, 1u64)?),
            "--model-eval" => m_eval = Some(eval_kind(flag, &val()?)?),
            "--model-perturb" => m_perturb = Some(val()?.parse::<PerturbKnowledge>()?),
            "--reference" => cfg.reference = Some(PathBuf::from(val()?)),
            "--tables" => cfg.tables_dir = Some(PathBuf::from(val()?)),
            other => return Err(format!("unknown option '{other}' (see nosce kqkr --help)")),
        }
    }
    if m_depth.is_some() && m_nodes.is_some() {
        return Err("give --model-depth or --model-nodes, not both".into());
    }
    if spread.is_some() && !matches!(opp_limit, SideLimit::Nodes(_)) {
        return Err("--opp-nodes-spread needs a node budget (--opp-nodes N)".into());
    }
    cfg.opponent = match uci {
        Some(path) => {
            if !path.exists() {
                return Err(format!("UCI engine '{}' not found", path.display()));
            }
            OpponentConfig::Uci {
                path,
                options: uci_options,
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
        None if !uci_options.is_empty() => {
            return Err("--opponent-option needs --opponent-uci".into());
        }
        None => OpponentConfig::Builtin {
            eval: opp_eval,
            limit: opp_limit,
            amplitude: amplitude.unwrap_or(0),
            hash_mb: opp_hash.unwrap_or(1),
        },
    };
    let shortcuts =
        m_depth.is_some() || m_nodes.is_some() || m_eval.is_some() || m_perturb.is_some();
    cfg.model = match model_spec {
        Some(_) if shortcuts => {
            return Err(
                "--model cannot be combined with --model-depth/-nodes/-eval/-perturb".into(),
            );
        }
        Some(m) => m,
        None => {
            let mut m = ModelConfig::perfect(&cfg.opponent);
            let t = &mut m.types[0];
            if let Some(d) = m_depth {
                t.base.depth = Some(d);
                t.base.nodes = None;
            }
            if let Some(n) = m_nodes {
                t.base.nodes = Some(n);
                t.base.depth = None;
            }
            if let Some(e) = m_eval {
                t.base.eval = e;
            }
            if let Some(p) = m_perturb {
                t.perturb = p;
            }
            m
        }
    };
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
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn depth_lists() {
        assert_eq!(parse_depths("0..3"), Ok(vec![0, 1, 2, 3]));
        assert_eq!(parse_depths("5,1,1-2"), Ok(vec![1, 2, 5]));
        // Found by the fuzzer: a huge range was expanded before it was checked.
        assert!(parse_depths("0..4000000000000000000").is_err());
        assert!(parse_depths("3-61").is_err());
        assert!(parse_depths("3..1").is_err() && parse_depths("x").is_err());
    }

    #[test]
    fn options_change_the_default() {
        let Command::Run(c) = parse(&args(
            "--depths 0,2 --games 3 --opp-depth 6 --model-depth 4",
        ))
        .unwrap() else {
            panic!()
        };
        assert_eq!(c.spec_depths, vec![0, 2]);
        assert_eq!(c.opponent.limit(), SideLimit::Depth(6));
        assert_eq!(c.model.types[0].base.depth, Some(4));
        let Command::Run(f) = parse(&args("--full")).unwrap() else {
            panic!()
        };
        assert_eq!((f.spec_depths.len(), f.games), (12, 20));
    }

    #[test]
    fn uci_budgets_and_engine_models() {
        let exe = std::env::current_exe().unwrap().display().to_string();
        let mut a = vec!["--opponent-uci".to_string(), exe];
        a.extend(args(
            "--opp-nodes 900 --opp-nodes-spread 0.5 --model engine:1:replay=on \
             --model-knows-budget",
        ));
        let Command::Run(c) = parse(&a).unwrap() else {
            panic!()
        };
        assert_eq!(
            c.opponent.node_spread().map(|(s, n)| (s.range(n), n)),
            Some(((450, 1350), 900))
        );
        assert!(c.model.uses_engine() && c.model_knows_budget);
        let keys: Vec<String> = c.record().into_iter().map(|(k, _)| k).collect();
        assert!(keys.iter().any(|k| k == "opponent.nodes_spread"));
        assert!(keys.iter().any(|k| k == "model.knows_budget"));
        a.truncate(2);
        a.extend(args("--opp-depth 5 --opp-nodes-spread 0.5"));
        assert!(parse(&a).is_err());
    }

    #[test]
    fn bad_input_has_a_reason() {
        for bad in [
            "--games 0",
            "--games",
            "--depths 1..x",
            "--shard 3/2",
            "--frobnicate",
            "--model magic:1",
            "--model self --model-depth 3",
            "--opponent-option Hash=1",
            "--opp-eval queen",
            "--model engine:1:nodes=500",
            "--opp-nodes 900 --opp-nodes-spread 0.5",
            "--opp-nodes-spread 0.5 --opponent-uci /nonexistent",
            "--model-knows-budget",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
        assert!(parse(&args("merge a")).is_err());
        let Command::Check(c) = parse(&args("--check --games 2 --shard 2/4")).unwrap() else {
            panic!("--check is a check")
        };
        assert_eq!((c.games, c.shard), (2, Some((2, 4))));
        assert!(parse(&args("--check --games 0")).is_err());
        assert!(parse(&args("analyze")).is_err());
    }
}
