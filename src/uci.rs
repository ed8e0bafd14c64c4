//! The UCI front-end: parses input lines into [`UciCommand`]s and formats the engine's
//! output; everything else is the [`Engine`]'s business.
//!
//! We use a small tokenizer of our own rather than `vampirc-uci`: as published that crate
//! panics on a `go` line with trailing whitespace and on `go depth 300`, drops `0000` from
//! move lists and rejects FENs without move counters. Our parser never panics: every
//! malformed line becomes an `info string error: ...` and the engine keeps its state.
//! `isready` is answered at once, also during a search; end of input means `quit`.

use std::io::{BufRead, Write};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use shakmaty::{Color, Move};

use crate::engine::Engine;
use crate::engine::option_table::OPTIONS;
use crate::limits::Limits;
use crate::options::{OptionKind, OptionSpec};
use crate::position::uci_in;
use crate::report::{OmReport, Reporter, ScoreBound, SearchInfo};
use crate::score::{is_mate, mate_moves};

/// Parameters of a `go` command, as given (times in milliseconds, possibly negative).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `searchmoves` (UCI text, validated later against the position).
    pub searchmoves: Vec<String>,
    /// `ponder`.
    pub ponder: bool,
    /// `wtime`.
    pub wtime: Option<i64>,
    /// `btime`.
    pub btime: Option<i64>,
    /// `winc`.
    pub winc: Option<i64>,
    /// `binc`.
    pub binc: Option<i64>,
    /// `movestogo`.
    pub movestogo: Option<u32>,
    /// `depth`.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `mate`.
    pub mate: Option<u32>,
    /// `movetime`.
    pub movetime: Option<i64>,
    /// `infinite`.
    pub infinite: bool,
    /// Problems found while parsing (the search still starts).
    pub warnings: Vec<String>,
}

/// One line of UCI input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// `uci`
    Uci,
    /// `debug on|off`
    Debug(bool),
    /// `isready`
    IsReady,
    /// `setoption name N [value V]`
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// Value, if given.
        value: Option<String>,
    },
    /// `register ...` (accepted and ignored).
    Register,
    /// `ucinewgame`
    UciNewGame,
    /// `position startpos|fen F [moves ...]`
    Position {
        /// The FEN, or `None` for the start position.
        fen: Option<String>,
        /// Moves in UCI notation.
        moves: Vec<String>,
    },
    /// `go ...`
    Go(GoParams),
    /// `stop`
    Stop,
    /// `ponderhit`
    PonderHit,
    /// `quit`
    Quit,
    /// `d` (non-standard): print the position.
    Display,
    /// An empty line.
    Empty,
}

/// Parses a number that may be out of range: saturates instead of failing.
fn parse_saturating(tok: Option<&&str>, what: &str) -> Result<i64, String> {
    let Some(t) = tok else {
        return Err(format!("'{what}' needs a number"));
    };
    if let Ok(v) = t.parse::<i64>() {
        return Ok(v);
    }
    let digits = t.strip_prefix('-').unwrap_or(t);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(if t.starts_with('-') {
            i64::MIN
        } else {
            i64::MAX
        });
    }
    Err(format!("'{what} {t}': not a valid number"))
}

fn parse_go(tokens: &[&str]) -> GoParams {
    const KEYWORDS: [&str; 12] = [
        "searchmoves",
        "ponder",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
        "infinite",
    ];
    let mut g = GoParams::default();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let next = tokens.get(i + 1);
        let mut used = 2;
        let r: Result<(), String> = match key {
            "searchmoves" => {
                let mut j = i + 1;
                while j < tokens.len() && !KEYWORDS.contains(&tokens[j]) {
                    g.searchmoves.push(tokens[j].to_string());
                    j += 1;
                }
                used = j - i;
                Ok(())
            }
            "ponder" => {
                g.ponder = true;
                used = 1;
                Ok(())
            }
            "infinite" => {
                g.infinite = true;
                used = 1;
                Ok(())
            }
            "wtime" => parse_saturating(next, key).map(|v| g.wtime = Some(v)),
            "btime" => parse_saturating(next, key).map(|v| g.btime = Some(v)),
            "winc" => parse_saturating(next, key).map(|v| g.winc = Some(v)),
            "binc" => parse_saturating(next, key).map(|v| g.binc = Some(v)),
            "movetime" => parse_saturating(next, key).map(|v| g.movetime = Some(v)),
            "movestogo" => {
                parse_saturating(next, key).map(|v| g.movestogo = Some(v.clamp(0, 10_000) as u32))
            }
            "depth" => {
                parse_saturating(next, key).map(|v| g.depth = Some(v.clamp(1, 10_000) as u32))
            }
            "mate" => parse_saturating(next, key).map(|v| g.mate = Some(v.clamp(1, 10_000) as u32)),
            "nodes" => parse_saturating(next, key).map(|v| g.nodes = Some(v.max(1) as u64)),
            other => {
                used = 1;
                Err(format!("unknown go parameter '{other}'"))
            }
        };
        if let Err(e) = r {
            g.warnings.push(e);
            // A missing or bad value: skip only the keyword when the next token is one.
            if next.is_none_or(|n| KEYWORDS.contains(n)) {
                used = 1;
            }
        }
        i += used.max(1);
    }
    g
}

