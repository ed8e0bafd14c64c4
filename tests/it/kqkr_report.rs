//! `report.html` of the KQKR sweep (Donkers 2003 §5.4.3): a real tiny sweep through the
//! built binary writes it self-contained (inline SVG, no external reference, no script),
//! with the thesis' numbers beside ours, the pooled view over a set of positions, distinct
//! labels for repeated EPD ids and escaped ids; a constructed significant difference is
//! marked, per position (Welch) and pooled (paired by position), and a null one is not.

use std::path::{Path, PathBuf};
use std::process::Command;

use nosce::experiment::adjudicate::Outcome;
use nosce::experiment::figures::figures;
use nosce::experiment::records::GameRow;
use nosce::experiment::report::report_html;
use nosce::experiment::summary::Reference;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nosce-kqkr-report-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `nosce kqkr` on the positions of `epd` (a tiny sweep: s = 0, 1, one game, depth 3).
fn sweep(dir: &Path, epd: &str, reference: &Path) -> PathBuf {
    let positions = dir.join("set.epd");
    std::fs::write(&positions, epd).unwrap();
    let out = dir.join("run");
    let result = Command::new(env!("CARGO_BIN_EXE_nosce"))
        .arg("kqkr")
        .args(["--positions", &positions.display().to_string()])
        .args(["--depths", "0,1", "--games", "1", "--opp-depth", "3"])
        .args(["--kr-depth", "3", "--jobs", "1", "--quiet"])
        .args(["--reference", &reference.display().to_string()])
        .args(["--out", &out.display().to_string()])
        .output()
        .expect("run nosce");
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "nosce kqkr failed: {err}");
    out
}

/// A reference file with the thesis' numbers for Browne–BELLE 2 at s = 0 and 1.
fn reference(dir: &Path) -> PathBuf {
    let path = dir.join("thesis.csv");
    std::fs::write(
        &path,
        "# position,spec_depth,draws_50move,avg_length\n2,0,6,37.25\n2,1,7,39.75\n",
    )
    .unwrap();
    path
}

/// The checks every report must pass: one HTML document, the figures inline, nothing
/// loaded from elsewhere, the configuration and revision at the bottom.
fn self_contained(html: &str, config: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"), "{}", &html[..80]);
    assert!(html.trim_end().ends_with("</html>"));
    assert!(html.matches("<svg ").count() >= 7, "figures not inline");
    assert_eq!(
        html.matches("<svg ").count(),
        html.matches("</svg>").count()
    );
    for bad in [
        "src=", "href=", "<script", "<link", "<img", "url(", "@import", "<iframe",
    ] {
        assert!(!html.contains(bad), "external reference or script: '{bad}'");
    }
    // The only URL is the SVG namespace.
    let urls = html.matches("http").count();
    let ns = html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count();
    assert_eq!(urls, ns, "a URL besides the SVG namespace");
    let footer = &html[html.find("<footer>").expect("a footer")..];
    assert!(footer.contains("git revision <code>"));
    for line in config.lines() {
        let (key, _) = line.split_once(" = ").expect("key = value");
        assert!(
            footer.contains(&format!("<td>{key}</td>")),
            "config key {key} not at the bottom"
        );
    }
}

