//! `nosce tournament`: the seven Bao tournaments of Donkers, van den Herik and Uiterwijk,
//! *Opponent-Model Search in Bao: Conditions for a Successful Application* (§4 five
//! evaluation functions of increasing quality, §5 the set-up, §6 Tables 1–9), replayed in
//! chess with nosce's evaluators: a double round robin in which South (the row) plays under
//! a treatment — α-β (T1), α-β two plies deeper (T2), OM search with one ply of speculation
//! and probes one ply short of North's search (T3) or two plies deeper (T4), OM with North's
//! own search replayed (T5) or that and two plies deeper (T6), OM with strict risk
//! management (T7) — against North (the column) with α-β at depth D; and the same question
//! under a node budget instead of a depth (`--budget`). Games are played in-process on the
//! library's public API, like the KQKR sweep.
//!
//! Files, one concept each: [`config`] (every setting and tunable), [`args`] (the command
//! line), [`players`] (North, South's treatments, the reference searches), [`game`] (one
//! game), [`records`] (the CSV files, resume), [`run`] (openings, the game list, shards,
//! threads), [`analysis`] (the numbers and tests), [`budget`] (the budget comparison and K\*), [`paper`] (the published Bao tables),
//! [`report`] (summary, CSV, PGN, HTML) with [`findings`] and [`page`], and
//! [`report_setup`] (what the report's parts share).

pub mod analysis;
pub mod args;
pub mod budget;
pub mod config;
pub mod findings;
pub mod game;
pub mod page;
pub mod paper;
pub mod players;
pub mod records;
pub mod report;
pub mod report_setup;
pub mod run;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use args::Command;

/// Merges the folders of a sharded run into `out` (which must be new or the same run):
/// their `config.txt` files must agree except for nothing; every game once.
///
/// # Errors
/// A folder that is not a run, folders of different runs, or an I/O error.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Vec<game::GameRecord>, String> {
    let mut config: Option<String> = None;
    let mut games = Vec::new();
    let mut seen = BTreeSet::new();
    for dir in dirs {
        let c = std::fs::read_to_string(dir.join(run::CONFIG_FILE))
            .map_err(|e| format!("'{}' is not a tournament folder: {e}", dir.display()))?;
        match &config {
            None => config = Some(c),
            Some(first) if *first != c => {
                return Err(format!(
                    "'{}' ran other settings than '{}'",
                    dir.display(),
                    dirs[0].display()
                ));
            }
            Some(_) => {}
        }
        let (g, _) = records::read_dir(dir)?;
        for game in g {
            if seen.insert(game.key.clone()) {
                games.push(game);
            }
        }
    }
    let config = config.ok_or("merge needs at least one folder")?;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create '{}': {e}", out.display()))?;
    crate::atomic_file::write_atomically(&out.join(run::CONFIG_FILE), config.as_bytes())?;
    games.sort_by(|a, b| a.key.cmp(&b.key));
    records::write_dir(out, &games)?;
    Ok(games)
}

/// Runs `nosce tournament ARGS`; returns what to print, or an error message.
pub fn run_cli(args: &[String]) -> Result<String, String> {
    match args::parse(args)? {
        Command::Text(t) => Ok(t),
        Command::Check(cfg) => {
            let openings = run::read_openings(&cfg.openings)?;
            run::choose_openings(&openings, cfg.openings_needed(), cfg.seed)?;
            for p in &cfg.players {
                p.eval.build()?;
            }
            Ok(format!(
                "options accepted: {} games to play ({} treatments x {} pairings x {} games{})\n",
                run::all_games(&cfg).len(),
                cfg.treatments.len(),
                cfg.players.len() * (cfg.players.len() - 1),
                cfg.games,
                cfg.shard
                    .map_or(String::new(), |(i, n)| format!("; shard {i}/{n}"))
            ))
        }
        Command::Run(cfg) => {
            let games = run::play(&cfg)?;
            let md = report::write_report(&cfg.out, &games)?;
            Ok(format!(
                "{}\nResults in {} (open {})\n",
                overview_of(&md),
                cfg.out.display(),
                cfg.out.join(report::REPORT_FILE).display()
            ))
        }
        Command::Report(dir) => {
            let (games, _) = records::read_dir(&dir)?;
            let md = report::write_report(&dir, &games)?;
            Ok(format!(
                "{}\nReport in {}\n",
                overview_of(&md),
                dir.display()
            ))
        }
        Command::Merge(dirs, out) => {
            let games = merge(&dirs, &out)?;
            let md = report::write_report(&out, &games)?;
            Ok(format!(
                "{}\nMerged into {}\n",
                overview_of(&md),
                out.display()
            ))
        }
    }
}

/// The Table 8 section of a summary (what the command prints).
fn overview_of(md: &str) -> String {
    let start = md.find("## Table 8").unwrap_or(0);
    let end = md[start..]
        .find("## Table 9")
        .map_or(md.len(), |e| start + e);
    md[start..end].trim_end().to_string()
}
