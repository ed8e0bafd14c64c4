//! The KQKR sweep end to end (Donkers 2003 §5.4), through the library's CLI entry point:
//! a tiny sweep (2 positions × 2 depths × 2 games, small budgets) writes every file with
//! consistent numbers; `--jobs 2`, two shards merged, and a resumed run give the same
//! `games.csv`/`moves.csv` (timing aside); `analyze` on the sweep's own PGN reproduces its
//! tables; with perfect knowledge (replayed opponent searches) every ply-1 prediction is
//! right, for a depth and for a node budget.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use nosce::experiment::pgn::parse_pgn;
use nosce::experiment::records::{GameRow, MoveRow, read_games, read_moves};
use nosce::experiment::run_cli;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nosce-kqkr-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn run(args: &str, out: &Path) -> String {
    let mut v: Vec<String> = args.split_whitespace().map(String::from).collect();
    v.extend(["--out".into(), out.display().to_string(), "--quiet".into()]);
    run_cli(&v).unwrap_or_else(|e| panic!("nosce kqkr {args}: {e}"))
}

/// A CSV file without its last (timing) column.
fn untimed(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| l.rsplit_once(',').map_or(l, |(a, _)| a).to_string() + "\n")
        .collect()
}

fn same_results(a: &Path, b: &Path, what: &str) {
    for f in ["games.csv", "moves.csv"] {
        let (x, y) = (untimed(&a.join(f)), untimed(&b.join(f)));
        let first = x.lines().zip(y.lines()).position(|(p, q)| p != q);
        if let Some(i) = first {
            let (p, q) = (x.lines().nth(i).unwrap(), y.lines().nth(i).unwrap());
            panic!("{what}: {f} line {}: '{p}' vs '{q}'", i + 1);
        }
        assert_eq!(x.lines().count(), y.lines().count(), "{what}: {f} rows");
    }
}

const TINY: &str = "--depths 0,1 --games 2 --opp-depth 3 --kr-depth 3 --seed 7";

fn section<'a>(md: &'a str, from: &str, to: &str) -> &'a str {
    let a = md.find(from).unwrap_or_else(|| panic!("no '{from}'"));
    let b = md[a..].find(to).map_or(md.len(), |i| a + i);
    &md[a..b]
}

fn check_consistency(dir: &Path) -> (Vec<GameRow>, Vec<MoveRow>) {
    let games = read_games(&dir.join("games.csv")).unwrap();
    let moves = read_moves(&dir.join("moves.csv")).unwrap();
    assert_eq!(games.len(), 8, "2 positions × 2 depths × 2 games");
    let mut by_game: BTreeMap<_, Vec<&MoveRow>> = BTreeMap::new();
    for m in &moves {
        by_game.entry(m.key()).or_default().push(m);
    }
    for g in &games {
        let rows = &by_game[&g.key()];
        let kq: Vec<_> = rows.iter().filter(|m| m.kq).collect();
        assert_eq!(rows.len(), g.plies, "{:?}", g.key());
        assert_eq!(kq.len(), g.kq_moves);
        assert_eq!(
            g.errors_dtm,
            kq.iter()
                .filter(|m| m.err_dtm.is_some_and(|e| e > 0))
                .count()
        );
        assert_eq!(
            g.errors_dtc,
            kq.iter()
                .filter(|m| m.err_dtc.is_some_and(|e| e > 0))
                .count()
        );
        let line: Vec<&str> = rows.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(g.moves, line.join(" "));
        let expect = if g.outcome.kq_won() { g.kq_moves } else { 51 };
        assert_eq!(g.length, expect, "{:?}", g.key());
        assert!(rows.windows(2).all(|w| w[1].ply == w[0].ply + 1));
        // Optimal play by the K+R side: no DTM error, ever.
        assert!(
            rows.iter()
                .filter(|m| !m.kq)
                .all(|m| m.err_dtm == Some(0) && !m.thrown)
        );
    }
    (games, moves)
}

