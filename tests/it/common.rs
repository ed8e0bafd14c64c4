//! Test harness: runs the real `nosce` binary as a child process and talks to it over
//! stdin/stdout, as a GUI would.
//!
//! A reader thread forwards every stdout line into a channel, so every wait here has a
//! timeout and no test can hang on a silent engine. Every failure message carries the whole
//! transcript so far (`>` lines sent, `<` lines received, then the engine's stderr). Dropping
//! an [`Engine`] kills the child if it is still running.

#![allow(dead_code)] // without the lab, the tests use only part of the harness

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};

/// The usual timeout for an answer that should come at once.
pub const QUICK: Duration = Duration::from_secs(2);
/// The timeout for a short search (depth ≤ 8, a few hundred ms).
pub const SEARCH: Duration = Duration::from_secs(10);
/// The transcript keeps between this many and twice this many of the last lines.
pub const TRANSCRIPT_LINES: usize = 5000;
/// A failure message shows this many of the transcript's last lines.
const FAIL_LINES: usize = 400;

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
    transcript: Vec<String>,
    eof: bool,
    /// What a failure message names besides the transcript (a stress test's seed).
    label: String,
}

impl Engine {
    /// Starts the binary under test with no arguments (the protocol loop).
    pub fn start() -> Engine {
        Engine::start_command(Command::new(env!("CARGO_BIN_EXE_nosce")))
    }

