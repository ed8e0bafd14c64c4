//! The engine's view of all its endgame tables: Syzygy (if `SyzygyPath` names any) and our
//! own exact DTM/DTC tables. Gives the search its WDL probes (any error is "no information")
//! and the root move filter (Syzygy's DTZ ranking when Syzygy covers the position, else the
//! exact tables by DTM — the metric of the thesis' Nalimov-based KQKR player, Donkers 2003
//! §5.4.1). A root use of an exact table needs the table of every ending it can lead to (the
//! moves are ranked, the DTM line is followed through promotions and captures), so it waits
//! until that whole set is in memory. Without a clock the set is read from disk at once or
//! generated in the background (20–30 s of a core and ~230 MB for a four-piece ending with a
//! pawn). Under a clock ([`Tablebases::set_clock`]) nothing is generated — it would take a
//! core from the game, in a match the opponent's — and files are read on the search's thread
//! only when they fit a small share of our time ([`SYNC_LOAD_TIME_SHARE`]); larger ones are
//! read in the background and used from a later move, and an ending whose file is missing
//! is said once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use shakmaty::{Chess, Move, Position as _};
use shakmaty_syzygy::Wdl as SzWdl;

use super::material::Material;
use super::params::{SYNC_LOAD_BYTES_PER_MS, SYNC_LOAD_TIME_SHARE};
use super::placement::Placement;
use super::probe::WdlProbe;
use super::{ExactTables, Metric, SyzygyTables, Wdl};

/// All tables the engine holds.
pub struct Tablebases {
    /// Syzygy tables, if any were loaded.
    pub syzygy: Option<SyzygyTables>,
    /// Our exact tables (lazily loaded).
    pub exact: Arc<ExactTables>,
    /// Respect the 50-move rule (`Syzygy50MoveRule`): cursed wins and blessed losses are
    /// draws.
    pub fifty_move_rule: bool,
    /// Use our exact tables (the `ExactTables` option); Syzygy alone when false.
    pub use_exact: bool,
    /// Endings whose tables are being read or generated in the background.
    loading: Arc<parking_lot::Mutex<Vec<Material>>>,
    /// Whether a missing exact table may be generated now (false under a clock).
    generate: AtomicBool,
    /// Bytes of table files a search may read on its own thread ([`Self::set_clock`]).
    sync_bytes: AtomicU64,
    /// Endings whose generation was declined under a clock and not yet reported.
    declined: parking_lot::Mutex<Vec<(Material, bool)>>,
}

impl Tablebases {
    /// Tables from the `SyzygyPath` string (empty: none) plus our exact tables; returns the
    /// tables and the warnings to show (missing directory, bad files...).
    pub fn new(
        syzygy_path: &str,
        exact: Arc<ExactTables>,
        fifty_move_rule: bool,
    ) -> (Self, Vec<String>) {
        let mut warnings = Vec::new();
        let syzygy = if syzygy_path.trim().is_empty() {
            None
        } else {
            let mut t = SyzygyTables::new();
            warnings.extend(t.add_paths(std::ffi::OsStr::new(syzygy_path.trim())));
            if t.num_tables() == 0 {
                warnings.push(format!(
                    "no Syzygy tables found in '{}'",
                    syzygy_path.trim()
                ));
                None
            } else {
                Some(t)
            }
        };
        (
            Tablebases {
                syzygy,
                exact,
                fifty_move_rule,
                use_exact: true,
                loading: Arc::new(parking_lot::Mutex::new(Vec::new())),
                generate: AtomicBool::new(true),
                sync_bytes: AtomicU64::new(u64::MAX),
                declined: parking_lot::Mutex::new(Vec::new()),
            },
            warnings,
        )
    }

    /// Number of Syzygy tables loaded.
    pub fn syzygy_tables(&self) -> usize {
        self.syzygy.as_ref().map_or(0, SyzygyTables::num_tables)
    }