impl FromStr for UciCommand {
    type Err = String;

    fn from_str(line: &str) -> Result<Self, String> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = tokens.first() else {
            return Ok(UciCommand::Empty);
        };
        let rest = &tokens[1..];
        match first {
            "uci" => Ok(UciCommand::Uci),
            "isready" => Ok(UciCommand::IsReady),
            "ucinewgame" => Ok(UciCommand::UciNewGame),
            "stop" => Ok(UciCommand::Stop),
            "ponderhit" => Ok(UciCommand::PonderHit),
            "quit" => Ok(UciCommand::Quit),
            "register" => Ok(UciCommand::Register),
            "d" => Ok(UciCommand::Display),
            "debug" => match rest.first() {
                Some(&"on") | None => Ok(UciCommand::Debug(true)),
                Some(&"off") => Ok(UciCommand::Debug(false)),
                Some(x) => Err(format!("debug takes 'on' or 'off', not '{x}'")),
            },
            "setoption" => {
                if rest.first() != Some(&"name") {
                    return Err("setoption needs 'name <id> [value <x>]'".into());
                }
                let vpos = rest.iter().position(|t| *t == "value");
                let name_end = vpos.unwrap_or(rest.len());
                let name = rest[1..name_end].join(" ");
                if name.is_empty() {
                    return Err("setoption: missing option name".into());
                }
                let value = vpos.map(|v| rest[v + 1..].join(" "));
                Ok(UciCommand::SetOption { name, value })
            }
            "position" => {
                let mpos = rest.iter().position(|t| *t == "moves");
                let head = &rest[..mpos.unwrap_or(rest.len())];
                let moves: Vec<String> = mpos
                    .map(|m| rest[m + 1..].iter().map(|s| s.to_string()).collect())
                    .unwrap_or_default();
                let fen = match head.first() {
                    Some(&"startpos") if head.len() == 1 => None,
                    Some(&"startpos") => {
                        return Err(format!("position startpos: unexpected '{}'", head[1]));
                    }
                    Some(&"fen") if head.len() > 1 => Some(head[1..].join(" ")),
                    Some(&"fen") => return Err("position fen: missing FEN".into()),
                    Some(x) => {
                        return Err(format!("position needs 'startpos' or 'fen', not '{x}'"));
                    }
                    None => return Err("position needs 'startpos' or 'fen'".into()),
                };
                Ok(UciCommand::Position { fen, moves })
            }
            "go" => Ok(UciCommand::Go(parse_go(rest))),
            other => Err(format!("unknown command '{other}'")),
        }
    }
}

fn ms(v: i64) -> Duration {
    Duration::from_millis(v.max(0) as u64)
}

