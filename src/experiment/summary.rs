//! `summary.md`: the tables of Donkers 2003 §5.4.3 rebuilt from `games.csv` and `moves.csv`.
//! Table 5.2 (games not converted: 50-move draws, and our other endings), Tables 5.3/5.4
//! (distribution of the opponent's errors in moves lost, and the mean game length, per
//! speculative depth), by DTM beside the thesis' numbers (`thesis-kqkr.csv`) and by DTC; a
//! two-sided Welch t-test of each depth's game lengths against the base case s = 0 (the
//! thesis used a one-sided test per direction); prediction accuracy and surplus (Figs. 5.11,
//! 5.12) and search depth and effective branching factor (Fig. 5.14). Positions are named
//! by their EPD `id`, as `#index id` when ids repeat ([`position_labels`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::adjudicate::Outcome;
use super::config::BROWNE_BELLE;
use super::records::{GameKey, GameRow, MoveRow};
use super::stats::{ci_half_width, mean, welch};

/// Everything measured in one (position, s) cell.
#[derive(Clone, Debug, Default)]
pub struct Cell {
    /// Game lengths (thesis count).
    pub lengths: Vec<f64>,
    /// Endings.
    pub outcomes: BTreeMap<&'static str, usize>,
    /// K+Q moves.
    pub kq_moves: usize,
    /// Histogram of DTM errors (moves lost → count).
    pub err_dtm: BTreeMap<u32, usize>,
    /// Histogram of DTC errors.
    pub err_dtc: BTreeMap<u32, usize>,
    /// K+Q moves that threw the win away.
    pub thrown: usize,
    /// K+Q moves with a prediction, and those predicted correctly.
    pub predicted: (usize, usize),
    /// Prediction surplus per K+R move (moves).
    pub surplus: Vec<f64>,
    /// K+R search depth per move.
    pub kr_depth: Vec<f64>,
    /// K+R effective branching factor per move.
    pub kr_ebf: Vec<f64>,
    /// K+Q search depth per move.
    pub kq_depth: Vec<f64>,
}

impl Cell {
    /// The prediction-and-search columns (accuracy, surplus, errors > 2, correct, K+R depth
    /// and EBF, K+Q depth) as printed in `summary.md` and `report.html`.
    pub fn prediction_fields(&self) -> [String; 7] {
        [
            f1(self.accuracy()),
            f2(mean(&self.surplus)),
            f2(self.pct_at_least(false, 3)),
            f1(self.pct(false, 0)),
            f1(mean(&self.kr_depth)),
            f2(mean(&self.kr_ebf)),
            f1(mean(&self.kq_depth)),
        ]
    }

    /// Percentage of K+Q moves with a DTM (or DTC) error of exactly `size` moves.
    pub fn pct(&self, dtc: bool, size: u32) -> f64 {
        let h = if dtc { &self.err_dtc } else { &self.err_dtm };
        100.0 * *h.get(&size).unwrap_or(&0) as f64 / self.kq_moves.max(1) as f64
    }

    /// Percentage of K+Q moves with an error of at least `size` moves (thrown excluded).
    pub fn pct_at_least(&self, dtc: bool, size: u32) -> f64 {
        let h = if dtc { &self.err_dtc } else { &self.err_dtm };
        let n: usize = h.range(size..).map(|(_, c)| c).sum();
        100.0 * n as f64 / self.kq_moves.max(1) as f64
    }

    /// Percentage of K+Q moves predicted correctly.
    pub fn accuracy(&self) -> f64 {
        100.0 * self.predicted.1 as f64 / self.predicted.0.max(1) as f64
    }
}

