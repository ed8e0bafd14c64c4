//! The `nosce tb ...` command line: generate a table, probe a position (WDL, DTZ, DTM, DTC of
//! the position and of every move), or dump random positions with our DTM for the Gaviota
//! cross-check (`tests/gaviota_check.py`). The tables are the KQKR oracle of Donkers 2003
//! §5.4 and Appendix B. Parsed by hand like the engine's other commands (see
//! `mate::cli`: the engine binary carries no command-line crate).

use std::ffi::OsString;
use std::io::Write;

use super::{ExactTables, SyzygyTables, gen_text, probe_text};

/// Usage text of `nosce tb`.
pub const USAGE: &str = "usage: nosce tb gen <material> | nosce tb probe <fen> | nosce tb dump [--count N] [--seed S] [--out FILE]
  gen     generate (or load and verify) an exact DTM/DTC table, e.g. KQvKR
  probe   WDL, DTZ (Syzygy from $SYZYGY_PATH or tables/syzygy), DTM and DTC of a position and of each move
  dump    random KQvKR/KQvK/KRvK positions with our DTM, one 'fen;dtm' per line
tables live in $NOSCE_TABLES, else the user's cache directory, else an existing ./tables";

/// Runs `nosce tb <args>`; returns the text to print.
///
/// # Errors
/// A usage error or what the table code reported (bad material, bad FEN, I/O).
pub fn run_cli(args: &[String]) -> Result<String, String> {
    let exact = ExactTables::from_env();
    match args.first().map(String::as_str) {
        Some("gen") => match args.get(1) {
            Some(m) => gen_text(&exact, m),
            None => Err(format!("tb gen needs a material\n{USAGE}")),
        },
        Some("probe") => {
            if args.len() < 2 {
                return Err(format!("tb probe needs a FEN\n{USAGE}"));
            }
            let fen = args[1..].join(" ");
            let mut syzygy = SyzygyTables::new();
            let path =
                std::env::var_os("SYZYGY_PATH").unwrap_or_else(|| OsString::from("tables/syzygy"));
            let mut text = String::new();
            if std::path::Path::new(&path).exists() {
                for w in syzygy.add_paths(&path) {
                    text.push_str(&format!("warning: {w}\n"));
                }
            }
            text.push_str(&probe_text(&exact, Some(&syzygy), &fen)?);
            Ok(text)
        }
        Some("dump") => dump(&exact, &args[1..]),
        Some("--help" | "-h" | "help") | None => Ok(format!("{USAGE}\n")),
        Some(other) => Err(format!("unknown tb command '{other}'\n{USAGE}")),
    }
}

fn dump(exact: &ExactTables, args: &[String]) -> Result<String, String> {
    let mut count = 10_000usize;
    let mut seed = 1u64;
    let mut out: Option<String> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
        match a.as_str() {
            "--count" => count = v.parse().map_err(|e| format!("--count: {e}"))?,
            "--seed" => seed = v.parse().map_err(|e| format!("--seed: {e}"))?,
            "--out" => out = Some(v.clone()),
            _ => return Err(format!("unknown option {a}")),
        }
    }
    let text = super::sample::dump_random(exact, count, seed)?;
    match out {
        Some(path) => {
            let mut f = std::fs::File::create(&path).map_err(|e| format!("{path}: {e}"))?;
            f.write_all(text.as_bytes())
                .map_err(|e| format!("{path}: {e}"))?;
            Ok(format!("wrote {count} positions to {path}\n"))
        }
        None => Ok(text),
    }
}