    /// Starts `cmd` (the binary under test, perhaps behind a wrapper such as `prlimit`).
    pub fn start_command(mut cmd: Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start the nosce binary");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err_pipe = child.stderr.take().expect("piped stderr");
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
            stderr,
            transcript: Vec::new(),
            eof: false,
            label: String::new(),
        }
    }

    /// Starts the binary and completes the `uci` handshake; returns the handshake lines.
    pub fn start_uci() -> (Engine, Vec<String>) {
        let mut e = Engine::start();
        e.send("uci");
        let lines = e.read_until("uciok", QUICK);
        (e, lines)
    }

    /// Starts the binary and completes the xboard handshake (`xboard`, `protover 2`);
    /// returns the lines up to `feature done=1`.
    pub fn start_xboard() -> (Engine, Vec<String>) {
        let mut e = Engine::start();
        e.send("xboard");
        e.send("protover 2");
        let lines = e.read_until("feature done=1", QUICK);
        (e, lines)
    }

    /// Adds a line to the transcript, which keeps the last [`TRANSCRIPT_LINES`] lines (a
    /// long stress run must not hold hours of output).
    fn note(&mut self, line: String) {
        if self.transcript.len() >= 2 * TRANSCRIPT_LINES {
            self.transcript.drain(..TRANSCRIPT_LINES);
        }
        self.transcript.push(line);
    }

    /// Names what a failure message should repeat at its end (e.g. the seed to replay).
    pub fn set_label(&mut self, label: &str) {
        self.label = label.to_string();
    }

    /// Sends raw bytes (not necessarily UTF-8, not necessarily a whole line).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.note(format!("> (raw) {}", String::from_utf8_lossy(bytes)));
        let Some(stdin) = self.stdin.as_mut() else {
            self.fail("send_raw after close");
        };
        if let Err(e) = stdin.write_all(bytes).and_then(|()| stdin.flush()) {
            self.fail(&format!("cannot write raw bytes to the engine: {e}"));
        }
    }

    /// The lines that have already arrived, without waiting.
    pub fn poll(&mut self) -> Vec<String> {
        let mut got = Vec::new();
        while let Ok(l) = self.lines.try_recv() {
            self.note(format!("< {l}"));
            got.push(l);
        }
        got
    }

    /// The engine's stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The process id of the child.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A size line of the child's `/proc/PID/status` (`key`: `VmRSS`, `VmPeak`, ...), in kB
    /// (Linux only).
    pub fn status_kb(&mut self, key: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()));
        let Ok(status) = status else {
            self.fail("cannot read the child's /proc status");
        };
        let prefix = format!("{key}:");
        let kb = status.lines().find_map(|l| {
            let v = l.strip_prefix(&prefix)?;
            v.trim().trim_end_matches("kB").trim().parse().ok()
        });
        let Some(kb) = kb else {
            self.fail(&format!("no {key} line in the child's /proc status"));
        };
        kb
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.note(format!("> {line}"));
        let Some(stdin) = self.stdin.as_mut() else {
            self.fail(&format!("send('{line}') after close"));
        };
        if let Err(e) = writeln!(stdin, "{line}").and_then(|()| stdin.flush()) {
            self.fail(&format!("cannot write '{line}' to the engine: {e}"));
        }
    }

    /// The next line, or `None` if none arrives before `deadline` (or the engine closed its
    /// output).
    fn next_line(&mut self, deadline: Instant) -> Option<String> {
        if self.eof {
            return None;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => {
                self.note(format!("< {l}"));
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                self.note("<EOF>".into());
                None
            }
        }
    }

    /// Reads lines until one starts with `prefix` and returns it; fails the test on timeout.
    pub fn expect(&mut self, prefix: &str, timeout: Duration) -> String {
        self.read_until(prefix, timeout)
            .pop()
            .expect("read_until returns its last line")
    }

    /// Reads lines up to and including the first that starts with `prefix`; fails the test
    /// with the transcript if it does not arrive within `timeout`.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            match self.next_line(deadline) {
                Some(l) => {
                    let done = l.starts_with(prefix);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                None => self.fail(&format!(
                    "no line starting with '{prefix}' within {timeout:?}"
                )),
            }
        }
    }

    /// Collects every line that arrives during `dur` (waits the whole time).
    pub fn collect_for(&mut self, dur: Duration) -> Vec<String> {
        let deadline = Instant::now() + dur;
        let mut got = Vec::new();
        while let Some(l) = self.next_line(deadline) {
            got.push(l);
        }
        if self.eof {
            // Keep waiting out the time so callers' timing assumptions hold.
            std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
        }
        got
    }

    /// Sends `isready` and returns every line up to and including `readyok`: a barrier
    /// that shows the engine has handled all earlier input.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.read_until("readyok", QUICK)
    }

    /// Sends a `go` command and waits for `bestmove`; returns the lines (the last is
    /// `bestmove`) and the time taken.
    pub fn go(&mut self, go: &str, timeout: Duration) -> (Vec<String>, Duration) {
        let t0 = Instant::now();
        self.send(go);
        let lines = self.read_until("bestmove", timeout);
        (lines, t0.elapsed())
    }

    /// Fails the test with `msg`, the transcript and the engine's stderr.
    pub fn fail(&mut self, msg: &str) -> ! {
        // Pick up whatever is already waiting, to show the full picture.
        while let Ok(l) = self.lines.try_recv() {
            self.note(format!("< {l}"));
        }
        // Whether the process is still there tells a dead engine (a write to it fails, no
        // line arrives) from a wrong answer.
        let process = match self.child.try_wait() {
            Ok(Some(status)) => format!("the engine process has exited: {status}"),
            Ok(None) => "the engine process is running".to_string(),
            Err(e) => format!("the engine process cannot be queried: {e}"),
        };
        let stderr = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        // The message comes first and again last (with the process state and the length of
        // stderr), so that an excerpt of either end of a long report names the failure.
        panic!(
            "{msg}\n--- transcript (last {FAIL_LINES} lines) ---\n{}\n--- stderr ---\n{stderr}\n\
             --- failure: {msg} ({process}; {} bytes on stderr) {}",
            self.transcript[self.transcript.len().saturating_sub(FAIL_LINES)..].join("\n"),
            stderr.len(),
            self.label
        );
    }

    /// Asserts `cond`, failing with `msg` and the transcript otherwise.
    pub fn check(&mut self, cond: bool, msg: &str) {
        if !cond {
            self.fail(msg);
        }
    }

    /// Waits up to `timeout` for the process to exit by itself; returns whether it did.
    fn wait_exit(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return true,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => return false,
            }
        }
    }

    /// Asserts the process exits by itself within `timeout` (after `quit`, say); returns
    /// the lines it wrote before exiting.
    pub fn expect_exit(mut self, timeout: Duration) -> Vec<String> {
        if !self.wait_exit(timeout) {
            self.fail(&format!("the engine did not exit within {timeout:?}"));
        }
        let status = self.child.wait().expect("exit status");
        // The output pipe closes with the process: read what is left up to its end.
        let deadline = Instant::now() + QUICK;
        let mut rest = Vec::new();
        while let Some(l) = self.next_line(deadline) {
            rest.push(l);
        }
        self.check(
            status.success(),
            &format!("the engine exited with {status}"),
        );
        rest
    }

    /// Closes stdin (end of input means quit) and asserts the process exits by itself
    /// within a few seconds; returns the lines it wrote before exiting.
    pub fn close(mut self) -> Vec<String> {
        self.note("> <EOF>".into());
        self.stdin = None;
        self.expect_exit(Duration::from_secs(3))
    }

    /// The transcript so far (for messages).
    pub fn transcript(&self) -> String {
        self.transcript.join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The move of a `bestmove` line, and its ponder move.
pub fn parse_bestmove(line: &str) -> (String, Option<String>) {
    let t: Vec<&str> = line.split_whitespace().collect();
    assert!(
        t.len() >= 2 && t[0] == "bestmove",
        "not a bestmove line: '{line}'"
    );
    let ponder = match (t.get(2), t.get(3)) {
        (Some(&"ponder"), Some(p)) => Some(p.to_string()),
        (None, _) => None,
        _ => panic!("malformed bestmove line: '{line}'"),
    };
    assert!(t.len() <= 4, "malformed bestmove line: '{line}'");
    (t[1].to_string(), ponder)
}

/// The token after `key` in an info line (`info_field(l, "nodes")`).
pub fn info_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut it = line.split_whitespace();
    while let Some(t) = it.next() {
        if t == key {
            return it.next();
        }
    }
    None
}