/// Groups the rows by (position, s).
pub fn cells(games: &[GameRow], moves: &[MoveRow]) -> BTreeMap<(usize, usize), Cell> {
    let mut out: BTreeMap<(usize, usize), Cell> = BTreeMap::new();
    let keys: BTreeSet<GameKey> = games.iter().map(GameRow::key).collect();
    for g in games {
        let c = out.entry((g.position, g.spec_depth)).or_default();
        c.lengths.push(g.length as f64);
        *c.outcomes.entry(g.outcome.name()).or_default() += 1;
    }
    for m in moves.iter().filter(|m| keys.contains(&m.key())) {
        let c = out.entry((m.position, m.spec_depth)).or_default();
        if m.kq {
            c.kq_moves += 1;
            if m.thrown {
                c.thrown += 1;
            }
            if let Some(e) = m.err_dtm {
                *c.err_dtm.entry(e).or_default() += 1;
            }
            if let Some(e) = m.err_dtc {
                *c.err_dtc.entry(e).or_default() += 1;
            }
            if let Some(ok) = m.correct {
                c.predicted.0 += 1;
                c.predicted.1 += usize::from(ok);
            }
            c.kq_depth.extend(m.depth.map(f64::from));
        } else {
            c.surplus.extend(m.surplus);
            c.kr_depth.extend(m.depth.map(f64::from));
            c.kr_ebf.extend(m.ebf);
        }
    }
    out
}

/// One row of the thesis' numbers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RefRow {
    /// Draws by the 50-move rule (of 20).
    pub draws: Option<u32>,
    /// Mean game length.
    pub length: Option<f64>,
    /// Error size → percentage of moves.
    pub errs: BTreeMap<u32, f64>,
}

/// The thesis' KQKR numbers by (position, s), or why they are missing.
#[derive(Clone, Debug)]
pub enum Reference {
    /// Read from this source (a file, or the numbers built into the program).
    Loaded(String, BTreeMap<(usize, usize), RefRow>),
    /// None to compare with (a caller that wants no comparison column).
    Missing(Vec<PathBuf>),
}

/// The thesis' published KQKR numbers (Donkers 2003 §5.4.3, Tables 5.2–5.4, typed from the
/// text), built into the program so that a clone of the repository anywhere compares with
/// them; `--reference FILE` reads another file of the same format instead.
pub const BUILTIN_REFERENCE: &str = include_str!("../../tables/thesis-kqkr.csv");

/// Loads the reference numbers from `path`, or the built-in ones ([`BUILTIN_REFERENCE`]).
pub fn load_reference(path: Option<&Path>) -> Result<Reference, String> {
    let Some(path) = path else {
        return Ok(Reference::Loaded(
            "the built-in tables/thesis-kqkr.csv (Donkers 2003, Tables 5.2-5.4)".into(),
            parse_reference(BUILTIN_REFERENCE),
        ));
    };
    if !path.is_file() {
        return Err(format!("reference file '{}' not found", path.display()));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    Ok(Reference::Loaded(
        path.display().to_string(),
        parse_reference(&text),
    ))
}

/// The rows of a `thesis-kqkr.csv` text: `#` lines are comments, except one naming the
/// columns (`# position,spec_depth,...`); rows that do not start with two integers are
/// skipped.
pub fn parse_reference(text: &str) -> BTreeMap<(usize, usize), RefRow> {
    let mut header: Vec<String> = "position,spec_depth,draws_50move,avg_length"
        .split(',')
        .map(String::from)
        .collect();
    let mut rows = BTreeMap::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(h) = t.strip_prefix('#') {
            if h.trim().starts_with("position,") {
                header = h.trim().split(',').map(String::from).collect();
            }
            continue;
        }
        if t.is_empty() {
            continue;
        }
        let f: Vec<&str> = t.split(',').collect();
        let (Ok(p), Ok(s)) = (
            f[0].parse::<usize>(),
            f.get(1).unwrap_or(&"").parse::<usize>(),
        ) else {
            continue;
        };
        let mut r = RefRow::default();
        for (name, v) in header.iter().zip(f.iter()).skip(2) {
            if v.is_empty() {
                continue;
            }
            match name.as_str() {
                "draws_50move" => r.draws = v.parse().ok(),
                "avg_length" => r.length = v.parse().ok(),
                n => {
                    if let (Some(k), Ok(x)) = (
                        n.strip_prefix("err").and_then(|k| k.parse().ok()),
                        v.parse::<f64>(),
                    ) {
                        r.errs.insert(k, x);
                    }
                }
            }
        }
        rows.insert((p, s), r);
    }
    rows
}

