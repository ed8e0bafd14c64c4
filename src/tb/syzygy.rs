//! Wrapper around `shakmaty_syzygy::Tablebase<Chess>`: adding table directories with warnings
//! instead of failures, WDL and DTZ probes that turn every error into "no information", and
//! the root ranking that the engine uses as a move filter (like the root restriction to
//! tablebase-optimal moves in Donkers 2003 §5.4, but under the 50-move rule, which Syzygy's
//! DTZ respects and Thompson's DTC ignores).
//!
//! Sign conventions follow Syzygy: values are for the side to move; for a move, the values are
//! converted to the mover's view and counted from the position before the move.

use std::{
    ffi::OsStr,
    fs,
    io::Read,
    panic::{AssertUnwindSafe, catch_unwind},
    path::{Path, PathBuf},
    sync::{
        Mutex,
        atomic::{AtomicBool, Ordering},
    },
};

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{Dtz, MaybeRounded, SyzygyError, Tablebase, Wdl as SzWdl};

use crate::tb::params::FIFTY_MOVE_PLIES;

/// Magic bytes of a Syzygy WDL file (`.rtbw`).
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
/// Magic bytes of a Syzygy DTZ file (`.rtbz`).
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Syzygy tables with collected warnings.
pub struct SyzygyTables {
    tb: Tablebase<Chess>,
    dirs: Vec<PathBuf>,
    files: usize,
    probe_warnings: Mutex<Vec<String>>,
    /// Materials (e.g. `KQvKR`) whose tables failed a cross-check ([`super::trust`]):
    /// probed no more. `any_distrusted` keeps the probe's fast path free of the lock.
    distrusted: Mutex<Vec<String>>,
    any_distrusted: AtomicBool,
}

impl std::fmt::Debug for SyzygyTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SyzygyTables")
            .field("dirs", &self.dirs)
            .field("files", &self.files)
            .finish_non_exhaustive()
    }
}

impl Default for SyzygyTables {
    fn default() -> Self {
        SyzygyTables::new()
    }
}

/// One legal root move with its Syzygy values for the mover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyzygyMove {
    /// The move.
    pub mv: Move,
    /// Result for the mover, including the 50-move rule from the current halfmove clock
    /// (`CursedWin`/`BlessedLoss` = the 50-move rule decides).
    pub wdl: SzWdl,
    /// DTZ for the mover counted from before the move (positive = winning, 0 = draw).
    pub dtz: i32,
    /// True if Syzygy stored this DTZ in full moves (`MaybeRounded::Rounded`): an even true
    /// distance then reads one ply short (see `tests/it/tb_syzygy_compare.rs`).
    pub rounded: bool,
    /// Rank (larger is better): safe wins by smallest DTZ, then cursed wins, draws, blessed
    /// losses, and losses by largest DTZ.
    pub rank: i32,
}

/// All legal root moves ranked by Syzygy, best first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootRanking {
    /// Every legal move, best first.
    pub moves: Vec<SyzygyMove>,
    /// The moves with the best rank (the search picks among these).
    pub best: Vec<Move>,
    /// The moves that keep the best result class (e.g. every win that is safe under the
    /// 50-move rule) — a looser filter.
    pub keeping: Vec<Move>,
}

/// Result class of a `Wdl` for ranking.
fn class(wdl: SzWdl) -> i32 {
    i32::from(wdl)
}

impl SyzygyTables {
    /// No tables yet.
    pub fn new() -> SyzygyTables {
        SyzygyTables {
            tb: Tablebase::new(),
            dirs: Vec::new(),
            files: 0,
            probe_warnings: Mutex::new(Vec::new()),
            distrusted: Mutex::new(Vec::new()),
            any_distrusted: AtomicBool::new(false),
        }
    }

    /// Adds every directory of a path list (`:`-separated on Unix, `;` on Windows, as
    /// `std::env::split_paths`). Returns warnings (missing directories, bad files).
    pub fn add_paths(&mut self, paths: &OsStr) -> Vec<String> {
        let mut warnings = Vec::new();
        for dir in std::env::split_paths(paths) {
            if dir.as_os_str().is_empty() {
                continue;
            }
            warnings.extend(self.add_directory(&dir));
        }
        warnings
    }

