//! The KQKR experiment of Donkers 2003 §5.4 (`nosce kqkr`): a K+R side with perfect
//! endgame knowledge (our exact DTM/DTC tables as its evaluation, root restricted to
//! DTM-optimal moves, §5.4.1) chooses among its optimal moves with OM search of speculative
//! depth s (s = 0: plain α-β, the base case) against a fallible K+Q side (nosce without
//! tables, or any UCI engine) that it models perfectly by default, from the two
//! Browne–BELLE positions (Fig. 5.9). The sweep reproduces Table 5.2 (50-move draws),
//! Tables 5.3/5.4 (opponent errors, mean game length) and Figs. 5.10–5.14.
//!
//! Files, one concept each: [`config`] (every tunable, start positions), [`args`] (the
//! command line), [`budget`] (per-move budgets, seeded node draws), [`opponent`] (the K+Q
//! side: built-in and UCI), [`player`] (the K+R side, its model, prediction surplus),
//! [`adjudicate`] (game end, move errors), [`game`] (one game and its
//! per-move records), [`records`] (`games.csv`/`moves.csv`), [`sweep`] (parallel games,
//! resume, shards, progress), [`stats`] (mean, CI, Welch and paired t), [`summary`]
//! (`summary.md`), [`pooled`] (the view over a set of positions), [`pgn`] (PGN out and in),
//! [`svg`] and [`figures`] (the plots), [`report`] and [`html`] (`report.html`),
//! [`outputs`] (the run folder), [`merge`], [`analyze`] and [`calibrate`].

pub mod adjudicate;
pub mod analyze;
pub mod args;
pub mod budget;
pub mod calibrate;
pub mod config;
pub mod figures;
pub mod game;
pub mod html;
pub mod merge;
pub mod opponent;
pub mod outputs;
pub mod pgn;
pub mod player;
pub mod pooled;
pub mod records;
pub mod report;
pub mod stats;
pub mod summary;
pub mod svg;
pub mod sweep;

use std::sync::Arc;

use args::{Command, parse};

/// Runs `nosce kqkr ARGS`; returns what to print on stdout, or an error message (exit
/// code 2 in `main`).
pub fn run_cli(args: &[String]) -> Result<String, String> {
    match parse(args)? {
        Command::Text(text) => Ok(text),
        Command::Run(cfg) => {
            let summary = sweep::run_sweep(&cfg)?;
            Ok(format!(
                "{summary}\nResults in {} (the page to open: {})\n",
                cfg.out.display(),
                cfg.out.join(report::REPORT_FILE).display()
            ))
        }
        Command::Check(cfg) => Ok(format!(
            "options accepted: {} games to play ({} positions x {} speculative depths x {} games{})\n",
            cfg.jobs_list().len(),
            cfg.positions.len(),
            cfg.spec_depths.len(),
            cfg.games,
            match cfg.shard {
                Some((i, n)) => format!("; shard {i}/{n}"),
                None => String::new(),
            }
        )),
        Command::Calibrate(cfg, candidates) => calibrate::calibrate(&cfg, &candidates),
        Command::Merge {
            dirs,
            out,
            reference,
        } => {
            let s = merge::merge(&dirs, &out, reference.as_deref())?;
            Ok(format!("{s}\nMerged into {}\n", out.display()))
        }
        Command::Analyze {
            pgn,
            spec_depth,
            out,
            reference,
            tables,
        } => {
            let exact = Arc::new(match tables {
                Some(d) => crate::tb::ExactTables::new(d),
                None => crate::tb::ExactTables::from_env(),
            });
            sweep::prepare_tables(&exact)?;
            let s = analyze::analyze(&pgn, spec_depth, &out, reference.as_deref(), &exact)?;
            Ok(format!("{s}\nAnalysis in {}\n", out.display()))
        }
    }
}
