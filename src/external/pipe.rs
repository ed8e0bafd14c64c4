//! The process side of an external engine, whatever its protocol: starting the program with
//! piped stdin/stdout, a reader thread per process that forwards stdout line by line into a
//! channel, writing lines, waiting for a line against a deadline and a stop flag, draining
//! an answer the engine still owes after the caller stopped waiting for it, and `quit` (then
//! a kill) on drop. [`super::process`] (UCI) and [`super::cecp`] (xboard) speak their
//! protocols over it.
//!
//! Every wait is a `recv_timeout` against a deadline, in slices of at most [`POLL`] when a
//! stop flag has to be watched. An engine that is abandoned mid-answer owes a line (UCI's
//! `bestmove`, xboard's `move`): the next call first drains lines up to it, allowing
//! [`RESYNC`] from the moment the engine was asked to answer; one that lets that pass is
//! [`ErrorKind::Unresponsive`] and refuses all further work.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError, channel};
use std::time::{Duration, Instant};

use super::{EngineCommand, ErrorKind};

/// The longest slice of a wait that watches a stop flag.
const POLL: Duration = Duration::from_millis(5);
/// How long an engine may take to answer `stop` (`?` in xboard) or an abandoned sync.
pub const RESYNC: Duration = Duration::from_secs(1);
/// How long `Drop` waits for the process to obey `quit` before killing it.
const QUIT_WAIT: Duration = Duration::from_secs(1);

/// Why a wait for a line ended without one.
pub enum Interrupt {
    /// The output closed: the process exited.
    Exited,
    /// The deadline passed.
    Deadline,
    /// The stop flag was set.
    Stopped,
}

/// An answer the engine still owes after the caller stopped waiting for it.
#[derive(Clone, Copy, Debug)]
pub struct Pending {
    /// The first word of the line that settles it (`bestmove`, `readyok`, `move`, `pong`).
    pub token: &'static str,
    /// When the engine is considered hung if it has not come.
    pub by: Instant,
}

/// One running engine process (see the module docs).
pub struct Pipe {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The answer still owed, if any.
    pub pending: Option<Pending>,
    /// Set for good once the process exited or hung: every later call fails with it.
    pub broken: Option<ErrorKind>,
}

/// Forwards `out` line by line (lossily decoded, without the line end) until it closes.
fn forward_lines(out: impl Read, tx: Sender<String>) {
    let mut reader = BufReader::new(out);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                if tx.send(line).is_err() {
                    return;
                }
            }
        }
    }
}

/// The first word of `line`.
pub fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

impl Pipe {
    /// Starts `cmd` (its stderr discarded) with a reader thread on its stdout.
    ///
    /// # Errors
    /// Why it could not be started.
    pub fn spawn(cmd: &EngineCommand) -> Result<Self, String> {
        let mut child = Command::new(&cmd.program)
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run '{cmd}': {e}"))?;
        let (tx, lines) = channel();
        let pipes = (child.stdin.take(), child.stdout.take());
        let spawned = match pipes {
            (Some(stdin), Some(stdout)) => std::thread::Builder::new()
                .name("engine-reader".into())
                .spawn(move || forward_lines(stdout, tx))
                .map(|_| stdin)
                .map_err(|e| format!("cannot start a reader thread: {e}")),
            _ => Err("no pipes to the process".to_string()),
        };
        match spawned {
            Ok(stdin) => Ok(Pipe {
                child,
                stdin,
                lines,
                pending: None,
                broken: None,
            }),
            Err(m) => {
                let _ = child.kill();
                let _ = child.wait();
                Err(m)
            }
        }
    }

    /// True while the process runs and can still be used (it has not exited or hung).
    pub fn is_alive(&mut self) -> bool {
        self.broken.is_none() && matches!(self.child.try_wait(), Ok(None))
    }

    /// Kills the process at once (no `quit`) and reaps it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Writes one line; a write to a dead process gives `Exited`.
    ///
    /// # Errors
    /// `Exited`, or the kind the pipe broke with before.
    pub fn send(&mut self, line: &str) -> Result<(), ErrorKind> {
        if let Some(k) = &self.broken {
            return Err(k.clone());
        }
        let written = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        written.map_err(|_| {
            self.broken = Some(ErrorKind::Exited);
            ErrorKind::Exited
        })
    }

