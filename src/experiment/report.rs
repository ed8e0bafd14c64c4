//! `report.html`: the KQKR sweep of Donkers 2003 §5.4.3 as one self-contained page to look
//! at — Tables 5.2–5.4 beside the thesis' numbers, the figures 5.10–5.14 inline (the same
//! SVG as the files, embedded: no external files, no network, no script), every difference
//! against the base case s = 0 with its test and the significant ones (p < 0.05) marked,
//! and the configuration with the git revision at the bottom. A sweep over a set of
//! positions (from [`POOLED_FROM`] on) leads with the pooled view of [`super::pooled`]:
//! per depth over all positions, a paired t-test by position against s = 0; the
//! per-position tables follow folded. Built from the same rows as `summary.md`, which stays
//! the plain-text form for tools. Everything from the data is escaped; the building blocks
//! are in [`super::html`].

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::adjudicate::Outcome;
use super::html::{SIGNIFICANT, STYLE, Test, escape, folded, table, td};
use super::pooled::{POOLED_FROM, merged_by_depth, pooled};
use super::records::{GameRow, MoveRow};
use super::stats::{ci_half_width, mean, welch};
use super::summary::{
    Cell, RefRow, Reference, cells, f1, f2, label_of, position_labels, positions, reference_row,
};

/// Name of the report in a run folder.
pub const REPORT_FILE: &str = "report.html";

/// What every section of the page is built from.
struct View<'a> {
    cells: BTreeMap<(usize, usize), Cell>,
    /// Every position's cells of a depth in one (the pooled tables).
    merged: BTreeMap<usize, Cell>,
    names: BTreeMap<usize, (String, String)>,
    labels: BTreeMap<usize, String>,
    reference: &'a Reference,
    depths: BTreeSet<usize>,
    pos_ids: BTreeSet<usize>,
    /// Lead with the pooled view (a set of positions).
    pool: bool,
    figures: &'a [(&'a str, String)],
}

