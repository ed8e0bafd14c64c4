//! The engine core shared by both protocol front-ends: the game position, the options, the
//! transposition table and the search thread. `go` does not block: it starts a search thread
//! that reports through a [`Reporter`] and sends exactly one `bestmove` — after `stop` or
//! `ponderhit` in infinite and ponder mode, and even if the search itself fails.
//!
//! The front-ends only parse and format; every decision about searching lives here and in
//! [`crate::search`] (Stockfish's `Engine`/`uci.cpp` split, STYLE.md).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::eval::score::TB_WIN;
use crate::eval::{Evaluator, FullEval, MaterialEval};
use crate::external::{GoLimit, ManagedEngine};
use crate::limits::Limits;
use crate::opponent::{DEFAULT_ENGINE_NODES, EvalKind, OpponentType};
use crate::opponent_id::OpponentId;
use crate::options::{Applied, BoundedSum, Learning, Options, RootSafety, shares_own_table};
use crate::position::Position;
use crate::profile::ProfileStore;
use crate::report::Reporter;
use crate::search::auto::{AutoSetup, ProfileLink, search_auto};
use crate::search::fit::{FitParams, FitState};
use crate::search::model::{LearnState, ModelSetup, TypeSetup, learn_from_last_move, search_model};
use crate::search::om::{EngineProbe, OmMode};
use crate::search::{self, SearchConfig, SearchContext, SearchControl, TbWdl, WdlProbe};
use crate::tb::{ExactTables, Tablebases};
use crate::tt::TranspositionTable;
use parking_lot::Mutex;

/// The candidate bases every fit of `OM_Mode=auto` starts from: our evaluation at depths
/// 1–4 and material at depth 2 (the user adds more through `OM_OpponentTypes`).
pub const FIT_FAMILY: &[&str] = &[
    "self:depth=1",
    "self:depth=2",
    "self:depth=3",
    "self:depth=4",
    "material:depth=2",
];

/// How often the external opponent engine may be restarted after faults in one game.
const ENGINE_RESTARTS: u32 = 3;

/// Stack size of search threads (deep recursion with move lists on the stack).
const SEARCH_STACK: usize = 64 * 1024 * 1024;

