//! [`ExactTables`]: the owner of our own exact tables (pawnless, or pawns on one side). It resolves the table
//! directory, loads a table on first use (verifying its checksum) or generates it with the
//! retrograde solver (sub-endings first) and stores it atomically, then answers probes, ranks
//! root moves by DTM or Thompson's DTC, and scores positions for the evaluator. Donkers 2003
//! §5.4 restricts the root to tablebase-optimal moves in KQKR; Appendix B gives the
//! Browne–BELLE lines used as tests. No global state: every table sits in a `OnceLock` inside
//! the struct, which is `Send + Sync` and meant to be shared through an `Arc`.

use std::{
    path::{Path, PathBuf},
    sync::{Arc, Mutex, OnceLock},
    time::Instant,
};

use shakmaty::{Chess, Move, Position};

use crate::tb::{
    error::TbError,
    file,
    generate::solve,
    material::Material,
    params::{CACHE_SUBDIR, LOCAL_TABLES_DIR, MAX_EXACT_PIECES, TABLES_ENV},
    placement::Placement,
    table::{Table, TbEntry, Wdl},
};

/// Which distance orders moves: distance to mate or Thompson's distance to conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Distance to mate (plies).
    Dtm,
    /// Distance to mate or to a converting capture (plies, Thompson's DTC).
    Dtc,
}

/// The value of one legal move from the mover's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveValue {
    /// Result for the mover after this move.
    pub wdl: Wdl,
    /// Plies to mate counted from the position before the move (`None` for draws).
    pub dtm: Option<u16>,
    /// Plies to conversion counted from the position before the move (`None` for draws).
    pub dtc: Option<u16>,
    /// True if the move is a capture into a decisive smaller ending (DTC 1).
    pub conversion: bool,
}

impl MoveValue {
    /// Ordering score under `metric`: larger is better for the mover (fast wins, slow losses).
    pub fn score(&self, metric: Metric) -> i32 {
        let d = i32::from(match metric {
            Metric::Dtm => self.dtm.unwrap_or(0),
            Metric::Dtc => self.dtc.unwrap_or(0),
        });
        match self.wdl {
            Wdl::Win => 10_000 - d,
            Wdl::Draw => 0,
            Wdl::Loss => -10_000 + d,
        }
    }
}

/// A legal move with its exact value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// Its value for the mover.
    pub value: MoveValue,
}

/// Where a table came from when it was made available.
#[derive(Debug, Clone, PartialEq)]
pub enum TableSource {
    /// Read from this file and verified.
    Loaded(PathBuf),
    /// Generated (seconds taken) and written to this file, if a directory was usable.
    Generated {
        /// Generation time in seconds (sub-endings excluded when already available).
        seconds: f64,
        /// The file written, if any.
        written: Option<PathBuf>,
    },
}

struct Slot {
    material: Material,
    table: OnceLock<Result<Arc<Table>, TbError>>,
    source: OnceLock<TableSource>,
}

/// Our exact tables for all materials with up to four pieces and pawns on at most one side, loaded or generated
/// lazily. Probing a material for the first time may take seconds (generation); call
/// [`ExactTables::generate`] up front to avoid that during a search.
pub struct ExactTables {
    dir: Option<PathBuf>,
    slots: Vec<Slot>,
    warnings: Mutex<Vec<String>>,
}

impl std::fmt::Debug for ExactTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExactTables")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

/// True if a file can be created in `dir` (which is created if missing).
fn writable(dir: &Path) -> bool {
    if std::fs::create_dir_all(dir).is_err() {
        return false;
    }
    let probe = dir.join(format!(".nosce-write-test.{}", std::process::id()));
    let ok = std::fs::write(&probe, b"ok").is_ok();
    let _ = std::fs::remove_file(&probe);
    ok
}

/// The user's cache directory plus `nosce` (`%LOCALAPPDATA%`, `~/Library/Caches`,
/// `$XDG_CACHE_HOME` or `~/.cache`).
pub fn cache_dir() -> Option<PathBuf> {
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = if cfg!(windows) {
        env("LOCALAPPDATA")
    } else if cfg!(target_os = "macos") {
        env("HOME").map(|h| h.join("Library").join("Caches"))
    } else {
        env("XDG_CACHE_HOME").or_else(|| env("HOME").map(|h| h.join(".cache")))
    };
    base.map(|b| b.join(CACHE_SUBDIR))
}

