//! The fallible K+Q side of the KQKR experiment (Donkers 2003 §5.4.2: CRAFTY without the
//! endgame database): either nosce without tables, searching with a fresh transposition
//! table before every move so that its choice is a function of the position (and the game's
//! history), or any UCI engine driven over pipes with `go depth N` / `go nodes N` after a
//! `ucinewgame` per move.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use shakmaty::Move;

use super::config::{OpponentConfig, SideLimit};
use crate::eval::{Evaluator, FullEval, MaterialEval, Perturbed};
use crate::opponent::EvalKind;
use crate::position::{Position, uci};
use crate::report::Silent;
use crate::search::{SearchConfig, SearchContext, SearchControl, root_moves, search};
use crate::tt::TranspositionTable;

/// The K+Q side's answer.
#[derive(Clone, Debug)]
pub struct OppMove {
    /// The move.
    pub mv: Move,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// A player of the K+Q side.
pub trait Opponent: Send {
    /// Starts a game whose perturbation seed is `seed`.
    fn new_game(&mut self, seed: u64) -> Result<(), String>;
    /// Chooses a move in `pos`, reached from `start_fen` by `moves`.
    fn choose(
        &mut self,
        pos: &Position,
        start_fen: &str,
        moves: &[Move],
    ) -> Result<OppMove, String>;
}

/// An evaluator of `kind`, perturbed with `seed` and `amplitude` when a seed is given.
pub fn evaluator(kind: EvalKind, seed: Option<u64>, amplitude: i32) -> Arc<dyn Evaluator> {
    match (kind, seed) {
        (EvalKind::Full, Some(s)) if amplitude > 0 => {
            Arc::new(Perturbed::new(FullEval::default(), s, amplitude))
        }
        (EvalKind::Material, Some(s)) if amplitude > 0 => {
            Arc::new(Perturbed::new(MaterialEval, s, amplitude))
        }
        (EvalKind::Full, _) => Arc::new(FullEval::default()),
        (EvalKind::Material, _) => Arc::new(MaterialEval),
    }
}

/// Builds the configured opponent.
pub fn make_opponent(cfg: &OpponentConfig) -> Result<Box<dyn Opponent>, String> {
    Ok(match cfg {
        OpponentConfig::Builtin {
            eval,
            limit,
            amplitude,
            hash_mb,
        } => Box::new(BuiltinOpponent::new(*eval, *limit, *amplitude, *hash_mb)),
        OpponentConfig::Uci {
            path,
            options,
            limit,
        } => Box::new(UciOpponent::start(path, options, *limit)?),
    })
}

/// nosce without tables (see the module docs).
pub struct BuiltinOpponent {
    kind: EvalKind,
    limit: SideLimit,
    amplitude: i32,
    tt: TranspositionTable,
    eval: Arc<dyn Evaluator>,
}

impl BuiltinOpponent {
    /// An opponent with evaluator `kind`, `limit` per move, perturbation `amplitude` cp and
    /// a table of `hash_mb` MiB.
    pub fn new(kind: EvalKind, limit: SideLimit, amplitude: i32, hash_mb: usize) -> Self {
        BuiltinOpponent {
            kind,
            limit,
            amplitude,
            tt: TranspositionTable::new(hash_mb),
            eval: evaluator(kind, None, 0),
        }
    }
}

impl Opponent for BuiltinOpponent {
    fn new_game(&mut self, seed: u64) -> Result<(), String> {
        self.eval = evaluator(self.kind, Some(seed), self.amplitude);
        Ok(())
    }

    fn choose(&mut self, pos: &Position, _: &str, _: &[Move]) -> Result<OppMove, String> {
        // Exactly what a replay probe does (search::om): fresh table, default settings.
        let start = Instant::now();
        self.tt.clear();
        let control = SearchControl::default();
        let config = SearchConfig::default();
        let ctx = SearchContext {
            eval: &*self.eval,
            tt: &self.tt,
            control: &control,
            tb: None,
            config: &config,
            reporter: &Silent,
            root_tb_score: None,
        };
        let limits = self.limit.limits();
        let allowed = root_moves(pos, &limits);
        let r = search(&ctx, pos, &limits, &allowed);
        let mv = r.best.ok_or("the K+Q side has no legal move")?;
        Ok(OppMove {
            mv,
            depth: r.depth,
            nodes: r.nodes,
            time: start.elapsed(),
        })
    }
}

/// How long a UCI engine may take to answer a handshake or a search.
const UCI_TIMEOUT: Duration = Duration::from_secs(300);

/// A UCI engine over pipes.
pub struct UciOpponent {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    limit: SideLimit,
    name: String,
}

impl UciOpponent {
    /// Starts `path`, completes the handshake and sets `options`.
    pub fn start(
        path: &Path,
        options: &[(String, String)],
        limit: SideLimit,
    ) -> Result<Self, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start UCI engine '{}': {e}", path.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = UciOpponent {
            child,
            stdin,
            lines,
            limit,
            name: path.display().to_string(),
        };
        e.send("uci")?;
        e.wait_for("uciok")?;
        for (k, v) in options {
            e.send(&format!("setoption name {k} value {v}"))?;
        }
        e.send("isready")?;
        e.wait_for("readyok")?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("{}: write failed: {e}", self.name))
    }

    fn next_line(&mut self) -> Result<String, String> {
        match self.lines.recv_timeout(UCI_TIMEOUT) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(format!("{}: no answer", self.name)),
            Err(RecvTimeoutError::Disconnected) => Err(format!("{}: engine exited", self.name)),
        }
    }

    fn wait_for(&mut self, token: &str) -> Result<(), String> {
        loop {
            if self.next_line()?.trim() == token {
                return Ok(());
            }
        }
    }
}

impl Opponent for UciOpponent {
    fn new_game(&mut self, _seed: u64) -> Result<(), String> {
        Ok(())
    }

    fn choose(
        &mut self,
        pos: &Position,
        start_fen: &str,
        moves: &[Move],
    ) -> Result<OppMove, String> {
        let start = Instant::now();
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok")?;
        let list: Vec<String> = moves.iter().map(|&m| uci(m)).collect();
        let position = if list.is_empty() {
            format!("position fen {start_fen}")
        } else {
            format!("position fen {start_fen} moves {}", list.join(" "))
        };
        self.send(&position)?;
        self.send(&format!("go {}", self.limit.go_args()))?;
        let (mut depth, mut nodes) = (0u32, 0u64);
        loop {
            let line = self.next_line()?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    let w: Vec<&str> = line.split_whitespace().collect();
                    for pair in w.windows(2) {
                        match pair[0] {
                            "depth" => depth = pair[1].parse().unwrap_or(depth),
                            "nodes" => nodes = pair[1].parse().unwrap_or(nodes),
                            _ => {}
                        }
                    }
                }
                Some("bestmove") => {
                    let text = words.next().unwrap_or("");
                    let mv = pos
                        .parse_uci(text)
                        .map_err(|e| format!("{}: bestmove '{text}': {e}", self.name))?;
                    return Ok(OppMove {
                        mv,
                        depth,
                        nodes,
                        time: start.elapsed(),
                    });
                }
                _ => {}
            }
        }
    }
}

impl Drop for UciOpponent {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