#[test]
fn one_position_report_has_the_thesis_numbers_and_inline_figures() {
    let dir = tmp("one");
    let run = sweep(
        &dir,
        "K2Q4/8/8/8/r7/2k5/8/8 w - - id \"Browne-BELLE 2\";\n",
        &reference(&dir),
    );
    let html = std::fs::read_to_string(run.join("report.html")).expect("report.html");
    self_contained(
        &html,
        &std::fs::read_to_string(run.join("config.txt")).unwrap(),
    );
    // The CSV, Markdown and SVG files are still there for tools.
    for f in ["games.csv", "moves.csv", "summary.md", "fig5_10_length.svg"] {
        assert!(run.join(f).is_file(), "{f} missing");
    }
    // The thesis' numbers beside ours (found by the FEN), Table 5.2 and the length.
    assert!(
        html.contains("<td class=\"thesis\">39.8</td>"),
        "thesis length"
    );
    assert!(html.contains("<td class=\"thesis\">7</td>"), "thesis draws");
    assert!(html.contains("Browne-BELLE 2"));
    // One position: no pooled view, no folded tables.
    assert!(!html.contains("Pooled over") && !html.contains("<details>"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_set_of_positions_is_pooled_with_distinct_escaped_labels() {
    let dir = tmp("set");
    let epd = "8/8/8/3k4/8/8/2r5/KQ6 w - - id \"dup\";\n\
               4k3/8/8/8/8/8/1r6/4K2Q w - - id \"dup\";\n\
               8/8/2k5/8/8/7r/8/3QK3 w - - id \"<b>R&D</b> 'x'\";\n";
    let run = sweep(&dir, epd, &reference(&dir));
    let html = std::fs::read_to_string(run.join("report.html")).expect("report.html");
    self_contained(
        &html,
        &std::fs::read_to_string(run.join("config.txt")).unwrap(),
    );
    assert!(html.contains("Pooled over 3 positions"), "no pooled view");
    assert!(html.contains("<th>Δ vs s = 0 [95 % CI]</th>"));
    // Repeated ids are told apart, in the tables and in the figures' legends.
    for label in [
        "#1 dup",
        "#2 dup",
        "#3 &lt;b&gt;R&amp;D&lt;/b&gt; &#39;x&#39;",
    ] {
        assert!(
            html.contains(&format!("<td>{label}</td>")),
            "{label} in a table"
        );
    }
    let fig = std::fs::read_to_string(run.join("fig5_10_length.svg")).unwrap();
    assert!(fig.contains(">#1 dup</text>") && fig.contains(">#2 dup</text>"));
    assert!(fig.contains("mean ± 95 % CI, n = 3"), "no pooled band");
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    assert!(md.contains("| #1 dup |") && md.contains("| #2 dup |"));
    // The id's markup is text, never markup.
    assert!(!html.contains("<b>") && !html.contains("R&D"));
    let _ = std::fs::remove_dir_all(dir);
}

/// A game of `length` K+Q moves at (position, s).
fn game(position: usize, spec_depth: usize, index: usize, length: usize) -> GameRow {
    GameRow {
        position,
        spec_depth,
        game: index,
        seed: 1,
        outcome: Outcome::Conversion,
        length,
        kq_moves: length,
        plies: 2 * length - 1,
        errors_dtm: 0,
        errors_dtc: 0,
        thrown: 0,
        fen: "K2Q4/8/8/8/r7/2k5/8/8 w - - 0 1".into(),
        moves: String::new(),
        time_s: 0.0,
    }
}

fn page(games: &[GameRow], positions: usize) -> String {
    let config: Vec<(String, String)> = (1..=positions)
        .map(|p| {
            let fen = "K2Q4/8/8/8/r7/2k5/8/8 w - - 0 1";
            (format!("position.{p}"), format!("p{p} | {fen}"))
        })
        .collect();
    let figs: Vec<(&str, String)> = figures(games, &[], &config)
        .into_iter()
        .map(|(f, p)| (f, p.render()))
        .collect();
    report_html(games, &[], &config, &Reference::Missing(Vec::new()), &figs)
}

#[test]
fn a_significant_difference_is_marked_and_a_null_one_is_not() {
    // One position, five games a depth: s = 1 ten moves longer (Welch p < 0.001), s = 2
    // as long as s = 0 give or take a move.
    let base = [30, 31, 29, 30, 32];
    let mut games = Vec::new();
    for (i, &l) in base.iter().enumerate() {
        games.push(game(1, 0, i, l));
        games.push(game(1, 1, i, l + 10 + i % 2));
        games.push(game(1, 2, i, if i % 2 == 0 { l + 1 } else { l - 1 }));
    }
    let html = page(&games, 1);
    let sig: Vec<String> = html
        .match_indices("<td class=\"sig")
        .map(|(i, _)| html[i..].chars().take(60).collect())
        .collect();
    assert_eq!(sig.len(), 2, "Δ and p of s = 1 only: {sig:?}");
    assert!(sig.iter().all(|c| c.contains("sig up")), "{sig:?}");
    assert!(html.contains("&lt; 0.001</td>"), "p-value shown");
    assert!(
        html.contains("s = 1: games 10.4 moves longer"),
        "not in the summary list"
    );
    assert!(!html.contains("s = 2: games"), "a null difference listed");

    // Four positions of very different lengths, one game a cell: s = 1 is 2–4 moves
    // shorter in every one (paired t over positions, p < 0.05), s = 2 mixed.
    let mut games = Vec::new();
    for (p, base) in [(1, 20), (2, 35), (3, 50), (4, 28)] {
        games.push(game(p, 0, 0, base));
        games.push(game(p, 1, 0, base - 2 - p % 3));
        games.push(game(p, 2, 0, if p % 2 == 0 { base + 3 } else { base - 3 }));
    }
    let html = page(&games, 4);
    assert!(html.contains("Pooled over 4 positions"));
    let pooled = &html[html.find("Pooled over").unwrap()..html.find("<details>").unwrap()];
    assert_eq!(pooled.matches("class=\"sig down\"").count(), 2, "{pooled}");
    assert!(pooled.contains("paired t-test"));
    assert!(html.contains("All positions, s = 1: games 3.0 moves shorter"));
}