    /// The next line of output before `deadline`, giving up early when `stop` is set.
    /// Lines already received are returned even after the deadline.
    ///
    /// # Errors
    /// Why no line came.
    pub fn next_line(
        &mut self,
        deadline: Instant,
        stop: Option<&AtomicBool>,
    ) -> Result<String, Interrupt> {
        loop {
            match self.lines.try_recv() {
                Ok(line) => return Ok(line),
                Err(TryRecvError::Disconnected) => return Err(self.exited()),
                Err(TryRecvError::Empty) => {}
            }
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(Interrupt::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Interrupt::Deadline);
            }
            let slice = if stop.is_some() {
                (deadline - now).min(POLL)
            } else {
                deadline - now
            };
            match self.lines.recv_timeout(slice) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Notes that the output closed.
    fn exited(&mut self) -> Interrupt {
        self.broken = Some(ErrorKind::Exited);
        Interrupt::Exited
    }

    /// Skips lines until one whose first word is `token`.
    ///
    /// # Errors
    /// Why it did not come.
    pub fn wait_token(
        &mut self,
        token: &str,
        deadline: Instant,
        stop: Option<&AtomicBool>,
    ) -> Result<(), Interrupt> {
        loop {
            if first_word(&self.next_line(deadline, stop)?) == token {
                return Ok(());
            }
        }
    }

    /// Drains the answer the engine still owes, if any, waiting until the earlier of the
    /// caller's `deadline` and the time the engine had to answer by.
    ///
    /// # Errors
    /// `Exited`, `Stopped`, `Unresponsive` (the engine let its time pass; the pipe is broken
    /// for good), `Timeout` (the caller's deadline came first), or the kind the pipe broke
    /// with before.
    pub fn resync(
        &mut self,
        deadline: Instant,
        stop: Option<&AtomicBool>,
    ) -> Result<(), ErrorKind> {
        if let Some(k) = &self.broken {
            return Err(k.clone());
        }
        let Some(p) = self.pending else {
            return Ok(());
        };
        match self.wait_token(p.token, deadline.min(p.by), stop) {
            Ok(()) => {
                self.pending = None;
                Ok(())
            }
            Err(Interrupt::Exited) => Err(ErrorKind::Exited),
            Err(Interrupt::Stopped) => Err(ErrorKind::Stopped),
            Err(Interrupt::Deadline) if Instant::now() >= p.by => {
                self.broken = Some(ErrorKind::Unresponsive);
                Err(ErrorKind::Unresponsive)
            }
            Err(Interrupt::Deadline) => Err(ErrorKind::Timeout),
        }
    }

    /// Whether a query about `pos` may be sent at all: the position has a legal move, the
    /// pipe is not broken, the caller's stop flag is not set.
    ///
    /// # Errors
    /// `NoLegalMove`, the kind the pipe broke with, or `Stopped`.
    pub fn may_ask(
        &self,
        pos: &crate::position::Position,
        stop: &AtomicBool,
    ) -> Result<(), ErrorKind> {
        if pos.legal_moves().is_empty() {
            return Err(ErrorKind::NoLegalMove);
        }
        if let Some(k) = &self.broken {
            return Err(k.clone());
        }
        if stop.load(Ordering::Relaxed) {
            return Err(ErrorKind::Stopped);
        }
        Ok(())
    }

    /// Leaves a search the caller no longer waits for: sends `interrupt` (UCI `stop`, xboard
    /// `?`) and notes that a line starting with `token` is owed within [`RESYNC`].
    pub fn abandon(&mut self, interrupt: &str, token: &'static str) {
        let _ = self.send(interrupt);
        self.pending = Some(Pending {
            token,
            by: Instant::now() + RESYNC,
        });
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(None)) {
            return;
        }
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + QUIT_WAIT;
        while Instant::now() < deadline {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
