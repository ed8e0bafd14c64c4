//! `nosce trees`: argument parsing and help for the random-tree laboratory (thesis §5.2, §7.2).
//! [`run_cli`] takes the arguments after `trees` and returns the report text, or an error
//! message for bad arguments; it never panics. The options are declared once, with clap.

use clap::Parser;

use crate::lab_args::{self, Parsed};

use super::prom_plain::TreeModel;
use super::report::{ReportConfig, csv_report, text_report};

/// What the help adds after the options.
const AFTER_HELP: &str = "\
The text report gives, per row (depth, width), the 5th percentile, quartiles,
median and 95th percentile of each algorithm's leaf evaluations divided by
alpha-beta's on the same tree (Figs 5.3-5.7 and 7.1-7.5 as tables).
Seeds whose low 32 bits are 0 are rejected (the generator would be all zeros).";

/// `nosce trees` (clap: help, errors and defaults from one declaration).
#[derive(Parser, Debug)]
#[command(
    name = "nosce trees",
    allow_negative_numbers = true,
    about = "nosce trees - opponent-model search on random game trees (Donkers 2003, 5.2 and 7.2)",
    after_help = AFTER_HELP
)]
struct Args {
    /// First root seed; trees use seeds S, S+1, ...
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Number of trees per row
    #[arg(long, value_name = "N", default_value_t = 100)]
    trees: usize,
    /// Explicit list of root seeds (instead of --seed/--trees)
    #[arg(long, value_name = "A,B,...", value_delimiter = ',')]
    seeds: Option<Vec<u64>>,
    /// Depth(s): D, D1..D2 or D1,D2,...; one row each
    #[arg(long = "depth", value_name = "D", default_value = "8", value_parser = list)]
    depths: List,
    /// Width(s), same forms (at most 32); one row each
    #[arg(long = "width", value_name = "W", default_value = "4", value_parser = list)]
    widths: List,
    /// PrOM opponent types (type 0 uses MAX's own V0)
    #[arg(long, value_name = "K", default_value_t = 2)]
    types: usize,
    /// PrOM type probabilities (default uniform; sets --types)
    #[arg(long, value_name = "P0,P1,..", value_delimiter = ',')]
    probs: Option<Vec<f64>>,
    /// Bound |V0 - Vop| <= B of the bounded-sum trees
    #[arg(long, value_name = "B", default_value_t = 200)]
    bound: i32,
    /// Transposition table of 2^N entries (as in 5.2.4)
    #[arg(long, value_name = "N", default_value_t = 18, value_parser = clap::value_parser!(u32).range(4..=26))]
    tt_bits: u32,
    /// Store only interior nodes in the table (default: leaves too, so a leaf seen by
    /// several probes is evaluated once)
    #[arg(long)]
    tt_interior: bool,
    /// Per seed: seed,depth,width,minimax,om,evals_alphabeta,evals_om_beta_1p,evals_om_beta_pb
    #[arg(long)]
    csv: bool,
}

/// The values of `--depth` or `--width` (one argument: clap would read a `Vec` field as
/// repeated arguments).
#[derive(Clone, Debug)]
struct List(Vec<usize>);

/// Parses `D`, `D1..D2` or `D1,D2,...` into a list of 1 to 64 values.
fn list(s: &str) -> Result<List, String> {
    let num = |x: &str| {
        x.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{x}' is not a valid number"))
    };
    let list: Vec<usize> = if let Some((a, b)) = s.split_once("..") {
        let (a, b) = (num(a)?, num(b)?);
        if a > b {
            return Err(format!("empty range {s}"));
        }
        (a..=b).collect()
    } else {
        s.split(',').map(num).collect::<Result<_, _>>()?
    };
    if list.is_empty() || list.len() > 64 {
        return Err("give 1 to 64 values".into());
    }
    Ok(List(list))
}

/// Runs `nosce trees` with `args` (the arguments after `trees`) and returns the report, or
/// the help text for `--help` (`help` too).
pub fn run_cli(args: &[String]) -> Result<String, String> {
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            if a == "help" {
                "--help".into()
            } else {
                a.clone()
            }
        })
        .collect();
    let a: Args = match lab_args::parse("nosce trees", &args)? {
        Parsed::Args(a) => a,
        Parsed::Text(t) => return Ok(t),
    };
    let Args {
        seed,
        trees,
        seeds,
        depths,
        widths,
        types,
        probs,
        bound,
        tt_bits,
        tt_interior,
        csv,
    } = a;
    let tt_leaves = !tt_interior;
    let (List(depths), List(widths)) = (depths, widths);
    let seeds = match seeds {
        Some(s) => s,
        None => {
            if trees == 0 || trees > 10_000_000 {
                return Err("--trees: give 1 to 10000000 trees".into());
            }
            let last = seed
                .checked_add(trees as u64 - 1)
                .ok_or("--seed/--trees: seed range overflows")?;
            (seed..=last).collect()
        }
    };
    if seeds.is_empty() {
        return Err("no seeds given".into());
    }
    if let Some(bad) = seeds.iter().find(|s| **s as u32 == 0) {
        return Err(format!(
            "seed {bad}: the low 32 bits must not be 0 (the generator would output only zeros)"
        ));
    }
    let model = match probs {
        Some(p) => TreeModel::new(&p),
        None => TreeModel::uniform(types),
    }
    .map_err(|e| e.to_string())?;
    let cfg = ReportConfig {
        seeds,
        depths,
        widths,
        model,
        bound,
        tt_bits,
        tt_leaves,
    };
    let out = if csv {
        csv_report(&cfg)
    } else {
        text_report(&cfg)
    };
    out.map_err(|e| e.to_string())
}