#[test]
fn tiny_sweep_jobs_shards_resume_and_analyze() {
    let a = tmp("a");
    let summary = run(&format!("{TINY} --jobs 1"), &a);
    let (games, moves) = check_consistency(&a);
    for f in [
        "config.txt",
        "games.pgn",
        "summary.md",
        "fig5_10_length.svg",
        "fig5_11_surplus.svg",
        "fig5_12_correct.svg",
        "fig5_12_errors_gt2.svg",
        "fig5_13_diversity.svg",
        "fig5_14_depth.svg",
        "fig5_14_ebf.svg",
    ] {
        let text = std::fs::read_to_string(a.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
        if f.ends_with(".svg") {
            assert!(text.starts_with("<svg") && text.contains("</svg>"), "{f}");
        }
    }
    let config = std::fs::read_to_string(a.join("config.txt")).unwrap();
    assert!(config.contains("run.git_revision = ") && config.contains("kr.limit = depth=3"));
    // The summary's mean lengths are the rows' means.
    for p in [1, 2] {
        for s in [0, 1] {
            let l: Vec<f64> = games
                .iter()
                .filter(|g| g.position == p && g.spec_depth == s)
                .map(|g| g.length as f64)
                .collect();
            let m = l.iter().sum::<f64>() / l.len() as f64;
            let needle = format!("| Browne-BELLE {p} | {s} | 2 | {m:.1} ± ");
            assert!(summary.contains(&needle), "missing '{needle}'");
        }
    }
    assert!(
        summary.contains("Thesis numbers from"),
        "reference not found"
    );
    // The PGN holds the same games, move for move.
    let pgn = parse_pgn(&std::fs::read_to_string(a.join("games.pgn")).unwrap());
    assert_eq!(pgn.len(), games.len());
    for (g, p) in games.iter().zip(&pgn) {
        assert_eq!(p.tag("SpecDepth"), Some(g.spec_depth.to_string().as_str()));
        assert_eq!(p.tag("SetUp"), Some("1"));
        let sans: Vec<&str> = moves
            .iter()
            .filter(|m| m.key() == g.key())
            .map(|m| m.san.as_str())
            .collect();
        assert_eq!(p.sans, sans);
    }
    // Perfect knowledge: every reply at s = 1 was predicted.
    let predicted: Vec<_> = moves
        .iter()
        .filter(|m| m.kq && m.spec_depth == 1 && m.correct.is_some())
        .collect();
    assert!(predicted.len() > 20);
    assert!(predicted.iter().all(|m| m.correct == Some(true)));

    // Same seed, two threads: the same games.
    let b = tmp("b");
    run(&format!("{TINY} --jobs 2"), &b);
    same_results(&a, &b, "--jobs 2");

    // Two shards, merged.
    let (s1, s2, m) = (tmp("s1"), tmp("s2"), tmp("m"));
    run(&format!("{TINY} --jobs 1 --shard 1/2"), &s1);
    run(&format!("{TINY} --jobs 1 --shard 2/2"), &s2);
    assert!(read_games(&s1.join("games.csv")).unwrap().len() == 4);
    let merged = run_cli(&[
        "merge".into(),
        s1.display().to_string(),
        s2.display().to_string(),
        "--out".into(),
        m.display().to_string(),
    ])
    .unwrap();
    assert!(merged.contains("Merged into"));
    same_results(&a, &m, "merge");

    // Resume: drop the last game and its moves are replayed identically.
    let text = std::fs::read_to_string(b.join("games.csv")).unwrap();
    let kept: Vec<&str> = text.lines().collect();
    std::fs::write(
        b.join("games.csv"),
        kept[..kept.len() - 1].join("\n") + "\n",
    )
    .unwrap();
    run(&format!("{TINY} --jobs 2"), &b);
    same_results(&a, &b, "resume");
    // Another configuration is refused.
    let mut other: Vec<String> = format!("{TINY} --games 3 --quiet --out {}", b.display())
        .split_whitespace()
        .map(String::from)
        .collect();
    other.push("--jobs".into());
    other.push("1".into());
    let e = run_cli(&other).unwrap_err();
    assert!(
        e.contains("another configuration") && e.contains("games"),
        "{e}"
    );

    // analyze on our own PGN: the same tables (5.2, 5.3/5.4, t-tests).
    let an = tmp("an");
    let analysed = run_cli(&[
        "analyze".into(),
        a.join("games.pgn").display().to_string(),
        "--out".into(),
        an.display().to_string(),
    ])
    .unwrap();
    assert_eq!(
        section(&analysed, "## Table 5.2", "## Prediction"),
        section(&summary, "## Table 5.2", "## Prediction")
    );
    for d in [a, b, s1, s2, m, an] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn perfect_knowledge_predicts_every_reply_under_a_node_budget() {
    let d = tmp("nodes");
    run(
        "--depths 1,3 --games 1 --opp-nodes 1500 --kr-depth 4 --seed 3 --jobs 2",
        &d,
    );
    let moves = read_moves(&d.join("moves.csv")).unwrap();
    let p: Vec<_> = moves
        .iter()
        .filter(|m| m.kq && m.correct.is_some())
        .collect();
    assert!(p.len() > 40, "{} predictions", p.len());
    let wrong: Vec<_> = p.iter().filter(|m| m.correct != Some(true)).collect();
    assert!(wrong.is_empty(), "{wrong:?}");
    let _ = std::fs::remove_dir_all(d);
}

/// The moves of every game of a run: (position, game) → the `moves` column of `games.csv`.
fn game_moves(dir: &Path) -> BTreeMap<(usize, usize), String> {
    read_games(&dir.join("games.csv"))
        .unwrap()
        .into_iter()
        .map(|g| ((g.position, g.game), g.moves))
        .collect()
}

#[test]
fn equivalent_speculative_depths_play_the_same_games() {
    // Played separately (one depth per run, so nothing is shared): with K+R depth 4 the MIN
    // nodes are at plies 1 and 3, so s = 2 plays like s = 1 and s = 5 like s = 3.
    let base = "--games 1 --opp-depth 4 --kr-depth 4 --seed 11 --jobs 2";
    let dirs: Vec<PathBuf> = [1, 2, 3, 5]
        .iter()
        .map(|s| tmp(&format!("eq{s}")))
        .collect();
    for (s, d) in [1, 2, 3, 5].iter().zip(&dirs) {
        run(&format!("{base} --depths {s}"), d);
    }
    let g: Vec<_> = dirs.iter().map(|d| game_moves(d)).collect();
    assert_eq!(g[0], g[1], "s=1 and s=2");
    assert_eq!(g[2], g[3], "s=3 and s=5");
    // A sweep over all four plays each class once and records it under every depth.
    let all = tmp("eqall");
    run(&format!("{base} --depths 1,2,3,5"), &all);
    let games = read_games(&all.join("games.csv")).unwrap();
    assert_eq!(games.len(), 8);
    for row in &games {
        let k = [1, 2, 3, 5]
            .iter()
            .position(|&s| s == row.spec_depth)
            .unwrap();
        assert_eq!(
            g[k][&(row.position, row.game)],
            row.moves,
            "s={}",
            row.spec_depth
        );
    }
    for d in dirs.iter().chain([&all]) {
        let _ = std::fs::remove_dir_all(d);
    }
}