    /// What the next searches may do to make an exact table ready, set by the engine before
    /// every search: `None` (no clock) reads files at once and generates missing tables in
    /// the background; `Some(time)` (our clock, or a fixed move time) generates nothing and
    /// reads on the search's thread only the files that fit [`SYNC_LOAD_TIME_SHARE`] of
    /// `time` (see the module text).
    pub fn set_clock(&self, time: Option<Duration>) {
        self.generate.store(time.is_none(), Ordering::Relaxed);
        let bytes = time.map_or(u64::MAX, |t| {
            (t.as_secs_f64() * 1000.0 * SYNC_LOAD_TIME_SHARE * SYNC_LOAD_BYTES_PER_MS) as u64
        });
        self.sync_bytes.store(bytes, Ordering::Relaxed);
    }

    /// The endings whose tables a timed search did not generate, each reported once, as
    /// messages for the user.
    pub fn take_declined(&self) -> Vec<String> {
        let mut declined = self.declined.lock();
        let mut out = Vec::new();
        for (m, reported) in declined.iter_mut().filter(|(_, r)| !*r) {
            *reported = true;
            out.push(format!(
                "exact table {m} is not on disk and is not generated under a clock (it takes a \
                 core for up to half a minute): 'nosce tb gen {m}' or a search without a clock \
                 makes it"
            ));
        }
        out
    }

    /// Makes the exact tables of `pos`'s material and of every ending it can lead to ready,
    /// if covered, as [`Self::set_clock`] allows: read from disk now, or read or generated in
    /// the background. Returns true if they are all in memory now.
    pub fn prefetch(&self, pos: &Chess) -> bool {
        let Some(placement) = Placement::from_position(pos) else {
            return false;
        };
        let root = placement.material.canonical().0;
        let missing = |set: &[Material]| -> Vec<Material> {
            set.iter()
                .copied()
                .filter(|m| self.exact.loaded(m).is_none())
                .collect()
        };
        let set = closure(root);
        let mut todo = missing(&set);
        if todo.is_empty() {
            return true;
        }
        let mut loading = self.loading.lock();
        // Under way in the background: not read again.
        if loading.contains(&root) {
            return false;
        }
        // Each file's size, looked up once: `None` for a file not on disk.
        let sizes: Vec<(Material, Option<u64>)> = todo
            .iter()
            .map(|&m| (m, self.exact.file_size(&m)))
            .collect();
        let bytes: u64 = sizes.iter().filter_map(|(_, size)| *size).sum();
        if bytes <= self.sync_bytes.load(Ordering::Relaxed) {
            for m in &todo {
                self.exact.load_file(m);
            }
            todo = missing(&set);
            if todo.is_empty() {
                return true;
            }
        }
        let generate = self.generate.load(Ordering::Relaxed);
        if !generate && let Some((m, _)) = sizes.iter().find(|(_, size)| size.is_none()) {
            // A file is missing and a timed search does not generate it: said once.
            let mut declined = self.declined.lock();
            if !declined.iter().any(|(d, _)| d == m) {
                declined.push((*m, false));
            }
            return false;
        }
        loading.push(root);
        let exact = Arc::clone(&self.exact);
        let busy = Arc::clone(&self.loading);
        let _ = std::thread::Builder::new()
            .name("tb-load".into())
            .spawn(move || {
                for m in &todo {
                    if generate {
                        let _ = exact.table(m);
                    } else {
                        exact.load_file(m);
                    }
                }
                // A background read under a clock ends here; a generation stays marked
                // (its table is in memory now, or it failed and is not tried again).
                if !generate {
                    busy.lock().retain(|m| *m != root);
                }
            });
        false
    }

