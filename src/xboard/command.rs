//! Parsing of CECP input lines into [`Command`]s (Chess Engine Communication Protocol v2,
//! Tim Mann & H. G. Muller, §8 "Commands from xboard to the engine" and §11 "Time control").
//!
//! Parsing never panics and never looks at the game: a malformed line becomes an
//! [`ParseError`] that the session reports as `Error (<reason>): <line>`, and the engine keeps
//! its state. Moves stay text here; the session checks them against the position.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A conventional or incremental time control: `level MPS BASE INC` (§11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Moves per session (0: the whole game in one session).
    pub mps: u32,
    /// Time of a session.
    pub base: Duration,
    /// Increment per move.
    pub inc: Duration,
}

/// One line of CECP input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty line.
    Empty,
    /// `xboard`
    Xboard,
    /// `protover N`
    Protover(u32),
    /// `accepted FEATURE` / `rejected FEATURE`: the GUI's answer to a feature (ignored).
    FeatureReply,
    /// `new`
    New,
    /// `variant NAME`
    Variant(String),
    /// `quit`
    Quit,
    /// `force`
    Force,
    /// `go`
    Go,
    /// `playother`
    PlayOther,
    /// `level MPS BASE INC`
    Level(Level),
    /// `st SECONDS`: a fixed time per move.
    St(Duration),
    /// `sd DEPTH`
    Sd(u32),
    /// `time N`: the engine's clock, centiseconds (may be negative).
    Time(i64),
    /// `otim N`: the opponent's clock, centiseconds.
    Otim(i64),
    /// `usermove MOVE`, or a bare coordinate move (protocol version 1 style).
    UserMove(String),
    /// `?`: move now.
    MoveNow,
    /// `ping N`
    Ping(i64),
    /// `draw`: a draw offer (declined by ignoring it).
    Draw,
    /// `result RESULT {COMMENT}`
    Result,
    /// `setboard FEN`
    SetBoard(String),
    /// `hint`
    Hint,
    /// `bk`
    Book,
    /// `undo`
    Undo,
    /// `remove`
    Remove,
    /// `hard`: pondering on.
    Hard,
    /// `easy`: pondering off.
    Easy,
    /// `post`: thinking output on.
    Post,
    /// `nopost`: thinking output off.
    NoPost,
    /// `analyze`
    Analyze,
    /// `exit`: leave analyze mode.
    Exit,
    /// `.`: status request in analyze mode (we send none; the spec makes it optional).
    Status,
    /// Commands that carry information the engine does not use: `random`, `ics`, `nps`,
    /// `white`, `black` (the last two are obsolete and not sent with `colors=0`).
    Ignored,
    /// `name X`: the opponent's name (its profile for `OM_Mode=auto`).
    Name(String),
    /// `rating OURS THEIRS`: the ratings (0 = unknown).
    Rating(u32, u32),
    /// `computer`: the opponent is a program.
    Computer,
    /// `memory N` (megabytes for every table).
    Memory(usize),
    /// `cores N`
    Cores(usize),
    /// `egtpath TYPE PATH`
    EgtPath {
        /// Table format (`syzygy`).
        kind: String,
        /// Directory (may contain spaces).
        path: String,
    },
    /// `option NAME[=VALUE]`
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// The value; absent for buttons.
        value: Option<String>,
    },
}

/// Why a line could not be parsed; shown as `Error (<reason>): <line>` or, for a command
/// the engine does not know, `Error (unknown command): <line>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The reason, e.g. `unknown command`, `missing argument`, `bad number`.
    pub reason: String,
}

