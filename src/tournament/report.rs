//! The tournament report (*OM Search in Bao*, §6): `summary.md` with Tables 1–7 (South's
//! points per pairing, row totals with 95 % intervals), Table 8 (the overview), Table 9
//! (deviations from α-β per game), the prediction rate of every cell, the admissibility of
//! every pair, paired tests of each treatment against T1 and of T6 against T2 (per row and
//! pooled), the pre-registered claims, the paper's Bao numbers beside ours and its seven
//! findings point by point (`findings`);
//! `cells.csv` (one row per cell), `games.pgn`, and `report.html` (the same tables and a
//! figure of Table 8: [`super::page`]). The report reads only the run folder (`config.txt` and the records),
//! so a merged or half-finished run is reported the same way.

use std::fmt::Write as _;
use std::path::Path;

use super::analysis::{Comparison, admissibility, cells, compare, correlation, row_total};
use super::game::GameRecord;
use super::paper;
use super::report_setup::{ReportSetup, p_text};
use crate::experiment::summary::f1;

/// The page to open.
pub const REPORT_FILE: &str = "report.html";
/// The Markdown summary.
pub const SUMMARY_FILE: &str = "summary.md";

fn comparison_line(label: &str, c: &Comparison) -> String {
    match c.test {
        Some(t) => format!(
            "| {label} | {} | {:.1} | {:.1} | {:+.1} | ±{:.1} | {:.2} | {} | {} |",
            c.openings,
            c.pct.0,
            c.pct.1,
            c.diff_pct(),
            100.0 * t.ci / c.games_per_opening.max(1) as f64,
            t.t,
            p_text(Some(t.p)),
            p_text(c.p_greater()),
        ),
        None => format!("| {label} | {} | – | – | – | – | – | – | – |", c.openings),
    }
}

/// The index of a paper tournament (T1..T7 → 0..6).
fn paper_index(code: &str) -> Option<usize> {
    code.strip_prefix('T')?
        .parse::<usize>()
        .ok()
        .filter(|t| (1..=7).contains(t))
        .map(|t| t - 1)
}

