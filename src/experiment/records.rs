//! The sweep's raw data, one row per game (`games.csv`) and one per move (`moves.csv`):
//! everything the tables and figures of Donkers 2003 §5.4.3 are computed from (Tables
//! 5.2–5.4, Figs. 5.10–5.14). A row is identified by (position, s, game); the files are the
//! single source of truth — summaries, plots and the PGN are always rebuilt from them, which
//! is what makes resuming, sharding and merging simple. Timing is the last column of each
//! file (it is the only part that differs between runs with the same seed). A run whose UCI
//! K+Q side draws its node budget per move (`--opp-nodes-spread`) writes `moves.csv` with
//! one more column, `budget` (the drawn budget on K+Q rows), before `time_ms`
//! ([`MOVES_HEADER_BUDGET`]); both forms are read.

use std::fmt::Display;
use std::path::Path;
use std::str::FromStr;

use super::adjudicate::Outcome;

/// Header of `games.csv`.
pub const GAMES_HEADER: &str = "position,spec_depth,game,seed,outcome,length,kq_moves,plies,\
errors_dtm,errors_dtc,thrown,fen,moves,time_s";

/// Header of `moves.csv`.
pub const MOVES_HEADER: &str = "position,spec_depth,game,ply,side,move,san,dtm_before,\
dtc_before,err_dtm,err_dtc,thrown,predicted,correct,value,surplus,depth,nodes,ebf,time_ms";

/// Header of `moves.csv` with per-move budgets.
pub const MOVES_HEADER_BUDGET: &str = "position,spec_depth,game,ply,side,move,san,dtm_before,\
dtc_before,err_dtm,err_dtc,thrown,predicted,correct,value,surplus,depth,nodes,ebf,budget,\
time_ms";

/// The header of `moves.csv`, with or without the `budget` column.
pub fn moves_header(budget: bool) -> &'static str {
    if budget {
        MOVES_HEADER_BUDGET
    } else {
        MOVES_HEADER
    }
}

/// A game's identity: (position id, speculative depth, game index).
pub type GameKey = (usize, usize, usize);

/// One game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// Position id (1-based).
    pub position: usize,
    /// Speculative depth s.
    pub spec_depth: usize,
    /// Game index (0-based).
    pub game: usize,
    /// The game's perturbation seed.
    pub seed: u64,
    /// How it ended.
    pub outcome: Outcome,
    /// Length as the thesis counts it (K+Q moves to conversion; 51 otherwise).
    pub length: usize,
    /// K+Q moves played.
    pub kq_moves: usize,
    /// Plies played.
    pub plies: usize,
    /// K+Q moves with a DTM error > 0.
    pub errors_dtm: usize,
    /// K+Q moves with a DTC error > 0.
    pub errors_dtc: usize,
    /// K+Q moves that threw the win away (0 or 1).
    pub thrown: usize,
    /// Start position.
    pub fen: String,
    /// The moves in UCI notation, space separated.
    pub moves: String,
    /// Wall time (s).
    pub time_s: f64,
}

impl GameRow {
    /// A game's row from its move rows (one per ply played, in order): the plies, the move
    /// list, the K+Q moves, errors by DTM and DTC, thrown wins and the thesis' length (which
    /// depends on `outcome`) all come from `rows`.
    pub fn from_moves(
        (position, spec_depth, game): GameKey,
        seed: u64,
        outcome: Outcome,
        fen: String,
        rows: &[MoveRow],
        time_s: f64,
    ) -> Self {
        let kq_rows = || rows.iter().filter(|r| r.kq);
        let kq_moves = kq_rows().count();
        GameRow {
            position,
            spec_depth,
            game,
            seed,
            outcome,
            length: super::adjudicate::thesis_length(outcome, kq_moves),
            kq_moves,
            plies: rows.len(),
            errors_dtm: kq_rows()
                .filter(|r| r.err_dtm.is_some_and(|e| e > 0))
                .count(),
            errors_dtc: kq_rows()
                .filter(|r| r.err_dtc.is_some_and(|e| e > 0))
                .count(),
            thrown: kq_rows().filter(|r| r.thrown).count(),
            fen,
            moves: rows
                .iter()
                .map(|r| r.mv.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            time_s,
        }
    }

    /// The row's identity.
    pub fn key(&self) -> GameKey {
        (self.position, self.spec_depth, self.game)
    }
}

/// Which side moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The K+Q side (the fallible opponent).
    Kq,
    /// The K+R side (tables, OM search).
    Kr,
}