    /// Adds the `.rtbw`/`.rtbz` files of one directory, checking size and magic of each.
    /// Returns warnings; never fails.
    pub fn add_directory(&mut self, dir: &Path) -> Vec<String> {
        let mut warnings = Vec::new();
        let entries = match fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) => {
                warnings.push(format!(
                    "syzygy: cannot read directory {}: {e}",
                    dir.display()
                ));
                return warnings;
            }
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        let mut added = 0;
        for path in paths {
            let ext = path.extension().and_then(OsStr::to_str).unwrap_or("");
            let magic = match ext {
                "rtbw" => WDL_MAGIC,
                "rtbz" => DTZ_MAGIC,
                _ => continue,
            };
            if let Err(why) = check_file(&path, magic) {
                warnings.push(format!("syzygy: skipping {}: {why}", path.display()));
                continue;
            }
            match self.tb.add_file(&path) {
                Ok(()) => added += 1,
                Err(e) => warnings.push(format!("syzygy: skipping {}: {e}", path.display())),
            }
        }
        self.files += added;
        self.dirs.push(dir.to_path_buf());
        warnings
    }

    /// Number of table files added.
    pub fn num_tables(&self) -> usize {
        self.files
    }

    /// Largest piece count over the added tables (0 if none).
    pub fn max_pieces(&self) -> usize {
        self.tb.max_pieces()
    }

    /// The directories added.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Warnings from failed probes (corrupt or missing tables), each reported once; the list
    /// is emptied.
    pub fn take_warnings(&self) -> Vec<String> {
        self.probe_warnings
            .lock()
            .map(|mut w| std::mem::take(&mut *w))
            .unwrap_or_default()
    }

    fn covered(&self, pos: &Chess) -> bool {
        self.files > 0
            && pos.board().occupied().count() <= self.tb.max_pieces()
            && !pos.castles().any()
            && !(self.any_distrusted.load(Ordering::Relaxed) && self.is_distrusted(pos))
    }

    fn is_distrusted(&self, pos: &Chess) -> bool {
        let (w, b) = sides(pos);
        let (one, other) = (format!("{w}v{b}"), format!("{b}v{w}"));
        self.distrusted
            .lock()
            .map(|d| d.contains(&one) || d.contains(&other))
            .unwrap_or(false)
    }

    /// Stops probing the tables of `pos`'s material, with a warning that says `why`.
    pub(super) fn distrust(&self, pos: &Chess, why: &str) {
        self.distrust_key(material_key(pos), why);
    }

    /// [`Self::distrust`] by the material's name (either side first).
    fn distrust_key(&self, key: String, why: &str) {
        if let Ok(mut d) = self.distrusted.lock() {
            if d.contains(&key) {
                return;
            }
            d.push(key.clone());
        }
        self.any_distrusted.store(true, Ordering::Relaxed);
        if let Ok(mut w) = self.probe_warnings.lock() {
            w.push(format!(
                "syzygy: the {key} tables {why}: damaged, not used any more"
            ));
        }
    }

    /// The materials whose tables failed a cross-check (see [`super::trust`]).
    pub fn distrusted(&self) -> Vec<String> {
        self.distrusted
            .lock()
            .map(|d| d.clone())
            .unwrap_or_default()
    }

    fn note<T>(&self, result: Result<T, SyzygyError>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                let msg = match &e {
                    SyzygyError::ProbeFailed {
                        metric,
                        material,
                        error,
                    } => {
                        let what = match error.as_ref() {
                            shakmaty_syzygy::ProbeError::CorruptedTable { .. } => {
                                "corrupted or truncated table".to_string()
                            }
                            other => other.to_string(),
                        };
                        // A table that fails once is not asked again (no warning per
                        // search, no half-trusted file).
                        self.distrust_key(material.to_string(), "failed a probe");
                        format!("syzygy: failed to probe {metric} table {material}: {what}")
                    }
                    other => format!("syzygy: {other}"),
                };
                if let Ok(mut w) = self.probe_warnings.lock()
                    && !w.contains(&msg)
                {
                    w.push(msg);
                }
                None
            }
        }
    }

    fn guarded<T>(&self, f: impl FnOnce() -> Result<T, SyzygyError>) -> Option<T> {
        match catch_unwind(AssertUnwindSafe(f)) {
            Ok(result) => self.note(result),
            Err(_) => {
                if let Ok(mut w) = self.probe_warnings.lock() {
                    w.push("syzygy: probe panicked (corrupt table?)".into());
                }
                None
            }
        }
    }

    /// WDL of the position for the side to move as if the halfmove clock were zero (the
    /// table value); `None` if not covered or on any probe error.
    pub fn probe_wdl(&self, pos: &Chess) -> Option<SzWdl> {
        if !self.covered(pos) {
            return None;
        }
        self.guarded(|| self.tb.probe_wdl_after_zeroing(pos))
    }

    /// DTZ of the position for the side to move; `None` if not covered or on error.
    pub fn probe_dtz(&self, pos: &Chess) -> Option<MaybeRounded<Dtz>> {
        if !self.covered(pos) {
            return None;
        }
        self.guarded(|| self.tb.probe_dtz(pos))
    }

    /// Ranks every legal move (see [`SyzygyMove::rank`]); `None` if any probe fails.
    pub fn rank_root(&self, pos: &Chess) -> Option<RootRanking> {
        if !self.covered(pos) {
            return None;
        }
        let clock = pos.halfmoves();
        let mut moves = Vec::new();
        for mv in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            let (wdl, dtz, rounded) = if after.is_checkmate() {
                (SzWdl::Win, 1, false)
            } else if mv.is_zeroing() {
                let w = -self.probe_wdl(&after)?;
                (w, Dtz::before_zeroing(w).0, false)
            } else {
                let child = self.probe_dtz(&after)?;
                let rounded = matches!(child, MaybeRounded::Rounded(_));
                let dtz = (-child.ignore_rounding()).add_plies_saturating(1).0;
                (fifty_move_wdl(dtz, clock), dtz, rounded)
            };
            let rank = match wdl {
                SzWdl::Win => 3000 - dtz.abs().min(999),
                SzWdl::CursedWin => 2000 - dtz.abs().min(999),
                SzWdl::Draw => 0,
                SzWdl::BlessedLoss => -2000 + dtz.abs().min(999),
                SzWdl::Loss => -3000 + dtz.abs().min(999),
            };
            moves.push(SyzygyMove {
                mv,
                wdl,
                dtz,
                rounded,
                rank,
            });
        }
        moves.sort_by_key(|m| -m.rank);
        let top = moves.first()?;
        let (best_rank, best_class) = (top.rank, class(top.wdl));
        let best = moves
            .iter()
            .filter(|m| m.rank == best_rank)
            .map(|m| m.mv)
            .collect();
        let keeping = moves
            .iter()
            .filter(|m| class(m.wdl) == best_class)
            .map(|m| m.mv)
            .collect();
        Some(RootRanking {
            moves,
            best,
            keeping,
        })
    }
}

