//! The run: opens (or resumes) the data file, plays the games on `--threads` game threads
//! ([`super::pool`], one [`GameWorker`] each, kept for the whole run), appends each game's
//! records in game order, and writes the progress file.
//!
//! The records are appended as the games arrive; at most every [`SYNC_EVERY`] (and at the
//! end, or when the run fails) the data file is flushed and synced, and only then the
//! progress file is rewritten ([`super::progress`]) to count the games synced. Since every
//! game depends only on its number and the settings, the file is the same byte for byte
//! whatever `--threads` is and however often the run was interrupted and resumed.

use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::adjudicate::GameEnd;
use super::args::DatagenConfig;
use super::game::{GameRecord, GameSettings, GameWorker};
use super::opening::read_epd;
use super::pool::{Games, play_in_order};
use super::progress::{Progress, Settings, progress_path};
use super::record::{GameResult, RECORD_SIZE, encode};
use crate::eval::NnueEval;
use crate::eval::{Evaluator, FullEval};
use crate::nnue::Network;
use crate::tb::{ExactTables, Tablebases, WdlProbe};

/// How often a long run reports on stderr.
const REPORT_EVERY: Duration = Duration::from_secs(30);
/// How often at most the data file is synced and the progress file rewritten.
pub const SYNC_EVERY: Duration = Duration::from_secs(2);

/// Opens the data file for appending after the games already done: resumes from the
/// progress file (checking its settings, cutting the data file back to the recorded
/// length) or starts a new run (refusing to overwrite a file that holds data).
fn open_data(cfg: &DatagenConfig, eval: &str) -> Result<(Progress, File, u64), String> {
    let ppath = progress_path(&cfg.out);
    let out = cfg.out.display();
    let settings = Settings::of(cfg, eval);
    if ppath.exists() {
        let text = std::fs::read_to_string(&ppath)
            .map_err(|e| format!("cannot read '{}': {e}", ppath.display()))?;
        let progress = Progress::parse(&text).map_err(|e| format!("'{}': {e}", ppath.display()))?;
        progress.settings.check(&settings, &ppath)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&cfg.out)
            .map_err(|e| {
                format!(
                    "'{}' records {} bytes of data, but '{out}' cannot be opened: {e}",
                    ppath.display(),
                    progress.bytes
                )
            })?;
        let len = file
            .metadata()
            .map_err(|e| format!("cannot read '{out}': {e}"))?
            .len();
        if len < progress.bytes {
            return Err(format!(
                "'{out}' holds {len} bytes but '{}' records {}: the data file was cut short; \
                 not resuming",
                ppath.display(),
                progress.bytes
            ));
        }
        let cut = len - progress.bytes;
        if cut > 0 {
            file.set_len(progress.bytes)
                .map_err(|e| format!("cannot truncate '{out}': {e}"))?;
        }
        file.seek(SeekFrom::Start(progress.bytes))
            .map_err(|e| format!("cannot seek in '{out}': {e}"))?;
        return Ok((progress, file, cut));
    }
    if let Ok(meta) = std::fs::metadata(&cfg.out)
        && meta.len() > 0
    {
        return Err(format!(
            "'{out}' already holds data and has no '{}' to resume from: not overwriting it \
             (remove it or choose another --out)",
            ppath.display()
        ));
    }
    let file = File::create(&cfg.out).map_err(|e| format!("cannot create '{out}': {e}"))?;
    let progress = Progress::new(settings);
    progress.write(&ppath)?;
    Ok((progress, file, 0))
}

/// Syzygy tables for adjudication (Syzygy only: our exact tables are not used).
fn load_syzygy(path: &str) -> Result<Tablebases, String> {
    let (mut tb, warnings) = Tablebases::new(path, Arc::new(ExactTables::in_memory()), true);
    tb.use_exact = false;
    if tb.syzygy_tables() == 0 {
        return Err(format!(
            "--syzygy: no Syzygy tables in '{path}' ({})",
            warnings.join("; ")
        ));
    }
    Ok(tb)
}

/// Totals of this run, for the summary.
#[derive(Default)]
struct Tally {
    games: u64,
    positions: u64,
    results: [u64; 3],
    ends: Vec<(GameEnd, u64)>,
    nodes: u64,
}

impl Tally {
    fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        self.positions += g.records.len() as u64;
        self.results[result_index(g.result)] += 1;
        self.nodes += g.nodes;
        match self.ends.iter_mut().find(|(e, _)| *e == g.end) {
            Some((_, n)) => *n += 1,
            None => self.ends.push((g.end, 1)),
        }
    }
}

/// Index into `[White wins, draws, Black wins]`.
fn result_index(white: GameResult) -> usize {
    match white {
        GameResult::Win => 0,
        GameResult::Draw => 1,
        GameResult::Loss => 2,
    }
}