/// One move.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MoveRow {
    /// Position id.
    pub position: usize,
    /// Speculative depth.
    pub spec_depth: usize,
    /// Game index.
    pub game: usize,
    /// Ply in the game (1-based).
    pub ply: usize,
    /// True for a K+Q move.
    pub kq: bool,
    /// The move (UCI).
    pub mv: String,
    /// The move (SAN).
    pub san: String,
    /// DTM before the move (plies).
    pub dtm_before: Option<u16>,
    /// DTC before the move (plies).
    pub dtc_before: Option<u16>,
    /// Moves lost by DTM (`None` if the move threw the result away).
    pub err_dtm: Option<u32>,
    /// Moves lost by DTC.
    pub err_dtc: Option<u32>,
    /// The move threw the win away.
    pub thrown: bool,
    /// K+Q rows: the reply the K+R side predicted.
    pub predicted: Option<String>,
    /// K+Q rows: whether the prediction was right.
    pub correct: Option<bool>,
    /// Search value (side to move's view, cp).
    pub value: Option<i32>,
    /// K+R rows: prediction surplus in moves (see `player::prediction_surplus`).
    pub surplus: Option<f64>,
    /// Depth reached.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Effective branching factor, `nodes^(1/depth)`.
    pub ebf: Option<f64>,
    /// K+Q rows: the node budget drawn for the move (UCI side with a spread).
    pub budget: Option<u64>,
    /// Time (ms).
    pub time_ms: Option<f64>,
}

impl MoveRow {
    /// The game it belongs to.
    pub fn key(&self) -> GameKey {
        (self.position, self.spec_depth, self.game)
    }
}

fn opt<T: Display>(v: &Option<T>) -> String {
    v.as_ref().map_or_else(String::new, ToString::to_string)
}

fn fmt_f(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(String::new, |x| format!("{x:.digits$}"))
}

fn parse<T: FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("bad {what} '{s}'"))
}

fn parse_opt<T: FromStr>(s: &str, what: &str) -> Result<Option<T>, String> {
    if s.is_empty() {
        Ok(None)
    } else {
        parse(s, what).map(Some)
    }
}

fn bit(b: bool) -> &'static str {
    if b { "1" } else { "0" }
}

impl GameRow {
    /// The CSV line (without newline).
    pub fn to_csv(&self) -> String {
        format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{:.3}",
            self.position,
            self.spec_depth,
            self.game,
            self.seed,
            self.outcome,
            self.length,
            self.kq_moves,
            self.plies,
            self.errors_dtm,
            self.errors_dtc,
            self.thrown,
            self.fen,
            self.moves,
            self.time_s
        )
    }

    /// Parses [`GameRow::to_csv`].
    pub fn from_csv(line: &str) -> Result<Self, String> {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 14 {
            return Err(format!("games.csv: expected 14 fields, got {}", f.len()));
        }
        Ok(GameRow {
            position: parse(f[0], "position")?,
            spec_depth: parse(f[1], "spec_depth")?,
            game: parse(f[2], "game")?,
            seed: parse(f[3], "seed")?,
            outcome: Outcome::from_name(f[4]).ok_or(format!("bad outcome '{}'", f[4]))?,
            length: parse(f[5], "length")?,
            kq_moves: parse(f[6], "kq_moves")?,
            plies: parse(f[7], "plies")?,
            errors_dtm: parse(f[8], "errors_dtm")?,
            errors_dtc: parse(f[9], "errors_dtc")?,
            thrown: parse(f[10], "thrown")?,
            fen: f[11].to_string(),
            moves: f[12].to_string(),
            time_s: parse(f[13], "time_s")?,
        })
    }
}

impl MoveRow {
    /// The CSV line (without newline); with `budget`, the form of [`MOVES_HEADER_BUDGET`].
    pub fn to_csv(&self, budget: bool) -> String {
        let budget = if budget {
            format!("{},", opt(&self.budget))
        } else {
            String::new()
        };
        format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}{}",
            self.position,
            self.spec_depth,
            self.game,
            self.ply,
            if self.kq { "kq" } else { "kr" },
            self.mv,
            self.san,
            opt(&self.dtm_before),
            opt(&self.dtc_before),
            opt(&self.err_dtm),
            opt(&self.err_dtc),
            bit(self.thrown),
            self.predicted.clone().unwrap_or_default(),
            self.correct.map_or("", bit),
            opt(&self.value),
            fmt_f(self.surplus, 1),
            opt(&self.depth),
            opt(&self.nodes),
            fmt_f(self.ebf, 3),
            budget,
            fmt_f(self.time_ms, 1)
        )
    }

    /// Parses [`MoveRow::to_csv`] (either form: 20 fields, or 21 with the budget).
    pub fn from_csv(line: &str) -> Result<Self, String> {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 20 && f.len() != 21 {
            return Err(format!(
                "moves.csv: expected 20 or 21 fields, got {}",
                f.len()
            ));
        }
        let (budget, time) = if f.len() == 21 {
            (parse_opt(f[19], "budget")?, f[20])
        } else {
            (None, f[19])
        };
        let flag = |s: &str, what: &str| match s {
            "1" => Ok(true),
            "0" => Ok(false),
            _ => Err(format!("bad {what} '{s}'")),
        };
        Ok(MoveRow {
            position: parse(f[0], "position")?,
            spec_depth: parse(f[1], "spec_depth")?,
            game: parse(f[2], "game")?,
            ply: parse(f[3], "ply")?,
            kq: match f[4] {
                "kq" => true,
                "kr" => false,
                s => return Err(format!("bad side '{s}'")),
            },
            mv: f[5].to_string(),
            san: f[6].to_string(),
            dtm_before: parse_opt(f[7], "dtm_before")?,
            dtc_before: parse_opt(f[8], "dtc_before")?,
            err_dtm: parse_opt(f[9], "err_dtm")?,
            err_dtc: parse_opt(f[10], "err_dtc")?,
            thrown: flag(f[11], "thrown")?,
            predicted: Some(f[12].to_string()).filter(|s| !s.is_empty()),
            correct: if f[13].is_empty() {
                None
            } else {
                Some(flag(f[13], "correct")?)
            },
            value: parse_opt(f[14], "value")?,
            surplus: parse_opt(f[15], "surplus")?,
            depth: parse_opt(f[16], "depth")?,
            nodes: parse_opt(f[17], "nodes")?,
            ebf: parse_opt(f[18], "ebf")?,
            budget,
            time_ms: parse_opt(time, "time_ms")?,
        })
    }
}