/// The material of `pos` as Syzygy names its files, e.g. `KQvKR`: the stronger side first
/// (by piece values, then by name), whichever colour it is.
pub fn material_key(pos: &Chess) -> String {
    let value = |s: &str| -> u32 {
        s.chars()
            .map(|c| match c {
                'Q' => 9,
                'R' => 5,
                'B' | 'N' => 3,
                'P' => 1,
                _ => 0,
            })
            .sum()
    };
    let (w, b) = sides(pos);
    if (value(&w), &w) >= (value(&b), &b) {
        format!("{w}v{b}")
    } else {
        format!("{b}v{w}")
    }
}

/// White's and Black's pieces of `pos`, e.g. (`KQ`, `KR`).
fn sides(pos: &Chess) -> (String, String) {
    use shakmaty::{Color, Role};
    let board = pos.board();
    let side = |c: Color| -> String {
        [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ]
        .iter()
        .flat_map(|&r| {
            let n = (board.by_color(c) & board.by_role(r)).count();
            std::iter::repeat_n(r.upper_char(), n)
        })
        .collect()
    };
    (side(Color::White), side(Color::Black))
}

/// WDL under the 50-move rule of a non-zeroing line with `dtz` plies (mover's view, counted
/// from now) when the halfmove clock is `clock`. A rounded DTZ landing exactly on the 100-ply
/// boundary is ambiguous (Syzygy's `MaybeWin`/`MaybeLoss`); like `AmbiguousWdl::after_zeroing`
/// it counts as decided within the 50 moves.
fn fifty_move_wdl(dtz: i32, clock: u32) -> SzWdl {
    let total = dtz.unsigned_abs() + clock;
    match dtz.signum() {
        1 if total <= FIFTY_MOVE_PLIES => SzWdl::Win,
        1 => SzWdl::CursedWin,
        -1 if total <= FIFTY_MOVE_PLIES => SzWdl::Loss,
        -1 => SzWdl::BlessedLoss,
        _ => SzWdl::Draw,
    }
}

/// Checks a table file's size (`16 mod 64`, Syzygy's padding) and magic bytes.
fn check_file(path: &Path, magic: [u8; 4]) -> Result<(), String> {
    let meta = fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() < 64 || meta.len() % 64 != 16 {
        return Err(format!(
            "truncated or corrupt ({} bytes, size must be 16 mod 64)",
            meta.len()
        ));
    }
    let mut head = [0u8; 4];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .map_err(|e| format!("unreadable: {e}"))?;
    if head != magic {
        return Err("wrong magic bytes (not a Syzygy table)".into());
    }
    Ok(())
}