impl View<'_> {
    fn name(&self, p: usize) -> String {
        label_of(&self.labels, p)
    }

    fn thesis(&self, p: usize, s: usize) -> Option<&RefRow> {
        reference_row(self.reference, &self.names, p, s)
    }

    /// A table with one `row` per cell: with the pooled view, first the depths over all
    /// positions, then each position's cells folded under `title`.
    fn pooled_then_each(
        &self,
        head: &[&str],
        title: &str,
        row: impl Fn(&str, usize, &Cell) -> String,
    ) -> String {
        let mut html = String::new();
        if self.pool {
            let rows: Vec<String> = self
                .merged
                .iter()
                .map(|(&s, c)| row("all positions", s, c))
                .collect();
            html += &table(head, &rows);
        }
        let rows: Vec<String> = self
            .cells
            .iter()
            .map(|(&(p, s), c)| row(&self.name(p), s, c))
            .collect();
        html + &folded(self.pool, title, &table(head, &rows))
    }

    /// A figure by file name, inline, with its caption.
    fn fig(&self, file: &str, caption: &str) -> String {
        match self.figures.iter().find(|(f, _)| *f == file) {
            Some((f, svg)) => format!(
                "<figure>\n{svg}<figcaption>{} <code>{}</code></figcaption></figure>\n",
                escape(caption),
                escape(f)
            ),
            None => format!("<p class=\"note\">({} missing)</p>", escape(file)),
        }
    }

    /// Game length against s = 0: Welch per position, paired by position over a set;
    /// the significant differences go into `findings`.
    fn length(&self, findings: &mut Vec<String>) -> String {
        let mut rows = Vec::new();
        for (&(p, s), c) in &self.cells {
            let mut row = td(&self.name(p), "")
                + &td(&s.to_string(), "")
                + &td(&c.lengths.len().to_string(), "")
                + &td(&mean_ci(&c.lengths), "")
                + &td(
                    &self
                        .thesis(p, s)
                        .and_then(|r| r.length)
                        .map_or("–".into(), f1),
                    "thesis",
                );
            let base = self.cells.get(&(p, 0)).filter(|_| s > 0);
            match (base.and_then(|b| welch(&c.lengths, &b.lengths)), s) {
                (Some(w), _) => {
                    let t = Test {
                        diff: w.diff,
                        interval: None,
                        t: w.t,
                        df: w.df,
                        p: w.p,
                    };
                    if t.significant() {
                        findings.push(format!(
                            "{}, s = {s}: games {:.1} moves {} than at s = 0 (Welch t-test, \
                             p = {:.3}).",
                            self.name(p),
                            w.diff.abs(),
                            longer(w.diff),
                            w.p
                        ));
                    }
                    row += &t.cells();
                }
                (None, 0) => row += &(td("base", "") + &td("", "").repeat(3)),
                (None, _) => row += &td("–", "").repeat(4),
            }
            rows.push(row);
        }
        let head = [
            "position",
            "s",
            "games",
            "mean ± 95 % CI",
            "thesis length",
            "Δ vs s = 0",
            "t",
            "df",
            "p",
        ];
        let each = table(&head, &rows);
        let pooled = if self.pool {
            self.pooled_length(findings)
        } else {
            String::new()
        };
        pooled
            + &folded(
                self.pool,
                "Each position (Welch t-test against s = 0)",
                &each,
            )
    }

    /// The pooled length table: per depth over positions, paired t against s = 0.
    fn pooled_length(&self, findings: &mut Vec<String>) -> String {
        let mut rows = Vec::new();
        for r in pooled(&self.cells, |c| mean(&c.lengths)) {
            let mut row = td(&r.s.to_string(), "")
                + &td(&r.values.len().to_string(), "")
                + &td(&format!("{} ± {}", f1(r.mean), f1(r.ci)), "");
            match (&r.test, r.s) {
                (Some(t), _) => {
                    let test = Test {
                        diff: t.diff,
                        interval: Some(t.ci),
                        t: t.t,
                        df: t.df,
                        p: t.p,
                    };
                    if test.significant() {
                        findings.push(format!(
                            "All positions, s = {}: games {:.1} moves {} than at s = 0 on \
                             average (95 % CI {:+.1} to {:+.1}; paired t-test over {} \
                             positions, p = {:.3}).",
                            r.s,
                            t.diff.abs(),
                            longer(t.diff),
                            t.diff - t.ci,
                            t.diff + t.ci,
                            t.n,
                            t.p
                        ));
                    }
                    row += &test.cells();
                }
                (None, 0) => row += &(td("base", "") + &td("", "").repeat(3)),
                (None, _) => {
                    // No test: below two pairs, or every position differs alike.
                    let d: Vec<f64> = r
                        .values
                        .iter()
                        .filter_map(|&(p, v)| Some(v - mean(&self.cells.get(&(p, 0))?.lengths)))
                        .collect();
                    row += &(td(&format!("{:+.1}", mean(&d)), "") + &td("–", "").repeat(3));
                }
            }
            rows.push(row);
        }
        let head = [
            "s",
            "positions",
            "mean ± 95 % CI",
            "Δ vs s = 0 [95 % CI]",
            "t",
            "df",
            "p",
        ];
        format!(
            "<h3>Pooled over {} positions</h3>\n<p class=\"note\">Per depth: the mean over \
             positions of each position's mean game length, with its 95 % interval over \
             positions; Δ = the mean of (this depth − s = 0) by position with its 95 % \
             interval, paired t-test (df = positions − 1).</p>\n{}",
            self.pos_ids.len(),
            table(&head, &rows)
        )
    }

    /// Table 5.2 (50-move draws beside the thesis' count) and every ending.
    fn draws(&self) -> String {
        let fifty = |c: Option<&Cell>| c.map_or(0, |c| *c.outcomes.get("fifty").unwrap_or(&0));
        let mut rows = Vec::new();
        for &p in &self.pos_ids {
            let n = self
                .cells
                .range((p, 0)..=(p, usize::MAX))
                .map(|(_, c)| c.lengths.len());
            let mut row = td(&self.name(p), "") + &td(&n.max().unwrap_or(0).to_string(), "");
            for &s in &self.depths {
                let thesis = self.thesis(p, s).and_then(|r| r.draws);
                row += &td(&fifty(self.cells.get(&(p, s))).to_string(), "");
                row += &td(&thesis.map_or("–".into(), |t| t.to_string()), "thesis");
            }
            rows.push(row);
        }
        if self.pool {
            let mut row = td("all positions", "") + &td("", "");
            for s in &self.depths {
                row += &(td(&fifty(self.merged.get(s)).to_string(), "") + &td("", "thesis"));
            }
            rows.push(row);
        }
        let mut head = vec!["position".to_string(), "games/cell".to_string()];
        for s in &self.depths {
            head.extend([format!("s={s}"), "thesis (of 20)".into()]);
        }
        let head: Vec<&str> = head.iter().map(String::as_str).collect();
        let html = table(&head, &rows);
        let outcome_head: Vec<&str> = ["position", "s"]
            .into_iter()
            .chain(Outcome::ALL.iter().map(|o| o.name()))
            .collect();
        let outcome_row = |label: &str, s: usize, c: &Cell| -> String {
            let counts = Outcome::ALL
                .iter()
                .map(|o| c.outcomes.get(o.name()).unwrap_or(&0));
            td(label, "")
                + &td(&s.to_string(), "")
                + &counts.map(|n| td(&n.to_string(), "")).collect::<String>()
        };
        html + &self.pooled_then_each(&outcome_head, "Endings of each position", outcome_row)
    }

    /// Tables 5.3/5.4 by DTM (beside the thesis' numbers) and by DTC.
    fn errors(&self) -> String {
        let mut html = String::new();
        for dtc in [false, true] {
            let metric = if dtc { "DTC" } else { "DTM" };
            let mut head = vec![
                "s",
                "K+Q moves",
                "0",
                "1",
                "2",
                "3",
                "4",
                "≥5",
                "thrown",
                "length",
            ];
            if !dtc {
                head.extend([
                    "thesis 0",
                    "thesis 1",
                    "thesis 2",
                    "thesis ≥3",
                    "thesis length",
                ]);
            }
            let _ = writeln!(html, "<h3>By {metric}</h3>");
            if self.pool {
                let rows: Vec<String> = self
                    .merged
                    .iter()
                    .map(|(&s, c)| error_row(s, c, dtc, None))
                    .collect();
                let _ = write!(
                    html,
                    "<p class=\"note\">All {} positions together.</p>\n{}",
                    self.pos_ids.len(),
                    table(&head, &rows)
                );
            }
            let mut each = String::new();
            for &p in &self.pos_ids {
                let rows: Vec<String> = self
                    .cells
                    .range((p, 0)..=(p, usize::MAX))
                    .map(|(&(_, s), c)| error_row(s, c, dtc, self.thesis(p, s)))
                    .collect();
                let _ = write!(
                    each,
                    "<h4>{}</h4>\n{}",
                    escape(&self.name(p)),
                    table(&head, &rows)
                );
            }
            html += &folded(self.pool, &format!("Each position, by {metric}"), &each);
        }
        html
    }

    /// The prediction and search table (Figs. 5.11, 5.12, 5.14 as numbers).
    fn prediction(&self) -> String {
        let head = [
            "position",
            "s",
            "predicted %",
            "surplus (moves)",
            "errors > 2 %",
            "correct %",
            "K+R depth",
            "K+R EBF",
            "K+Q depth",
        ];
        self.pooled_then_each(&head, "Each position", prediction_row)
    }

    /// Figs. 5.13 and 5.14; a fixed K+R depth makes the depth panel a flat line, so
    /// nodes and time per move take its place.
    fn effort(&self, moves: &[MoveRow]) -> String {
        let kr_depths: BTreeSet<u32> = moves
            .iter()
            .filter(|m| !m.kq)
            .filter_map(|m| m.depth)
            .collect();
        let mut html = self.fig(
            "fig5_13_diversity.svg",
            "Fig. 5.13: distinct game prefixes per ply.",
        );
        match kr_depths.first() {
            Some(d) if kr_depths.len() == 1 => {
                let _ = writeln!(
                    html,
                    "<p class=\"note\">Every K+R move was searched to depth {d} (a fixed depth), \
                     so the depth panel of Fig. 5.14 is a flat line (still written as \
                     <code>fig5_14_depth.svg</code>); nodes and time per move show what varies.</p>"
                );
            }
            _ => {
                html += &self.fig(
                    "fig5_14_depth.svg",
                    "Fig. 5.14: K+R search depth per move, OM against α-β.",
                )
            }
        }
        for (f, c) in [
            (
                "fig5_14_ebf.svg",
                "Fig. 5.14: effective branching factor per K+R move.",
            ),
            (
                "fig5_14_nodes.svg",
                "Nodes per K+R move (mean), OM search against α-β.",
            ),
            (
                "fig5_14_time.svg",
                "Time per K+R move (mean, ms), OM search against α-β.",
            ),
        ] {
            html += &self.fig(f, c);
        }
        html
    }
}

