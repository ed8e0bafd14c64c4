//! The engine core shared by both protocol front-ends: the game position, the options, the
//! transposition table and the search threads (a [`SearchPool`] of `Threads` threads that
//! outlives a move). `go` does not block: it starts the search on the pool, which reports
//! through a [`Reporter`] and sends exactly one `bestmove` — after `stop` or `ponderhit` in
//! infinite and ponder mode, and even if the search itself fails.
//!
//! The front-ends only parse and format; every decision about searching lives here and in
//! [`crate::search`] (Stockfish's `Engine`/`uci.cpp` split; CONTRIBUTING.md, "Habits"). How
//! the options become an opponent model for one search is in `model_setup`, the search
//! thread's body in `search_job`, and how a search shares its limits with the mate prover
//! in `mate_driver` (child modules).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::eval::NnueEval;
use crate::eval::{FullEval, MaterialEval, Perturbed};
use crate::external::ManagedEngine;
use crate::limits::Limits;
use crate::opponent::EvalKind;
use crate::opponent_id::OpponentId;
use crate::position::Position;
use crate::profile::ProfileStore;
use crate::report::Reporter;
use crate::search::om::fit::FitState;
use crate::search::om::model::LearnState;
use crate::search::pool::{Job, SearchPool};
use crate::search::{SearchConfig, SearchControl};
use crate::strength::{self, Strength};
use crate::tb::{ExactTables, Tablebases};
use crate::tt::TranspositionTable;
use mate_driver::MateSettings;
use parking_lot::Mutex;
use search_job::{SearchJob, run_search};
use settings::{Applied, Settings};

mod evaluation;
mod game_clocks;
mod mate_driver;
mod model_setup;
mod option_aliases;
mod option_grammar;
pub mod option_table;
mod search_job;
pub mod settings;
mod table_mate;

pub use model_setup::FIT_FAMILY;

/// Stack size of search threads (deep recursion with move lists on the stack).
const SEARCH_STACK: usize = crate::search::pool::THREAD_STACK;

/// What an opponent type's table is kept by: evaluator, its net file (`nnue` types with
/// `file=`), tables on or off, replay.
type TypeTableKey = (EvalKind, Option<String>, bool, bool);

/// The engine core.
pub struct Engine {
    position: Position,
    tt: Arc<TranspositionTable>,
    control: Arc<SearchControl>,
    /// Set only by [`Engine::stop`]: the search raises `control.stop` itself when it ends
    /// (to halt its helper threads), so that flag cannot tell whether the GUI said `stop`.
    stop_requested: Arc<AtomicBool>,
    options: Settings,
    config: SearchConfig,
    eval: Arc<FullEval>,
    /// The network we play with (and `self` opponent types mean): the embedded one by
    /// default, or `EvalFile`'s; `None` with `EvalFile` `hce`: the hand-crafted `eval`.
    net: Option<Arc<NnueEval>>,
    material: Arc<MaterialEval>,
    /// Opponent types' tables, one per (evaluator, tables on/off) pair that differs from
    /// our own search; allocated on first use.
    om_tts: Vec<(TypeTableKey, Arc<TranspositionTable>)>,
    /// The nets of `nnue` opponent types with a `file=` of their own, loaded on first use
    /// and kept by path.
    type_nets: Vec<(String, Arc<NnueEval>)>,
    /// Endgame tables (Syzygy from `SyzygyPath`, our exact tables always).
    tables: Arc<Tablebases>,
    /// Opponent-type probabilities learned in this game (§6.6.2).
    learn: Arc<Mutex<LearnState>>,
    /// The external engine behind `engine` opponent types (`OM_OpponentEngine`): started on
    /// first use and kept for the game, its answers cached until the next new game.
    external: Option<Arc<Mutex<ManagedEngine>>>,
    /// The fitted opponent model of this game (`OM_Mode=auto`).
    fit: Arc<Mutex<FitState>>,
    /// The clocks at this game's first search: the time control's odds for `auto`.
    game_clocks: game_clocks::GameClocks,
    /// The user's data directory for opponent profiles, found once at start-up.
    default_profile_dir: Option<std::path::PathBuf>,
    /// Saves opponent profiles off the clock (one thread, started with the first save).
    profile_writer: Arc<crate::profile::ProfileWriter>,
    /// `UCI_LimitStrength`'s perturbation seeds: a number of this run, and the games begun.
    strength_seed: (u64, u64),
    /// The search threads and their ordering tables, sized to `Threads`; `None` if the
    /// operating system gave none (each search then starts threads of its own).
    pool: Option<Arc<SearchPool>>,
    handle: Option<Running>,
}