/// Turns `go` parameters into [`Limits`] for the side to move, validating `searchmoves`.
pub fn go_to_limits(g: &GoParams, engine: &Engine) -> (Limits, Vec<String>) {
    let pos = engine.position();
    let mut warnings = g.warnings.clone();
    let white = pos.turn() == Color::White;
    let ((time, inc), (opp_time, opp_inc)) = if white {
        ((g.wtime, g.winc), (g.btime, g.binc))
    } else {
        ((g.btime, g.binc), (g.wtime, g.winc))
    };
    let mut searchmoves: Vec<Move> = Vec::new();
    for t in &g.searchmoves {
        match pos.parse_uci(t) {
            Ok(m) => searchmoves.push(m),
            Err(e) => warnings.push(format!("searchmoves: {e}")),
        }
    }
    let limits = Limits {
        depth: g.depth,
        nodes: g.nodes,
        movetime: g.movetime.map(ms),
        mate: g.mate,
        time: time.map(ms),
        inc: inc.map(ms),
        movestogo: g.movestogo.filter(|&m| m > 0),
        infinite: g.infinite,
        ponder: g.ponder,
        analysis: false,
        searchmoves,
        opponent_time: opp_time.map(ms),
        opponent_inc: opp_inc.map(ms),
        game_clocks: None,
    };
    (limits, warnings)
}

/// Writes UCI output lines to standard output, one locked write per line.
pub struct UciReporter {
    out: Mutex<Box<dyn Write + Send>>,
    show_wdl: bool,
    chess960: bool,
}

impl UciReporter {
    /// A reporter writing to `out`: WDL in info lines if `show_wdl`, castling as the king
    /// taking its rook if `chess960`.
    pub fn new(out: Box<dyn Write + Send>, show_wdl: bool, chess960: bool) -> Self {
        UciReporter {
            out: Mutex::new(out),
            show_wdl,
            chess960,
        }
    }

