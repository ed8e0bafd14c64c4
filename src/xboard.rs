//! The WinBoard/xboard front-end: the Chess Engine Communication Protocol, version 2
//! (Tim Mann & H. G. Muller, "Chess Engine Communication Protocol", xboard 4.2.1 and later;
//! section numbers below refer to it). Parsing lives in [`command`], the time control in
//! [`clock`], formatting and the search's [`Reporter`](crate::report::Reporter) in
//! [`output`]; this file is the session state machine. Like [`crate::uci`] it makes no
//! search decisions: it turns the GUI's commands into [`Limits`] and [`Engine`] calls, and
//! the engine's answers into `move` lines.
//!
//! # Threads and state
//!
//! A reader thread turns standard input into lines on a channel. The input loop owns all
//! session state (game, side, clocks, the running search) and waits on two channels: input
//! lines, and [`SearchDone`] answers that each search's reporter sends from the search thread.
//! Searches are numbered; an answer whose number is not the running search's is dropped,
//! so a search abandoned by `force`, `new`, `undo`... never produces a `move`. Only a
//! *thinking* search (the engine on move) turns its answer into `move X`; analysis and ponder
//! searches end only when stopped, and their answers are dropped.
//!
//! # Ordering (§8 `ping`)
//!
//! `pong N` must follow everything received before `ping N`. While the engine thinks, a
//! `ping` (and `memory`, `cores`, `egtpath`, `option`, which need an idle engine) waits, with
//! every later line, until the `move` is out; `?` and `quit` are still handled at once. In
//! analyze mode and while pondering, `ping` is answered at once (§8: "pondering does not
//! count").
//!
//! # Pondering (`hard`)
//!
//! After its move the engine starts a ponder search ([`Limits::ponder`]) on the position
//! after the expected reply. If the opponent plays it, `ponderhit` turns it into a normal
//! timed search; otherwise it is stopped (its answer dropped) and a new search starts.
//! `playother` does not ponder: there is no expected move yet.
//!
//! # Memory (`memory N`)
//!
//! `N` MB cover every table: our transposition table gets `Hash` MB and each opponent type
//! that searches differently from us (another evaluator, or no tables) gets a table of
//! `Hash/2` MB (see `Engine::model_setup`). With `k` such tables, `Hash = 2N / (2 + k)`;
//! `k` is recomputed, and `Hash` set again, whenever an `OM_*` option changes.
//!
//! # Features
//!
//! `sigint=0`: SIGINT's default action would end the process. `sigterm` keeps its default
//! (1): `quit` is answered at once, and SIGTERM's default action is harmless to us, while a
//! client such as python-chess warns about `sigterm=0`. `draw=0`: draw offers are declined
//! by not answering, so they need not be sent. `nps=0`: node-rate time is not supported.
//! `colors=0`, `usermove=1`, `playother=1`, `setboard=1`, `ping=1` as recommended.
//!
//! # Options
//!
//! Every engine option is offered as a `feature option=...`, except those the protocol
//! covers with commands of its own: `Hash` (`memory`), `Threads` (`cores`), `SyzygyPath`
//! (`egtpath syzygy`), `Ponder` (`hard`/`easy`), `UCI_AnalyseMode` (`analyze`, which runs the
//! mate prover beside α-β as that option does) and
//! `UCI_ShowWDL` (no WDL in thinking output). `option NAME=VALUE` still sets any of them.

pub mod clock;
pub mod command;
pub mod notation;
pub mod output;
pub mod result;

use notation::{format_move, parse_move};
pub use result::game_result;
use result::goes_on_after;

use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crossbeam_channel::{Sender, select, unbounded};
use shakmaty::{Color, Move};

pub use clock::Clock;
pub use command::{Command, Level, ParseError};
pub use output::{Output, SearchDone, XboardReporter, feature_lines};

use crate::engine::Engine;
use crate::engine::settings::Settings;
use crate::limits::Limits;
use crate::opponent_id::OpponentId;
use crate::position::Position;
use crate::search::is_legal;

/// The `Hash` value (MB) that keeps every table within `total` MB (see the module docs).
pub fn hash_for_memory(total: usize, o: &Settings) -> usize {
    let k = o.opponent_tables();
    (total.saturating_mul(2) / (2 + k)).clamp(1, 65_536)
}

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
enum Flow {
    Continue,
    Quit,
}

/// The state of one CECP session.
struct Session<'e> {
    engine: &'e mut Engine,
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
    fn new(engine: &'e mut Engine, out: Arc<Output>, done: Sender<SearchDone>) -> Self {
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
    fn must_wait(&self, line: &str) -> bool {
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
    fn halt(&mut self) {
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
    fn on_done(&mut self, done: SearchDone) {
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
    fn handle(&mut self, line: &str) -> Flow {
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

/// True for lines handled at once even while earlier lines wait for the engine's move.
fn is_urgent(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("?" | "quit"))
}

/// Runs a CECP session on `input` until `quit` or end of input. `first` is a line already
/// read (the one that chose the protocol, `xboard` or `protover 2`).
pub fn run<R: BufRead + Send + 'static>(engine: &mut Engine, first: Option<String>, mut input: R) {
    let out = Arc::new(Output::new(Box::new(std::io::stdout())));
    let (line_tx, lines) = unbounded::<String>();
    let reader = std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf).into_owned();
                        if line_tx.send(text).is_err() {
                            break;
                        }
                    }
                }
            }
        });
    if let Err(e) = reader {
        out.line(&format!("# error: cannot start the input thread: {e}"));
        return;
    }
    let (done_tx, answers) = unbounded::<SearchDone>();
    let mut s = Session::new(engine, Arc::clone(&out), done_tx);
    let mut backlog: VecDeque<String> = first.into_iter().collect();
    'session: loop {
        while let Some(front) = backlog.front() {
            if s.must_wait(front) {
                break;
            }
            let line = backlog.pop_front().unwrap_or_default();
            if s.handle(&line) == Flow::Quit {
                break 'session;
            }
        }
        select! {
            recv(answers) -> done => {
                if let Ok(done) = done {
                    s.on_done(done);
                }
            }
            recv(lines) -> line => match line {
                Ok(line) if !backlog.is_empty() && is_urgent(&line) => {
                    if s.handle(&line) == Flow::Quit {
                        break 'session;
                    }
                }
                Ok(line) => backlog.push_back(line),
                Err(_) => break 'session, // end of input means quit
            },
        }
    }
    s.halt();
    s.engine.stop();
    s.engine.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_split_counts_opponent_tables() {
        let mut o = Settings::default();
        assert_eq!(hash_for_memory(64, &o), 64);
        o.set("OM_Mode", Some("prom")).unwrap();
        assert_eq!(hash_for_memory(64, &o), 64); // the default type shares our table
        o.set("OM_OpponentTypes", Some("self:0.5,material:0.5"))
            .unwrap();
        assert_eq!(hash_for_memory(60, &o), 40); // 40 + 40/2
        o.set("OM_OpponentTypes", Some("self:0.3,material:0.3,notb:0.4"))
            .unwrap();
        assert_eq!(hash_for_memory(64, &o), 32); // 32 + 2 * 16
    }
}
