//! The sweep of Donkers 2003 §5.4.2: every (position, speculative depth, game) of the
//! configuration — or this shard's share of them — played in parallel, each finished game
//! appended to `moves.csv` and `games.csv` at once. Re-running into the same folder resumes:
//! games already in `games.csv` are skipped (a game interrupted half-way is replayed). A
//! game depends only on its seed and s, never on which thread played it or when, so the
//! results do not depend on `--jobs` or on sharding. Speculative depths that cannot play
//! differently (`KqkrConfig::equivalent_spec_depth`, Alg. 3.6) share one game, recorded
//! under each of them.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::time::Instant;

use super::config::KqkrConfig;
use super::game::{GameRecord, GameSpec, play_game};
use super::opponent::make_opponent;
use super::outputs::{
    config_conflicts, config_lines, finish, read_config, write_config, write_csvs_with,
};
use super::player::{KrSide, KrTables, model_engine};
use super::records::{GameKey, GameRow, MoveRow, read_games, read_moves};
use crate::tb::ExactTables;

/// Makes KQvKR and the endings a capture leads to (KQvK, KRvK) resident. Evaluation and
/// WDL probes only use tables already in memory, so a table loaded half-way through a run
/// would make games depend on what ran before them.
pub fn prepare_tables(exact: &ExactTables) -> Result<(), String> {
    for m in ["KQvKR", "KQvK", "KRvK"] {
        exact.generate(m).map_err(|e| format!("{m} tables: {e}"))?;
    }
    Ok(())
}

/// Loads (or generates) the KQvKR tables, reporting on stderr when `verbose`.
pub fn load_tables(cfg: &KqkrConfig, verbose: bool) -> Result<Arc<ExactTables>, String> {
    let exact = Arc::new(match &cfg.tables_dir {
        Some(d) => ExactTables::new(d),
        None => ExactTables::from_env(),
    });
    let start = Instant::now();
    prepare_tables(&exact)?;
    if verbose {
        let how = match exact.source(&"KQvKR".parse().map_err(|e| format!("{e}"))?) {
            Some(crate::tb::TableSource::Loaded(p)) => format!("loaded from {}", p.display()),
            Some(crate::tb::TableSource::Generated { written, .. }) => match written {
                Some(p) => format!("generated, written to {}", p.display()),
                None => "generated (memory only)".into(),
            },
            None => "ready".into(),
        };
        eprintln!(
            "KQvKR tables {how} in {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
    for w in exact.take_warnings() {
        eprintln!("warning: {w}");
    }
    Ok(exact)
}

/// A progress bar with ETA on stderr (indicatif's, drawn only when stderr is a terminal:
/// a log file gets no carriage-return lines).
pub struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// A bar for `total` games.
    pub fn new(total: usize, enabled: bool) -> Self {
        let bar = if enabled && total > 0 {
            indicatif::ProgressBar::new(total as u64)
        } else {
            indicatif::ProgressBar::hidden()
        };
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "[{bar:30}] {pos}/{len} games  {elapsed_precise} elapsed  eta {eta}",
        ) {
            bar.set_style(style.progress_chars("#>."));
        }
        Progress { bar }
    }

    /// One more game finished.
    pub fn tick(&mut self) {
        self.bar.inc(1);
        if self.bar.position() >= self.bar.length().unwrap_or(0) {
            self.bar.finish();
        }
    }
}

/// Plays `todo` (indices into the configuration's positions) on `cfg.jobs` threads and
/// hands every finished game to `on_done` on the calling thread, in completion order.
pub fn play_all(
    cfg: &KqkrConfig,
    exact: &Arc<ExactTables>,
    todo: &[(usize, usize, usize)],
    mut on_done: impl FnMut(GameRecord) -> Result<(), String>,
) -> Result<(), String> {
    let tables = KrTables::new(Arc::clone(exact));
    let next = AtomicUsize::new(0);
    let workers = cfg.jobs.clamp(1, todo.len().max(1));
    let (tx, rx) = channel::<Result<GameRecord, String>>();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..workers {
            let tx = tx.clone();
            let (tables, next) = (&tables, &next);
            std::thread::Builder::new()
                .stack_size(64 * 1024 * 1024)
                .spawn_scoped(scope, move || {
                    let mut opp = match make_opponent(&cfg.opponent) {
                        Ok(o) => o,
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            return;
                        }
                    };
                    // One engine for the model's engine types per thread, across games.
                    let model_engine = match model_engine(cfg) {
                        Ok(e) => e,
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            return;
                        }
                    };
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(pi, s, g)) = todo.get(i) else {
                            break;
                        };
                        let p = &cfg.positions[pi];
                        let spec = GameSpec {
                            position: p.id,
                            fen: p.fen.clone(),
                            spec_depth: s,
                            game: g,
                            seed: cfg.game_seed(p.id, g),
                        };
                        let mut kr = match KrSide::new(cfg, tables, s, model_engine.clone()) {
                            Ok(kr) => kr,
                            Err(e) => {
                                let _ = tx.send(Err(e));
                                break;
                            }
                        };
                        let rec = play_game(&spec, &tables.exact, &mut kr, opp.as_mut());
                        if tx.send(Ok(rec)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| format!("cannot start a game thread: {e}"))?;
        }
        drop(tx);
        let mut first_err = None;
        for r in rx {
            match r {
                Ok(rec) => {
                    if let Err(e) = on_done(rec) {
                        // Stop handing out games; keep draining.
                        next.store(usize::MAX / 2, Ordering::Relaxed);
                        first_err.get_or_insert(e);
                    }
                }
                Err(e) => {
                    next.store(usize::MAX / 2, Ordering::Relaxed);
                    first_err.get_or_insert(e);
                }
            }
        }
        first_err.map_or(Ok(()), Err)
    })
}