/// The search in progress: a job on the pool, or a thread of its own.
enum Running {
    Pool(Job),
    Thread(JoinHandle<()>),
}

impl Running {
    fn is_finished(&self) -> bool {
        match self {
            Running::Pool(j) => j.is_finished(),
            Running::Thread(h) => h.is_finished(),
        }
    }

    fn join(self) {
        match self {
            Running::Pool(j) => j.join(),
            Running::Thread(h) => {
                let _ = h.join();
            }
        }
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the start position with default options.
    pub fn new() -> Self {
        Engine {
            position: Position::default(),
            tt: Arc::new(TranspositionTable::new(16)),
            control: Arc::new(SearchControl::default()),
            stop_requested: Arc::new(AtomicBool::new(false)),
            options: Settings::default(),
            config: SearchConfig::default(),
            eval: Arc::new(FullEval::default()),
            net: crate::nnue::embedded::network()
                .ok()
                .map(|n| Arc::new(crate::eval::NnueEval::new(n))),
            material: Arc::new(MaterialEval),
            om_tts: Vec::new(),
            type_nets: Vec::new(),
            tables: Arc::new(Tablebases::new("", Arc::new(ExactTables::from_env()), true).0),
            learn: Arc::new(Mutex::new(LearnState::default())),
            external: None,
            fit: Arc::new(Mutex::new(FitState::default())),
            game_clocks: game_clocks::GameClocks::default(),
            default_profile_dir: ProfileStore::default_dir(),
            profile_writer: Arc::new(crate::profile::ProfileWriter::new()),
            strength_seed: (run_seed(), 0),
            pool: SearchPool::new(1).ok().map(Arc::new),
            handle: None,
        }
    }

    /// The current game position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The search configuration in force.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The option values in force.
    pub fn options(&self) -> &Settings {
        &self.options
    }

    /// Sets the position from a FEN (or the start position) and a list of moves in UCI
    /// notation. Nothing changes if anything is wrong.
    ///
    /// # Errors
    /// The first problem found: a bad FEN or an illegal move (with its number).
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let mut pos = match fen {
            None => Position::default(),
            Some(f) => Position::from_fen_in(f, self.options.chess960)?,
        };
        for (i, m) in moves.iter().enumerate() {
            if *m == "0000" {
                // A null move from a GUI: only allowed when not in check.
                if !pos.play_null() {
                    return Err(format!("null move 0000 (move {}) while in check", i + 1));
                }
                continue;
            }
            pos.play_uci(m)
                .map_err(|e| format!("{e} (move {} of the list)", i + 1))?;
        }
        // Our exact tables of a covered ending are made ready by the search, which knows
        // whether it has a clock (`tb::set`): a file read here would count on it.
        self.position = pos;
        Ok(())
    }

    /// Replaces the game position.
    pub fn set_game_position(&mut self, pos: Position) {
        self.position = pos;
    }