/// Reads a CSV file of rows (missing file: no rows). The header must be one of `headers`.
pub fn read_rows<T>(
    path: &Path,
    headers: &[&str],
    parse_line: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read '{}': {e}", path.display())),
    };
    let mut lines = text.lines();
    match lines.next() {
        None => return Ok(Vec::new()),
        Some(h) if headers.contains(&h.trim()) => {}
        Some(_) => {
            return Err(format!(
                "'{}' has another header (written by another version?)",
                path.display()
            ));
        }
    }
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        // A line cut short by an interrupted run is dropped (its game is replayed).
        match parse_line(line) {
            Ok(r) => out.push(r),
            Err(e) => {
                if i + 2 < text.lines().count() {
                    return Err(format!("'{}' line {}: {e}", path.display(), i + 2));
                }
            }
        }
    }
    Ok(out)
}

/// Reads `games.csv`.
pub fn read_games(path: &Path) -> Result<Vec<GameRow>, String> {
    read_rows(path, &[GAMES_HEADER], GameRow::from_csv)
}

/// Reads `moves.csv`.
pub fn read_moves(path: &Path) -> Result<Vec<MoveRow>, String> {
    read_rows(
        path,
        &[MOVES_HEADER, MOVES_HEADER_BUDGET],
        MoveRow::from_csv,
    )
}

/// Writes rows with a header, atomically (temporary file, then rename).
pub fn write_rows(path: &Path, header: &str, lines: &[String]) -> Result<(), String> {
    let mut text = String::with_capacity(lines.len() * 96 + header.len() + 1);
    text.push_str(header);
    text.push('\n');
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    write_atomic(path, &text)
}

/// Writes a file atomically.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write '{}': {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip() {
        let m = MoveRow {
            position: 2,
            spec_depth: 3,
            game: 4,
            ply: 7,
            kq: true,
            mv: "a8b7".into(),
            san: "Kb7".into(),
            dtm_before: Some(69),
            dtc_before: Some(61),
            err_dtm: Some(1),
            err_dtc: None,
            thrown: false,
            predicted: Some("a8b7".into()),
            correct: Some(true),
            value: Some(-31_000),
            surplus: Some(1.5),
            depth: Some(6),
            nodes: Some(1234),
            ebf: Some(3.25),
            budget: None,
            time_ms: Some(12.5),
        };
        assert_eq!(MoveRow::from_csv(&m.to_csv(false)), Ok(m.clone()));
        assert_eq!(MoveRow::from_csv(&m.to_csv(true)), Ok(m.clone()));
        let b = MoveRow {
            budget: Some(1500),
            ..m
        };
        assert_eq!(MoveRow::from_csv(&b.to_csv(true)), Ok(b));
        let g = GameRow {
            position: 1,
            spec_depth: 0,
            game: 3,
            seed: 99,
            outcome: Outcome::Fifty,
            length: 51,
            kq_moves: 50,
            plies: 100,
            errors_dtm: 12,
            errors_dtc: 10,
            thrown: 0,
            fen: "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1".into(),
            moves: "a8b7 e8e7".into(),
            time_s: 1.5,
        };
        assert_eq!(GameRow::from_csv(&g.to_csv()), Ok(g));
        assert_eq!(GAMES_HEADER.split(',').count(), 14);
        assert_eq!(MOVES_HEADER.split(',').count(), 20);
        assert_eq!(MOVES_HEADER_BUDGET.split(',').count(), 21);
    }
}
