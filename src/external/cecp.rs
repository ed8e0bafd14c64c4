//! One xboard (CECP v2) engine process as an opponent model: the `protover 2` feature
//! negotiation, one query at a time, and getting back in step after a query the caller
//! abandoned. Many of the programs people play against speak only this protocol (Debian's
//! phalanx, sjeng, hoichess, fairymax), so an `engine` opponent type may be one of them
//! (`OM_OpponentEngine=xboard:COMMAND`); [`super::process`] is the UCI side.
//!
//! A query (CECP §8–9): `new`, `force`, the limit (`sd N`; `st S` for a move time, in whole
//! seconds), `setboard` with the game's first position and the moves since (`usermove` when
//! the engine asked for it), a `ping` whose `pong` proves the engine took all that (an
//! `Illegal move` or `Error` before it is a protocol fault), then `go` and the engine's
//! `move`, in coordinates or SAN, checked for legality. An engine that rejects `sd` as a
//! move or an unknown command is asked with `depth N` from then on (phalanx's word for it).
//! When the caller stops waiting, `?` asks for the move at once and the next call drains it.
//! The engine must offer `setboard=1`; without `ping=1` nothing is checked before `go`.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::san::San;
use shakmaty::uci::UciMove;

use super::pipe::{Interrupt, Pending, Pipe, RESYNC, first_word};
use super::{EngineAnswer, EngineCommand, ErrorKind, ExternalError, GoLimit};
use crate::position::{Position, uci};

/// How long a `protover 2` engine may take to send `feature done=1` (CECP: two seconds,
/// unless it sends `done=0` to ask for more, up to the caller's start timeout).
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// The features this client uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Features {
    setboard: bool,
    ping: bool,
    usermove: bool,
    name: Option<String>,
    /// `done=1` came (`Some(false)`: `done=0`, wait on).
    done: Option<bool>,
}

impl Features {
    /// Reads the `name=value` pairs of a `feature` line (values may be quoted).
    fn read(&mut self, line: &str) {
        let mut rest = line
            .trim_start()
            .strip_prefix("feature")
            .unwrap_or("")
            .trim();
        while !rest.is_empty() {
            let Some((key, after)) = rest.split_once('=') else {
                return;
            };
            let key = key.trim();
            let (value, next) = if let Some(q) = after.strip_prefix('"') {
                match q.split_once('"') {
                    Some((v, n)) => (v, n),
                    None => (q, ""),
                }
            } else {
                match after.split_once(char::is_whitespace) {
                    Some((v, n)) => (v, n),
                    None => (after, ""),
                }
            };
            let on = value.trim() == "1";
            match key {
                "setboard" => self.setboard = on,
                "ping" => self.ping = on,
                "usermove" => self.usermove = on,
                "myname" if !value.trim().is_empty() => self.name = Some(value.trim().into()),
                "done" => self.done = Some(on),
                _ => {}
            }
            rest = next.trim_start();
        }
    }
}

/// The engine's thinking output so far (`ply score time nodes pv`, CECP §10).
#[derive(Default)]
struct Thinking {
    depth: u32,
    nodes: u64,
    score_cp: Option<i32>,
}

impl Thinking {
    fn read(&mut self, line: &str) {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() < 4 {
            return;
        }
        if let (Ok(d), Ok(s), Ok(n)) = (
            w[0].trim_end_matches(['.', '&']).parse::<u32>(),
            w[1].parse::<i32>(),
            w[3].parse::<u64>(),
        ) {
            self.depth = d;
            self.nodes = n;
            // Mate scores are 100000 ± distance by convention.
            self.score_cp = (s.abs() < 90_000).then_some(s);
        }
    }
}

/// The move of a `move` line, in coordinates or SAN: `Protocol` if it is no move at all,
/// `IllegalMove` if it is one but not legal in `pos`.
fn parse_move(line: &str, pos: &Position) -> Result<shakmaty::Move, ErrorKind> {
    let text = line.split_whitespace().nth(1).unwrap_or("");
    if text.is_empty() {
        return Err(ErrorKind::Protocol("'move' without a move".into()));
    }
    let by_uci = text
        .parse::<UciMove>()
        .ok()
        .and_then(|m| m.to_move(pos.chess()).ok());
    let by_san = || {
        text.parse::<San>()
            .ok()
            .and_then(|s| s.to_move(pos.chess()).ok())
    };
    by_uci.or_else(by_san).ok_or_else(|| {
        if text.parse::<UciMove>().is_ok() || text.parse::<San>().is_ok() {
            ErrorKind::IllegalMove(text.to_string())
        } else {
            ErrorKind::Protocol(format!("'move {text}' is not a move"))
        }
    })
}