/// Position id → (name, FEN), from the recorded configuration.
pub fn positions(config: &[(String, String)]) -> BTreeMap<usize, (String, String)> {
    config
        .iter()
        .filter_map(|(k, v)| {
            let id = k.strip_prefix("position.")?.parse().ok()?;
            let (name, fen) = v.split_once(" | ")?;
            Some((id, (name.to_string(), fen.to_string())))
        })
        .collect()
}

/// Position id → label: its name, or, when two positions of the run share a name (an EPD
/// with repeated `id`s), `#id name` for every position, so that each is told apart.
pub fn position_labels(config: &[(String, String)]) -> BTreeMap<usize, String> {
    let names = positions(config);
    let distinct: BTreeSet<&str> = names.values().map(|(n, _)| n.as_str()).collect();
    let indexed = distinct.len() < names.len();
    names
        .iter()
        .map(|(&id, (n, _))| {
            let label = if indexed {
                format!("#{id} {n}")
            } else {
                n.clone()
            };
            (id, label)
        })
        .collect()
}

/// The label of position `p` in `labels` (`position p` if the configuration lacks it).
pub fn label_of(labels: &BTreeMap<usize, String>, p: usize) -> String {
    labels
        .get(&p)
        .cloned()
        .unwrap_or_else(|| format!("position {p}"))
}

/// The thesis' numbers for position `p` at depth `s`, if `p` is a Browne–BELLE position.
pub fn reference_row<'a>(
    reference: &'a Reference,
    names: &BTreeMap<usize, (String, String)>,
    p: usize,
    s: usize,
) -> Option<&'a RefRow> {
    let Reference::Loaded(_, rows) = reference else {
        return None;
    };
    rows.get(&(thesis_id(&names.get(&p)?.1)?, s))
}

/// The thesis' position number of a FEN (1 or 2 for the Browne–BELLE positions).
fn thesis_id(fen: &str) -> Option<usize> {
    let four = |f: &str| f.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    BROWNE_BELLE
        .iter()
        .position(|(_, f)| four(f) == four(fen))
        .map(|i| i + 1)
}

/// `x` with one decimal, `–` if not finite.
pub fn f1(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "–".into()
    }
}

/// `x` with two decimals, `–` if not finite.
pub fn f2(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else {
        "–".into()
    }
}

