//! The state of one CECP session: the game, the side the engine plays, the clocks, and the
//! search in progress, changed by one command at a time ([`Session::handle`]) and by the
//! answers of the searches it starts ([`Session::on_done`]). The input loop, and the
//! ordering, pondering and memory rules this state machine follows, are the parent module's
//! ([`super`]; Tim Mann & H. G. Muller, "Chess Engine Communication Protocol" v2).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crossbeam_channel::Sender;
use shakmaty::{Color, Move};

use super::notation::{format_move, parse_move};
use super::output::{Output, SearchDone, XboardReporter, feature_lines};
use super::result::{game_result, goes_on_after};
use super::{Clock, Command, hash_for_memory};
use crate::engine::Engine;
use crate::limits::Limits;
use crate::opponent_id::OpponentId;
use crate::position::Position;
use crate::search::is_legal;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The engine is on move: the answer becomes `move X`.
    Think,
    /// Pondering on the position after the expected reply.
    Ponder(Move),
    /// Analyze mode: runs until stopped.
    Analyze,
}

/// The search in progress.
#[derive(Clone, Copy, Debug)]
struct Running {
    id: u64,
    kind: Kind,
    /// When the engine's clock started for this search (start, or `ponderhit`).
    since: Instant,
}

/// Whether the input loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flow {
    Continue,
    Quit,
}

/// The state of one CECP session.
pub(super) struct Session<'e> {
    pub(super) engine: &'e mut Engine,
    out: Arc<Output>,
    post: Arc<AtomicBool>,
    done: Sender<SearchDone>,
    game: Position,
    /// False after a bad `setboard`: moves are refused until `new` or a good `setboard`.
    valid: bool,
    /// The colour the engine plays; `None` in force mode (and in analyze mode).
    side: Option<Color>,
    analyzing: bool,
    /// `hard`: ponder after our moves.
    ponder: bool,
    clock: Clock,
    search: Option<Running>,
    next_id: u64,
    /// The reply our last search expected (`hint`).
    hint: Option<Move>,
    /// The `memory` budget, if the GUI gave one.
    memory: Option<usize>,
    /// `variant fischerandom` (until `new`): Chess960 FENs and castling as `O-O`.
    chess960: bool,
}

impl<'e> Session<'e> {
    pub(super) fn new(engine: &'e mut Engine, out: Arc<Output>, done: Sender<SearchDone>) -> Self {
        let game = engine.position().clone();
        Session {
            engine,
            out,
            post: Arc::new(AtomicBool::new(false)),
            done,
            game,
            valid: true,
            side: Some(Color::Black),
            analyzing: false,
            ponder: false,
            clock: Clock::default(),
            search: None,
            next_id: 0,
            hint: None,
            memory: None,
            chess960: false,
        }
    }

    fn line(&self, text: &str) {
        self.out.line(text);
    }

    fn error(&self, reason: &str, line: &str) {
        self.line(&format!("Error ({reason}): {}", line.trim()));
    }

    fn thinking(&self) -> bool {
        self.search.is_some_and(|s| s.kind == Kind::Think)
    }

    /// True if `line` must wait for the engine's move (see the module docs).
    pub(super) fn must_wait(&self, line: &str) -> bool {
        self.thinking()
            && matches!(
                line.parse::<Command>(),
                Ok(Command::Ping(_)
                    | Command::Memory(_)
                    | Command::Cores(_)
                    | Command::EgtPath { .. }
                    | Command::SetOption { .. })
            )
    }

    /// Stops the running search, if any, and drops its answer.
    pub(super) fn halt(&mut self) {
        if self.search.take().is_some() {
            self.engine.stop();
            self.engine.wait();
        }
    }

    /// Starts a search of `pos` whose answer arrives as [`SearchDone`] with a new number.
    fn launch(&mut self, pos: Position, limits: Limits, kind: Kind, prefix: Option<Move>) {
        self.next_id += 1;
        let reporter = Arc::new(XboardReporter::new(
            Arc::clone(&self.out),
            Arc::clone(&self.post),
            self.next_id,
            prefix,
            self.chess960,
            self.done.clone(),
        ));
        self.engine.set_game_position(pos);
        self.search = Some(Running {
            id: self.next_id,
            kind,
            since: Instant::now(),
        });
        self.engine.go(limits, reporter);
    }

    /// Prints the result if the game is over; returns whether it is.
    fn claim_if_over(&self) -> bool {
        match game_result(&self.game) {
            Some(r) => {
                self.line(r);
                true
            }
            None => false,
        }
    }

    fn start_think(&mut self) {
        self.halt();
        if self.claim_if_over() {
            return;
        }
        let limits = self.clock.limits(&self.game);
        self.launch(self.game.clone(), limits, Kind::Think, None);
    }