/// Runs `nosce datagen` with parsed settings; returns the summary.
///
/// # Errors
/// Unreadable openings, missing Syzygy tables, a progress file that does not match, a data
/// file that would be overwritten, an I/O error.
pub fn run(cfg: &DatagenConfig) -> Result<String, String> {
    let openings = match &cfg.openings {
        Some(path) => read_epd(path)?,
        None => Vec::new(),
    };
    let tb = cfg.syzygy.as_deref().map(load_syzygy).transpose()?;
    let tb_probe: Option<&dyn WdlProbe> = tb.as_ref().map(|t| t as &dyn WdlProbe);
    // The evaluator the games are played with, and its name in the progress file.
    let (eval, eval_name): (Arc<dyn Evaluator>, String) = match &cfg.evalfile {
        Some(path) => {
            let net = Network::load(path)?;
            let name = format!("nnue {}", net.id());
            (Arc::new(NnueEval::new(net)), name)
        }
        None => (Arc::new(FullEval::default()), "hce".to_string()),
    };
    let (mut progress, mut file, cut) = open_data(cfg, &eval_name)?;
    let ppath = progress_path(&cfg.out);
    let out = cfg.out.display();
    let settings = GameSettings {
        seed: cfg.seed,
        nodes: cfg.nodes,
        random_plies: cfg.random_plies,
        max_plies: cfg.max_plies,
    };
    let mut text = String::new();
    if cut > 0 {
        text.push_str(&format!(
            "resumed: cut {cut} bytes of an unfinished append off '{out}'\n"
        ));
    }
    if progress.games_done >= cfg.games {
        text.push_str(&format!(
            "nosce datagen: all {} games of '{out}' are done ({} positions); nothing to play\n",
            progress.games_done,
            progress.bytes / RECORD_SIZE as u64
        ));
        return Ok(text);
    }
    let first_game = progress.games_done;
    let remaining = cfg.games - first_game;
    let threads = cfg
        .threads
        .min(usize::try_from(remaining).unwrap_or(usize::MAX));
    let mut workers = (0..threads)
        .map(|_| GameWorker::new(Arc::clone(&eval)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut tally = Tally::default();
    let start = Instant::now();
    let mut last_report = start;
    let mut last_sync = start;
    // Games appended since the last sync: count, bytes, results.
    let mut unsynced = (0u64, 0u64, [0u64; 3]);
    let games = Games {
        settings: &settings,
        openings: &openings,
        tb: tb_probe,
    };
    let fail = |e: std::io::Error| format!("cannot write '{out}': {e}");
    let sync = |file: &mut File,
                progress: &mut Progress,
                unsynced: &mut (u64, u64, [u64; 3])|
     -> Result<(), String> {
        file.flush().map_err(fail)?;
        file.sync_data().map_err(fail)?;
        progress.games_done += unsynced.0;
        progress.bytes += unsynced.1;
        for (p, u) in progress.results.iter_mut().zip(unsynced.2) {
            *p += u;
        }
        *unsynced = (0, 0, [0; 3]);
        progress.write(&ppath)
    };
    let played = play_in_order(&mut workers, &games, first_game..cfg.games, |g| {
        let buf: Vec<u8> = g.records.iter().flat_map(encode).collect();
        file.write_all(&buf).map_err(fail)?;
        tally.add(&g);
        unsynced.0 += 1;
        unsynced.1 += buf.len() as u64;
        unsynced.2[result_index(g.result)] += 1;
        if last_sync.elapsed() >= SYNC_EVERY {
            last_sync = Instant::now();
            sync(&mut file, &mut progress, &mut unsynced)?;
        }
        if last_report.elapsed() >= REPORT_EVERY {
            last_report = Instant::now();
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            eprintln!(
                "datagen: {}/{} games, {} positions this run, {:.0} positions/s",
                first_game + tally.games,
                cfg.games,
                tally.positions,
                tally.positions as f64 / secs
            );
        }
        Ok(())
    });
    // The games delivered before a failure are kept, too.
    let synced = sync(&mut file, &mut progress, &mut unsynced);
    played?;
    synced?;
    let secs = start.elapsed().as_secs_f64().max(1e-3);
    let [w, d, l] = tally.results;
    let ends: Vec<String> = GameEnd::ALL
        .iter()
        .filter_map(|e| {
            tally
                .ends
                .iter()
                .find(|(x, _)| x == e)
                .map(|(_, n)| format!("{} {n}", e.name()))
        })
        .collect();
    text.push_str(&format!(
        "nosce datagen: {} games played (games {}..{}), {} positions written\n\
         results (White's view): {w} wins, {d} draws, {l} losses; ended by {}\n\
         speed: {:.1} positions/s, {:.2} games/s in {secs:.1} s ({threads} thread(s), {} nodes per move)\n\
         search: {} nodes, {:.0} nodes/s per thread, {:.0} nodes per position written\n\
         file: '{out}' now {} positions from {} games (progress in '{}')\n",
        tally.games,
        first_game,
        first_game + tally.games,
        tally.positions,
        ends.join(", "),
        tally.positions as f64 / secs,
        tally.games as f64 / secs,
        cfg.nodes,
        tally.nodes,
        tally.nodes as f64 / secs / threads as f64,
        tally.nodes as f64 / tally.positions.max(1) as f64,
        progress.bytes / RECORD_SIZE as u64,
        progress.games_done,
        ppath.display(),
    ));
    Ok(text)
}