/// The tokens after `key` up to the end of the line (`pv`) .
pub fn info_tail<'a>(line: &'a str, key: &str) -> Vec<&'a str> {
    line.split_whitespace()
        .skip_while(|t| *t != key)
        .skip(1)
        .collect()
}

/// The moves of an `info ... pv ...` line.
pub fn pv_moves(line: &str) -> Vec<&str> {
    line.split(" pv ")
        .nth(1)
        .unwrap_or("")
        .split_whitespace()
        .collect()
}

/// Info lines carrying a score and a principal variation.
pub fn pv_lines(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info ") && l.contains(" score ") && l.contains(" pv "))
        .collect()
}

/// The position after `moves` (UCI) from `fen` (`None`: start position).
pub fn position_after(fen: Option<&str>, moves: &[&str]) -> Chess {
    let mut pos: Chess = match fen {
        None => Chess::default(),
        Some(f) => f
            .parse::<Fen>()
            .expect("test FEN parses")
            .into_position(CastlingMode::Standard)
            .expect("test FEN is legal"),
    };
    for m in moves {
        let mv = parse_move(&pos, m).unwrap_or_else(|| panic!("test move {m} is illegal"));
        pos.play_unchecked(mv);
    }
    pos
}

/// A legal move of `pos` in UCI notation, or `None`.
pub fn parse_move(pos: &Chess, uci: &str) -> Option<Move> {
    uci.parse::<UciMove>().ok()?.to_move(pos).ok()
}

/// The UCI text of every legal move of `pos`.
pub fn legal_uci(pos: &Chess) -> Vec<String> {
    pos.legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect()
}

/// Runs `nosce SUBCOMMAND ARGS...` to completion: exit code (−1 if killed), stdout, stderr.
pub fn run_subcommand(subcommand: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nosce"))
        .arg(subcommand)
        .args(args)
        .output()
        .expect("run nosce");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `python3 benches/SCRIPT ARGS...` to completion (the PGN-reading bench scripts).
fn run_bench_script(script: &str, args: &[&std::path::Path]) -> Output {
    Command::new("python3")
        .arg(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("benches")
                .join(script),
        )
        .args(args)
        .output()
        .expect("cannot run python3")
}

/// Runs the PGN-reading bench script `script` on `pgns` (each written to a file of its own
/// in a scratch folder), checks that it succeeds, and returns what it printed. Checks its
/// bad input too: no argument exits 2, a missing file exits 1 naming the script, a file
/// with no scored or timed move exits 1.
pub fn bench_script_on(script: &str, pgns: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!("nosce-{script}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files: Vec<std::path::PathBuf> = pgns
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let f = dir.join(format!("{i}.pgn"));
            std::fs::write(&f, text).unwrap();
            f
        })
        .collect();
    let args: Vec<&std::path::Path> = files.iter().map(|f| f.as_path()).collect();
    let out = run_bench_script(script, &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(run_bench_script(script, &[]).status.code(), Some(2));
    let missing = run_bench_script(script, &[&dir.join("missing.pgn")]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains(&format!("{script}:")));
    let bare = dir.join("bare.pgn");
    std::fs::write(&bare, "[Event \"t\"]\n[White \"a\"]\n\n1. e4 e5 *\n").unwrap();
    assert_eq!(run_bench_script(script, &[&bare]).status.code(), Some(1));
    std::fs::remove_dir_all(&dir).ok();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The line of `name` in a bench script's `engine | ...` table, split at its `|`.
pub fn table_row(out: &str, name: &str) -> Vec<String> {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("{name} |")))
        .unwrap_or_else(|| panic!("no line for {name} in {out}"));
    line.split('|').map(|c| c.trim().to_string()).collect()
}