/// A game to play: (position index, s, game index).
type Job = (usize, usize, usize);

/// Splits `todo` into the games to play and, per played game, the other speculative depths
/// it stands for ([`KqkrConfig::equivalent_spec_depth`]): such games would repeat the same
/// moves, so each is played once and recorded under every depth of its class.
fn share_equivalent_games(
    cfg: &KqkrConfig,
    todo: &[Job],
) -> (Vec<Job>, BTreeMap<GameKey, Vec<usize>>) {
    let mut first: BTreeMap<(usize, usize, usize), usize> = BTreeMap::new();
    let mut play = Vec::new();
    let mut copies: BTreeMap<GameKey, Vec<usize>> = BTreeMap::new();
    for &(pi, s, g) in todo {
        let class = (pi, cfg.equivalent_spec_depth(s), g);
        match first.get(&class) {
            Some(&rep) => copies
                .entry((cfg.positions[pi].id, rep, g))
                .or_default()
                .push(s),
            None => {
                first.insert(class, s);
                play.push((pi, s, g));
            }
        }
    }
    (play, copies)
}

/// The classes of equivalent speculative depths of the configuration, e.g. `{1,2} {3,4}`.
fn equivalence_text(cfg: &KqkrConfig) -> String {
    let mut classes: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &s in &cfg.spec_depths {
        classes
            .entry(cfg.equivalent_spec_depth(s))
            .or_default()
            .push(s);
    }
    classes
        .values()
        .filter(|c| c.len() > 1)
        .map(|c| {
            format!(
                "{{{}}}",
                c.iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs (or resumes) the sweep of `cfg` into `cfg.out`; returns the summary text.
pub fn run_sweep(cfg: &KqkrConfig) -> Result<String, String> {
    let dir = &cfg.out;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
    let lines = config_lines(cfg);
    let old = read_config(dir)?;
    if !old.is_empty() {
        let diffs = config_conflicts(&old, &lines);
        if !diffs.is_empty() {
            return Err(format!(
                "'{}' holds a run with another configuration:\n  {}",
                dir.display(),
                diffs.join("\n  ")
            ));
        }
    }
    write_config(dir, &lines)?;
    let mut games = read_games(&dir.join("games.csv"))?;
    let mut moves = read_moves(&dir.join("moves.csv"))?;
    let done: BTreeSet<GameKey> = games.iter().map(|g| g.key()).collect();
    moves.retain(|m| done.contains(&m.key()));
    let budget = cfg.opponent.node_spread().is_some();
    write_csvs_with(dir, &mut games, &mut moves, budget)?;
    let todo: Vec<(usize, usize, usize)> = cfg
        .jobs_list()
        .into_iter()
        .filter(|&(pi, s, g)| !done.contains(&(cfg.positions[pi].id, s, g)))
        .collect();
    let skipped = cfg.jobs_list().len() - todo.len();
    if cfg.progress && skipped > 0 {
        eprintln!("resuming: {skipped} games already in {}", dir.display());
    }
    let (play, copies) = share_equivalent_games(cfg, &todo);
    if cfg.progress && play.len() < todo.len() {
        eprintln!(
            "{} results from {} games: speculative depths that probe the same nodes share \
             their games (K+R {}): s {}",
            todo.len(),
            play.len(),
            cfg.kr_limit,
            equivalence_text(cfg)
        );
    }
    let exact = load_tables(cfg, cfg.progress)?;
    // The bar counts games actually played (a shared game fills several s at once).
    let mut progress = Progress::new(play.len(), cfg.progress);
    let mut aborted = Vec::new();
    let append = |path: &Path, text: &str| -> Result<(), String> {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(|e| format!("cannot append to '{}': {e}", path.display()))
    };
    play_all(cfg, &exact, &play, |rec| {
        let also = copies.get(&rec.row.key()).map_or(&[][..], Vec::as_slice);
        progress.tick();
        if let Some(e) = rec.error {
            aborted.push(format!(
                "position {} s={} game {}: {e}",
                rec.row.position, rec.row.spec_depth, rec.row.game
            ));
            return Ok(());
        }
        for &s in std::iter::once(&rec.row.spec_depth).chain(also) {
            let m: String = rec
                .moves
                .iter()
                .map(|m| {
                    MoveRow {
                        spec_depth: s,
                        ..m.clone()
                    }
                    .to_csv(budget)
                        + "\n"
                })
                .collect();
            append(&dir.join("moves.csv"), &m)?;
            let row = GameRow {
                spec_depth: s,
                ..rec.row.clone()
            };
            append(&dir.join("games.csv"), &(row.to_csv() + "\n"))?;
        }
        Ok(())
    })?;
    let summary = finish(dir, cfg.reference.as_deref())?;
    if !aborted.is_empty() {
        return Err(format!(
            "{} games could not be finished (re-run to retry them):\n  {}",
            aborted.len(),
            aborted.join("\n  ")
        ));
    }
    Ok(summary)
}