impl ParseError {
    fn new(reason: impl Into<String>) -> Self {
        ParseError {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

/// True for text shaped like a coordinate move (`e2e4`, `e7e8q`); legality is the
/// session's business.
pub fn looks_like_move(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    match b.len() {
        4 => square(b[0], b[1]) && square(b[2], b[3]),
        5 => square(b[0], b[1]) && square(b[2], b[3]) && b"qrbnk".contains(&b[4]),
        _ => false,
    }
}

/// The longest prefix of `text` that is a non-negative decimal number (digits with at
/// most one point). The spec asks engines to ignore what follows a time (`25+5`).
fn number_prefix(text: &str) -> Option<f64> {
    let mut end = 0;
    let mut point = false;
    for (i, c) in text.char_indices() {
        if c.is_ascii_digit() {
            end = i + 1;
        } else if c == '.' && !point {
            point = true;
        } else {
            break;
        }
    }
    text[..end].parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Seconds as a duration, capped at a year (enough for any clock, and never overflowing).
fn seconds(s: f64) -> Duration {
    Duration::from_secs_f64(s.clamp(0.0, 365.0 * 86_400.0))
}

/// Parses the BASE of a `level` command: minutes (`5`, `0.5`) or `MIN:SEC` (`0:30`).
fn parse_base(text: &str) -> Result<Duration, ParseError> {
    let bad = || ParseError::new("bad time control");
    match text.split_once(':') {
        Some((m, s)) => {
            let m: f64 = if m.is_empty() {
                0.0
            } else {
                m.parse().map_err(|_| bad())?
            };
            let s = number_prefix(s).ok_or_else(bad)?;
            if m < 0.0 || !m.is_finite() {
                return Err(bad());
            }
            Ok(seconds(m * 60.0 + s))
        }
        None => Ok(seconds(number_prefix(text).ok_or_else(bad)? * 60.0)),
    }
}

/// Parses the arguments of `level MPS BASE INC`.
pub fn parse_level(args: &[&str]) -> Result<Level, ParseError> {
    match args.len() {
        0..=2 => return Err(ParseError::new("missing argument")),
        3 => {}
        _ => return Err(ParseError::new("too many parameters")),
    }
    let mps: u32 = args[0]
        .parse()
        .map_err(|_| ParseError::new("bad time control"))?;
    let base = parse_base(args[1])?;
    let inc = number_prefix(args[2]).ok_or_else(|| ParseError::new("bad time control"))?;
    Ok(Level {
        mps,
        base,
        inc: seconds(inc),
    })
}

fn one_arg<'a>(rest: &[&'a str]) -> Result<&'a str, ParseError> {
    match rest {
        [] => Err(ParseError::new("missing argument")),
        [a] => Ok(a),
        _ => Err(ParseError::new("too many parameters")),
    }
}

fn int_arg<T: FromStr>(rest: &[&str]) -> Result<T, ParseError> {
    one_arg(rest)?
        .parse()
        .map_err(|_| ParseError::new("bad number"))
}

/// Everything after the first word of `line`, trimmed.
fn tail(line: &str) -> &str {
    let t = line.trim_start();
    t.find(char::is_whitespace).map_or("", |i| t[i..].trim())
}

impl FromStr for Command {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Self, ParseError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = tokens.first() else {
            return Ok(Command::Empty);
        };
        let rest = &tokens[1..];
        let cmd = match first {
            "xboard" => Command::Xboard,
            "protover" => Command::Protover(int_arg(rest)?),
            "accepted" | "rejected" => Command::FeatureReply,
            "new" => Command::New,
            "variant" => Command::Variant(one_arg(rest)?.to_string()),
            "quit" => Command::Quit,
            "force" => Command::Force,
            "go" => Command::Go,
            "playother" => Command::PlayOther,
            "level" => Command::Level(parse_level(rest)?),
            "st" => {
                let s = number_prefix(one_arg(rest)?)
                    .ok_or_else(|| ParseError::new("bad time control"))?;
                Command::St(seconds(s))
            }
            "sd" => {
                let d: i64 = int_arg(rest)?;
                Command::Sd(d.clamp(1, 1000) as u32)
            }
            "time" => Command::Time(int_arg(rest)?),
            "otim" => Command::Otim(int_arg(rest)?),
            "usermove" => Command::UserMove(one_arg(rest)?.to_string()),
            "?" => Command::MoveNow,
            "ping" => Command::Ping(int_arg(rest)?),
            "draw" => Command::Draw,
            "result" => Command::Result,
            "setboard" => {
                let fen = tail(line);
                if fen.is_empty() {
                    return Err(ParseError::new("missing argument"));
                }
                Command::SetBoard(fen.to_string())
            }
            "hint" => Command::Hint,
            "bk" => Command::Book,
            "undo" => Command::Undo,
            "remove" => Command::Remove,
            "hard" => Command::Hard,
            "easy" => Command::Easy,
            "post" => Command::Post,
            "nopost" => Command::NoPost,
            "analyze" => Command::Analyze,
            "exit" => Command::Exit,
            "." => Command::Status,
            "random" | "ics" | "nps" | "white" | "black" => Command::Ignored,
            "name" => Command::Name(tail(line).trim().to_string()),
            "rating" => match rest {
                [ours, theirs, ..] => Command::Rating(
                    ours.parse()
                        .map_err(|_| ParseError::new("ratings are whole numbers"))?,
                    theirs
                        .parse()
                        .map_err(|_| ParseError::new("ratings are whole numbers"))?,
                ),
                _ => return Err(ParseError::new("rating needs two numbers")),
            },
            "computer" => Command::Computer,
            "memory" => Command::Memory(int_arg(rest)?),
            "cores" => Command::Cores(int_arg(rest)?),
            "egtpath" => {
                let Some(kind) = rest.first() else {
                    return Err(ParseError::new("missing argument"));
                };
                let path = tail(tail(line));
                if path.is_empty() {
                    return Err(ParseError::new("missing argument"));
                }
                Command::EgtPath {
                    kind: kind.to_string(),
                    path: path.to_string(),
                }
            }
            "option" => {
                let spec = tail(line);
                let (name, value) = match spec.split_once('=') {
                    Some((n, v)) => (n.trim(), Some(v.trim().to_string())),
                    None => (spec, None),
                };
                if name.is_empty() {
                    return Err(ParseError::new("missing argument"));
                }
                Command::SetOption {
                    name: name.to_string(),
                    value,
                }
            }
            m if rest.is_empty() && looks_like_move(m) => Command::UserMove(m.to_string()),
            _ => return Err(ParseError::new("unknown command")),
        };
        Ok(cmd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(s: &str) -> Level {
        match s.parse::<Command>() {
            Ok(Command::Level(l)) => l,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn level_in_every_form() {
        let l = level("level 40 5 0");
        assert_eq!(
            (l.mps, l.base, l.inc),
            (40, Duration::from_secs(300), Duration::ZERO)
        );
        let l = level("level 0 2:30 1");
        assert_eq!(
            (l.mps, l.base, l.inc),
            (0, Duration::from_secs(150), Duration::from_secs(1))
        );
        let l = level("level 0 0 3");
        assert_eq!((l.base, l.inc), (Duration::ZERO, Duration::from_secs(3)));
        let l = level("level 0 0:05 0.05");
        assert_eq!(
            (l.base, l.inc),
            (Duration::from_secs(5), Duration::from_millis(50))
        );
        let l = level("level 40 25+5 0");
        assert_eq!(l.base, Duration::from_secs(1500));
        let l = level("level 0 0.5 0");
        assert_eq!(l.base, Duration::from_secs(30));
        for bad in [
            "level",
            "level 40 5",
            "level x 5 0",
            "level 40 y 0",
            "level 40 5 0 1",
        ] {
            assert!(bad.parse::<Command>().is_err(), "{bad}");
        }
    }

    #[test]
    fn commands_and_errors() {
        assert_eq!(
            "usermove e7e8q".parse(),
            Ok(Command::UserMove("e7e8q".into()))
        );
        assert_eq!("e2e4".parse(), Ok(Command::UserMove("e2e4".into())));
        assert_eq!("ping 17".parse(), Ok(Command::Ping(17)));
        assert_eq!(
            "st 0.5".parse(),
            Ok(Command::St(Duration::from_millis(500)))
        );
        assert_eq!("time -20".parse(), Ok(Command::Time(-20)));
        assert_eq!(
            "option OM_Mode=om".parse(),
            Ok(Command::SetOption {
                name: "OM_Mode".into(),
                value: Some("om".into())
            })
        );
        assert_eq!(
            "option Clear Hash".parse(),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            "egtpath syzygy /a b/c".parse(),
            Ok(Command::EgtPath {
                kind: "syzygy".into(),
                path: "/a b/c".into()
            })
        );
        assert_eq!(
            "setboard 8/8/8/8/8/8/8/K1k5 w - - 0 1".parse(),
            Ok(Command::SetBoard("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()))
        );
        assert_eq!("   ".parse(), Ok(Command::Empty));
        for (bad, reason) in [
            ("ping", "missing argument"),
            ("ping x", "bad number"),
            ("sd 3 4", "too many parameters"),
            ("memory -1", "bad number"),
            ("xyzzy", "unknown command"),
            ("e2e4 e7e5", "unknown command"),
            ("setboard", "missing argument"),
        ] {
            assert_eq!(
                bad.parse::<Command>(),
                Err(ParseError::new(reason)),
                "{bad}"
            );
        }
    }
}