/// True for the engine's complaints about a command (CECP §11).
fn is_complaint(line: &str) -> bool {
    line.starts_with("Illegal move") || line.starts_with("Error")
}

/// One running xboard engine process (see the module docs). Dropping it sends `quit`,
/// waits up to a second, then kills the process.
pub struct CecpEngine {
    pipe: Pipe,
    name: String,
    features: Features,
    /// The last `ping` number sent.
    ping: u32,
    /// The engine rejected `sd`: its depth limit is `depth N`.
    depth_command: bool,
}

impl CecpEngine {
    /// Starts `cmd`, sends `xboard` and `protover 2`, reads its features until `done=1`,
    /// sets each of `options` (`option NAME=VALUE`) and synchronises with `ping`, all within
    /// `timeout`.
    ///
    /// # Errors
    /// [`ErrorKind::Start`] with the reason: the program cannot be run, it exited, it sent no
    /// `feature done=1`, it lacks `setboard`, or it did not answer `ping` in time.
    pub fn start(
        cmd: &EngineCommand,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<Self, ExternalError> {
        let deadline = Instant::now() + timeout;
        let fail = |m: String| ExternalError::xboard(&cmd.program, ErrorKind::Start(m));
        let pipe = Pipe::spawn(cmd).map_err(fail)?;
        let mut e = CecpEngine {
            pipe,
            name: cmd.program.clone(),
            features: Features::default(),
            ping: 0,
            depth_command: false,
        };
        match e.handshake(options, deadline) {
            Ok(()) => Ok(e),
            Err(m) => {
                e.pipe.kill();
                Err(fail(m))
            }
        }
    }

    fn handshake(&mut self, options: &[(String, String)], deadline: Instant) -> Result<(), String> {
        const EXITED: &str = "it exited during the handshake";
        let exited = |_: ErrorKind| EXITED.to_string();
        self.pipe.send("xboard").map_err(exited)?;
        self.pipe.send("protover 2").map_err(exited)?;
        let mut wait_until = deadline.min(Instant::now() + FEATURE_WAIT);
        while self.features.done != Some(true) {
            let line = match self.pipe.next_line(wait_until, None) {
                Ok(l) => l,
                Err(Interrupt::Exited) => return Err(EXITED.into()),
                Err(_) => return Err("no 'feature done=1' (a protocol 2 engine is needed)".into()),
            };
            if first_word(&line) == "feature" {
                self.features.read(&line);
                if self.features.done == Some(false) {
                    wait_until = deadline;
                }
            }
        }
        if let Some(n) = self.features.name.clone() {
            self.name = n;
        }
        if !self.features.setboard {
            return Err(format!("'{}' does not offer setboard=1", self.name));
        }
        for f in ["setboard", "ping", "usermove", "myname", "done"] {
            self.pipe.send(&format!("accepted {f}")).map_err(exited)?;
        }
        for (k, v) in options {
            self.pipe.send(&format!("option {k}={v}")).map_err(exited)?;
        }
        self.pipe.send("new").map_err(exited)?;
        self.pipe.send("force").map_err(exited)?;
        match self.sync(deadline, None) {
            Ok(_) => Ok(()),
            Err(Interrupt::Exited) => Err(EXITED.into()),
            Err(_) => Err("no 'pong' to 'ping' in time".into()),
        }
    }

    /// `ping N` → `pong N` (when the engine has `ping`), returning the lines before it.
    fn sync(
        &mut self,
        deadline: Instant,
        stop: Option<&AtomicBool>,
    ) -> Result<Vec<String>, Interrupt> {
        if !self.features.ping {
            return Ok(Vec::new());
        }
        self.ping += 1;
        let pong = format!("pong {}", self.ping);
        self.pipe
            .send(&format!("ping {}", self.ping))
            .map_err(|_| Interrupt::Exited)?;
        let mut before = Vec::new();
        loop {
            let line = self.pipe.next_line(deadline, stop)?;
            if line.trim() == pong {
                return Ok(before);
            }
            before.push(line);
        }
    }

    /// The engine's `myname`, else its program.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// True while the process runs and can still be used.
    pub fn is_alive(&mut self) -> bool {
        self.pipe.is_alive()
    }

    /// `new` and `force`, then `ping`, by `deadline`.
    ///
    /// # Errors
    /// `Exited`, `Unresponsive`, `Stopped`, or `Timeout` (the `pong` is then awaited by the
    /// next call).
    pub fn new_game_by(
        &mut self,
        deadline: Instant,
        stop: &AtomicBool,
    ) -> Result<(), ExternalError> {
        self.resync(deadline, Some(stop))?;
        self.send("new")?;
        self.send("force")?;
        match self.sync(deadline, Some(stop)) {
            Ok(_) => Ok(()),
            Err(i) => {
                self.pipe.pending = Some(Pending {
                    token: "pong",
                    by: Instant::now() + RESYNC,
                });
                Err(self.interrupted(i))
            }
        }
    }

    /// Asks for the move in `pos` with `limit` (see the module docs), waiting at most until
    /// `deadline` and polling `stop`; the answer is checked for legality in `pos`.
    ///
    /// # Errors
    /// `NoLegalMove` (nothing is sent), `Stopped`, `Timeout`, `Exited`, `Unresponsive`,
    /// `Protocol` (the engine rejected the position or a limit we cannot express, or its
    /// move does not parse) and `IllegalMove`.
    pub fn best_move(
        &mut self,
        pos: &Position,
        limit: GoLimit,
        deadline: Instant,
        stop: &AtomicBool,
    ) -> Result<EngineAnswer, ExternalError> {
        self.pipe.may_ask(pos, stop).map_err(|k| self.error(k))?;
        self.resync(deadline, Some(stop))?;
        self.send("new")?;
        self.send("force")?;
        match limit {
            GoLimit::Depth(d) if self.depth_command => self.send(&format!("depth {d}"))?,
            GoLimit::Depth(d) => self.send(&format!("sd {d}"))?,
            GoLimit::MoveTime(ms) => self.send(&format!("st {}", ms.div_ceil(1000).max(1)))?,
            GoLimit::Nodes(_) => {
                return Err(self.error(ErrorKind::Unsupported(
                    "xboard has no node limit (give the type depth= or movetime=)".into(),
                )));
            }
        }
        let (fen, moves) = pos.game_line();
        self.send(&format!("setboard {fen}"))?;
        for m in moves {
            let word = if self.features.usermove {
                "usermove "
            } else {
                ""
            };
            self.send(&format!("{word}{}", uci(m)))?;
        }
        let before = match self.sync(deadline, Some(stop)) {
            Ok(lines) => lines,
            Err(i) => {
                self.pipe.pending = Some(Pending {
                    token: "pong",
                    by: Instant::now() + RESYNC,
                });
                return Err(self.interrupted(i));
            }
        };
        for line in before.iter().filter(|l| is_complaint(l)) {
            let sd = line.contains(" sd") || line.ends_with(": sd");
            if sd && matches!(limit, GoLimit::Depth(_)) && !self.depth_command {
                // phalanx knows `depth N`, not `sd N`.
                self.depth_command = true;
                if let GoLimit::Depth(d) = limit {
                    self.send(&format!("depth {d}"))?;
                }
            } else {
                return Err(self.error(ErrorKind::Protocol(format!(
                    "it rejected the position: '{line}'"
                ))));
            }
        }
        self.send("go")?;
        let mut thinking = Thinking::default();
        loop {
            let line = match self.pipe.next_line(deadline, Some(stop)) {
                Ok(line) => line,
                Err(Interrupt::Exited) => return Err(self.error(ErrorKind::Exited)),
                Err(i) => {
                    // Ask for the move now and leave; the next call collects it.
                    self.pipe.abandon("?", "move");
                    return Err(self.interrupted(i));
                }
            };
            match first_word(&line) {
                "move" => return self.read_move(&line, pos, thinking),
                w if w.chars().next().is_some_and(|c| c.is_ascii_digit()) => thinking.read(&line),
                _ if is_complaint(&line) => {
                    return Err(
                        self.error(ErrorKind::Protocol(format!("it answered '{line}' to go")))
                    );
                }
                _ => {}
            }
        }
    }

    /// The move of a `move` line (coordinates or SAN), legal in `pos`.
    fn read_move(
        &self,
        line: &str,
        pos: &Position,
        t: Thinking,
    ) -> Result<EngineAnswer, ExternalError> {
        let mv = parse_move(line, pos).map_err(|k| self.error(k))?;
        Ok(EngineAnswer {
            mv,
            depth: t.depth,
            nodes: t.nodes,
            score_cp: t.score_cp,
            lines: Vec::new(),
        })
    }

    /// Kills the process at once (no `quit`) and reaps it.
    pub fn kill(mut self) {
        self.pipe.kill();
    }

    fn error(&self, kind: ErrorKind) -> ExternalError {
        ExternalError::xboard(&self.name, kind)
    }

    fn interrupted(&self, i: Interrupt) -> ExternalError {
        self.error(match i {
            Interrupt::Exited => ErrorKind::Exited,
            Interrupt::Stopped => ErrorKind::Stopped,
            Interrupt::Deadline => ErrorKind::Timeout,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), ExternalError> {
        self.pipe.send(line).map_err(|k| self.error(k))
    }

    fn resync(
        &mut self,
        deadline: Instant,
        stop: Option<&AtomicBool>,
    ) -> Result<(), ExternalError> {
        self.pipe.resync(deadline, stop).map_err(|k| self.error(k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_with_quotes_and_done() {
        let mut f = Features::default();
        f.read(r#"feature ping=1 setboard=1 myname="Phalanx XXV" option="Randomizer (0-50) -slider 0 0 50" done=0"#);
        assert!(f.ping && f.setboard && !f.usermove);
        assert_eq!(f.name.as_deref(), Some("Phalanx XXV"));
        assert_eq!(f.done, Some(false));
        f.read("feature usermove=1 done=1");
        assert!(f.usermove);
        assert_eq!(f.done, Some(true));
        f.read("feature broken");
        f.read("feature x=\"unterminated");
        assert_eq!(f.done, Some(true));
    }

    #[test]
    fn engine_output_never_panics_the_parsers() {
        // The engine's lines are outside input: mutated feature, thinking and move lines.
        let seeds = [
            r#"feature ping=1 setboard=1 myname="Phalanx XXV" done=1"#,
            "12 -35 104 123456 e2e4 e7e5 g1f3",
            "move e7e8q",
            "Illegal move: sd 3",
        ];
        let mut rng = crate::rng::GameRng::from_seed(17);
        let pos = Position::default();
        let mut f = Features::default();
        let mut t = Thinking::default();
        for i in 0..20_000 {
            let mut bytes = seeds[i % seeds.len()].as_bytes().to_vec();
            for _ in 0..=rng.below(4) {
                let at = rng.below(bytes.len() + 1);
                match rng.below(3) {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 => bytes.insert(at, b"=\" 9-.&q\xff"[rng.below(8)]),
                    _ => bytes.truncate(at),
                }
            }
            let line = String::from_utf8_lossy(&bytes);
            f.read(&line);
            t.read(&line);
            is_complaint(&line);
            // A move line is either a legal move or an error, never a panic.
            if let Ok(m) = parse_move(&line, &pos) {
                assert!(pos.legal_moves().contains(&m), "{line}");
            }
        }
    }

    #[test]
    fn move_lines_in_coordinates_or_san() {
        let pos = Position::default();
        assert_eq!(parse_move("move e2e4", &pos).map(uci), Ok("e2e4".into()));
        assert_eq!(parse_move("move Nf3", &pos).map(uci), Ok("g1f3".into()));
        assert_eq!(
            parse_move("move e2e5", &pos),
            Err(ErrorKind::IllegalMove("e2e5".into()))
        );
        assert!(matches!(
            parse_move("move", &pos),
            Err(ErrorKind::Protocol(_))
        ));
        assert!(matches!(
            parse_move("move xyz!", &pos),
            Err(ErrorKind::Protocol(_))
        ));
    }

    #[test]
    fn thinking_lines() {
        let mut t = Thinking::default();
        t.read("7 -31 12 45678 e2e4 e7e5");
        assert_eq!((t.depth, t.nodes, t.score_cp), (7, 45678, Some(-31)));
        t.read("8. 100005 20 90000 Qh5");
        assert_eq!((t.depth, t.nodes, t.score_cp), (8, 90000, None));
        t.read("move e2e4");
        t.read("9 x 1 1");
        assert_eq!(t.depth, 8);
    }
}