    /// Writes one line and flushes.
    pub fn line(&self, text: &str) {
        let mut out = self.out.lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// Formats an info line in UCI syntax.
pub fn format_info(info: &SearchInfo, show_wdl: bool, chess960: bool) -> String {
    let score = if is_mate(info.score) {
        format!("mate {}", mate_moves(info.score))
    } else {
        format!("cp {}", info.score)
    };
    let bound = match info.bound {
        ScoreBound::Exact => "",
        ScoreBound::Lower => " lowerbound",
        ScoreBound::Upper => " upperbound",
    };
    let wdl = if show_wdl {
        format!(" wdl {} {} {}", info.wdl[0], info.wdl[1], info.wdl[2])
    } else {
        String::new()
    };
    let pv: Vec<String> = info.pv.iter().map(|&m| uci_in(m, chess960)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {} hashfull {} tbhits {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.nodes,
        info.nps,
        info.hashfull,
        info.tbhits,
        info.time.as_millis(),
        pv.join(" ")
    )
}

impl Reporter for UciReporter {
    fn info(&self, info: &SearchInfo) {
        self.line(&format_info(info, self.show_wdl, self.chess960));
    }

    fn currmove(&self, depth: u32, mv: Move, number: usize) {
        self.line(&format!(
            "info depth {depth} currmove {} currmovenumber {number}",
            uci_in(mv, self.chess960)
        ));
    }

    fn message(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }

    fn om_iteration(&self, report: &OmReport) {
        if report.predicted.is_some() {
            self.message(&report.line(self.chess960));
        }
    }

    fn bestmove(&self, best: Option<Move>, ponder: Option<Move>) {
        let b = best.map_or_else(|| "0000".to_string(), |m| uci_in(m, self.chess960));
        match ponder {
            Some(p) => self.line(&format!("bestmove {b} ponder {}", uci_in(p, self.chess960))),
            None => self.line(&format!("bestmove {b}")),
        }
    }
}

fn option_line(spec: &OptionSpec) -> String {
    match &spec.kind {
        OptionKind::Spin { default, min, max } => {
            format!(
                "option name {} type spin default {default} min {min} max {max}",
                spec.name
            )
        }
        OptionKind::Check { default } => {
            format!("option name {} type check default {default}", spec.name)
        }
        OptionKind::Combo { default, vars } => {
            let vars: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
            format!(
                "option name {} type combo default {default} {}",
                spec.name,
                vars.join(" ")
            )
        }
        OptionKind::Str { default } => {
            let d = if default.is_empty() {
                "<empty>"
            } else {
                default
            };
            format!("option name {} type string default {d}", spec.name)
        }
        OptionKind::Button => format!("option name {} type button", spec.name),
    }
}

/// The next line of `input` (bytes that are not UTF-8 replaced, so that the command's
/// parser reports them), or `None` at the end of input or on a read error.
pub fn read_line_lossy(input: &mut dyn BufRead) -> Option<String> {
    let mut buf = Vec::new();
    match input.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(&buf).into_owned()),
    }
}

/// Runs the UCI loop on `input` until `quit` or end of input. `first` is a line already
/// read (the one that chose the protocol).
pub fn run(engine: &mut Engine, first: Option<String>, input: &mut dyn BufRead) {
    let out = Arc::new(UciReporter::new(Box::new(std::io::stdout()), false, false));
    let mut debug = false;
    let mut pending = first;
    loop {
        let line = match pending.take() {
            Some(l) => l,
            None => match read_line_lossy(input) {
                Some(l) => l,
                None => break,
            },
        };
        let cmd = match line.parse::<UciCommand>() {
            Ok(c) => c,
            Err(e) => {
                out.line(&format!("info string error: {e}"));
                continue;
            }
        };
        match cmd {
            UciCommand::Empty | UciCommand::Register => {}
            UciCommand::Uci => {
                out.line(&format!("id name {}", crate::NAME_VERSION));
                out.line("id author the nosce developers");
                for spec in OPTIONS.specs() {
                    out.line(&option_line(spec));
                }
                out.line("uciok");
            }
            UciCommand::Debug(on) => debug = on,
            UciCommand::IsReady => out.line("readyok"),
            UciCommand::SetOption { name, value } => {
                match engine.set_option(&name, value.as_deref()) {
                    Ok(Some(msg)) => out.line(&format!("info string {msg}")),
                    Ok(None) => {
                        if debug {
                            out.line(&format!("info string option {name} set"));
                        }
                    }
                    Err(e) => out.line(&format!("info string error: {e}")),
                }
            }
            UciCommand::UciNewGame => engine.new_game(),
            UciCommand::Position { fen, moves } => {
                let mv: Vec<&str> = moves.iter().map(String::as_str).collect();
                if let Err(e) = engine.set_position(fen.as_deref(), &mv) {
                    out.line(&format!("info string error: {e}; position unchanged"));
                }
            }
            UciCommand::Go(g) => {
                let (limits, warnings) = go_to_limits(&g, engine);
                for w in warnings {
                    out.line(&format!("info string error: {w}"));
                }
                let rep = Arc::new(UciReporter::new(
                    Box::new(std::io::stdout()),
                    engine.config().show_wdl,
                    engine.config().chess960,
                ));
                engine.go(limits, rep);
            }
            UciCommand::Stop => engine.stop(),
            UciCommand::PonderHit => engine.ponderhit(),
            UciCommand::Quit => break,
            UciCommand::Display => {
                out.line(&format!("info string fen {}", engine.position().fen()));
            }
        }
    }
    engine.stop();
    engine.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_parsing_is_robust() {
        let UciCommand::Go(g) = "go depth 300 ".parse().unwrap() else {
            panic!()
        };
        assert_eq!(g.depth, Some(300));
        let UciCommand::Go(g) = "go wtime -50 btime 1000 winc x movestogo 99999999999999999999"
            .parse()
            .unwrap()
        else {
            panic!()
        };
        assert_eq!(g.wtime, Some(-50));
        assert_eq!(g.movestogo, Some(10_000));
        assert_eq!(g.warnings.len(), 1);
        let UciCommand::Go(g) = "go searchmoves e2e4 d2d4 infinite".parse().unwrap() else {
            panic!()
        };
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(g.infinite);
        let UciCommand::Go(g) = "go depth".parse().unwrap() else {
            panic!()
        };
        assert_eq!(g.depth, None);
        assert_eq!(g.warnings.len(), 1);
    }

    #[test]
    fn position_and_setoption_parsing() {
        assert_eq!(
            "position startpos moves e2e4 0000"
                .parse::<UciCommand>()
                .unwrap(),
            UciCommand::Position {
                fen: None,
                moves: vec!["e2e4".into(), "0000".into()]
            }
        );
        assert!("position".parse::<UciCommand>().is_err());
        assert!("position fen".parse::<UciCommand>().is_err());
        assert_eq!(
            "setoption name Move Overhead value 100"
                .parse::<UciCommand>()
                .unwrap(),
            UciCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert!("setoption value 3".parse::<UciCommand>().is_err());
        assert!("xyzzy".parse::<UciCommand>().is_err());
        assert_eq!("   ".parse::<UciCommand>().unwrap(), UciCommand::Empty);
    }
}