/// The summary document.
pub fn summary_md(
    games: &[GameRow],
    moves: &[MoveRow],
    config: &[(String, String)],
    reference: &Reference,
) -> String {
    let cells = cells(games, moves);
    let pos_names = positions(config);
    let depths: BTreeSet<usize> = cells.keys().map(|k| k.1).collect();
    let pos_ids: BTreeSet<usize> = cells.keys().map(|k| k.0).collect();
    let labels = position_labels(config);
    let name = |p: usize| label_of(&labels, p);
    let refs = |p: usize, s: usize| reference_row(reference, &pos_names, p, s);
    let mut md = String::new();
    let _ = writeln!(md, "# KQKR sweep — Donkers 2003 §5.4 reproduced\n");
    let _ = writeln!(
        md,
        "{} games, {} positions, speculative depths {:?}. Game length = the K+Q side's moves \
         until conversion (capture of the rook or mate); 51 for every game it did not win \
         (as the thesis counts 50-move draws). Errors = moves lost against optimal play by \
         the exact tables, per K+Q move.\n",
        games.len(),
        pos_ids.len(),
        depths.iter().collect::<Vec<_>>()
    );
    match reference {
        Reference::Loaded(p, _) => {
            let _ = writeln!(md, "Thesis numbers from {p}.\n");
        }
        Reference::Missing(tried) => {
            let _ = writeln!(
                md,
                "No thesis numbers to compare with{}.\n",
                if tried.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (tried {})",
                        tried
                            .iter()
                            .map(|p| format!("`{}`", p.display()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            );
        }
    }

    // Table 5.2.
    let _ = writeln!(
        md,
        "## Table 5.2 — games not converted\n\n50-move draws per speculative depth \
         (thesis in parentheses, of 20 games); other endings below.\n"
    );
    let head: Vec<String> = depths.iter().map(|s| format!("s={s}")).collect();
    let _ = writeln!(md, "| position | games/cell | {} |", head.join(" | "));
    let _ = writeln!(md, "|---|---|{}", "---|".repeat(depths.len()));
    for &p in &pos_ids {
        let n = depths
            .iter()
            .filter_map(|&s| cells.get(&(p, s)).map(|c| c.lengths.len()))
            .max()
            .unwrap_or(0);
        let row: Vec<String> = depths
            .iter()
            .map(|&s| {
                let ours = cells
                    .get(&(p, s))
                    .map_or(0, |c| *c.outcomes.get("fifty").unwrap_or(&0));
                match refs(p, s).and_then(|r| r.draws) {
                    Some(t) => format!("{ours} ({t})"),
                    None => ours.to_string(),
                }
            })
            .collect();
        let _ = writeln!(md, "| {} | {n} | {} |", name(p), row.join(" | "));
    }
    let _ = writeln!(md, "\n| position | s | {} |", {
        Outcome::ALL.map(|o| o.name()).join(" | ")
    });
    let _ = writeln!(md, "|---|---|{}", "---|".repeat(Outcome::ALL.len()));
    for (&(p, s), c) in &cells {
        let row: Vec<String> = Outcome::ALL
            .iter()
            .map(|o| c.outcomes.get(o.name()).unwrap_or(&0).to_string())
            .collect();
        let _ = writeln!(md, "| {} | {s} | {} |", name(p), row.join(" | "));
    }

    // Tables 5.3/5.4.
    for dtc in [false, true] {
        let metric = if dtc { "DTC" } else { "DTM" };
        for &p in &pos_ids {
            let _ = writeln!(
                md,
                "\n## Tables 5.3/5.4 — error distribution by {metric}, {}\n\n\
                 Percentage of K+Q moves losing k moves against optimal play; `thrown` = \
                 moves that gave the win away; mean length (thesis count).{}\n",
                name(p),
                if dtc {
                    ""
                } else {
                    " Thesis values (its metric, Nalimov/Thompson) after the bar; `≥3` sums sizes 3 and up."
                }
            );
            let mut h = "| s | K+Q moves | 0 | 1 | 2 | 3 | 4 | ≥5 | thrown | length |".to_string();
            let mut sep = "|---|---|---|---|---|---|---|---|---|---|".to_string();
            if !dtc {
                h.push_str(" thesis 0 | 1 | 2 | ≥3 | thesis length |");
                sep.push_str("---|---|---|---|---|");
            }
            let _ = writeln!(md, "{h}\n{sep}");
            for &s in &depths {
                let Some(c) = cells.get(&(p, s)) else {
                    continue;
                };
                let mut line = format!(
                    "| {s} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    c.kq_moves,
                    f2(c.pct(dtc, 0)),
                    f2(c.pct(dtc, 1)),
                    f2(c.pct(dtc, 2)),
                    f2(c.pct(dtc, 3)),
                    f2(c.pct(dtc, 4)),
                    f2(c.pct_at_least(dtc, 5)),
                    f2(100.0 * c.thrown as f64 / c.kq_moves.max(1) as f64),
                    f1(mean(&c.lengths))
                );
                if !dtc {
                    match refs(p, s) {
                        Some(r) => {
                            let g = |k: u32| r.errs.get(&k).copied();
                            let ge3: f64 = r.errs.range(3..).map(|(_, v)| v).sum();
                            let cell = |v: Option<f64>| v.map_or_else(|| "–".into(), f2);
                            let _ = write!(
                                line,
                                " {} | {} | {} | {} | {} |",
                                cell(g(0)),
                                cell(g(1)),
                                cell(g(2)),
                                if r.errs.is_empty() {
                                    "–".into()
                                } else {
                                    f2(ge3)
                                },
                                r.length.map_or_else(|| "–".into(), f1)
                            );
                        }
                        None => line.push_str(" – | – | – | – | – |"),
                    }
                }
                let _ = writeln!(md, "{line}");
            }
        }
    }

    // Welch t-tests.
    let _ = writeln!(
        md,
        "\n## Game length against the base case (Fig. 5.10)\n\nMean length ± 95 % CI \
         (Student t); Welch's two-sided t-test of each depth against s = 0; the effect is \
         named when p < 0.05.\n"
    );
    let _ = writeln!(
        md,
        "| position | s | games | mean ± CI | vs s=0 | t | df | p | effect |\n|---|---|---|---|---|---|---|---|---|"
    );
    for &p in &pos_ids {
        let base = cells.get(&(p, 0)).map(|c| c.lengths.clone());
        for &s in &depths {
            let Some(c) = cells.get(&(p, s)) else {
                continue;
            };
            let (m, ci) = (mean(&c.lengths), ci_half_width(&c.lengths, 0.95));
            let test = match (&base, s) {
                (Some(b), s) if s > 0 => welch(&c.lengths, b),
                _ => None,
            };
            let (d, t, df, pv, eff) = match test {
                Some(w) => (
                    format!("{:+.1}", w.diff),
                    f2(w.t),
                    f1(w.df),
                    format!("{:.3}", w.p),
                    if w.p < 0.05 {
                        if w.diff > 0.0 { "longer" } else { "shorter" }
                    } else {
                        "n.s."
                    }
                    .to_string(),
                ),
                None if s == 0 => ("base".into(), "".into(), "".into(), "".into(), "".into()),
                None => ("–".into(), "–".into(), "–".into(), "–".into(), "–".into()),
            };
            let _ = writeln!(
                md,
                "| {} | {s} | {} | {} ± {} | {d} | {t} | {df} | {pv} | {eff} |",
                name(p),
                c.lengths.len(),
                f1(m),
                f1(ci)
            );
        }
    }

    // Prediction and search.
    let _ = writeln!(
        md,
        "\n## Prediction and search (Figs. 5.11, 5.12, 5.14)\n\nPredicted = the K+Q move \
         was the second move of the K+R side's PV. Surplus = moves the K+R side expected to \
         gain: its PV played out and valued by the tables, minus the root's DTM, halved \
         (K+R moves whose PV ends in a position no longer won for K+Q are left out). \
         Errors > 2 by DTM.\n"
    );
    let _ = writeln!(
        md,
        "| position | s | predicted % | surplus (moves) | errors > 2 % | correct % | K+R depth | K+R EBF | K+Q depth |\n|---|---|---|---|---|---|---|---|---|"
    );
    for (&(p, s), c) in &cells {
        let _ = writeln!(
            md,
            "| {} | {s} | {} |",
            name(p),
            c.prediction_fields().join(" | ")
        );
    }

    let _ = writeln!(md, "\n## Configuration\n\n| key | value |\n|---|---|");
    for (k, v) in config {
        let _ = writeln!(md, "| {k} | {} |", v.replace('|', "\\|"));
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_thesis_numbers_are_tables_5_2_to_5_4() {
        let Ok(Reference::Loaded(source, rows)) = load_reference(None) else {
            panic!("the built-in reference must load");
        };
        assert!(source.contains("built-in"), "{source}");
        // Two positions × s = 0..=11.
        assert_eq!(rows.len(), 24);
        // §5.4.3: the average game length in position 1 rose from 37.4 (s = 0) to 42.2 (s = 4).
        assert_eq!(rows[&(1, 0)].length, Some(37.4));
        assert_eq!(rows[&(1, 4)].length, Some(42.2));
        assert_eq!(rows[&(2, 2)].draws, Some(4));
        assert!(rows[&(1, 0)].errs.is_empty());
        assert!(!rows[&(1, 1)].errs.is_empty());
    }

    #[test]
    fn a_missing_reference_file_is_an_error() {
        let e = load_reference(Some(Path::new("no/such/thesis.csv"))).unwrap_err();
        assert!(e.contains("not found"), "{e}");
    }
}