/// "longer" or "shorter" games for a difference in length.
fn longer(diff: f64) -> &'static str {
    if diff > 0.0 { "longer" } else { "shorter" }
}

/// `mean ± half-width of the 95 % CI`.
fn mean_ci(xs: &[f64]) -> String {
    format!("{} ± {}", f1(mean(xs)), f1(ci_half_width(xs, 0.95)))
}

/// The page, from the rows of a run, its configuration, the thesis' numbers and the
/// rendered figures ((file name, SVG text) as [`super::figures::write_figures`] returns).
pub fn report_html(
    games: &[GameRow],
    moves: &[MoveRow],
    config: &[(String, String)],
    reference: &Reference,
    figures: &[(&str, String)],
) -> String {
    let cells = cells(games, moves);
    let pos_ids: BTreeSet<usize> = cells.keys().map(|k| k.0).collect();
    let v = View {
        merged: merged_by_depth(&cells),
        names: positions(config),
        labels: position_labels(config),
        reference,
        depths: cells.keys().map(|k| k.1).collect(),
        pool: pos_ids.len() >= POOLED_FROM,
        pos_ids,
        cells,
        figures,
    };
    let mut findings = Vec::new();
    let length = v.length(&mut findings);
    let depths: Vec<String> = v.depths.iter().map(ToString::to_string).collect();
    let n = v.pos_ids.len();
    let mut h = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>KQKR sweep — Donkers 2003 §5.4</title>\n<style>{STYLE}</style>\n</head>\n\
         <body>\n<h1>KQKR sweep — Donkers 2003 §5.4 reproduced</h1>\n\
         <p class=\"lead\">{} games, {n} position{}, speculative depths {}. Game length = \
         the K+Q side's moves until conversion (51 for a game it did not win, as the thesis \
         counts 50-move draws). Errors = moves lost against optimal play, per K+Q move.</p>\n",
        games.len(),
        if n == 1 { "" } else { "s" },
        escape(&depths.join(", "))
    );
    let source = match reference {
        Reference::Loaded(p, _) => format!("Thesis numbers from {}.", escape(p)),
        Reference::Missing(_) => "No thesis numbers to compare with.".into(),
    };
    let _ = writeln!(
        h,
        "<p class=\"note\">{source} Thesis numbers are in <span class=\"thesis\">brown \
         italics</span>; a difference from s = 0 with p &lt; {SIGNIFICANT} is <span \
         class=\"key\">highlighted</span> (▲ longer, ▼ shorter games), its p-value in the \
         last column.</p>\n<div class=\"glance\"><h2 id=\"glance\">At a glance</h2>\n<ul>"
    );
    if findings.is_empty() {
        let _ = writeln!(
            h,
            "<li>No speculative depth changes the game length significantly (p &lt; \
             {SIGNIFICANT}) against s = 0.</li>"
        );
    }
    for f in &findings {
        let _ = writeln!(h, "<li>{}</li>", escape(f));
    }
    let _ = write!(
        h,
        "</ul></div>\n<h2 id=\"length\">Game length against the base case (Fig. 5.10)</h2>\n\
         <div class=\"pair\">\n{}<div>{length}</div></div>\n",
        v.fig(
            "fig5_10_length.svg",
            "Fig. 5.10: mean game length per speculative depth, 95 % CI."
        )
    );
    let _ = write!(
        h,
        "<h2 id=\"draws\">Games not converted (Table 5.2)</h2>\n<p class=\"note\">50-move \
         draws per speculative depth, the thesis' count (of 20 games) beside ours; all \
         endings below.</p>\n{}",
        v.draws()
    );
    let _ = write!(
        h,
        "<h2 id=\"errors\">The opponent's errors (Tables 5.3/5.4)</h2>\n<p class=\"note\">\
         Percentage of K+Q moves losing k moves against optimal play; thrown = moves that gave \
         the win away; mean length. The thesis' values (its metric, Nalimov/Thompson) beside \
         ours by DTM; thesis ≥3 sums sizes 3 and up.</p>\n{}",
        v.errors()
    );
    let _ = write!(
        h,
        "<h2 id=\"prediction\">Prediction (Figs. 5.11, 5.12)</h2>\n<p class=\"note\">Predicted \
         = the K+Q move was the second move of the K+R side's PV. Surplus = moves the K+R side \
         expected to gain by its PV, valued by the tables. Errors &gt; 2 by DTM.</p>\n\
         <div class=\"figs\">{}{}{}</div>\n{}",
        v.fig("fig5_11_surplus.svg", "Fig. 5.11: mean prediction surplus."),
        v.fig(
            "fig5_12_correct.svg",
            "Fig. 5.12 (left): correct opponent moves."
        ),
        v.fig(
            "fig5_12_errors_gt2.svg",
            "Fig. 5.12 (right): errors larger than 2 moves."
        ),
        v.prediction()
    );
    let _ = write!(
        h,
        "<h2 id=\"effort\">Game diversity (Fig. 5.13) and search effort (Fig. 5.14)</h2>\n\
         <div class=\"figs\">{}</div>\n",
        v.effort(moves)
    );
    let revision = config
        .iter()
        .find(|(k, _)| k == "run.git_revision")
        .map_or("not recorded", |(_, v)| v.as_str());
    let rows: Vec<String> = config.iter().map(|(k, v)| td(k, "") + &td(v, "")).collect();
    let _ = write!(
        h,
        "<footer>\n<h2 id=\"config\">Configuration</h2>\n<p>git revision <code>{}</code> — \
         every line of <code>config.txt</code>:</p>\n{}</footer>\n</body>\n</html>\n",
        escape(revision),
        table(&["key", "value"], &rows)
    );
    h
}

