//! The `nosce` command line: `bench [depth]`, `perft <depth> [fen]`, `tb`, `solve`, `trees`, `kqkr`,
//! `tournament`,
//! `datagen`, `train`, `generation`, `options`, `--help`, `--version`; with no arguments the protocol loop, where the
//! first meaningful input line picks the protocol (`uci` for UCI; `xboard`/`protover` for
//! CECP). The dispatch and the engine's own commands are parsed by hand (no command-line
//! crate in the engine binary); each lab command parses its arguments with clap.

use std::process::ExitCode;
use std::time::Instant;

use nosce::engine::Engine;
use nosce::position::Position;

const HELP: &str = "\
nosce — a chess engine that models its opponent (UCI and xboard/CECP)

Usage:
  nosce                      protocol loop on stdin/stdout ('uci' first, or 'xboard')
  nosce -o NAME=VAL ...      the protocol loop with engine options set first (hidden tuning
                             options too, e.g. -o SearchFeatures=kept,tteval for a match runner
                             that sends only the options an engine announces)
  nosce bench [depth]        fixed-depth benchmark over bench.epd with the embedded net; last
                             line 'N nodes M nps'
  nosce bench D -o NAME=VAL  time to depth D with engine options (e.g. -o OM_Mode=om)
  nosce bench [depth] --evalfile FILE|hce
                             the benchmark with another net or the hand-crafted evaluation
  nosce perft <depth> [fen]  count leaf nodes (divide per root move), start position by default
  nosce tb gen|probe|dump    exact DTM/DTC endgame tables (KQvKR...), probe a FEN (see nosce tb help)
  nosce solve FILE.epd [--nodes N] [--algo pn|pn2|dfpn] [--mate N]
                             prove the mates of EPD lines ('bm #N'), shortest where possible
  nosce trees [options]      random-game-tree laboratory: OM/PrOM evaluation counts (--help)
  nosce kqkr [options]       the KQKR opponent-model sweep of Donkers 2003 §5.4 (--help)
  nosce tournament [options] the Bao tournaments in chess: when OM search pays (--help)
  nosce datagen --out FILE --games N [options]
                             self-play training data (32-byte records), resumable (--help)
  nosce train --data FILE[,FILE...] --out DIR [options]
                             train an NNUE on datagen records, on the CPU, resumable (--help)
  nosce generation --dir DIR --games N [options]
                             NNUE generations from one command and a seed: datagen, then
                             train, each playing with the last net; resumable, timed (--help)
  nosce options              the engine's options as a Markdown table (docs/options.md)
  nosce --help | --version
";

/// A subcommand that answers with its report (stdout) or a message (stderr, exit code 2).
type Command = fn(&[String]) -> Result<String, String>;

/// The subcommands besides the protocol loop, `bench`, `perft` and `options`: the table tool
/// of the engine, and the lab's experiments and training (feature `lab`, on by default).
const COMMANDS: &[(&str, Command)] = &[
    ("tb", nosce::tb::cli::run_cli),
    #[cfg(feature = "lab")]
    ("kqkr", nosce::experiment::run_cli),
    #[cfg(feature = "lab")]
    ("tournament", nosce::tournament::run_cli),
    #[cfg(feature = "lab")]
    ("datagen", nosce::datagen::run_cli),
    #[cfg(feature = "lab")]
    ("train", nosce::train::run_cli),
    #[cfg(feature = "lab")]
    ("generation", nosce::generation::run_cli),
    #[cfg(feature = "lab")]
    ("trees", nosce::trees::run_cli),
];

/// The lab's subcommands, named when the binary was built without them.
#[cfg(not(feature = "lab"))]
const LAB_COMMANDS: &[&str] = &[
    "kqkr",
    "tournament",
    "datagen",
    "train",
    "generation",
    "trees",
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            protocol_loop(Engine::new());
            ExitCode::SUCCESS
        }
        Some("-o" | "--option") => match engine_with_options(&args) {
            Ok(engine) => {
                protocol_loop(engine);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("nosce: {e}");
                ExitCode::from(2)
            }
        },
        Some("--help" | "-h" | "help") => {
            print!("{HELP}");
            ExitCode::SUCCESS
        }
        Some("--version" | "-V") => {
            println!("{}", nosce::NAME_VERSION);
            ExitCode::SUCCESS
        }
        Some("options") => {
            print!("{}", nosce::engine::option_table::OPTIONS.markdown());
            ExitCode::SUCCESS
        }
        Some("bench") => bench(&args[1..]),
        Some("perft") => perft(&args[1..]),
        Some(name) if let Some((_, run)) = COMMANDS.iter().find(|(n, _)| *n == name) => {
            match run(&args[1..]) {
                Ok(text) => {
                    print!("{text}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("nosce {name}: {e}");
                    ExitCode::from(2)
                }
            }
        }
        #[cfg(not(feature = "lab"))]
        Some(name) if LAB_COMMANDS.contains(&name) => {
            eprintln!(
                "nosce {name}: this binary was built without the lab (cargo build --release \
                 --features lab, the default)"
            );
            ExitCode::from(2)
        }
        // The prover prints each line as it is solved, so it is not in `COMMANDS`.
        Some("solve") => match nosce::mate::cli::run_cli(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("nosce solve: {e}");
                ExitCode::from(2)
            }
        },
        Some(other) => {
            eprintln!("nosce: unknown command '{other}' (try --help)");
            ExitCode::from(2)
        }
    }
}

