//! Playing a run: the openings drawn once from the opening file with the run's seed (the
//! same ones for every pairing and every treatment, so that treatments compare paired),
//! the list of games — every treatment × ordered pair of distinct players × opening ×
//! South's colour, ordered opening first so that a run stopped half-way has played every
//! treatment on the same openings — this shard's share of it, minus what the folder already
//! holds (resume), played on `jobs` threads and appended as each game ends. A game depends
//! only on its key, never on the thread, the shard or the order, so shards merge to the
//! unsharded result.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Instant;

use super::config::TournamentConfig;
use super::game::{GameKey, GameRecord, GameSetup, play_game};
use super::players::Tables;
use super::records::{append, read_dir, write_dir};
use crate::eval::Evaluator;
use crate::rng::mix64;
use crate::tb::SyzygyTables;

/// The file with the run's settings.
pub const CONFIG_FILE: &str = "config.txt";

/// Reads the FENs of an opening file: one position per line, FEN or EPD (the first four
/// fields, with the move counters when present); blank lines and `#` comments skipped.
///
/// # Errors
/// The file cannot be read, or a line is not a legal position (named with its number).
pub fn read_openings(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read openings '{}': {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((fen, _)) = crate::position::epd_fen(line, true) else {
            return Err(format!(
                "{}:{}: not a FEN or EPD line",
                path.display(),
                i + 1
            ));
        };
        crate::position::Position::from_fen(&fen)
            .map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        out.push(fen);
    }
    Ok(out)
}

/// `n` distinct openings of `all`, drawn with `seed` (a seeded Fisher–Yates prefix).
pub fn choose_openings(all: &[String], n: usize, seed: u64) -> Result<Vec<String>, String> {
    if all.len() < n {
        return Err(format!(
            "the opening file has {} positions; {n} are needed (games per pairing / 2)",
            all.len()
        ));
    }
    let mut idx: Vec<usize> = (0..all.len()).collect();
    let mut state = mix64(seed ^ 0x6261_6f5f_6f70_656e);
    for i in 0..n {
        state = mix64(state.wrapping_add(i as u64));
        let j = i + (state % (all.len() - i) as u64) as usize;
        idx.swap(i, j);
    }
    Ok(idx[..n].iter().map(|&i| all[i].clone()).collect())
}