/// Resolves the table directory: `$NOSCE_TABLES` if set, else the user's cache directory if
/// writable, else a `tables/` directory that already exists under the working directory
/// (a checkout of the repository) if writable, else `None` (tables in memory). An engine
/// started by a GUI or a match runner never creates a folder where it was started.
pub fn resolve_table_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(TABLES_ENV).filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let local = std::env::current_dir()
        .ok()
        .map(|d| d.join(LOCAL_TABLES_DIR))
        .filter(|d| d.is_dir());
    cache_dir().into_iter().chain(local).find(|d| writable(d))
}

impl ExactTables {
    /// Tables stored in (and loaded from) `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> ExactTables {
        ExactTables::with_dir(Some(dir.into()))
    }

    /// Tables kept in memory only (generated on use, never written).
    pub fn in_memory() -> ExactTables {
        ExactTables::with_dir(None)
    }

    /// Tables in the directory given by [`resolve_table_dir`] (memory only if none).
    pub fn from_env() -> ExactTables {
        ExactTables::with_dir(resolve_table_dir())
    }

    fn with_dir(dir: Option<PathBuf>) -> ExactTables {
        let slots = Material::all_covered(MAX_EXACT_PIECES)
            .into_iter()
            .map(|material| Slot {
                material,
                table: OnceLock::new(),
                source: OnceLock::new(),
            })
            .collect();
        ExactTables {
            dir,
            slots,
            warnings: Mutex::new(Vec::new()),
        }
    }

    /// The table directory, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Warnings collected so far (corrupt files replaced, files that could not be written);
    /// the list is emptied.
    pub fn take_warnings(&self) -> Vec<String> {
        self.warnings
            .lock()
            .map(|mut w| std::mem::take(&mut *w))
            .unwrap_or_default()
    }

    fn warn(&self, msg: String) {
        if let Ok(mut w) = self.warnings.lock() {
            w.push(msg);
        }
    }

    fn slot(&self, material: &Material) -> Result<&Slot, TbError> {
        let (canonical, _) = material.canonical();
        self.slots
            .iter()
            .find(|s| s.material == canonical)
            .ok_or_else(|| TbError::Material(format!("{material} is not covered")))
    }

    /// The table of `material` (either colour orientation), loading or generating it (and
    /// its sub-endings) on first use.
    pub fn table(&self, material: &Material) -> Result<Arc<Table>, TbError> {
        let slot = self.slot(material)?;
        slot.table
            .get_or_init(|| self.load_or_generate(slot))
            .clone()
    }

    /// The table if it is already in memory (never loads or generates).
    pub fn loaded(&self, material: &Material) -> Option<Arc<Table>> {
        self.slot(material)
            .ok()?
            .table
            .get()?
            .as_ref()
            .ok()
            .cloned()
    }

    /// Makes the table of `material` ready from its file if a valid one is on disk, never
    /// generating (a missing or damaged file is left to [`Self::table`], which regenerates).
    /// A few milliseconds (KQvKR: about 20 ms). Returns whether the table is in memory now.
    pub fn load_file(&self, material: &Material) -> bool {
        let Ok(slot) = self.slot(material) else {
            return false;
        };
        if slot.table.get().is_none()
            && let Some(dir) = &self.dir
            && let Ok(Some(table)) = file::load(dir, &slot.material)
        {
            let _ = slot
                .source
                .set(TableSource::Loaded(file::table_path(dir, &slot.material)));
            let _ = slot.table.set(Ok(Arc::new(table)));
        }
        self.loaded(material).is_some()
    }

    /// The size in bytes of `material`'s table file, if one is on disk (read or not).
    pub fn file_size(&self, material: &Material) -> Option<u64> {
        let slot = self.slot(material).ok()?;
        let dir = self.dir.as_ref()?;
        std::fs::metadata(file::table_path(dir, &slot.material))
            .ok()
            .map(|m| m.len())
    }

    /// How a table was made available (`None` if not yet).
    pub fn source(&self, material: &Material) -> Option<TableSource> {
        self.slot(material).ok()?.source.get().cloned()
    }

    fn load_or_generate(&self, slot: &Slot) -> Result<Arc<Table>, TbError> {
        let material = slot.material;
        if let Some(dir) = &self.dir {
            match file::load(dir, &material) {
                Ok(Some(table)) => {
                    let _ = slot
                        .source
                        .set(TableSource::Loaded(file::table_path(dir, &material)));
                    return Ok(Arc::new(table));
                }
                Ok(None) => {}
                Err(e) => self.warn(format!("{e}; regenerating")),
            }
        }
        // Sub-endings first (each behind its own OnceLock), then this one.
        let sub = |m: &Material| self.table(m);
        for child in material.conversions() {
            sub(&child)?;
        }
        let start = Instant::now();
        let table = solve(&material, &sub)?;
        let seconds = start.elapsed().as_secs_f64();
        let written = match &self.dir {
            Some(dir) => match file::store(dir, &table) {
                Ok(path) => Some(path),
                Err(e) => {
                    self.warn(format!("{e}; keeping {material} in memory only"));
                    None
                }
            },
            None => None,
        };
        let _ = slot.source.set(TableSource::Generated { seconds, written });
        Ok(Arc::new(table))
    }

    /// Makes the table of a material string (`"KQvKR"`) available, generating and writing it
    /// if no valid file exists. Returns the table.
    pub fn generate(&self, material: &str) -> Result<Arc<Table>, TbError> {
        let material: Material = material.parse()?;
        self.table(&material)
    }

    /// Exact value of a position for the side to move; `None` if the material is not covered
    /// (pawns on both sides, more than four pieces, castling rights) or the table is unavailable.
    pub fn probe(&self, pos: &Chess) -> Option<TbEntry> {
        let placement = Placement::from_position(pos)?;
        self.table(&placement.material).ok()?.probe(&placement)
    }

    /// Like [`ExactTables::probe`] but never loads or generates: `None` unless the table is
    /// already in memory (for search threads that must not block).
    pub fn probe_if_loaded(&self, pos: &Chess) -> Option<TbEntry> {
        let placement = Placement::from_position(pos)?;
        self.loaded(&placement.material)?.probe(&placement)
    }

    /// Values of all legal moves, best first under `metric` (ties keep move-generation order).
    /// `None` if the position is not covered.
    pub fn rank_moves(&self, pos: &Chess, metric: Metric) -> Option<Vec<RankedMove>> {
        self.probe(pos)?;
        let mut out = Vec::new();
        for mv in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            let child = self.probe(&after)?;
            let conversion = (mv.is_capture() || mv.is_promotion()) && child.wdl != Wdl::Draw;
            let value = MoveValue {
                wdl: child.wdl.flip(),
                dtm: child.dtm.map(|d| d + 1),
                dtc: child.dtc.map(|d| if conversion { 1 } else { d + 1 }),
                conversion,
            };
            out.push(RankedMove { mv, value });
        }
        let other = match metric {
            Metric::Dtm => Metric::Dtc,
            Metric::Dtc => Metric::Dtm,
        };
        out.sort_by_key(|r| (-r.value.score(metric), -r.value.score(other)));
        Some(out)
    }

    /// The moves that are optimal under `metric` (all ties), for a root-move filter.
    pub fn best_moves(&self, pos: &Chess, metric: Metric) -> Option<Vec<Move>> {
        let ranked = self.rank_moves(pos, metric)?;
        let best = ranked.first()?.value.score(metric);
        Some(
            ranked
                .into_iter()
                .filter(|r| r.value.score(metric) == best)
                .map(|r| r.mv)
                .collect(),
        )
    }

    /// Score for the side to move: `mate_score - dtm` for a win, `-(mate_score - dtm)` for a
    /// loss, 0 for a draw; `None` if not covered.
    pub fn evaluate(&self, pos: &Chess, mate_score: i32) -> Option<i32> {
        let entry = self.probe(pos)?;
        let dtm = i32::from(entry.dtm.unwrap_or(0));
        Some(match entry.wdl {
            Wdl::Win => mate_score - dtm,
            Wdl::Draw => 0,
            Wdl::Loss => -(mate_score - dtm),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_tables_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<ExactTables>();
    }
}