/// A busy middlegame ("Kiwipete", the perft position).
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The bestmove of `lines` (last line), checked to be legal in `pos`.
pub fn legal_bestmove(e: &mut Engine, lines: &[String], pos: &Chess) -> String {
    let last = lines.last().expect("at least the bestmove line");
    let (best, ponder) = parse_bestmove(last);
    let legal = legal_uci(pos);
    e.check(
        legal.contains(&best),
        &format!("bestmove {best} is not legal in {pos:?}; legal: {legal:?}"),
    );
    if let Some(p) = ponder {
        let after = position_after(
            Some(
                &shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string(),
            ),
            &[&best],
        );
        e.check(
            legal_uci(&after).contains(&p),
            &format!("ponder move {p} is not legal after {best}"),
        );
    }
    best
}

/// Asserts no line in `lines` is a `bestmove`.
pub fn no_bestmove(e: &mut Engine, lines: &[String], when: &str) {
    let bad = lines.iter().any(|l| l.starts_with("bestmove"));
    e.check(!bad, &format!("a bestmove arrived {when}"));
}

/// Sends `release` (`stop`, `ponderhit`) to a search that waits for it, reads its
/// `bestmove` (checked legal in `pos`) and checks that no second one follows within `quiet`.
/// Returns the move and how long it took to come.
pub fn release_search(
    e: &mut Engine,
    release: &str,
    pos: &Chess,
    quiet: Duration,
) -> (String, Duration) {
    let t0 = Instant::now();
    e.send(release);
    let lines = e.read_until("bestmove", QUICK);
    let took = t0.elapsed();
    let best = legal_bestmove(e, &lines, pos);
    let after = e.collect_for(quiet);
    no_bestmove(e, &after, "twice");
    (best, took)
}

/// Exhaustive check: can the side to move force mate within `n` moves? (No pruning; only
/// for small `n`.)
pub fn forces_mate(pos: &Chess, n: u32) -> bool {
    n > 0
        && pos.legal_moves().iter().any(|m| {
            let mut p = pos.clone();
            p.play_unchecked(*m);
            mated_within(&p, n)
        })
}

/// After the attacker's move: is the defender (to move) mated now or within `n - 1` more
/// attacker moves whatever he does?
pub fn mated_within(pos: &Chess, n: u32) -> bool {
    if pos.is_checkmate() {
        return true;
    }
    if n <= 1 || pos.legal_moves().is_empty() || pos.is_insufficient_material() {
        return false;
    }
    pos.legal_moves().iter().all(|r| {
        let mut p = pos.clone();
        p.play_unchecked(*r);
        forces_mate(&p, n - 1)
    })
}

/// A fastchess PGN whose pairs are counted by hand, from "new"'s side: round 1 win + draw
/// (WD), round 2 loss + loss (LL), round 3 win + loss (WL), round 4 one game only (unpaired).
/// Pentanomial [LL, LD, WL+DD, WD, WW] = [1, 0, 1, 1, 0]; W 2 D 1 L 3 over the pairs.
pub fn hand_counted_pairs_pgn() -> String {
    let game = |round: u32, white: &str, black: &str, result: &str| {
        format!(
            "[Event \"Fastchess Tournament\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
             [Black \"{black}\"]\n[Result \"{result}\"]\n\n{result}\n\n"
        )
    };
    [
        game(1, "new", "base", "1-0"),
        game(1, "base", "new", "1/2-1/2"),
        game(2, "base", "new", "1-0"),
        game(2, "new", "base", "0-1"),
        game(3, "new", "base", "1-0"),
        game(3, "base", "new", "1-0"),
        game(4, "new", "base", "1-0"),
    ]
    .concat()
}