/// The `NAME=VALUE` argument that follows the flag `flag` (`-o` or `--option`).
fn option_pair(flag: &str, arg: Option<&String>) -> Result<(String, String), String> {
    match arg.and_then(|kv| kv.split_once('=')) {
        Some((k, v)) => Ok((k.to_string(), v.to_string())),
        None => Err(format!("{flag} needs NAME=VALUE")),
    }
}

/// An engine with the options of `args` (`-o NAME=VALUE`, repeated) set in their order; a
/// malformed argument or a refused option is an error.
fn engine_with_options(args: &[String]) -> Result<Engine, String> {
    let mut engine = Engine::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a != "-o" && a != "--option" {
            return Err(format!("unexpected argument '{a}' (try --help)"));
        }
        let (name, value) = option_pair(a, it.next())?;
        if let Some(note) = engine.set_option(&name, Some(&value))? {
            eprintln!("nosce: {note}");
        }
    }
    Ok(engine)
}

fn protocol_loop(mut engine: Engine) {
    // The first meaningful line picks the protocol; blank lines are skipped.
    let first = {
        let mut input = std::io::stdin().lock();
        loop {
            match nosce::uci::read_line_lossy(&mut input) {
                None => return,
                Some(line) if line.trim().is_empty() => continue,
                Some(line) => break line,
            }
        }
    }; // the lock is released here: the xboard front-end reads on a thread of its own
    match first.split_whitespace().next() {
        Some("xboard" | "protover") => {
            // `Stdin` keeps its buffer, so no input read ahead with the lock is lost.
            let input = std::io::BufReader::new(std::io::stdin());
            nosce::xboard::run(&mut engine, Some(first), input);
        }
        _ => {
            // UCI, and anything unrecognised is handed to the UCI loop to report.
            nosce::uci::run(&mut engine, Some(first), &mut std::io::stdin().lock());
        }
    }
}

fn bench(args: &[String]) -> ExitCode {
    let mut depth = nosce::bench::DEFAULT_DEPTH;
    let mut options: Vec<(String, String)> = Vec::new();
    let mut net = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--evalfile" => match it
                .next()
                .map(|f| nosce::nnue::embedded::EvalChoice::parse(f))
            {
                Some(choice) => net = Some(choice),
                None => {
                    eprintln!("nosce bench: --evalfile needs a file (or hce)");
                    return ExitCode::from(2);
                }
            },
            "--option" | "-o" => match option_pair(a, it.next()) {
                Ok(pair) => options.push(pair),
                Err(e) => {
                    eprintln!("nosce bench: {e}");
                    return ExitCode::from(2);
                }
            },
            d => match d.parse::<u32>() {
                Ok(v) if (1..=64).contains(&v) => depth = v,
                _ => {
                    eprintln!("nosce bench: depth must be a whole number from 1 to 64, not '{d}'");
                    return ExitCode::from(2);
                }
            },
        }
    }
    if net.is_some() && !options.is_empty() {
        eprintln!("nosce bench: use -o EvalFile=FILE together with other options");
        return ExitCode::from(2);
    }
    if !options.is_empty() {
        // Time to depth through the engine with options (e.g. the opponent-model driver).
        return match nosce::bench::run_with_options(depth, &options) {
            Ok(lines) => {
                let (mut nodes, mut ms) = (0u64, 0u128);
                for (i, (fen, n, t, best)) in lines.iter().enumerate() {
                    eprintln!(
                        "position {:>2}: {n:>10} nodes {t:>7} ms  bestmove {best}  {fen}",
                        i + 1
                    );
                    nodes += n;
                    ms += t;
                }
                println!("{nodes} nodes {ms} ms (depth {depth})");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("nosce bench: {e}");
                ExitCode::from(2)
            }
        };
    }
    use nosce::nnue::embedded::EvalChoice;
    let result = match net {
        Some(EvalChoice::File(f)) => match nosce::nnue::Network::load(std::path::Path::new(&f)) {
            Ok(n) => nosce::bench::run_with(depth, &nosce::eval::NnueEval::new(n)),
            Err(e) => {
                eprintln!("nosce bench: {e}");
                return ExitCode::from(2);
            }
        },
        Some(EvalChoice::HandCrafted) => nosce::bench::run_hce(depth),
        Some(EvalChoice::Embedded) | None => nosce::bench::run(depth),
    };
    match result {
        Ok(r) => {
            for (i, (fen, nodes, best)) in r.lines.iter().enumerate() {
                eprintln!(
                    "position {:>2}: {nodes:>10} nodes  bestmove {best}  {fen}",
                    i + 1
                );
            }
            println!("{} nodes {} nps", r.nodes, r.nps);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("nosce bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn perft(args: &[String]) -> ExitCode {
    let Some(d) = args.first() else {
        eprintln!("nosce perft: usage: perft <depth> [fen]");
        return ExitCode::from(2);
    };
    let depth = match d.parse::<u32>() {
        Ok(v) if v <= 12 => v,
        _ => {
            eprintln!("nosce perft: depth must be a whole number from 0 to 12, not '{d}'");
            return ExitCode::from(2);
        }
    };
    let mut pos = if args.len() > 1 {
        match Position::from_fen(&args[1..].join(" ")) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("nosce perft: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        Position::default()
    };
    let start = Instant::now();
    let mut total = 0;
    for (m, n) in nosce::perft::divide(&mut pos, depth) {
        println!("{m}: {n}");
        total += n;
    }
    if depth == 0 {
        total = 1;
    }
    let secs = start.elapsed().as_secs_f64().max(1e-6);
    println!("\nNodes searched: {total}");
    eprintln!("{:.3} s, {:.0} nodes/s", secs, total as f64 / secs);
    ExitCode::SUCCESS
}