    fn start_ponder(&mut self, expected: Move) {
        let mut pos = self.game.clone();
        pos.play(expected);
        if game_result(&pos).is_some() {
            return;
        }
        let mut limits = self.clock.limits(&pos);
        limits.ponder = true;
        self.launch(pos, limits, Kind::Ponder(expected), Some(expected));
    }

    fn restart_analysis(&mut self) {
        self.halt();
        if self.analyzing && self.valid && !self.game.legal_moves().is_empty() {
            let limits = Limits {
                infinite: true,
                analysis: true,
                ..Limits::default()
            };
            self.launch(self.game.clone(), limits, Kind::Analyze, None);
        }
    }

    /// A search's answer arrived on the input loop.
    pub(super) fn on_done(&mut self, done: SearchDone) {
        let Some(run) = self.search else { return };
        if run.id != done.id {
            return; // an abandoned search
        }
        self.search = None;
        if run.kind != Kind::Think {
            return;
        }
        let Some(m) = done.best.filter(|&m| is_legal(&self.game, m)) else {
            // Only without legal moves, which `start_think` rules out; stay consistent.
            if !self.claim_if_over() {
                self.line("# error: the search returned no legal move");
            }
            return;
        };
        self.clock.after_our_move(&self.game, run.since);
        self.game.play(m);
        self.line(&format!("move {}", format_move(m, self.chess960)));
        self.hint = done.ponder.filter(|&p| is_legal(&self.game, p));
        if self.claim_if_over() {
            return;
        }
        if self.ponder
            && let Some(p) = self.hint
        {
            self.start_ponder(p);
        }
    }

    fn user_move(&mut self, text: &str) {
        if !self.valid {
            self.line(&format!("Illegal move (no valid position): {text}"));
            return;
        }
        if self.thinking() {
            self.line(&format!("Illegal move (not your turn): {text}"));
            return;
        }
        let Ok(m) = parse_move(&self.game, text) else {
            self.line(&format!("Illegal move: {text}"));
            return;
        };
        self.hint = None;
        match self.search.map(|s| s.kind) {
            Some(Kind::Analyze) => {
                self.game.play(m);
                self.restart_analysis();
                return;
            }
            Some(Kind::Ponder(expected)) if expected == m && goes_on_after(&self.game, m) => {
                // Ponder hit: the search goes on, now on the clock.
                self.game.play(m);
                self.engine.ponderhit();
                self.search = self.search.map(|s| Running {
                    kind: Kind::Think,
                    since: Instant::now(),
                    ..s
                });
                return;
            }
            _ => self.halt(),
        }
        self.game.play(m);
        if self.side.is_none() {
            return; // force mode: record only
        }
        if self.claim_if_over() {
            return;
        }
        if self.side == Some(self.game.turn()) {
            self.start_think();
        }
    }

    /// Sets an engine option with the engine idle (analysis resumes afterwards).
    fn set_engine_option(&mut self, name: &str, value: Option<&str>, line: &str) -> bool {
        self.halt();
        let result = self.engine.set_option(name, value);
        let ok = match result {
            Ok(msg) => {
                if let Some(msg) = msg {
                    self.line(&format!("# {msg}"));
                }
                true
            }
            Err(e) => {
                self.line(&format!("# {e}"));
                let reason = if e.starts_with("unknown option") {
                    "unknown option"
                } else if e.starts_with("cannot allocate") {
                    "cannot allocate memory"
                } else {
                    "bad option value"
                };
                self.error(reason, line);
                false
            }
        };
        self.restart_analysis();
        ok
    }

    /// Sets `Hash` from the `memory` budget, if there is one.
    fn apply_memory(&mut self, line: &str) {
        if let Some(total) = self.memory {
            let hash = hash_for_memory(total, self.engine.options());
            if hash != self.engine.options().hash_mb {
                self.set_engine_option("Hash", Some(&hash.to_string()), line);
            }
        }
    }

    fn undo(&mut self, plies: usize, line: &str) {
        if self.game.history_len() <= plies {
            self.error("command not legal now", line);
            return;
        }
        self.halt();
        for _ in 0..plies {
            self.game.undo();
        }
        self.hint = None;
        self.restart_analysis();
    }

