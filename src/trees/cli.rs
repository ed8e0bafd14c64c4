//! `nosce trees`: argument parsing and help for the random-tree laboratory (thesis §5.2, §7.2).
//! [`run_cli`] takes the arguments after `trees` and returns the report text, or an error
//! message for bad arguments; it never panics.

use super::prom_plain::TreeModel;
use super::report::{ReportConfig, csv_report, text_report};

/// Help text of `nosce trees --help`.
pub const HELP: &str = "\
nosce trees - opponent-model search on random game trees (Donkers 2003, 5.2 and 7.2)

USAGE:
    nosce trees [OPTIONS]

OPTIONS:
    --seed S          first root seed (default 1); trees use seeds S, S+1, ...
    --trees N         number of trees per row (default 100)
    --seeds A,B,...   explicit list of root seeds (instead of --seed/--trees)
    --depth D         depth(s): D, D1..D2 or D1,D2,... (default 8); one row each
    --width W         width(s), same forms (default 4, at most 32); one row each
    --types K         PrOM opponent types (default 2; type 0 uses MAX's own V0)
    --probs P0,P1,..  PrOM type probabilities (default uniform; sets --types)
    --bound B         bound |V0 - Vop| <= B of the bounded-sum trees (default 200)
    --tt-bits N       transposition table of 2^N entries (default 18, as in 5.2.4)
    --tt-interior     store only interior nodes in the table (default: leaves too,
                      so a leaf seen by several probes is evaluated once)
    --csv             per seed: seed,depth,width,minimax,om,evals_alphabeta,
                      evals_om_beta_1p,evals_om_beta_pb
    -h, --help        this text

The text report gives, per row (depth, width), the 5th percentile, quartiles,
median and 95th percentile of each algorithm's leaf evaluations divided by
alpha-beta's on the same tree (Figs 5.3-5.7 and 7.1-7.5 as tables).
Seeds whose low 32 bits are 0 are rejected (the generator would be all zeros).
";

fn parse_num<T: std::str::FromStr>(flag: &str, s: &str) -> Result<T, String> {
    s.trim()
        .parse::<T>()
        .map_err(|_| format!("{flag}: '{s}' is not a valid number"))
}

/// Parses `D`, `D1..D2` or `D1,D2,...` into a non-empty list.
fn parse_list(flag: &str, s: &str) -> Result<Vec<usize>, String> {
    let list: Vec<usize> = if let Some((a, b)) = s.split_once("..") {
        let (a, b) = (parse_num::<usize>(flag, a)?, parse_num::<usize>(flag, b)?);
        if a > b {
            return Err(format!("{flag}: empty range {s}"));
        }
        (a..=b).collect()
    } else {
        s.split(',')
            .map(|x| parse_num(flag, x))
            .collect::<Result<_, _>>()?
    };
    if list.is_empty() || list.len() > 64 {
        return Err(format!("{flag}: give 1 to 64 values"));
    }
    Ok(list)
}

/// Runs `nosce trees` with `args` (the arguments after `trees`) and returns the report.
pub fn run_cli(args: &[String]) -> Result<String, String> {
    let mut seed: u64 = 1;
    let mut trees: usize = 100;
    let mut seeds: Option<Vec<u64>> = None;
    let mut depths = vec![8];
    let mut widths = vec![4];
    let mut types: usize = 2;
    let mut probs: Option<Vec<f64>> = None;
    let mut bound: i32 = 200;
    let mut tt_bits: u32 = 18;
    let mut tt_leaves = true;
    let mut csv = false;

    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let flag = arg.as_str();
        let mut value = || {
            it.next()
                .map(String::as_str)
                .ok_or_else(|| format!("{flag} needs a value (see --help)"))
        };
        match flag {
            "-h" | "--help" | "help" => return Ok(HELP.to_string()),
            "--seed" => seed = parse_num(flag, value()?)?,
            "--trees" => trees = parse_num(flag, value()?)?,
            "--seeds" => {
                let v = value()?;
                seeds = Some(
                    v.split(',')
                        .map(|x| parse_num(flag, x))
                        .collect::<Result<_, _>>()?,
                )
            }
            "--depth" => depths = parse_list(flag, value()?)?,
            "--width" => widths = parse_list(flag, value()?)?,
            "--types" => types = parse_num(flag, value()?)?,
            "--probs" => {
                let v = value()?;
                probs = Some(
                    v.split(',')
                        .map(|x| parse_num(flag, x))
                        .collect::<Result<_, _>>()?,
                )
            }
            "--bound" => bound = parse_num(flag, value()?)?,
            "--tt-bits" => tt_bits = parse_num(flag, value()?)?,
            "--tt-interior" => tt_leaves = false,
            "--csv" => csv = true,
            other => {
                return Err(format!(
                    "unknown argument '{other}' (see nosce trees --help)"
                ));
            }
        }
    }

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
    if !(4..=26).contains(&tt_bits) {
        return Err("--tt-bits: give 4 to 26".into());
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