/// The Markdown summary.
pub fn summary(setup: &ReportSetup, games: &[GameRecord]) -> String {
    let cells = cells(games);
    let p = &setup.players;
    let pairings = p.len() * (p.len() - 1);
    let mut s = String::new();
    let _ = writeln!(s, "# The Bao tournaments in chess\n");
    let _ = writeln!(
        s,
        "Donkers, van den Herik, Uiterwijk, *Opponent-Model Search in Bao: Conditions for a \
Successful Application*, §5–6, replayed with nosce's evaluators. South (the row) plays the \
treatment, North (the column) α-β; a cell is South's points (win 1, draw ½) out of its games. \
{} games found of {} ({} treatments × {pairings} pairings × {} games).\n",
        games.len(),
        setup.treatments.len() * pairings * setup.games,
        setup.treatments.len(),
        setup.games
    );
    let _ = writeln!(s, "Settings:\n");
    for (k, v) in &setup.settings {
        let _ = writeln!(s, "- {k}: {v}");
    }
    let mut ends: std::collections::BTreeMap<&str, usize> = Default::default();
    for g in games {
        *ends.entry(g.termination.as_str()).or_default() += 1;
    }
    let _ = writeln!(
        s,
        "\nEndings: {}.\n",
        ends.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (code, desc) in &setup.treatments {
        let _ = writeln!(s, "## {code}: {desc}\n");
        let _ = writeln!(
            s,
            "| S \\ N | {} | score | % | ±95 % | W-D-L | dev./game | pred. % | kN/move |",
            p.join(" | ")
        );
        let _ = writeln!(
            s,
            "|---|{}---|---|---|---|---|---|---|",
            "---|".repeat(p.len())
        );
        for south in p {
            let mut line = format!("| {south} |");
            let (mut wdl, mut pred, mut nodes, mut moves) = ((0, 0, 0), (0, 0), 0u64, 0usize);
            for north in p {
                match cells.get(&(code.clone(), south.clone(), north.clone())) {
                    Some(c) if south != north => {
                        let _ = write!(line, " {} |", c.points);
                        wdl = (wdl.0 + c.wdl.0, wdl.1 + c.wdl.1, wdl.2 + c.wdl.2);
                        pred = (pred.0 + c.predictions.0, pred.1 + c.predictions.1);
                        nodes += c.south_nodes;
                        moves += c.south_moves;
                    }
                    _ => line.push_str(" – |"),
                }
            }
            let r = row_total(games, code, south);
            let rate = if pred.0 > 0 {
                100.0 * pred.1 as f64 / pred.0 as f64
            } else {
                f64::NAN
            };
            let _ = writeln!(
                s,
                "{line} {} / {} | {} | ±{} | {}-{}-{} | {} | {} | {} |",
                r.points,
                r.games,
                f1(100.0 * r.points / r.games.max(1) as f64),
                f1(100.0 * r.ci / r.games.max(1) as f64),
                wdl.0,
                wdl.1,
                wdl.2,
                f1(r.deviations.0),
                f1(rate),
                f1(nodes as f64 / moves.max(1) as f64 / 1000.0)
            );
        }
        if let Some(t) = paper_index(code) {
            let _ = writeln!(
                s,
                "\nThe paper's Table {} (Bao, games won of 100; rows and columns MATERIAL, \
DEFAULT, GA3, TDL2B, NGND6): {}.\n",
                t + 1,
                (0..5)
                    .map(|r| format!(
                        "{} {} (total {})",
                        paper::EVALUATORS[r],
                        paper::TABLES[t][r]
                            .iter()
                            .enumerate()
                            .filter(|(c, _)| *c != r)
                            .map(|(_, v)| v.to_string())
                            .collect::<Vec<_>>()
                            .join("/"),
                        paper::row_total(t, r)
                    ))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
        let _ = writeln!(
            s,
            "Prediction rate per cell (% of North's replies South predicted):\n"
        );
        let _ = writeln!(s, "| S \\ N | {} |", p.join(" | "));
        let _ = writeln!(s, "|---|{}", "---|".repeat(p.len()));
        for south in p {
            let mut line = format!("| {south} |");
            for north in p {
                match cells.get(&(code.clone(), south.clone(), north.clone())) {
                    Some(c) if south != north => {
                        let _ = write!(line, " {} |", f1(c.prediction_rate()));
                    }
                    _ => line.push_str(" – |"),
                }
            }
            let _ = writeln!(s, "{line}");
        }
        s.push('\n');
    }
    overview(&mut s, setup, games);
    tests(&mut s, setup, games);
    let codes: Vec<&str> = setup.treatments.iter().map(|(c, _)| c.as_str()).collect();
    s.push_str(&super::budget::section(&setup.players, &codes, games));
    s.push_str(&super::findings::section(setup, games));
    admissibility_section(&mut s, setup, games);
    s
}

/// Table 8 and Table 9 with the paper's beside.
fn overview(s: &mut String, setup: &ReportSetup, games: &[GameRecord]) {
    let p = &setup.players;
    let _ = writeln!(s, "## Table 8: South's score per treatment (%, ±95 %)\n");
    let _ = writeln!(
        s,
        "| treatment | {} | paper (Bao, % of 400) |",
        p.join(" | ")
    );
    let _ = writeln!(s, "|---|{}---|", "---|".repeat(p.len()));
    for (code, desc) in &setup.treatments {
        let mut line = format!("| {code} {} |", desc.split(';').next().unwrap_or(""));
        for south in p {
            let r = row_total(games, code, south);
            let n = r.games.max(1) as f64;
            let _ = write!(
                line,
                " {} ±{} |",
                f1(100.0 * r.points / n),
                f1(100.0 * r.ci / n)
            );
        }
        let bao = paper_index(code).map_or("–".into(), |t| {
            (0..5)
                .map(|r| f1(paper::row_total(t, r) as f64 / 4.0))
                .collect::<Vec<_>>()
                .join(" / ")
        });
        let _ = writeln!(s, "{line} {bao} |");
    }
    let _ = writeln!(
        s,
        "\n## Table 9: moves per game where South's move differed from α-β's at North's budget (mean ± sd)\n"
    );
    let _ = writeln!(s, "| treatment | {} | paper (Bao) |", p.join(" | "));
    let _ = writeln!(s, "|---|{}---|", "---|".repeat(p.len()));
    for (code, _) in &setup.treatments {
        let mut line = format!("| {code} |");
        for south in p {
            let r = row_total(games, code, south);
            let _ = write!(line, " {} ± {} |", f1(r.deviations.0), f1(r.deviations.1));
        }
        let bao = paper_index(code)
            .filter(|&t| t >= 2)
            .map_or("–".into(), |t| {
                paper::DEVIATIONS[t - 2]
                    .iter()
                    .map(|d| format!("{d:.2}"))
                    .collect::<Vec<_>>()
                    .join(" / ")
            });
        let _ = writeln!(s, "{line} {bao} |");
    }
    s.push('\n');
}

/// Paired tests and the pre-registered claims (a) and (b).
fn tests(s: &mut String, setup: &ReportSetup, games: &[GameRecord]) {
    let codes: Vec<&str> = setup.treatments.iter().map(|(c, _)| c.as_str()).collect();
    let mut pairs: Vec<(&str, &str)> = codes
        .iter()
        .filter(|&&c| c != "T1")
        .map(|&c| (c, "T1"))
        .collect();
    if codes.contains(&"T6") && codes.contains(&"T2") {
        pairs.push(("T6", "T2"));
    }
    if codes.contains(&"T1") {
        let _ = writeln!(
            s,
            "## Paired tests over openings\n\nUnit: one opening; difference: South's points on it \
(both colours, every column) under the first treatment minus the second. Columns: openings, \
score of each (%), difference (percentage points) with its 95 % interval, t, two-sided p, \
one-sided p for 'first > second'.\n"
        );
    }
    for (a, b) in &pairs {
        if !codes.contains(b) {
            continue;
        }
        let _ = writeln!(s, "### {a} against {b}\n");
        let _ = writeln!(
            s,
            "| South | openings | {a} % | {b} % | diff | ±95 % | t | p | p (>) |"
        );
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
        for south in &setup.players {
            let _ = writeln!(
                s,
                "{}",
                comparison_line(south, &compare(games, a, b, Some(south)))
            );
        }
        let _ = writeln!(
            s,
            "{}\n",
            comparison_line("pooled", &compare(games, a, b, None))
        );
    }
    if codes.contains(&"T6") && codes.contains(&"T2") {
        let pooled = compare(games, "T6", "T2", None);
        let rows = setup
            .players
            .iter()
            .filter(|p| compare(games, "T6", "T2", Some(p)).diff_pct() > 0.0)
            .count();
        let _ = writeln!(
            s,
            "**Claim (a), T6 > T2**: pooled difference {:+.1} points, one-sided p = {}; T6 above \
T2 in {rows} of {} rows. The claim holds if p < 0.05 and at least 4 of 5 rows are above.\n",
            pooled.diff_pct(),
            p_text(pooled.p_greater()),
            setup.players.len()
        );
    }
    if codes.contains(&"T7") && codes.contains(&"T1") {
        let mut held = 0;
        let mut lines = Vec::new();
        for south in &setup.players {
            let c = compare(games, "T7", "T1", Some(south));
            let below = c.test.is_some_and(|t| t.diff < 0.0 && t.p / 2.0 < 0.05);
            if c.diff_pct() >= 0.0 {
                held += 1;
            }
            lines.push(format!(
                "{south} {:+.1}{}",
                c.diff_pct(),
                if below { " (significantly below)" } else { "" }
            ));
        }
        let _ = writeln!(
            s,
            "**Claim (b), T7 ≥ T1 in every row**: {}; T7 at or above T1 in {held} of {} rows.\n",
            lines.join(", "),
            setup.players.len()
        );
    }
}

/// Admissibility per pair beside T3 − T1 (claim (c)).
fn admissibility_section(s: &mut String, setup: &ReportSetup, games: &[GameRecord]) {
    let p = &setup.players;
    let _ = writeln!(
        s,
        "## Admissibility of each pair (thesis §4.2.2)\n\nOn the positions kept from the pair's \
T1 games (South to move): % where South's estimate ranks above the reference's by more than \
{:.0} % of the samples while North's does not likewise (Definition 7's type-I risk), with the \
samples' count; beside it T3 − T1 in percentage points for the same cell.\n",
        100.0 * super::analysis::RANK_MARGIN
    );
    let _ = writeln!(s, "| S \\ N | {} |", p.join(" | "));
    let _ = writeln!(s, "|---|{}", "---|".repeat(p.len()));
    let cells = cells(games);
    let mut points = Vec::new();
    for south in p {
        let mut line = format!("| {south} |");
        for north in p {
            if south == north {
                line.push_str(" – |");
                continue;
            }
            let a = admissibility(games, south, north);
            let key = |t: &str| (t.to_string(), south.clone(), north.clone());
            let d = match (cells.get(&key("T3")), cells.get(&key("T1"))) {
                (Some(t3), Some(t1)) => Some(t3.pct() - t1.pct()),
                _ => None,
            };
            if let (Some(a), Some(d)) = (a, d) {
                points.push((a.violations, d));
            }
            let _ = write!(
                line,
                " {} ({}) / {} |",
                a.map_or("–".into(), |a| f1(a.violations)),
                a.map_or(0, |a| a.samples),
                d.map_or("–".into(), |d| format!("{d:+.1}"))
            );
        }
        let _ = writeln!(s, "{line}");
    }
    match correlation(&points) {
        Some((r, pv)) => {
            let _ = writeln!(
                s,
                "\n**Claim (c)**: across the {} cells, Pearson r between the violation share and \
T3 − T1 is {r:.2} (two-sided p = {}); admissibility explains T3 against T1 if r < 0 with p < 0.05.\n",
                points.len(),
                p_text(Some(pv))
            );
        }
        None => {
            let _ = writeln!(
                s,
                "\n**Claim (c)**: not measurable yet: fewer than three cells with samples and both T1 and T3, or no variation among them.\n"
            );
        }
    }
}

/// `cells.csv`.
pub fn cells_csv(games: &[GameRecord]) -> String {
    let mut s = String::from(
        "treatment,south,north,games,points,score_pct,wins,draws,losses,deviations_per_game,\
predictions,correct,prediction_pct,south_nodes_per_move,south_ms_per_move\n",
    );
    for ((t, so, no), c) in cells(games) {
        let m = c.south_moves.max(1) as f64;
        let _ = writeln!(
            s,
            "{t},{so},{no},{},{},{:.2},{},{},{},{:.3},{},{},{:.2},{:.0},{:.2}",
            c.games,
            c.points,
            c.pct(),
            c.wdl.0,
            c.wdl.1,
            c.wdl.2,
            c.deviations as f64 / c.games.max(1) as f64,
            c.predictions.0,
            c.predictions.1,
            c.prediction_rate(),
            c.south_nodes as f64 / m,
            c.south_ms as f64 / m
        );
    }
    s
}

/// `games.pgn`.
pub fn pgn(games: &[GameRecord]) -> Result<String, String> {
    let mut s = String::new();
    for g in games {
        let (white, black) = if g.key.south_white {
            (
                format!("{} ({})", g.key.south, g.key.treatment),
                g.key.north.clone(),
            )
        } else {
            (
                g.key.north.clone(),
                format!("{} ({})", g.key.south, g.key.treatment),
            )
        };
        let _ = writeln!(
            s,
            "[Event \"Bao tournaments in chess, {}\"]\n[Round \"{}\"]\n[White \"{white}\"]\n\
[Black \"{black}\"]\n[Result \"{}\"]\n[FEN \"{}\"]\n[SetUp \"1\"]\n[Termination \"{}\"]\n\
[Deviations \"{}\"]\n[Predicted \"{}/{}\"]\n",
            g.key.treatment,
            g.key.opening + 1,
            g.result,
            g.fen,
            g.termination,
            g.deviations,
            g.correct,
            g.predictions
        );
        s.push_str(&crate::experiment::pgn::movetext(
            &g.fen, &g.moves, &g.result,
        )?);
        s.push_str("\n\n");
    }
    Ok(s)
}

/// Writes `summary.md`, `cells.csv`, `games.pgn` and `report.html` into `dir`; returns the
/// summary.
pub fn write_report(dir: &Path, games: &[GameRecord]) -> Result<String, String> {
    let setup = ReportSetup::read(dir)?;
    let md = summary(&setup, games);
    let write = |name: &str, text: &str| {
        crate::atomic_file::write_atomically(&dir.join(name), text.as_bytes())
    };
    write(SUMMARY_FILE, &md)?;
    write("cells.csv", &cells_csv(games))?;
    write("games.pgn", &pgn(games)?)?;
    let page = super::page::page(&setup, games, &md);
    write(REPORT_FILE, &page)?;
    Ok(md)
}