    /// Handles one input line.
    pub(super) fn handle(&mut self, line: &str) -> Flow {
        let cmd = match line.parse::<Command>() {
            Ok(c) => c,
            Err(e) => {
                self.error(&e.reason, line);
                return Flow::Continue;
            }
        };
        match cmd {
            Command::Empty
            | Command::Xboard
            | Command::FeatureReply
            | Command::Ignored
            | Command::Draw
            | Command::Status => {}
            Command::Protover(_) => {
                for l in feature_lines() {
                    self.line(&l);
                }
            }
            Command::Quit => return Flow::Quit,
            Command::Name(n) => {
                let old = self.engine.opponent().cloned().unwrap_or_default();
                let id = OpponentId::from_xboard_name(&n).with_rating(old.elo);
                self.engine.set_opponent(OpponentId {
                    kind: old.kind,
                    ..id
                });
            }
            Command::Rating(_, theirs) => {
                let old = self.engine.opponent().cloned().unwrap_or_default();
                let elo = (theirs > 0).then_some(theirs);
                self.engine.set_opponent(old.with_rating(elo));
            }
            Command::Computer => {
                let old = self.engine.opponent().cloned().unwrap_or_default();
                self.engine.set_opponent(old.with_computer(true));
            }
            Command::Variant(v) => match v.as_str() {
                "normal" => self.chess960 = false,
                "fischerandom" => self.chess960 = true,
                _ => self.error("unsupported variant", line),
            },
            Command::New => {
                self.halt();
                self.engine.new_game();
                self.game = Position::default();
                self.chess960 = false;
                self.valid = true;
                self.side = (!self.analyzing).then_some(Color::Black);
                self.clock.new_game();
                self.hint = None;
                self.restart_analysis();
            }
            Command::Force => {
                self.halt();
                self.analyzing = false;
                self.side = None;
            }
            Command::Result => {
                self.halt();
                self.side = None;
            }
            Command::Go => {
                if !self.valid {
                    self.error("no valid position", line);
                    return Flow::Continue;
                }
                if self.thinking() {
                    return Flow::Continue;
                }
                self.analyzing = false;
                self.side = Some(self.game.turn());
                self.start_think();
            }
            Command::PlayOther => {
                self.halt();
                self.analyzing = false;
                self.side = Some(!self.game.turn());
            }
            Command::Level(level) => self.clock.set_level(level, &self.game),
            Command::St(t) => self.clock.set_st(t),
            Command::Sd(d) => self.clock.set_depth(d),
            Command::Time(cs) => self.clock.set_time(cs),
            Command::Otim(cs) => self.clock.set_otim(cs),
            Command::UserMove(m) => self.user_move(&m),
            Command::MoveNow => {
                if self.thinking() {
                    self.engine.stop();
                }
            }
            Command::Ping(n) => self.line(&format!("pong {n}")),
            Command::SetBoard(fen) => {
                self.halt();
                match Position::from_fen_in(&fen, self.chess960) {
                    Ok(pos) => {
                        self.game = pos;
                        self.valid = true;
                        self.clock.new_position();
                        self.hint = None;
                        self.restart_analysis();
                    }
                    Err(e) => {
                        self.valid = false;
                        self.line(&format!("# {e}"));
                        self.line("tellusererror Illegal position");
                        self.error("bad FEN", line);
                    }
                }
            }
            Command::Hint => {
                if let Some(h) = self.hint.filter(|&h| is_legal(&self.game, h)) {
                    self.line(&format!("Hint: {}", format_move(h, self.chess960)));
                }
            }
            Command::Book => {
                self.line(" nosce has no opening book");
                self.line("");
            }
            Command::Undo => self.undo(1, line),
            Command::Remove => self.undo(2, line),
            Command::Hard => self.ponder = true,
            Command::Easy => {
                self.ponder = false;
                if matches!(self.search.map(|s| s.kind), Some(Kind::Ponder(_))) {
                    self.halt();
                }
            }
            Command::Post => self.post.store(true, Ordering::Relaxed),
            Command::NoPost => self.post.store(false, Ordering::Relaxed),
            Command::Analyze => {
                self.halt();
                self.analyzing = true;
                self.side = None;
                self.restart_analysis();
            }
            Command::Exit => {
                if self.analyzing {
                    self.halt();
                    self.analyzing = false;
                }
            }
            Command::Memory(mb) => {
                self.memory = Some(mb);
                self.apply_memory(line);
            }
            Command::Cores(n) => {
                let n = n.clamp(1, 256).to_string();
                self.set_engine_option("Threads", Some(&n), line);
            }
            Command::EgtPath { kind, path } => {
                if kind.eq_ignore_ascii_case("syzygy") {
                    self.set_engine_option("SyzygyPath", Some(&path), line);
                } else {
                    self.error("unsupported tablebase format", line);
                }
            }
            Command::SetOption { name, value } => {
                let ok = self.set_engine_option(&name, value.as_deref(), line);
                if ok && name.trim().to_ascii_lowercase().starts_with("om_") {
                    self.apply_memory(line);
                }
            }
        }
        Flow::Continue
    }
}
