//! Other engines (UCI or xboard) driven over pipes, as opponents of the OM search (a MIN node may ask an
//! external engine for its move) and as the fallible side of the KQKR sweep.
//!
//! This module owns everything about talking to another engine process:
//!
//! - [`EngineCommand`] and [`parse_engine_options`]: the command line and the `setoption`
//!   pairs, parsed once from option strings;
//! - [`GoLimit`], [`EngineAnswer`] and [`ExternalError`]: what one query asks, gets back, or
//!   how it failed;
//! - [`UciEngine`]: one running UCI process — handshake, `position`/`go`, `stop`, and the
//!   resynchronisation after an abandoned search (see its docs); [`CecpEngine`] the same for
//!   an xboard (CECP v2) engine, both over one process layer (`pipe`);
//! - [`ManagedEngine`]: an engine started on first use, restarted after a fault within a
//!   per-game budget, disabled when the budget is spent, with answers cached per position.
//!
//! Nothing here may hang or crash nosce: every wait has a deadline, the caller's stop flag is
//! polled every few milliseconds, a dead process gives [`ErrorKind::Exited`] (never a broken
//! pipe panic), and dropping an engine never leaves a zombie behind.

mod cecp;
mod managed;
mod pipe;
mod process;

use std::fmt;
use std::str::FromStr;

use shakmaty::Move;

pub use cecp::CecpEngine;
pub use managed::ManagedEngine;
pub use process::UciEngine;

/// A command line: a program and its arguments, parsed from one string. Words are separated
/// by white space; `"double"` or `'single'` quotes group words (and may be empty, `""`).
/// There is no other shell syntax: no escapes (so Windows paths keep their backslashes), no
/// variables, no redirection.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EngineCommand {
    /// The executable (a path, or a name looked up in `PATH`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
}

impl EngineCommand {
    /// A command without arguments.
    pub fn program(program: impl Into<String>) -> Self {
        EngineCommand {
            program: program.into(),
            args: Vec::new(),
        }
    }
}

impl FromStr for EngineCommand {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let mut words = Vec::new();
        let mut word = String::new();
        let mut in_word = false;
        let mut quote: Option<char> = None;
        for c in s.chars() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => word.push(c),
                None if c == '"' || c == '\'' => {
                    quote = Some(c);
                    in_word = true;
                }
                None if c.is_whitespace() => {
                    if in_word {
                        words.push(std::mem::take(&mut word));
                        in_word = false;
                    }
                }
                None => {
                    word.push(c);
                    in_word = true;
                }
            }
        }
        if let Some(q) = quote {
            return Err(format!("unterminated {q} quote in engine command '{s}'"));
        }
        if in_word {
            words.push(word);
        }
        let mut words = words.into_iter();
        let program = words
            .next()
            .ok_or_else(|| "empty engine command".to_string())?;
        if program.is_empty() {
            return Err(format!("engine command '{s}' has an empty program name"));
        }
        Ok(EngineCommand {
            program,
            args: words.collect(),
        })
    }
}

impl fmt::Display for EngineCommand {
    /// The command line again, quoting words that need it (it parses back to `self`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, w) in std::iter::once(&self.program).chain(&self.args).enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            let plain =
                !w.is_empty() && !w.contains(|c: char| c.is_whitespace() || c == '"' || c == '\'');
            if plain {
                f.write_str(w)?;
            } else if w.contains('"') {
                write!(f, "'{w}'")?;
            } else {
                write!(f, "\"{w}\"")?;
            }
        }
        Ok(())
    }
}

/// Parses `setoption` pairs written as `Name=Value;Name=Value`. Names and values are trimmed,
/// empty items are ignored, the value is everything after the first `=` (it may be empty).
///
/// # Errors
/// A message naming the item that has no `=` or no name.
pub fn parse_engine_options(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    for item in text.split(';').map(str::trim).filter(|i| !i.is_empty()) {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| format!("engine option '{item}' needs the form Name=Value"))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(format!("engine option '{item}' has no name"));
        }
        pairs.push((name.to_string(), value.trim().to_string()));
    }
    Ok(pairs)
}

/// The search limit of one query; displays as the arguments of `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoLimit {
    /// `go nodes N`.
    Nodes(u64),
    /// `go depth N`.
    Depth(u32),
    /// `go movetime N`, in milliseconds.
    MoveTime(u64),
}