/// A row of Tables 5.3/5.4 (with the thesis' columns when `!dtc`).
fn error_row(s: usize, c: &Cell, dtc: bool, thesis: Option<&RefRow>) -> String {
    let mut row = td(&s.to_string(), "") + &td(&c.kq_moves.to_string(), "");
    for k in 0..5 {
        row += &td(&f2(c.pct(dtc, k)), "");
    }
    row += &td(&f2(c.pct_at_least(dtc, 5)), "");
    row += &td(&f2(100.0 * c.thrown as f64 / c.kq_moves.max(1) as f64), "");
    row += &td(&f1(mean(&c.lengths)), "");
    if !dtc {
        let cell = |v: Option<f64>| td(&v.map_or("–".into(), f2), "thesis");
        match thesis {
            Some(r) => {
                for k in 0..3 {
                    row += &cell(r.errs.get(&k).copied());
                }
                let ge3 =
                    Some(r.errs.range(3..).map(|(_, v)| v).sum()).filter(|_| !r.errs.is_empty());
                row += &cell(ge3);
                row += &td(&r.length.map_or("–".into(), f1), "thesis");
            }
            None => row += &td("–", "thesis").repeat(5),
        }
    }
    row
}

/// A row of the prediction and search table.
fn prediction_row(label: &str, s: usize, c: &Cell) -> String {
    [label.to_string(), s.to_string()]
        .iter()
        .chain(c.prediction_fields().iter())
        .map(|t| td(t, ""))
        .collect()
}
