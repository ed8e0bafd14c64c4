//! The engine's view of all its endgame tables: Syzygy (if `SyzygyPath` names any) and our
//! own exact DTM/DTC tables. Gives the search its WDL probes (any error is "no information")
//! and the root move filter (Syzygy's DTZ ranking when Syzygy covers the position, else the
//! exact tables by DTM — the metric of the thesis' Nalimov-based KQKR player, Donkers 2003
//! §5.4.1). Exact tables are never generated on a search thread's critical path: a missing
//! one is loaded or generated in the background and used once ready. Generation (20–30 s of
//! a core and ~230 MB for a four-piece ending with a pawn) is left to searches without a
//! clock ([`Tablebases::set_generate`]): under a clock it would take a core from the game —
//! in a match, the opponent's — so a timed search uses a table only if its file is on disk
//! (`nosce tb gen`, or an earlier untimed search, writes it) and says once per ending why not.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Chess, Move, Position as _};
use shakmaty_syzygy::Wdl as SzWdl;

use super::placement::Placement;
use super::probe::WdlProbe;
use super::{ExactTables, Metric, SyzygyTables, Wdl};

/// What [`Tablebases::make_ready`] does about an exact table that is not on disk.
#[derive(Clone, Copy)]
enum Missing {
    /// Generate it in the background.
    Generate,
    /// Nothing yet: the search that follows decides.
    Wait,
    /// Nothing, and tell the user once (a timed search).
    Decline,
}

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
    /// Materials being loaded in the background.
    loading: parking_lot::Mutex<Vec<super::Material>>,
    /// Whether a missing exact table may be generated now (false under a clock).
    generate: AtomicBool,
    /// Endings whose generation was declined under a clock and not yet reported.
    declined: parking_lot::Mutex<Vec<(super::Material, bool)>>,
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
                loading: parking_lot::Mutex::new(Vec::new()),
                generate: AtomicBool::new(true),
                declined: parking_lot::Mutex::new(Vec::new()),
            },
            warnings,
        )
    }

    /// Number of Syzygy tables loaded.
    pub fn syzygy_tables(&self) -> usize {
        self.syzygy.as_ref().map_or(0, SyzygyTables::num_tables)
    }

    /// Whether searches from now on may generate a missing exact table in the background:
    /// the engine sets it before every search, false for a timed one (see the module text).
    pub fn set_generate(&self, on: bool) {
        self.generate.store(on, Ordering::Relaxed);
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

    /// Makes the exact table of `pos`'s material ready if it is covered: from its file at
    /// once when a valid one is on disk (milliseconds, so that the first search of a game
    /// already keeps only the table-optimal moves), else, when generation is allowed
    /// ([`Self::set_generate`]), by loading or generating it in the background. Returns true
    /// if the table is ready now.
    pub fn prefetch(&self, pos: &Chess) -> bool {
        let mode = if self.generate.load(Ordering::Relaxed) {
            Missing::Generate
        } else {
            Missing::Decline
        };
        self.make_ready(pos, mode)
    }

    /// Loads the exact table of `pos`'s material if its file is on disk, never generating
    /// it (before `go`, when it is not yet known whether the search has a clock). Returns
    /// true if the table is ready now.
    pub fn load_if_on_disk(&self, pos: &Chess) -> bool {
        self.make_ready(pos, Missing::Wait)
    }

    fn make_ready(&self, pos: &Chess, missing: Missing) -> bool {
        let Some(placement) = Placement::from_position(pos) else {
            return false;
        };
        if self.exact.loaded(&placement.material).is_some() {
            return true;
        }
        {
            let mut loading = self.loading.lock();
            // Under way in the background (a missing or damaged file): not read again.
            if loading.contains(&placement.material) {
                return false;
            }
            if self.exact.load_file(&placement.material) {
                return true;
            }
            match missing {
                Missing::Generate => {}
                Missing::Wait => return false,
                Missing::Decline => {
                    let mut declined = self.declined.lock();
                    if !declined.iter().any(|(m, _)| *m == placement.material) {
                        declined.push((placement.material, false));
                    }
                    return false;
                }
            }
            loading.push(placement.material);
        }
        let exact = Arc::clone(&self.exact);
        let material = placement.material;
        let _ = std::thread::Builder::new()
            .name("tb-load".into())
            .spawn(move || {
                let _ = exact.table(&material);
            });
        false
    }

    /// Loads (or generates) now, blocking, the exact table of `pos`'s material and those of
    /// every ending a capture can lead to, if covered: for runs whose node counts must not
    /// depend on how fast a background load ([`Self::prefetch`]) finishes, such as benchmarks.
    pub fn load_now(&self, pos: &Chess) {
        let Some(placement) = Placement::from_position(pos) else {
            return;
        };
        let mut todo = vec![placement.material];
        let mut done = Vec::new();
        while let Some(m) = todo.pop() {
            let (m, _) = m.canonical();
            if done.contains(&m) {
                continue;
            }
            let _ = self.exact.table(&m);
            todo.extend(m.conversions());
            done.push(m);
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
