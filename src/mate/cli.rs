//! `nosce solve FILE.epd [--nodes N] [--algo pn|pn2|pds|pds-pn|dfpn] [--mate N] ...`: runs
//! the mate prover ([`super::prove`]) on each EPD line with an expected mate (`bm #N`,
//! `dm N`, or `bm #-N` when the side to move is mated) and prints, per line, the mate found,
//! whether it is proven shortest, nodes, time and whether it matches the expectation; a
//! summary line closes the report. A line that cannot be read is reported on stderr and
//! skipped; only an unreadable file is an error.
//!
//! Its options are parsed by hand, as `bench`, `perft` and `tb`'s: these commands are part
//! of the engine binary built without the lab, which carries no command-line crate; the
//! lab's commands (`kqkr`, `tournament`, `trees`, `datagen`, `train`) use clap.

use std::io::Write;
use std::time::Instant;

use shakmaty::Position as _;

use super::{Algorithm, Outcome, ProofLimits, ProofResult, prove};
use crate::position::Position;

/// Usage text of `nosce solve`.
pub const USAGE: &str = "usage: nosce solve FILE.epd [--nodes N] [--algo pn|pn2|pds|pds-pn|dfpn]
                  [--mate N] [--unbounded] [--no-shorten] [--hash MB] [--tree-nodes N]
                  [--checks-only]
  proves the mates of the EPD lines ('bm #N', 'bm #-N' or 'dm N'); --nodes is the budget of
  moves made per position (default 1000000); --mate N looks for mates in at most N moves
  only; by default mate in 1, 2, ... is tried in turn (the first proof is the shortest),
  --unbounded searches without a move limit first and then shortens the proof (unless
  --no-shorten: the first proof is reported, as in Winands's comparisons); --algo picks
  the prover (default dfpn); --hash is the table size of pds, pds-pn and dfpn (default 64
  MiB); --tree-nodes the most tree nodes pn and pn2 hold and the N of pds-pn's growth
  function (default 4000000); --checks-only lets the attacker check only. Each line gives the
  memory the prover held at most (tree nodes or table entries in use)";

/// One EPD problem.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The `id` operation, or the line number.
    pub id: String,
    /// The position.
    pub fen: String,
    /// Expected mate in moves: positive when the side to move mates, negative when it is
    /// mated; `None` when the line states none.
    pub expected: Option<i32>,
}

/// Parses one EPD line (four FEN fields, optional move counters, `;`-separated
/// operations). `None` for blank lines and comments.
///
/// # Errors
/// When the position cannot be read.
pub fn parse_epd(line: &str, number: usize) -> Result<Option<Problem>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let Some((fen, ops)) = crate::position::epd_fen(line, false) else {
        return Err(format!("line {number}: not an EPD line: '{line}'"));
    };
    Position::from_fen(&fen).map_err(|e| format!("line {number}: {e}"))?;
    let mut id = format!("line {number}");
    let mut expected = None;
    for op in ops.split(';') {
        let op = op.trim();
        let (name, arg) = op.split_once(' ').unwrap_or((op, ""));
        let arg = arg.trim();
        match name {
            "id" => id = arg.trim_matches('"').to_string(),
            "bm" => {
                if let Some(n) = arg.strip_prefix('#').and_then(|n| n.parse::<i32>().ok()) {
                    expected = Some(n);
                }
            }
            "dm" => {
                if let Ok(n) = arg.parse::<i32>() {
                    expected = Some(n);
                }
            }
            _ => {}
        }
    }
    Ok(Some(Problem { id, fen, expected }))
}

/// What `nosce solve` found for one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The mate in moves (negative: the side to move is mated), if one was proven.
    pub mate: Option<i32>,
    /// The mate is proven shortest.
    pub shortest: bool,
    /// Moves made.
    pub nodes: u64,
    /// The most memory held at once, in bytes ([`ProofResult::memory`]).
    pub memory: usize,
}

/// The result for a position whose side to move is mated: every move is answered by a mate
/// (proved for the opponent); the length is the longest of them, proven shortest when the
/// move that attains it has a proven shortest mate. Lengths are reported negative.
pub fn prove_mated(pos: &Position, algo: Algorithm, limits: &ProofLimits) -> Solved {
    let moves = pos.legal_moves();
    let none = |nodes, memory| Solved {
        mate: None,
        shortest: false,
        nodes,
        memory,
    };
    if moves.is_empty() {
        let mated = pos.chess().is_check();
        return Solved {
            mate: mated.then_some(0),
            shortest: mated,
            ..none(0, 0)
        };
    }
    let mut nodes = 0u64;
    let mut memory = 0usize;
    let mut worst: Option<(u32, bool)> = None;
    for m in moves {
        if nodes >= limits.nodes {
            return none(nodes, memory);
        }
        let mut child = pos.clone();
        child.play(m);
        nodes += 1;
        let sub = ProofLimits {
            nodes: limits.nodes - nodes,
            ..limits.clone()
        };
        let r = prove(&child, algo, &sub);
        nodes += r.nodes;
        memory = memory.max(r.memory);
        match r.outcome {
            Outcome::Proven { mate_in_moves, .. } => {
                let better =
                    worst.is_none_or(|(w, s)| mate_in_moves > w || (mate_in_moves == w && !s));
                if better {
                    worst = Some((mate_in_moves, r.shortest));
                }
            }
            _ => return none(nodes, memory),
        }
    }
    match worst {
        Some((w, s)) => Solved {
            mate: Some(-(w as i32)),
            shortest: s,
            nodes,
            memory,
        },
        None => none(nodes, memory),
    }
}