impl fmt::Display for GoLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoLimit::Nodes(n) => write!(f, "nodes {n}"),
            GoLimit::Depth(d) => write!(f, "depth {d}"),
            GoLimit::MoveTime(ms) => write!(f, "movetime {ms}"),
        }
    }
}

/// An engine's answer to one query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineAnswer {
    /// The move (legal in the position asked about).
    pub mv: Move,
    /// The last `info depth` seen (0 if none).
    pub depth: u32,
    /// The last `info nodes` seen (0 if none).
    pub nodes: u64,
    /// The last `info score cp`, in centipawns from the engine's side; `None` when the last
    /// score was a mate score or no score came.
    pub score_cp: Option<i32>,
    /// The engine's MultiPV lines (`info ... multipv k ... score ... pv m ...`, UCI engines
    /// with the option `MultiPV` set): each line's first move and score, in the engine's
    /// order (best first), the last report of each line; empty when the engine sent none
    /// (or with xboard engines).
    pub lines: Vec<EngineLine>,
}

/// One MultiPV line of an engine's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineLine {
    /// The line's first move (legal in the position asked about).
    pub mv: Move,
    /// Its score in centipawns from the engine's side; a mate in n is
    /// `±(MATE_CP − n)` ([`MATE_CP`]).
    pub score_cp: i32,
}

/// The centipawn value [`EngineLine`] gives a mate in 0: a mate in n moves is
/// `MATE_CP − n` (being mated, `−(MATE_CP − n)`), beyond every centipawn score.
pub const MATE_CP: i32 = 100_000;

/// What went wrong with an external engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The process could not be started or did not complete the handshake in time.
    Start(String),
    /// The process exited (or closed its pipes).
    Exited,
    /// The caller's deadline passed; the engine was told to stop. Not a fault by itself: the
    /// late `bestmove` is drained by the next call.
    Timeout,
    /// The engine did not answer `stop` (or `isready`) within a second: it hangs.
    Unresponsive,
    /// The engine said something that breaks the protocol, e.g. a `bestmove` that does not
    /// parse, or no move in a position with legal moves.
    Protocol(String),
    /// The engine's move is not legal in the position.
    IllegalMove(String),
    /// The caller's stop flag was set; the engine was told to stop.
    Stopped,
    /// Disabled for the rest of the game after too many faults (the last one is given).
    Disabled(String),
    /// The position has no legal move: there was nothing to ask.
    NoLegalMove,
    /// The query cannot be put in the engine's protocol (xboard has no node limit).
    Unsupported(String),
}

impl ErrorKind {
    /// True for the faults of the engine itself, after which a [`ManagedEngine`] kills the
    /// process and counts a restart: `Start`, `Exited`, `Unresponsive`, `Protocol`,
    /// `IllegalMove`.
    pub fn is_fault(&self) -> bool {
        matches!(
            self,
            ErrorKind::Start(_)
                | ErrorKind::Exited
                | ErrorKind::Unresponsive
                | ErrorKind::Protocol(_)
                | ErrorKind::IllegalMove(_)
        )
    }
}

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// UCI ([`UciEngine`]).
    #[default]
    Uci,
    /// xboard / CECP v2 ([`CecpEngine`]).
    Xboard,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Uci => "UCI",
            Protocol::Xboard => "xboard",
        })
    }
}

/// An error of the external engine named `engine`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalError {
    /// The engine's `id name`, or its program when it never told its name.
    pub engine: String,
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// What happened.
    pub kind: ErrorKind,
}

impl ExternalError {
    /// An error of `kind` for the UCI engine `engine`.
    pub fn new(engine: &str, kind: ErrorKind) -> Self {
        ExternalError {
            engine: engine.to_string(),
            protocol: Protocol::Uci,
            kind,
        }
    }

    /// An error of `kind` for the xboard engine `engine`.
    pub fn xboard(engine: &str, kind: ErrorKind) -> Self {
        ExternalError {
            protocol: Protocol::Xboard,
            ..ExternalError::new(engine, kind)
        }
    }
}