    /// A new game: waits for any search, clears the tables.
    pub fn new_game(&mut self) {
        self.stop();
        self.wait();
        self.tt.clear();
        for (_, t) in &self.om_tts {
            t.clear();
        }
        self.position = Position::default();
        if let Some(p) = &self.pool {
            p.clear();
        }
        self.strength_seed.1 += 1;
        *self.learn.lock() = LearnState::default();
        *self.fit.lock() = FitState::default();
        self.game_clocks.clear();
        if let Some(e) = &self.external {
            e.lock().new_game();
        }
        // A model that asks an engine starts it now, not inside the first move's time (a
        // failure is counted and reported by the search that needs the engine).
        let o = &self.options;
        if o.om.mode != crate::search::om::OmMode::Off
            && o.om.spec_depth > 0
            && o.om.types.uses_engine()
            && let Some(e) = self.external_engine()
        {
            let _ = e.lock().warm_up();
        }
        // The last game's profile reaches the disk before the next game begins (it has
        // normally been written long before: the writer works while the game goes on).
        self.profile_writer.flush();
    }

    /// Loads now, blocking, the exact tables the current position can reach (see
    /// [`Tablebases::load_now`]); searches otherwise load them in the background.
    pub fn load_tables_now(&self) {
        self.tables.load_now(self.position.chess());
    }

