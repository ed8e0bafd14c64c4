//! One UCI engine process: the handshake, one query at a time, and getting back in step
//! after a query the caller abandoned (the process, its reader thread and the draining of a
//! late `bestmove` are [`super::pipe`]'s).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;

use super::pipe::{Interrupt, Pending, Pipe, RESYNC, first_word};
use super::{EngineAnswer, EngineCommand, ErrorKind, ExternalError, GoLimit};
use crate::position::{Position, uci};

/// One running UCI engine process (see the module docs). Dropping it sends `quit`, waits
/// up to a second, then kills the process; it never leaves a zombie.
pub struct UciEngine {
    pipe: Pipe,
    name: String,
}

/// What the `info` lines of a search said so far.
#[derive(Default)]
struct Info {
    depth: u32,
    nodes: u64,
    score_cp: Option<i32>,
    /// The last report of each MultiPV line (index = `multipv` − 1): its first move as
    /// sent, and its score ([`super::MATE_CP`] for mates).
    lines: Vec<Option<(String, i32)>>,
}

/// The most MultiPV lines kept from an answer.
const MAX_LINES: usize = 64;

impl Info {
    /// Reads `depth`, `nodes`, `score`, `multipv` and the first `pv` move from an `info`
    /// line (an `info string` is text). A line whose score is only a bound
    /// (`lowerbound`/`upperbound`) does not replace a line's last exact report.
    fn read(&mut self, line: &str) {
        let mut words = line.split_whitespace().skip(1);
        let mut multipv = None;
        let mut score = None;
        let mut bound = false;
        let mut first = None;
        while let Some(w) = words.next() {
            match w {
                "depth" => {
                    self.depth = words
                        .next()
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(self.depth)
                }
                "nodes" => {
                    self.nodes = words
                        .next()
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(self.nodes)
                }
                "multipv" => multipv = words.next().and_then(|v| v.parse::<usize>().ok()),
                "score" => match (words.next(), words.next().map(str::parse::<i32>)) {
                    (Some("cp"), Some(Ok(v))) => {
                        self.score_cp = Some(v);
                        score = Some(v.clamp(-super::MATE_CP + 1000, super::MATE_CP - 1000));
                    }
                    (Some("mate"), Some(Ok(n))) => {
                        self.score_cp = None;
                        let n = n.clamp(-999, 999);
                        score = Some(if n > 0 {
                            super::MATE_CP - n
                        } else {
                            -super::MATE_CP - n
                        });
                    }
                    _ => {}
                },
                "lowerbound" | "upperbound" => bound = true,
                "pv" => {
                    first = words.next();
                    break;
                }
                "string" => return,
                _ => {}
            }
        }
        // A line without `multipv` is the engine's only line.
        if let (Some(score), Some(mv), false) = (score, first, bound) {
            let k = multipv.unwrap_or(1);
            if (1..=MAX_LINES).contains(&k) {
                if self.lines.len() < k {
                    self.lines.resize(k, None);
                }
                self.lines[k - 1] = Some((mv.to_string(), score));
            }
        }
    }

    /// The lines as moves legal in `pos`, in the engine's order (lines that were never
    /// reported, whose move is not legal there, or that repeat an earlier line's move are
    /// left out).
    fn legal_lines(&self, pos: &Position) -> Vec<super::EngineLine> {
        let mut out: Vec<super::EngineLine> = Vec::new();
        for (text, score) in self.lines.iter().flatten() {
            let Some(mv) = text
                .parse::<UciMove>()
                .ok()
                .and_then(|m| m.to_move(pos.chess()).ok())
            else {
                continue;
            };
            if out.iter().all(|l| l.mv != mv) {
                out.push(super::EngineLine {
                    mv,
                    score_cp: *score,
                });
            }
        }
        out
    }
}

