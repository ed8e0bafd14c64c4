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

use crate::eval::{Evaluator, FullEval};
use crate::limits::Limits;
use crate::position::Position;
use crate::report::Reporter;
use crate::search::{self, SearchConfig, SearchContext, SearchControl, WdlProbe};
use crate::tt::TranspositionTable;

/// Stack size of search threads (deep recursion with move lists on the stack).
const SEARCH_STACK: usize = 64 * 1024 * 1024;

/// The type of an engine option, with its default and range.
#[derive(Clone, Debug)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A boolean.
    Check {
        /// Default value.
        default: bool,
    },
    /// One of a list of strings.
    Combo {
        /// Default value.
        default: &'static str,
        /// The allowed values.
        vars: &'static [&'static str],
    },
    /// A free string.
    Str {
        /// Default value.
        default: &'static str,
    },
    /// An action without value.
    Button,
}

/// An option as both protocols announce it.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    /// The option's name (case-insensitive when set).
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
}

/// All options of the engine.
pub fn option_specs() -> Vec<OptionSpec> {
    use OptionKind::*;
    vec![
        OptionSpec {
            name: "Hash",
            kind: Spin {
                default: 16,
                min: 1,
                max: 65536,
            },
        },
        OptionSpec {
            name: "Threads",
            kind: Spin {
                default: 1,
                min: 1,
                max: 256,
            },
        },
        OptionSpec {
            name: "MultiPV",
            kind: Spin {
                default: 1,
                min: 1,
                max: 256,
            },
        },
        OptionSpec {
            name: "Ponder",
            kind: Check { default: false },
        },
        OptionSpec {
            name: "Move Overhead",
            kind: Spin {
                default: 30,
                min: 0,
                max: 5000,
            },
        },
        OptionSpec {
            name: "Clear Hash",
            kind: Button,
        },
        OptionSpec {
            name: "UCI_ShowWDL",
            kind: Check { default: false },
        },
        OptionSpec {
            name: "UCI_AnalyseMode",
            kind: Check { default: false },
        },
    ]
}

/// The engine core.
pub struct Engine {
    position: Position,
    tt: Arc<TranspositionTable>,
    control: Arc<SearchControl>,
    /// Set only by [`Engine::stop`]: the search raises `control.stop` itself when it ends
    /// (to halt its helper threads), so that flag cannot tell whether the GUI said `stop`.
    stop_requested: Arc<AtomicBool>,
    config: SearchConfig,
    eval: Arc<FullEval>,
    tb: Option<Arc<dyn WdlProbe>>,
    hash_mb: usize,
    ponder: bool,
    analyse_mode: bool,
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
            config: SearchConfig::default(),
            eval: Arc::new(FullEval::default()),
            tb: None,
            hash_mb: 16,
            ponder: false,
            analyse_mode: false,
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

    /// Whether pondering is enabled (the `Ponder` option).
    pub fn ponder_enabled(&self) -> bool {
        self.ponder
    }

    /// Whether analysis mode is on (the `UCI_AnalyseMode` option).
    pub fn analyse_mode(&self) -> bool {
        self.analyse_mode
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
        self.position = Position::default();
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
        self.control
            .pondering
            .store(limits.ponder, Ordering::SeqCst);
        let pos = self.position.clone();
        let tt = Arc::clone(&self.tt);
        let control = Arc::clone(&self.control);
        let stop_requested = Arc::clone(&self.stop_requested);
        let config = self.config.clone();
        let eval = Arc::clone(&self.eval);
        let tb = self.tb.clone();
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
                    tb.as_deref(),
                    &config,
                    &pos,
                    &limits,
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
        let spec = option_specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| format!("unknown option '{}'", name.trim()))?;
        let value = value.map(str::trim).unwrap_or("");
        let int = |min: i64, max: i64| -> Result<i64, String> {
            let v: i64 = value
                .parse()
                .map_err(|_| format!("option {}: '{value}' is not a whole number", spec.name))?;
            if v < min || v > max {
                return Err(format!("option {}: {v} is outside {min}..{max}", spec.name));
            }
            Ok(v)
        };
        let boolean = || -> Result<bool, String> {
            match value.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" => Ok(true),
                "false" | "off" | "0" => Ok(false),
                _ => Err(format!(
                    "option {}: '{value}' is not true or false",
                    spec.name
                )),
            }
        };
        let busy = self.is_searching();
        match spec.name {
            "Hash" => {
                let OptionKind::Spin { min, max, .. } = spec.kind else {
                    unreachable!()
                };
                let mb = int(min, max)? as usize;
                if busy {
                    return Err("option Hash cannot change during a search".into());
                }
                if mb != self.hash_mb {
                    self.tt = Arc::new(TranspositionTable::new(mb));
                    self.hash_mb = mb;
                }
            }
            "Threads" => {
                let OptionKind::Spin { min, max, .. } = spec.kind else {
                    unreachable!()
                };
                self.config.threads = int(min, max)? as usize;
            }
            "MultiPV" => {
                let OptionKind::Spin { min, max, .. } = spec.kind else {
                    unreachable!()
                };
                self.config.multipv = int(min, max)? as usize;
            }
            "Move Overhead" => {
                let OptionKind::Spin { min, max, .. } = spec.kind else {
                    unreachable!()
                };
                self.config.move_overhead = Duration::from_millis(int(min, max)? as u64);
            }
            "Ponder" => self.ponder = boolean()?,
            "UCI_ShowWDL" => self.config.show_wdl = boolean()?,
            "UCI_AnalyseMode" => self.analyse_mode = boolean()?,
            "Clear Hash" => {
                if busy {
                    return Err("Clear Hash ignored during a search".into());
                }
                self.tt.clear();
                return Ok(Some("hash cleared".into()));
            }
            _ => return Err(format!("option {} is not handled", spec.name)),
        }
        Ok(None)
    }

    /// Installs endgame tables for probes inside the search.
    pub fn set_tablebases(&mut self, tb: Option<Arc<dyn WdlProbe>>) {
        self.tb = tb;
    }
}

/// Body of the search thread: search, honour infinite/ponder, send exactly one bestmove.
#[allow(clippy::too_many_arguments)]
fn run_search<E: Evaluator + ?Sized>(
    eval: &E,
    tt: &TranspositionTable,
    control: &SearchControl,
    stop_requested: &AtomicBool,
    tb: Option<&dyn WdlProbe>,
    config: &SearchConfig,
    pos: &Position,
    limits: &Limits,
    reporter: &dyn Reporter,
) {
    let allowed = search::root_moves(pos, limits);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        let ctx = SearchContext {
            eval,
            tt,
            control,
            tb,
            config,
            reporter,
        };
        search::search(&ctx, pos, limits, &allowed)
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
    reporter.bestmove(best, ponder);
}