/// Every game of the run in playing order (this shard's share when sharded).
pub fn all_games(cfg: &TournamentConfig) -> Vec<GameKey> {
    let mut out = Vec::new();
    let mut i = 0usize;
    for opening in 0..cfg.openings_needed() {
        for south_white in [true, false] {
            for t in &cfg.treatments {
                for s in &cfg.players {
                    for n in &cfg.players {
                        if s.label == n.label {
                            continue;
                        }
                        let mine = cfg.shard.is_none_or(|(k, of)| i % of == k - 1);
                        i += 1;
                        if mine {
                            out.push(GameKey {
                                treatment: t.code.clone(),
                                south: s.label.clone(),
                                north: n.label.clone(),
                                opening,
                                south_white,
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// Writes `config.txt`, or checks that the folder's agrees (a resumed run).
pub fn check_or_write_config(cfg: &TournamentConfig) -> Result<(), String> {
    let path = cfg.out.join(CONFIG_FILE);
    let text: String = cfg
        .lines()
        .iter()
        .map(|(k, v)| format!("{k}: {v}\n"))
        .collect();
    match std::fs::read_to_string(&path) {
        Ok(old) if old == text => Ok(()),
        Ok(old) => {
            let diff: Vec<String> = old
                .lines()
                .zip(text.lines())
                .filter(|(a, b)| a != b)
                .map(|(a, b)| format!("  folder: {a}\n  now:    {b}"))
                .collect();
            Err(format!(
                "'{}' holds a run with other settings; use another --out, or the same settings:\n{}",
                cfg.out.display(),
                if diff.is_empty() {
                    "  (a different number of settings)".to_string()
                } else {
                    diff.join("\n")
                }
            ))
        }
        Err(_) => crate::atomic_file::write_atomically(&path, text.as_bytes()),
    }
}

/// Loads the Syzygy tables of `cfg`, if any (warnings on stderr).
fn load_syzygy(cfg: &TournamentConfig) -> Result<Option<SyzygyTables>, String> {
    let Some(dir) = &cfg.syzygy else {
        return Ok(None);
    };
    let mut tb = SyzygyTables::new();
    let warnings = tb.add_directory(dir);
    if tb.num_tables() == 0 {
        return Err(format!(
            "no Syzygy tables in '{}' ({}); give --syzygy DIR or --syzygy none",
            dir.display(),
            warnings.join("; ")
        ));
    }
    for w in warnings {
        eprintln!("warning: {w}");
    }
    Ok(Some(tb))
}

/// Plays the run (or this shard), resuming what the folder holds; returns every game the
/// folder holds at the end.
///
/// # Errors
/// Bad openings or nets, a folder of another run, an I/O error, or a game that failed.
pub fn play(cfg: &TournamentConfig) -> Result<Vec<GameRecord>, String> {
    // Everything that can be wrong with the settings is found before the folder is touched,
    // so that a corrected command can use the same folder.
    let openings = choose_openings(
        &read_openings(&cfg.openings)?,
        cfg.openings_needed(),
        cfg.seed,
    )?;
    let evals: Vec<Arc<dyn Evaluator>> = cfg
        .players
        .iter()
        .map(|p| p.eval.build())
        .collect::<Result<_, _>>()?;
    let syzygy = load_syzygy(cfg)?;
    std::fs::create_dir_all(&cfg.out)
        .map_err(|e| format!("cannot create '{}': {e}", cfg.out.display()))?;
    check_or_write_config(cfg)?;
    // Resume: rewrite the records without torn lines, then skip what they hold.
    let (mut done, dropped) = read_dir(&cfg.out)?;
    if dropped > 0 && cfg.verbose {
        eprintln!("resume: dropped {dropped} incomplete line(s)");
    }
    write_dir(&cfg.out, &done)?;
    let finished: BTreeSet<GameKey> = done.iter().map(|g| g.key.clone()).collect();
    let todo: Vec<GameKey> = all_games(cfg)
        .into_iter()
        .filter(|k| !finished.contains(k))
        .collect();
    if cfg.verbose {
        eprintln!(
            "{} games to play ({} already in {}), {} thread(s)",
            todo.len(),
            finished.len(),
            cfg.out.display(),
            cfg.jobs
        );
    }
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    let (tx, rx) = channel::<Result<GameRecord, String>>();
    let index = |label: &str| cfg.players.iter().position(|p| p.label == label);
    let truth = evals.last().expect("two players at least");
    let result = std::thread::scope(|s| -> Result<(), String> {
        for _ in 0..cfg.jobs.max(1) {
            let tx = tx.clone();
            let (todo, next, evals, openings, syzygy) = (&todo, &next, &evals, &openings, &syzygy);
            std::thread::Builder::new()
                .stack_size(64 * 1024 * 1024)
                .spawn_scoped(s, move || {
                    let tables = match Tables::new(cfg.hash_mb) {
                        Ok(t) => t,
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            return;
                        }
                    };
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(key) = todo.get(i) else { break };
                        let (Some(si), Some(ni)) = (index(&key.south), index(&key.north)) else {
                            let _ = tx.send(Err(format!("unknown player in {key:?}")));
                            break;
                        };
                        let treatment = cfg
                            .treatments
                            .iter()
                            .find(|t| t.code == key.treatment)
                            .expect("keys come from the treatments");
                        let sampling = cfg.sample_every > 0 && key.treatment == "T1";
                        let setup = GameSetup {
                            treatment,
                            spec: cfg.spec,
                            south_eval: &evals[si],
                            north_eval: &evals[ni],
                            north: cfg.north,
                            max_plies: cfg.max_plies,
                            syzygy: syzygy.as_ref(),
                            samples: sampling.then_some((cfg.sample_every, truth, cfg.truth_depth)),
                            tables: &tables,
                        };
                        let r = play_game(key.clone(), &openings[key.opening], &setup);
                        let failed = r.is_err();
                        if tx.send(r).is_err() || failed {
                            break;
                        }
                    }
                })
                .map_err(|e| format!("cannot start a game thread: {e}"))?;
        }
        drop(tx);
        let mut played = 0usize;
        for r in rx {
            let g = r?;
            append(&cfg.out, &g)?;
            done.push(g);
            played += 1;
            if cfg.verbose && (played.is_multiple_of(20) || played == todo.len()) {
                let secs = start.elapsed().as_secs_f64();
                let left = secs / played as f64 * (todo.len() - played) as f64;
                eprintln!(
                    "{played}/{} games, {:.0} s, about {:.0} min left",
                    todo.len(),
                    secs,
                    left / 60.0
                );
            }
        }
        Ok(())
    });
    result?;
    Ok(done)
}