/// Options of `nosce solve`.
struct Options {
    file: String,
    algo: Algorithm,
    limits: ProofLimits,
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let mut file = None;
    let mut algo = Algorithm::Dfpn;
    let mut limits = ProofLimits::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs {what}\n{USAGE}"))
        };
        match a.as_str() {
            "--nodes" => {
                let v = value("a number")?;
                limits.nodes = v
                    .parse()
                    .map_err(|_| format!("--nodes: '{v}' is not a number"))?;
            }
            "--algo" => {
                let v = value("pn, pn2, pds, pds-pn or dfpn")?;
                algo = Algorithm::parse(&v).ok_or_else(|| format!("--algo: unknown '{v}'"))?;
            }
            "--mate" => {
                let v = value("a number")?;
                let n: u32 = v
                    .parse()
                    .map_err(|_| format!("--mate: '{v}' is not a number"))?;
                limits.max_moves = Some(n.max(1));
            }
            "--hash" => {
                let v = value("a size in MiB")?;
                limits.hash_mb = v
                    .parse()
                    .map_err(|_| format!("--hash: '{v}' is not a number"))?;
            }
            "--tree-nodes" => {
                let v = value("a number")?;
                limits.tree_nodes = v
                    .parse()
                    .map_err(|_| format!("--tree-nodes: '{v}' is not a number"))?;
            }
            "--unbounded" => limits.deepen = false,
            "--no-shorten" => limits.shortest = false,
            "--checks-only" => limits.checks_only = true,
            "--help" | "-h" => return Err(USAGE.to_string()),
            f if file.is_none() && !f.starts_with("--") => file = Some(f.to_string()),
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    let file = file.ok_or_else(|| format!("no EPD file\n{USAGE}"))?;
    Ok(Options { file, algo, limits })
}

/// Runs `nosce solve <args>`, printing as it goes. Lines that cannot be read are reported
/// on stderr.
///
/// # Errors
/// Bad arguments, or a file that cannot be read.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    let o = parse_args(args)?;
    let text = std::fs::read(&o.file).map_err(|e| format!("cannot read {}: {e}", o.file))?;
    let text = String::from_utf8_lossy(&text);
    let out = std::io::stdout();
    let mut out = out.lock();
    let (mut found, mut shortest, mut wrong, mut total) = (0, 0, 0, 0);
    let (mut nodes, mut ms) = (0u64, 0u128);
    let mut memory = 0usize;
    for (i, line) in text.lines().enumerate() {
        let p = match parse_epd(line, i + 1) {
            Ok(Some(p)) => p,
            Ok(None) => continue,
            Err(e) => {
                eprintln!("nosce solve: {}: {e}", o.file);
                continue;
            }
        };
        let Ok(pos) = Position::from_fen(&p.fen) else {
            continue;
        };
        total += 1;
        let start = Instant::now();
        let s = if p.expected.is_some_and(|e| e < 0) {
            prove_mated(&pos, o.algo, &o.limits)
        } else {
            let r: ProofResult = prove(&pos, o.algo, &o.limits);
            let mate = match r.outcome {
                Outcome::Proven { mate_in_moves, .. } => Some(mate_in_moves as i32),
                _ => None,
            };
            Solved {
                mate,
                shortest: r.shortest && mate.is_some(),
                nodes: r.nodes,
                memory: r.memory,
            }
        };
        let (mate, short, n) = (s.mate, s.shortest, s.nodes);
        let t = start.elapsed().as_millis();
        nodes += n;
        ms += t;
        memory = memory.max(s.memory);
        let verdict = match (mate, p.expected) {
            (None, _) => "unsolved",
            (Some(m), Some(e)) if m == e => "ok",
            // A longer mate than expected is not wrong unless proven shortest.
            (Some(m), Some(e)) if m.abs() > e.abs() && !short => "longer",
            (Some(_), Some(_)) => "WRONG",
            (Some(_), None) => "-",
        };
        if mate.is_some() {
            found += 1;
        }
        if short {
            shortest += 1;
        }
        if verdict == "WRONG" {
            wrong += 1;
        }
        let mate_text = mate.map_or("-".to_string(), |m| format!("#{m}"));
        let exp_text = p.expected.map_or("-".to_string(), |e| format!("#{e}"));
        let _ = writeln!(
            out,
            "{:<16} {:<5} found {:<5} shortest {:<3} expected {:<5} {:>10} nodes {:>7} ms {:>8} KiB  {verdict}  {}",
            p.id,
            o.algo.name(),
            mate_text,
            if short { "yes" } else { "no" },
            exp_text,
            n,
            t,
            s.memory.div_ceil(1024),
            p.fen
        );
    }
    let _ = writeln!(
        out,
        "{} found {found} proven shortest {shortest} wrong {wrong} total {total} nodes {nodes} time {ms} ms memory {} KiB",
        o.algo.name(),
        memory.div_ceil(1024)
    );
    Ok(())
}