impl UciEngine {
    /// Starts `cmd` (its stderr discarded), sends `uci` and waits for `uciok` (noting the
    /// `id name`), sets each of `options`, then `isready` → `readyok`, all within `timeout`.
    ///
    /// # Errors
    /// [`ErrorKind::Start`] with the reason: the program cannot be run, it exited, or the
    /// handshake did not complete within `timeout` (the process is killed then).
    pub fn start(
        cmd: &EngineCommand,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<Self, ExternalError> {
        let deadline = Instant::now() + timeout;
        let fail = |m: String| ExternalError::new(&cmd.program, ErrorKind::Start(m));
        let pipe = Pipe::spawn(cmd).map_err(fail)?;
        let mut e = UciEngine {
            pipe,
            name: cmd.program.clone(),
        };
        match e.handshake(options, deadline) {
            Ok(()) => Ok(e),
            Err((i, token)) => {
                // No `quit` and no grace period: it has already had its time.
                e.pipe.kill();
                Err(fail(match i {
                    Interrupt::Exited => "it exited during the handshake".to_string(),
                    _ => format!("no '{token}' within {:.1} s", timeout.as_secs_f64()),
                }))
            }
        }
    }

    /// `uci` → `uciok` (noting the `id name`), the options, `isready` → `readyok`; on
    /// failure, why and the token that did not come.
    fn handshake(
        &mut self,
        options: &[(String, String)],
        deadline: Instant,
    ) -> Result<(), (Interrupt, &'static str)> {
        let exited = |_| (Interrupt::Exited, "");
        self.send("uci").map_err(exited)?;
        loop {
            let line = self.next_line(deadline, None).map_err(|i| (i, "uciok"))?;
            let line = line.trim();
            if let Some(n) = line.strip_prefix("id name ").map(str::trim) {
                if !n.is_empty() {
                    self.name = n.to_string();
                }
            } else if line == "uciok" {
                break;
            }
        }
        for (k, v) in options {
            let line = if v.is_empty() {
                format!("setoption name {k}")
            } else {
                format!("setoption name {k} value {v}")
            };
            self.send(&line).map_err(exited)?;
        }
        self.send("isready").map_err(exited)?;
        self.wait_token("readyok", deadline, None)
            .map_err(|i| (i, "readyok"))
    }

    /// The engine's `id name`, else its program.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// True while the process runs and can still be used (it has not exited or hung).
    pub fn is_alive(&mut self) -> bool {
        self.pipe.is_alive()
    }

    /// Sends `ucinewgame`, then `isready` and waits for `readyok`, all within `timeout`.
    ///
    /// # Errors
    /// `Exited` or `Unresponsive` (also when it was so before), or `Timeout` when `readyok`
    /// did not come in time (it is then awaited by the next call).
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), ExternalError> {
        self.new_game_by(Instant::now() + timeout, &AtomicBool::new(false))
    }

    /// [`Self::new_game`] with the caller's deadline and stop flag.
    pub(super) fn new_game_by(
        &mut self,
        deadline: Instant,
        stop: &AtomicBool,
    ) -> Result<(), ExternalError> {
        self.resync(deadline, Some(stop))?;
        self.send("ucinewgame").map_err(|k| self.error(k))?;
        self.send("isready").map_err(|k| self.error(k))?;
        self.pipe.pending = Some(Pending {
            token: "readyok",
            by: deadline + RESYNC,
        });
        self.resync(deadline, Some(stop))
    }

    /// Asks for the move in `pos` with `limit`: `position fen F moves M...` for the game line
    /// that led to `pos` ([`Position::game_line`], so repetitions are known), then `go`.
    /// Waits at most until `deadline`, polling `stop` every few milliseconds. The answer is
    /// checked for legality in `pos`.
    ///
    /// On `stop` or the deadline it sends `stop` and returns `Stopped` or `Timeout` at once;
    /// the next call first drains the late `bestmove` (see the module docs).
    ///
    /// # Errors
    /// `NoLegalMove` (nothing is sent), `Stopped`, `Timeout`, `Exited`, `Unresponsive`,
    /// `Protocol` (a `bestmove` without a move, `(none)`/`0000`, or one that does not parse)
    /// and `IllegalMove`.
    pub fn best_move(
        &mut self,
        pos: &Position,
        limit: GoLimit,
        deadline: Instant,
        stop: &AtomicBool,
    ) -> Result<EngineAnswer, ExternalError> {
        self.pipe.may_ask(pos, stop).map_err(|k| self.error(k))?;
        self.resync(deadline, Some(stop))?;
        let (fen, moves) = pos.game_line();
        let position = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            let moves: Vec<String> = moves.into_iter().map(uci).collect();
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        self.send(&position).map_err(|k| self.error(k))?;
        self.send(&format!("go {limit}"))
            .map_err(|k| self.error(k))?;
        let mut info = Info::default();
        loop {
            let line = match self.next_line(deadline, Some(stop)) {
                Ok(line) => line,
                Err(Interrupt::Exited) => return Err(self.error(ErrorKind::Exited)),
                Err(i) => {
                    // Ask for the move and leave at once; the next call collects it.
                    self.pipe.abandon("stop", "bestmove");
                    let kind = match i {
                        Interrupt::Stopped => ErrorKind::Stopped,
                        _ => ErrorKind::Timeout,
                    };
                    return Err(self.error(kind));
                }
            };
            match first_word(&line) {
                "info" => info.read(&line),
                "bestmove" => {
                    let mv = self.read_bestmove(&line, pos)?;
                    return Ok(EngineAnswer {
                        mv,
                        depth: info.depth,
                        nodes: info.nodes,
                        score_cp: info.score_cp,
                        lines: info.legal_lines(pos),
                    });
                }
                _ => {}
            }
        }
    }