/// The engine core.
pub struct Engine {
    position: Position,
    tt: Arc<TranspositionTable>,
    control: Arc<SearchControl>,
    /// Set only by [`Engine::stop`]: the search raises `control.stop` itself when it ends
    /// (to halt its helper threads), so that flag cannot tell whether the GUI said `stop`.
    stop_requested: Arc<AtomicBool>,
    options: Options,
    config: SearchConfig,
    eval: Arc<FullEval>,
    material: Arc<MaterialEval>,
    /// Opponent types' tables, one per (evaluator, tables on/off) pair that differs from
    /// our own search; allocated on first use.
    om_tts: Vec<((EvalKind, bool, bool), Arc<TranspositionTable>)>,
    /// Endgame tables (Syzygy from `SyzygyPath`, our exact tables always).
    tables: Arc<Tablebases>,
    /// Opponent-type probabilities learned in this game (§6.6.2).
    learn: Arc<Mutex<LearnState>>,
    /// The external engine behind `engine` opponent types (`OM_OpponentEngine`): started on
    /// first use and kept for the game, its answers cached until the next new game.
    external: Option<Arc<Mutex<ManagedEngine>>>,
    /// The fitted opponent model of this game (`OM_Mode=auto`).
    fit: Arc<Mutex<FitState>>,
    /// The user's data directory for opponent profiles, found once at start-up.
    default_profile_dir: Option<std::path::PathBuf>,
    handle: Option<JoinHandle<()>>,
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
            options: Options::default(),
            config: SearchConfig::default(),
            eval: Arc::new(FullEval::default()),
            material: Arc::new(MaterialEval),
            om_tts: Vec::new(),
            tables: Arc::new(Tablebases::new("", Arc::new(ExactTables::from_env()), true).0),
            learn: Arc::new(Mutex::new(LearnState::default())),
            external: None,
            fit: Arc::new(Mutex::new(FitState::default())),
            default_profile_dir: ProfileStore::default_dir(),
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
    pub fn options(&self) -> &Options {
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
            Some(f) => Position::from_fen(f)?,
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
        *self.learn.lock() = LearnState::default();
        *self.fit.lock() = FitState::default();
        if let Some(e) = &self.external {
            e.lock().new_game();
        }
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
            let _ = h.join();
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
        let pos = self.position.clone();
        let tt = Arc::clone(&self.tt);
        let control = Arc::clone(&self.control);
        let stop_requested = Arc::clone(&self.stop_requested);
        let config = self.config.clone();
        let eval = Arc::clone(&self.eval);
        let tables = Arc::clone(&self.tables);
        let root_safety = self.options.om_root_safety;
        let (model, warnings) = self.model_setup();
        for w in warnings {
            reporter.message(&w);
        }
        let learn = Arc::clone(&self.learn);
        let fallback = Arc::clone(&reporter);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                run_search(
                    &*eval,
                    &tt,
                    &control,
                    &stop_requested,
                    &tables,
                    root_safety,
                    &config,
                    &pos,
                    &limits,
                    model.as_ref(),
                    &learn,
                    &*reporter,
                );
            });
        match spawned {
            Ok(h) => self.handle = Some(h),
            Err(e) => {
                // No thread: answer at once so the GUI is never left waiting.
                fallback.message(&format!("error: cannot start the search thread: {e}"));
                fallback.bestmove(self.position.legal_moves().first().copied(), None);
            }
        }
    }

    /// Sets an option by name (case-insensitive). Returns an informational message, if any.
    ///
    /// # Errors
    /// Unknown option, a value of the wrong type or out of range, or a change that is not
    /// possible while searching. The old value is kept then.
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
        let applied = self.options.set(name, value)?;
        let o = &self.options;
        self.config.threads = o.threads;
        self.config.multipv = o.multipv;
        self.config.move_overhead = Duration::from_millis(o.move_overhead_ms);
        self.config.show_wdl = o.show_wdl;
        self.config.tb_probe_depth = o.syzygy_probe_depth;
        self.config.tb_probe_limit = o.syzygy_probe_limit;
        match applied {
            Applied::ResizeHash if o.hash_mb != old_hash => {
                self.tt = Arc::new(TranspositionTable::new(o.hash_mb));
                self.om_tts.clear();
            }
            Applied::NewModel => {
                *self.learn.lock() = LearnState::default();
                *self.fit.lock() = FitState::default();
            }
            Applied::NewOpponent => *self.fit.lock() = FitState::default(),
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
            Applied::ClearHash => {
                self.tt.clear();
                for (_, t) in &self.om_tts {
                    t.clear();
                }
                return Ok(Some("hash cleared".into()));
            }
            _ => {}
        }
        Ok(None)
    }

    /// The opponent-model setup for the next search (`None` for plain α-β), and warnings
    /// for the user (an `engine` type without an engine leaves the model).
    fn model_setup(&mut self) -> (Option<ModelSetup>, Vec<String>) {
        let o = &self.options;
        let mut warnings = Vec::new();
        if o.om_mode == OmMode::Off || o.om_spec_depth == 0 {
            return (None, warnings);
        }
        if o.om_mode == OmMode::Auto {
            return self.auto_setup();
        }
        let mut types = o.om_types.types.clone();
        if o.om_engine.is_none() && types.iter().any(|t| t.eval == EvalKind::Engine) {
            warnings.push(
                "om: the engine opponent type needs OM_OpponentEngine; it leaves the model".into(),
            );
            types.retain(|t| t.eval != EvalKind::Engine);
            let sum: f64 = types.iter().map(|t| t.probability).sum();
            if sum <= 1e-12 {
                return (None, warnings);
            }
            for t in &mut types {
                t.probability /= sum;
            }
        }
        let mut setups = Vec::with_capacity(types.len());
        // Per type: does it search exactly like us (evaluator, tables, depth)?
        let mut like_us = Vec::with_capacity(types.len());
        for t in types {
            if t.eval == EvalKind::Engine {
                let probe = self.engine_probe(&t);
                setups.push(TypeSetup {
                    eval: self.eval.clone(),
                    tt: Arc::clone(&self.tt),
                    probability: t.probability,
                    depth: None,
                    nodes: None,
                    tablebases: false,
                    replay: self.options.om_replay,
                    engine: probe,
                });
                like_us.push(false);
                continue;
            }
            let tb = t.tablebases && self.options.om_opponent_tablebases;
            let eval: Arc<dyn Evaluator> = match t.eval {
                EvalKind::Full | EvalKind::Engine => self.eval.clone(),
                EvalKind::Material => self.material.clone(),
            };
            // A type that searches exactly like us shares our table.
            let replay = self.options.om_replay;
            let tt = if shares_own_table(t.eval, tb, replay) {
                Arc::clone(&self.tt)
            } else {
                self.type_table(t.eval, tb, replay)
            };
            like_us.push(shares_own_table(t.eval, tb, replay));
            setups.push(TypeSetup {
                eval,
                tt,
                probability: t.probability,
                depth: t.depth.or(match self.options.om_opponent_depth {
                    0 => None,
                    d => Some(d),
                }),
                nodes: t.nodes.or(match self.options.om_opponent_nodes {
                    0 => None,
                    n => Some(n),
                }),
                tablebases: tb,
                replay: self.options.om_replay,
                engine: None,
            });
        }
        let o = &self.options;
        let bound = bounded_sum_bound(o, &setups, &like_us);
        let setup = Some(ModelSetup {
            mode: o.om_mode,
            spec_depth: o.om_spec_depth as usize,
            ties: o.om_ties,
            root_margin: (o.om_root_safety == RootSafety::Margin).then_some(o.om_root_margin),
            bound,
            hedge: None,
            auto: None,
            learning: o.om_learning,
            learning_params: (
                f64::from(o.om_learning_reward) / 100.0,
                f64::from(o.om_learning_ps) / 100.0,
                f64::from(o.om_learning_gamma) / 100.0,
            ),
            types: setups,
        });
        (setup, warnings)
    }

    /// The setup of `OM_Mode=auto`: the fit's candidate bases ([`FIT_FAMILY`], plus every
    /// type of `OM_OpponentTypes` with a depth limit, and engine types when
    /// `OM_OpponentEngine` is set) as the types, the fit of this game, the margin ceiling.
    fn auto_setup(&mut self) -> (Option<ModelSetup>, Vec<String>) {
        let mut warnings = Vec::new();
        let mut family: Vec<OpponentType> = FIT_FAMILY
            .iter()
            .filter_map(|s| s.parse::<crate::opponent::OpponentModel>().ok())
            .flat_map(|m| m.types)
            .collect();
        for t in &self.options.om_types.types {
            let usable = match t.eval {
                EvalKind::Engine => self.options.om_engine.is_some(),
                _ => t.depth.is_some(),
            };
            if usable && !family.iter().any(|f| f.spec() == t.spec()) {
                family.push(t.clone());
            } else if t.eval == EvalKind::Engine && !usable {
                warnings.push("om: the engine opponent type needs OM_OpponentEngine".into());
            }
        }
        family.truncate(crate::search::om::MAX_TYPES.max(FIT_FAMILY.len() + 4));
        let names: Vec<String> = family.iter().map(OpponentType::spec).collect();
        let mut types = Vec::with_capacity(family.len());
        for t in &family {
            let engine = if t.eval == EvalKind::Engine {
                self.engine_probe(t)
            } else {
                None
            };
            let tb = t.tablebases && self.options.om_opponent_tablebases;
            let eval: Arc<dyn Evaluator> = match t.eval {
                EvalKind::Material => self.material.clone(),
                _ => self.eval.clone(),
            };
            let tt = if t.eval == EvalKind::Engine || shares_own_table(t.eval, tb, false) {
                Arc::clone(&self.tt)
            } else {
                self.type_table(t.eval, tb, false)
            };
            types.push(TypeSetup {
                eval,
                tt,
                probability: 1.0 / family.len() as f64,
                depth: t.depth,
                nodes: None,
                tablebases: tb,
                replay: false,
                engine,
            });
        }
        let o = &self.options;
        let setup = ModelSetup {
            mode: OmMode::Om,
            spec_depth: 2,
            ties: o.om_ties,
            root_margin: None,
            bound: None,
            hedge: None,
            auto: Some(AutoSetup {
                names,
                margin_ceiling: o.om_root_margin,
                fit: Arc::clone(&self.fit),
                params: FitParams::default(),
                profile: self.profile_link(),
            }),
            learning: Learning::Off,
            learning_params: (0.0, 0.0, 0.0),
            types,
        };
        (Some(setup), warnings)
    }

    /// Where the current opponent's fit is kept (`OM_Profiles`, `OM_ProfileDir`), if the
    /// opponent has a name.
    fn profile_link(&self) -> Option<ProfileLink> {
        let o = &self.options;
        let id = o.opponent.as_ref()?;
        let key = id.profile_key()?;
        if !o.om_profiles {
            return None;
        }
        let dir = if o.om_profile_dir.trim().is_empty() {
            self.default_profile_dir.clone()?
        } else {
            std::path::PathBuf::from(o.om_profile_dir.trim())
        };
        Some(ProfileLink {
            store: ProfileStore::new(dir),
            key,
            display_name: id.name.clone(),
            elo: id.elo,
        })
    }

    /// Who the opponent is, from xboard's `name`, `rating` and `computer` (UCI sends
    /// `UCI_Opponent`): the fit starts again from that opponent's profile.
    pub fn set_opponent(&mut self, id: OpponentId) {
        self.options.opponent = Some(id);
        *self.fit.lock() = FitState::default();
    }

    /// The opponent named so far, if any.
    pub fn opponent(&self) -> Option<&OpponentId> {
        self.options.opponent.as_ref()
    }

    /// The engine probe of an `engine` type: the shared process (started on first use) and
    /// the type's limit (its own, else `OM_OpponentNodes`/`OM_OpponentDepth`, else
    /// [`DEFAULT_ENGINE_NODES`] nodes). `None` without `OM_OpponentEngine`.
    fn engine_probe(&mut self, t: &OpponentType) -> Option<EngineProbe> {
        let o = &self.options;
        let cmd = o.om_engine.clone()?;
        let engine = self
            .external
            .get_or_insert_with(|| {
                Arc::new(Mutex::new(ManagedEngine::new(
                    cmd,
                    o.om_engine_options.clone(),
                    ENGINE_RESTARTS,
                )))
            })
            .clone();
        let limit = match (t.movetime, t.nodes, t.depth) {
            (Some(ms), _, _) => GoLimit::MoveTime(ms),
            (_, Some(n), _) => GoLimit::Nodes(n),
            (_, _, Some(d)) => GoLimit::Depth(d),
            _ if o.om_opponent_nodes > 0 => GoLimit::Nodes(o.om_opponent_nodes),
            _ if o.om_opponent_depth > 0 => GoLimit::Depth(o.om_opponent_depth),
            _ => GoLimit::Nodes(DEFAULT_ENGINE_NODES),
        };
        Some(EngineProbe { engine, limit })
    }

    fn type_table(&mut self, eval: EvalKind, tb: bool, replay: bool) -> Arc<TranspositionTable> {
        if let Some((_, t)) = self.om_tts.iter().find(|(k, _)| *k == (eval, tb, replay)) {
            return Arc::clone(t);
        }
        let mb = (self.options.hash_mb / 2).max(1);
        // Replay tables are "cleared" before every probe: strict tables make that O(1).
        let t = Arc::new(if replay {
            TranspositionTable::new_strict(mb)
        } else {
            TranspositionTable::new(mb)
        });
        self.om_tts.push(((eval, tb, replay), Arc::clone(&t)));
        t
    }

    /// The endgame tables in use.
    pub fn tablebases(&self) -> &Arc<Tablebases> {
        &self.tables
    }
}