    /// Loads (or generates) now, blocking, the exact table of `pos`'s material and those of
    /// every ending it can lead to, if covered: for runs whose node counts must not depend on
    /// how fast a background load ([`Self::prefetch`]) finishes, such as benchmarks.
    pub fn load_now(&self, pos: &Chess) {
        let Some(placement) = Placement::from_position(pos) else {
            return;
        };
        for m in closure(placement.material.canonical().0) {
            let _ = self.exact.table(&m);
        }
    }

    /// The root moves the search may choose from: the table-optimal ones, or `None` when no
    /// table covers the position (or a probe failed). Syzygy's tables of the position are
    /// cross-checked first ([`SyzygyTables::verify_root`]).
    pub fn root_moves(&self, pos: &Chess) -> Option<Vec<Move>> {
        if let Some(sz) = &self.syzygy {
            // Damaged tables are caught here, before they choose a move (`super::trust`).
            let exact = (self.use_exact && pos.board().occupied().count() <= 4)
                .then(|| self.exact.probe_if_loaded(pos).map(|e| e.wdl))
                .flatten();
            sz.verify_root(pos, exact);
        }
        if let Some(sz) = &self.syzygy
            && let Some(r) = sz.rank_root(pos)
            && !r.best.is_empty()
        {
            return Some(r.best);
        }
        self.exact_root_moves(pos, Metric::Dtm)
    }

    /// The optimal root moves by our exact tables under `metric` (only if the table is in
    /// memory: never blocks on generation).
    pub fn exact_root_moves(&self, pos: &Chess, metric: Metric) -> Option<Vec<Move>> {
        if !self.use_exact || !self.prefetch(pos) {
            return None;
        }
        self.exact.best_moves(pos, metric).filter(|m| !m.is_empty())
    }
}

impl WdlProbe for Tablebases {
    fn max_pieces(&self) -> usize {
        let sz = self.syzygy.as_ref().map_or(0, SyzygyTables::max_pieces);
        if self.use_exact { sz.max(4) } else { sz }
    }

    fn probe_wdl(&self, pos: &Chess) -> Option<Wdl> {
        if self.use_exact
            && pos.board().occupied().count() <= 4
            && let Some(e) = self.exact.probe_if_loaded(pos)
        {
            return Some(e.wdl);
        }
        let w = self.syzygy.as_ref()?.probe_wdl(pos)?;
        Some(match w {
            SzWdl::Win => Wdl::Win,
            SzWdl::Loss => Wdl::Loss,
            SzWdl::Draw => Wdl::Draw,
            SzWdl::CursedWin if !self.fifty_move_rule => Wdl::Win,
            SzWdl::BlessedLoss if !self.fifty_move_rule => Wdl::Loss,
            SzWdl::CursedWin | SzWdl::BlessedLoss => Wdl::Draw,
        })
    }
}

/// `material` and every ending a capture or promotion can lead to from it, canonical, each
/// once, `material` first.
fn closure(material: Material) -> Vec<Material> {
    let mut todo = vec![material];
    let mut done: Vec<Material> = Vec::new();
    while let Some(m) = todo.pop() {
        let (m, _) = m.canonical();
        if done.contains(&m) {
            continue;
        }
        todo.extend(m.conversions());
        done.push(m);
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tb::material::Material;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Piece};

    #[test]
    fn load_now_loads_the_position_and_every_capture_ending() {
        let exact = Arc::new(ExactTables::in_memory());
        let (tb, _) = Tablebases::new("", Arc::clone(&exact), true);
        let pos: Chess = "8/8/8/4k3/8/8/8/4KQ2 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let kqk = Material::from_board(pos.board()).unwrap();
        let kk = kqk.without(Piece::from_char('Q').unwrap()).unwrap();
        assert!(exact.loaded(&kqk).is_none() && exact.loaded(&kk).is_none());
        tb.load_now(&pos);
        assert!(exact.loaded(&kqk).is_some(), "KQvK not loaded");
        assert!(exact.loaded(&kk).is_some(), "KvK not loaded");
        assert!(tb.prefetch(&pos), "the table must be ready at once");
    }
}