    /// Kills the process at once (no `quit`) and reaps it.
    pub fn kill(mut self) {
        self.pipe.kill();
    }

    /// The move of a `bestmove` line, legal in `pos`.
    fn read_bestmove(&self, line: &str, pos: &Position) -> Result<shakmaty::Move, ExternalError> {
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let protocol = |m: String| self.error(ErrorKind::Protocol(m));
        match text {
            "" => return Err(protocol("'bestmove' without a move".into())),
            "(none)" | "0000" => {
                return Err(protocol(format!(
                    "'bestmove {text}' in a position with legal moves"
                )));
            }
            _ => {}
        }
        let parsed: UciMove = text
            .parse()
            .map_err(|_| protocol(format!("'bestmove {text}' is not a move")))?;
        parsed
            .to_move(pos.chess())
            .map_err(|_| self.error(ErrorKind::IllegalMove(text.to_string())))
    }

    /// An error of this engine.
    fn error(&self, kind: ErrorKind) -> ExternalError {
        ExternalError::new(&self.name, kind)
    }

    /// Writes one line.
    fn send(&mut self, line: &str) -> Result<(), ErrorKind> {
        self.pipe.send(line)
    }

    /// The next line before `deadline` (see [`Pipe::next_line`]).
    fn next_line(
        &mut self,
        deadline: Instant,
        stop: Option<&AtomicBool>,
    ) -> Result<String, Interrupt> {
        self.pipe.next_line(deadline, stop)
    }

    /// Skips lines until one starting with `token`.
    fn wait_token(
        &mut self,
        token: &str,
        deadline: Instant,
        stop: Option<&AtomicBool>,
    ) -> Result<(), Interrupt> {
        self.pipe.wait_token(token, deadline, stop)
    }

    /// Drains the answer the engine still owes, if any (see [`Pipe::resync`]).
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
    fn info_lines() {
        let mut i = Info::default();
        i.read("info depth 7 seldepth 9 score cp -31 nodes 12345 nps 1 pv e2e4 e7e5");
        assert_eq!((i.depth, i.nodes, i.score_cp), (7, 12345, Some(-31)));
        i.read("info depth 8 score mate 3 nodes 20000");
        assert_eq!((i.depth, i.nodes, i.score_cp), (8, 20000, None));
        i.read("info depth 9 score cp 15 lowerbound");
        assert_eq!(i.score_cp, Some(15));
        i.read("info string depth 99 nodes 1");
        i.read("info depth x nodes");
        assert_eq!((i.depth, i.nodes), (9, 20000));
    }

    #[test]
    fn multipv_lines() {
        let pos = Position::default();
        let mut i = Info::default();
        i.read("info depth 1 multipv 1 score cp 30 pv e2e4 e7e5");
        i.read("info depth 1 multipv 2 score cp 20 pv d2d4");
        i.read("info depth 2 multipv 1 score cp 25 pv e2e4 e7e5");
        i.read("info depth 2 multipv 2 score cp 31 lowerbound pv g1f3");
        i.read("info depth 2 multipv 3 score mate 2 pv b1c3");
        i.read("info depth 2 multipv 4 score cp 5 pv e2e5");
        i.read("info depth 2 multipv 70 score cp 5 pv a2a3");
        i.read("info depth 2 multipv 5 score cp 3 pv d2d4");
        let lines = i.legal_lines(&pos);
        let text: Vec<(String, i32)> = lines
            .iter()
            .map(|l| (crate::position::uci(l.mv), l.score_cp))
            .collect();
        assert_eq!(
            text,
            vec![
                ("e2e4".to_string(), 25),
                ("d2d4".to_string(), 20),
                ("b1c3".to_string(), crate::external::MATE_CP - 2),
            ],
            "the bound line keeps the exact report before it; the illegal and the repeated \
             lines are left out"
        );
        // Without `multipv` the line is line 1; a mate against the engine is negative.
        let mut one = Info::default();
        one.read("info depth 3 score mate -1 pv f2f3");
        assert_eq!(
            one.legal_lines(&pos)[0].score_cp,
            -crate::external::MATE_CP + 1
        );
    }
}
