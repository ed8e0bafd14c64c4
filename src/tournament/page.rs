//! The tournament report's HTML page (*OM Search in Bao*, §6): the figure of Table 8 (South's
//! score per treatment, one line per evaluator, with 95 % intervals) above the Markdown
//! summary of [`super::report`] rendered as HTML, in the page style of the KQKR sweep's
//! report.

use std::fmt::Write as _;

use super::analysis::row_total;
use super::game::GameRecord;
use super::report_setup::ReportSetup;
use crate::experiment::html;
use crate::experiment::svg::{Plot, Series};

/// The whole page: the figure, then `md` (the summary) as HTML.
pub fn page(setup: &ReportSetup, games: &[GameRecord], md: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<title>Bao tournaments in chess</title><style>{}</style></head><body>\n\
<figure>{}<figcaption>Row totals with 95 % intervals.</figcaption></figure>\n{}</body></html>\n",
        html::STYLE,
        figure(setup, games),
        markdown_html(md)
    )
}

/// The figure of Table 8: South's score per treatment, one line per evaluator.
fn figure(setup: &ReportSetup, games: &[GameRecord]) -> String {
    let series = setup
        .players
        .iter()
        .map(|south| Series {
            label: south.clone(),
            points: setup
                .treatments
                .iter()
                .enumerate()
                .filter_map(|(i, (code, _))| {
                    let r = row_total(games, code, south);
                    let n = r.games as f64;
                    (r.games > 0).then(|| (i as f64 + 1.0, 100.0 * r.points / n, 100.0 * r.ci / n))
                })
                .collect(),
            ..Series::default()
        })
        .collect();
    Plot {
        title: "South's score per treatment (Table 8)".into(),
        x_label: format!(
            "treatment ({})",
            setup
                .treatments
                .iter()
                .enumerate()
                .map(|(i, (c, _))| format!("{}={c}", i + 1))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        y_label: "South's score (%)".into(),
        series,
    }
    .render()
}

/// Markdown (headings, tables, paragraphs) as HTML: enough for [`super::report::summary`]'s output.
fn markdown_html(md: &str) -> String {
    let mut out = String::new();
    let mut table: Vec<&str> = Vec::new();
    let flush = |table: &mut Vec<&str>, out: &mut String| {
        if table.is_empty() {
            return;
        }
        let split = |l: &str| -> Vec<String> {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect()
        };
        let head = split(table[0]);
        let heads: Vec<&str> = head.iter().map(String::as_str).collect();
        let rows: Vec<String> = table[2.min(table.len())..]
            .iter()
            .map(|l| split(l).iter().map(|c| html::td(c, "")).collect::<String>())
            .collect();
        out.push_str(&html::table(&heads, &rows));
        table.clear();
    };
    for line in md.lines() {
        if line.starts_with('|') {
            table.push(line);
            continue;
        }
        flush(&mut table, &mut out);
        let esc = html::escape(line).replace("**", "");
        if let Some(h) = line.strip_prefix("### ") {
            let _ = writeln!(out, "<h3>{}</h3>", html::escape(h));
        } else if let Some(h) = line.strip_prefix("## ") {
            let _ = writeln!(out, "<h2>{}</h2>", html::escape(h));
        } else if let Some(h) = line.strip_prefix("# ") {
            let _ = writeln!(out, "<h1>{}</h1>", html::escape(h));
        } else if let Some(item) = line.strip_prefix("- ") {
            let _ = writeln!(out, "<div class=\"note\">{}</div>", html::escape(item));
        } else if !line.trim().is_empty() {
            let _ = writeln!(out, "<p>{esc}</p>");
        }
    }
    flush(&mut table, &mut out);
    out
}