impl fmt::Display for ErrorKind {
    /// What the engine did, as the predicate of a sentence about it ("exited").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Start(m) => write!(f, "did not start: {m}"),
            ErrorKind::Exited => f.write_str("exited"),
            ErrorKind::Timeout => f.write_str("gave no move before the deadline"),
            ErrorKind::Unresponsive => f.write_str("hangs (no answer to stop or isready)"),
            ErrorKind::Protocol(m) => write!(f, "broke the protocol: {m}"),
            ErrorKind::IllegalMove(m) => write!(f, "played the illegal move {m}"),
            ErrorKind::Stopped => f.write_str("was stopped"),
            ErrorKind::Disabled(m) => {
                write!(f, "is disabled until the next game (last fault: {m})")
            }
            ErrorKind::NoLegalMove => {
                f.write_str("was asked to move in a position without legal moves")
            }
            ErrorKind::Unsupported(m) => write!(f, "cannot be asked that: {m}"),
        }
    }
}

impl fmt::Display for ExternalError {
    /// One line naming the engine: "UCI engine 'NAME' exited".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} engine '{}' {}",
            self.protocol, self.engine, self.kind
        )
    }
}

impl std::error::Error for ExternalError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(s: &str) -> Result<EngineCommand, String> {
        s.parse()
    }

    #[test]
    fn command_words_and_quotes() {
        assert_eq!(cmd("stockfish"), Ok(EngineCommand::program("stockfish")));
        let c = cmd("  python3   tests/fake_uci.py  crash-after 1 ").unwrap();
        assert_eq!(c.program, "python3");
        assert_eq!(c.args, ["tests/fake_uci.py", "crash-after", "1"]);
        let c = cmd(r#""C:\Program Files\sf\sf.exe" --x 'a b' "" --y="1 2"z"#).unwrap();
        assert_eq!(c.program, r"C:\Program Files\sf\sf.exe");
        assert_eq!(c.args, ["--x", "a b", "", "--y=1 2z"]);
        // Display quotes what needs it and parses back.
        assert_eq!(cmd(&c.to_string()), Ok(c));
        let q = EngineCommand {
            program: "say".into(),
            args: vec![r#"he said "hi""#.into(), "it's".into()],
        };
        assert_eq!(q.to_string(), r#"say 'he said "hi"' "it's""#);
        assert_eq!(cmd(&q.to_string()), Ok(q));
    }

    #[test]
    fn bad_commands_are_refused_with_a_message() {
        assert_eq!(cmd(""), Err("empty engine command".into()));
        assert_eq!(cmd(" \t "), Err("empty engine command".into()));
        assert!(cmd("\"\" arg").unwrap_err().contains("empty program"));
        assert!(cmd("\"sf").unwrap_err().contains("unterminated \" quote"));
        assert!(cmd("sf 'x").unwrap_err().contains("unterminated ' quote"));
    }

    #[test]
    fn engine_options() {
        let o = parse_engine_options(" Hash = 16 ; Threads=1;;SyzygyPath=/a=b; Clear= ;").unwrap();
        let want = [
            ("Hash", "16"),
            ("Threads", "1"),
            ("SyzygyPath", "/a=b"),
            ("Clear", ""),
        ];
        assert_eq!(
            o,
            want.map(|(k, v)| (k.to_string(), v.to_string())).to_vec()
        );
        assert_eq!(parse_engine_options(""), Ok(Vec::new()));
        assert_eq!(parse_engine_options(" ; ;"), Ok(Vec::new()));
        let e = parse_engine_options("Hash=16;Ponder").unwrap_err();
        assert!(e.contains("'Ponder'") && e.contains("Name=Value"), "{e}");
        assert!(parse_engine_options("=3").unwrap_err().contains("no name"));
    }

    #[test]
    fn go_limits_format_as_go_arguments() {
        assert_eq!(GoLimit::Nodes(2000).to_string(), "nodes 2000");
        assert_eq!(GoLimit::Depth(9).to_string(), "depth 9");
        assert_eq!(GoLimit::MoveTime(150).to_string(), "movetime 150");
    }

    #[test]
    fn errors_name_the_engine_and_know_faults() {
        let e = ExternalError::new("Stockfish 17", ErrorKind::IllegalMove("a1a1".into()));
        assert_eq!(
            e.to_string(),
            "UCI engine 'Stockfish 17' played the illegal move a1a1"
        );
        assert!(e.kind.is_fault());
        for k in [
            ErrorKind::Timeout,
            ErrorKind::Stopped,
            ErrorKind::NoLegalMove,
        ] {
            assert!(!k.is_fault(), "{k:?}");
        }
        assert!(!ErrorKind::Disabled("x".into()).is_fault());
        assert!(ErrorKind::Exited.is_fault() && ErrorKind::Unresponsive.is_fault());
    }
}