/// The bound B of bounded-sum pruning (Alg. 3.10) for the OM type — the most probable one —
/// or `None` for β-pruning alone. Bounded-sum pruning needs the type to search to our depth
/// (§3.2.4), so a type with its own depth or node limit never gets one.
fn bounded_sum_bound(o: &Options, types: &[TypeSetup], like_us: &[bool]) -> Option<i32> {
    let om = crate::search::om::om_type_of(types.iter().map(|t| t.probability));
    let t = types.get(om)?;
    let our_depth = t.depth.is_none() && t.nodes.is_none() && !t.replay;
    match o.om_bounded_sum {
        BoundedSum::Off => None,
        BoundedSum::On => our_depth.then_some(o.om_bound),
        BoundedSum::Auto => (our_depth && like_us[om]).then_some(0),
    }
}

/// Body of the search thread: search, honour infinite/ponder, send exactly one bestmove.
#[allow(clippy::too_many_arguments)]
fn run_search<E: Evaluator + ?Sized>(
    eval: &E,
    tt: &TranspositionTable,
    control: &SearchControl,
    stop_requested: &AtomicBool,
    tables: &Tablebases,
    root_safety: RootSafety,
    config: &SearchConfig,
    pos: &Position,
    limits: &Limits,
    model: Option<&ModelSetup>,
    learn: &Mutex<LearnState>,
    reporter: &dyn Reporter,
) {
    let mut allowed = search::root_moves(pos, limits);
    // Tablebase root filter: the search chooses among the table-optimal moves (for the
    // opponent-model driver only with OM_RootSafety=tb-optimal, §5.4.1).
    let filter = model.is_none() || root_safety == RootSafety::TbOptimal;
    if filter && let Some(best) = tables.root_moves(pos.chess()) {
        let kept: Vec<_> = allowed
            .iter()
            .copied()
            .filter(|m| best.contains(m))
            .collect();
        if !kept.is_empty() && kept.len() < allowed.len() {
            reporter.message(&format!(
                "tablebase root filter: {} of {} moves keep the optimal result and distance",
                kept.len(),
                allowed.len()
            ));
            allowed = kept;
        }
    }
    let tb: Option<&dyn WdlProbe> = Some(tables);
    // With the root in the tables, scores are shown as tablebase values (large cp).
    let root_tb_score = tables.probe_wdl(pos.chess()).map(|w| match w {
        TbWdl::Win => TB_WIN,
        TbWdl::Loss => -TB_WIN,
        TbWdl::Draw => 0,
    });
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let ctx = SearchContext {
            eval,
            tt,
            control,
            tb,
            config,
            reporter,
            root_tb_score,
        };
        // Learning and fitting may take a quarter of the move's hard limit at most.
        let deadline = {
            let tm =
                crate::time::TimeManager::new(limits, config.move_overhead, &config.time_params);
            let now = std::time::Instant::now();
            tm.hard_deadline().map(|d| now + (d - now.min(d)) / 4)
        };
        match model {
            Some(m) if m.auto.is_some() => {
                let auto = m.auto.as_ref().expect("checked");
                search_auto(&ctx, m, auto, pos, limits, &allowed, deadline)
            }
            Some(m) if m.learning != Learning::Off => {
                let probs = learn_from_last_move(
                    &ctx,
                    m,
                    m.learning,
                    m.learning_params,
                    pos,
                    &mut learn.lock(),
                    deadline,
                );
                let mut learned = m.clone();
                for (t, p) in learned.types.iter_mut().zip(probs) {
                    t.probability = p;
                }
                search_model(&ctx, &learned, pos, limits, &allowed)
            }
            Some(m) => search_model(&ctx, m, pos, limits, &allowed),
            None => search::search(&ctx, pos, limits, &allowed),
        }
    }));
    let (best, ponder) = match outcome {
        Ok(r) => (r.best, r.ponder),
        Err(_) => {
            reporter.message("error: the search failed; playing the first legal move");
            (allowed.first().copied(), None)
        }
    };
    // In infinite and ponder mode the answer waits for `stop` or `ponderhit`, also when the
    // search ended by itself (a mate found, the depth limit reached).
    while (limits.infinite || control.pondering.load(Ordering::SeqCst))
        && !stop_requested.load(Ordering::SeqCst)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    let ponder = ponder.filter(|&p| {
        let mut after = pos.clone();
        best.is_some_and(|b| {
            after.play(b);
            search::is_legal(&after, p)
        })
    });
    control.answered.store(true, Ordering::SeqCst);
    reporter.bestmove(best, ponder);
}