    /// True while a search thread runs.
    pub fn is_searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Asks the running search to stop (its `bestmove` follows).
    pub fn stop(&self) {
        self.control.pondering.store(false, Ordering::SeqCst);
        self.stop_requested.store(true, Ordering::SeqCst);
        self.control.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the expected move: the ponder search becomes a normal one.
    pub fn ponderhit(&self) {
        self.control.pondering.store(false, Ordering::SeqCst);
    }

    /// Waits for the search thread to finish.
    pub fn wait(&mut self) {
        if let Some(h) = self.handle.take() {
            h.join();
        }
    }

    /// Starts a search of the current position. Any running search is stopped first (its
    /// `bestmove` is still sent). Returns at once.
    pub fn go(&mut self, limits: Limits, reporter: Arc<dyn Reporter>) {
        self.stop();
        self.wait();
        self.control.stop.store(false, Ordering::SeqCst);
        self.stop_requested.store(false, Ordering::SeqCst);
        self.control.answered.store(false, Ordering::SeqCst);
        self.control
            .pondering
            .store(limits.ponder, Ordering::SeqCst);
        let mut limits = limits;
        self.game_clocks.note(&self.position, &mut limits);
        // UCI_LimitStrength: a node budget and a perturbed evaluation (crate::strength).
        let weak = self.strength().map(|st| {
            limits.nodes = Some(limits.nodes.map_or(st.nodes, |n| n.min(st.nodes)));
            let seed = strength::game_seed(self.strength_seed.0, self.strength_seed.1);
            Perturbed::new((*self.eval).clone(), seed, st.noise)
        });
        let (model, warnings) = self.model_setup();
        for w in warnings {
            reporter.message(&w);
        }
        let mate = MateSettings {
            algo: crate::mate::Algorithm::Dfpn,
            beside: self.options.analyse_mode || limits.analysis,
            hash_mb: self.options.hash_mb,
        };
        let job = SearchJob {
            tt: Arc::clone(&self.tt),
            control: Arc::clone(&self.control),
            stop_requested: Arc::clone(&self.stop_requested),
            tables: Arc::clone(&self.tables),
            root_safety: self.options.om.root_safety,
            config: self.config.clone(),
            pos: self.position.clone(),
            limits,
            model,
            learn: Arc::clone(&self.learn),
            reporter: Arc::clone(&reporter),
            mate,
            pool: self.pool.clone(),
        };
        let eval = self.own_eval();
        let fallback = Arc::clone(&reporter);
        let body = move || match &weak {
            Some(w) => run_search(w, &job),
            None => run_search(&*eval, &job),
        };
        if let Some(p) = &self.pool {
            self.handle = Some(Running::Pool(p.spawn(body)));
            return;
        }
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(body);
        match spawned {
            Ok(h) => self.handle = Some(Running::Thread(h)),
            Err(e) => {
                // No thread: answer at once so the GUI is never left waiting.
                fallback.message(&format!("error: cannot start the search thread: {e}"));
                fallback.bestmove(self.position.legal_moves().first().copied(), None);
            }
        }
    }

    /// Remakes the pool of search threads if `Threads` changed. A pool the system refuses
    /// leaves the old one (its ordering tables forgotten) or none; each search then starts
    /// the threads it lacks itself. Returns what to tell the user then.
    fn fit_pool(&mut self) -> Option<String> {
        let want = self.config.threads.max(1);
        if self.pool.as_ref().is_some_and(|p| p.threads() == want) {
            return None;
        }
        match SearchPool::new(want) {
            Ok(p) => {
                self.pool = Some(Arc::new(p));
                None
            }
            Err(e) => Some(format!(
                "warning: cannot start a pool of {want} search threads ({e}); each search starts its own"
            )),
        }
    }

    /// Replaces our table by one of `want` MB, fallibly: first beside the old one, then in
    /// its place. If `want` MB cannot be had, a table of the `old` size (its entries lost)
    /// or at worst of 1 MB takes its place, and `Err` gives the size kept.
    fn resize_hash(&mut self, want: usize, old: usize) -> Result<(), usize> {
        if let Some(t) = TranspositionTable::try_new(want) {
            self.tt = Arc::new(t);
            return Ok(());
        }
        // Let go of the old table (no search holds it now) and try again in its room.
        self.tt = Arc::new(TranspositionTable::new(1));
        if let Some(t) = TranspositionTable::try_new(want) {
            self.tt = Arc::new(t);
            return Ok(());
        }
        match TranspositionTable::try_new(old) {
            Some(t) => {
                self.tt = Arc::new(t);
                Err(old)
            }
            None => Err(1),
        }
    }

    /// Sets an option by name (case-insensitive). Returns an informational message, if any.
    ///
    /// # Errors
    /// Unknown option, a value of the wrong type or out of range, or a change that is not
    /// possible while searching, or a `Hash` that cannot be allocated. The old value is kept
    /// then (for `Hash`, a table of the old size, or of 1 MB if even that cannot be had).
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<Option<String>, String> {
        if self.is_searching() && self.control.answered.load(Ordering::SeqCst) {
            // The bestmove is out and the thread is ending: a GUI may set options now.
            self.wait();
        }
        if self.is_searching() {
            return Err(format!(
                "option {} cannot change during a search",
                name.trim()
            ));
        }
        let old_hash = self.options.hash_mb;
        let old_dir = self.options.om.profile_dir.clone();
        let old_opponent = self.options.opponent.clone();
        let old_eval_file = self.options.eval_file.clone();
        let (applied, note) = self.options.set(name, value)?;
        let said = self.apply_change(applied, old_hash, old_dir, old_opponent, old_eval_file);
        // An old name's note comes first, then what the change did.
        match (note, said) {
            (Some(n), Ok(Some(m))) => Ok(Some(format!("{n}; {m}"))),
            (Some(n), Ok(None)) => Ok(Some(n)),
            (_, said) => said,
        }
    }

    /// Does what a changed option asks ([`Applied`]); the old values undo a change the
    /// engine cannot make.
    fn apply_change(
        &mut self,
        applied: Applied,
        old_hash: usize,
        old_dir: String,
        old_opponent: Option<OpponentId>,
        old_eval_file: String,
    ) -> Result<Option<String>, String> {
        let o = &self.options;
        self.config.threads = o.threads;
        self.config.multipv = o.multipv;
        self.config.move_overhead = Duration::from_millis(o.move_overhead_ms);
        self.config.show_wdl = o.show_wdl;
        self.config.chess960 = o.chess960;
        self.config.tb_probe_depth = o.syzygy_probe_depth;
        self.config.tb_probe_limit = o.syzygy_probe_limit;
        self.config.params.multi_cut = o.multi_cut;
        self.config.params.null_move = o.null_move;
        self.config.params.features = o.search_features;
        self.config.time_params = crate::params::TimeParams::for_features(&o.search_features);
        if let Some(note) = self.fit_pool() {
            return Ok(Some(note));
        }
        let o = &self.options;
        match applied {
            Applied::ResizeHash if o.hash_mb != old_hash => {
                let want = o.hash_mb;
                self.om_tts.clear();
                if let Err(kept) = self.resize_hash(want, old_hash) {
                    self.options.hash_mb = kept;
                    return Err(format!(
                        "cannot allocate {want} MB for Hash; keeping {kept} MB"
                    ));
                }
            }
            Applied::NewModel => {
                *self.learn.lock() = LearnState::default();
                *self.fit.lock() = FitState::default();
            }
            Applied::NewOpponent => {
                let new = o.opponent.clone();
                let moved = old_dir != o.om.profile_dir;
                self.options.opponent = old_opponent;
                self.change_opponent(new, moved);
            }
            Applied::NewEngine => {
                // The old process (if any) quits when its last search lets go of it.
                self.external = None;
            }
            Applied::LoadSyzygy => {
                let (mut t, warnings) = Tablebases::new(
                    &o.syzygy_path,
                    Arc::clone(&self.tables.exact),
                    o.syzygy_50_move_rule,
                );
                t.use_exact = o.exact_tables;
                let msg = if o.syzygy_path.trim().is_empty() {
                    format!(
                        "no Syzygy tables; exact tables {}",
                        if o.exact_tables { "on" } else { "off" }
                    )
                } else {
                    format!(
                        "{} Syzygy tables loaded (up to {} pieces)",
                        t.syzygy_tables(),
                        t.syzygy.as_ref().map_or(0, |s| s.max_pieces())
                    )
                };
                self.tables = Arc::new(t);
                let mut lines = warnings;
                lines.push(msg);
                return Ok(Some(lines.join("; ")));
            }
            Applied::LoadNet => {
                let file = o.eval_file.clone();
                return match self.load_net(&file) {
                    Ok(msg) => Ok(Some(msg)),
                    Err(e) => {
                        self.options.eval_file = old_eval_file;
                        Err(format!("{e}; keeping {}", self.evaluation_name()))
                    }
                };
            }
            Applied::Strength => return Ok(Some(self.strength_message())),
            Applied::ClearHash => {
                self.tt.clear();
                for (_, t) in &self.om_tts {
                    t.clear();
                }
                // As in Stockfish: the search threads' ordering tables go with the hash.
                if let Some(p) = &self.pool {
                    p.clear();
                }
                return Ok(Some("hash and move-ordering tables cleared".into()));
            }
            _ => {}
        }
        Ok(None)
    }

    /// How a move is played under `UCI_LimitStrength` (`None`: full strength).
    pub fn strength(&self) -> Option<Strength> {
        if self.options.limit_strength {
            strength::strength_for(self.options.elo)
        } else {
            None
        }
    }

    /// What `UCI_LimitStrength`/`UCI_Elo` now mean, for the GUI.
    fn strength_message(&self) -> String {
        let elo = self.options.elo;
        match (self.options.limit_strength, self.strength()) {
            (false, _) => format!("full strength (UCI_LimitStrength off; UCI_Elo {elo} kept)"),
            (true, None) => format!(
                "UCI_Elo {elo} is at or above full strength ({}): playing at full strength",
                strength::FULL_STRENGTH_ELO
            ),
            (true, Some(st)) => format!(
                "playing at UCI_Elo {elo}: {} nodes a move, evaluation noise up to {} cp",
                st.nodes, st.noise
            ),
        }
    }

    /// The endgame tables in use.
    pub fn tablebases(&self) -> &Arc<Tablebases> {
        &self.tables
    }
}

/// A number that differs between runs of the program (the start time), for the seeds of
/// `UCI_LimitStrength`'s perturbation.
fn run_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
