//! `nosce tournament` through the real binary (issue 38): the replayed prediction of T5/T6
//! is exact on a short tournament, shards merge to the unsharded result, a killed run
//! resumes to the same games, and bad input gets a message on stderr and exit code 2.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn nosce(args: &[&str]) -> (i32, String, String) {
    common::run_subcommand("tournament", args)
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nosce-tournament-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The rows of `games.csv` without the time column (timing is not part of a game), sorted.
fn games(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("games.csv")).expect("games.csv");
    let mut rows: Vec<String> = text
        .lines()
        .skip(1)
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 19, "{l}");
            f.remove(15); // south_ms
            f.join(",")
        })
        .collect();
    rows.sort();
    rows
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = nosce(args);
    assert_eq!(code, 0, "nosce tournament {args:?} failed:\n{out}\n{err}");
    out
}

const SMALL: [&str; 7] = [
    "--evals",
    "material,hce",
    "--depth",
    "3",
    "--games",
    "2",
    "--quiet",
];

#[test]
fn replayed_prediction_is_exact_and_probes_are_not_replays() {
    let dir = tmp("exact");
    let d = dir.to_str().unwrap();
    let mut args = SMALL.to_vec();
    args.extend(["--extra", "1", "--treatments", "T5,T6,T3", "--out", d]);
    ok(&args);
    let rows = games(&dir);
    assert_eq!(rows.len(), 3 * 2 * 2);
    let (mut probe_pred, mut probe_right) = (0, 0);
    for r in &rows {
        let f: Vec<&str> = r.split(',').collect();
        let (pred, right): (usize, usize) = (f[11].parse().unwrap(), f[12].parse().unwrap());
        // At a depth (no budget) every OM root completes: every South move is OM's.
        // (f[15] is om_moves once the time column is removed.)
        assert_eq!(
            f[9], f[15],
            "South moves against moves from a completed OM root: {r}"
        );
        if f[0] == "T3" {
            probe_pred += pred;
            probe_right += right;
        } else {
            assert!(pred > 0, "{r}");
            assert_eq!(pred, right, "a replayed prediction missed: {r}");
        }
    }
    assert!(probe_pred > 0 && probe_right <= probe_pred);
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        summary.contains("## T5: OM perfect prediction"),
        "{summary}"
    );
    for f in ["report.html", "cells.csv", "games.pgn"] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), rows.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_merge_to_the_unsharded_run() {
    let (whole, s0, s1, merged) = (tmp("whole"), tmp("s0"), tmp("s1"), tmp("merged"));
    let base = |out: &Path, shard: Option<&str>| {
        let mut a: Vec<String> = SMALL.iter().map(|s| s.to_string()).collect();
        a.extend(["--treatments", "T1,T7", "--out"].map(String::from));
        a.push(out.display().to_string());
        if let Some(s) = shard {
            a.extend(["--shard".to_string(), s.to_string()]);
        }
        a
    };
    for (out, shard) in [(&whole, None), (&s0, Some("1/2")), (&s1, Some("2/2"))] {
        let a = base(out, shard);
        ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    }
    assert!(!games(&s0).is_empty() && !games(&s1).is_empty());
    ok(&[
        "merge",
        s0.to_str().unwrap(),
        s1.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(games(&merged), games(&whole));
    let summary = |d: &Path| std::fs::read_to_string(d.join("summary.md")).unwrap();
    assert_eq!(summary(&merged), summary(&whole));
    // A folder of another run is not merged in.
    let other = tmp("other");
    ok(&[
        "--evals",
        "material,hce",
        "--depth",
        "2",
        "--games",
        "2",
        "--quiet",
        "--treatments",
        "T1",
        "--out",
        other.to_str().unwrap(),
    ]);
    let (code, _, err) = nosce(&[
        "merge",
        s0.to_str().unwrap(),
        other.to_str().unwrap(),
        "--out",
        tmp("merged2").to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("other settings"), "{err}");
    for d in [whole, s0, s1, merged, other] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_killed_run_resumes_to_the_same_games() {
    let (whole, killed) = (tmp("uninterrupted"), tmp("killed"));
    let args = |out: &Path| -> Vec<String> {
        [
            "tournament",
            "--evals",
            "material,hce",
            "--depth",
            "3",
            "--games",
            "4",
            "--quiet",
            "--treatments",
            "T1,T2",
            "--jobs",
            "1",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([out.display().to_string()])
        .collect()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_nosce"))
        .args(args(&killed))
        .spawn()
        .expect("start nosce");
    let start = Instant::now();
    loop {
        let rows = std::fs::read_to_string(killed.join("games.csv"))
            .map(|t| t.lines().count().saturating_sub(1))
            .unwrap_or(0);
        if rows >= 2 || start.elapsed() > Duration::from_secs(120) {
            break;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    let before = games(&killed).len();
    assert!(before < 16, "the run ended before it could be killed");
    // A row torn by the kill is dropped on resume.
    use std::io::Write as _;
    std::fs::OpenOptions::new()
        .append(true)
        .open(killed.join("games.csv"))
        .unwrap()
        .write_all(b"T2,hce,material,1,0,1-0,1,check")
        .unwrap();
    let run = |a: Vec<String>| {
        let out = Command::new(env!("CARGO_BIN_EXE_nosce"))
            .args(a)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(args(&killed));
    run(args(&whole));
    assert_eq!(games(&killed).len(), 16);
    assert_eq!(games(&killed), games(&whole));
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&killed);
}

#[test]
fn bad_input_exits_2_with_a_reason() {
    let out = tmp("bad");
    let o = out.to_str().unwrap();
    for (args, says) in [
        (vec!["--games", "3"], "even"),
        (vec!["--evals", "material,bishop"], "bishop"),
        (vec!["--evals", "material"], "two evaluators"),
        (vec!["--depth", "1"], "--depth"),
        (vec!["--treatments", "T8"], "T8"),
        (vec!["--shard", "3/2"], "--shard"),
        (vec!["--frobnicate"], "frobnicate"),
        (
            vec!["--openings", "/nonexistent/openings.epd", "--out", o],
            "cannot read openings",
        ),
        (
            vec!["--evals", "net:/nonexistent.nnue,hce", "--out", o],
            "nonexistent.nnue",
        ),
        (
            vec!["--syzygy", "/nonexistent/tables", "--out", o],
            "Syzygy",
        ),
        (
            vec!["report", "/nonexistent/run"],
            "not a tournament folder",
        ),
    ] {
        let (code, _, err) = nosce(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // A bad opening line is named with its number.
    std::fs::create_dir_all(&out).unwrap();
    let epd = out.join("bad.epd");
    std::fs::write(
        &epd,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen\n",
    )
    .unwrap();
    let (code, _, err) = nosce(&["--openings", epd.to_str().unwrap(), "--check"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.epd:2"), "{err}");
    // Resuming into a folder of another run is refused with the difference.
    let run = out.join("run");
    let r = run.to_str().unwrap();
    ok(&[
        "--evals",
        "material,hce",
        "--depth",
        "2",
        "--games",
        "2",
        "--quiet",
        "--treatments",
        "T1",
        "--out",
        r,
    ]);
    let (code, _, err) = nosce(&[
        "--evals",
        "material,hce",
        "--depth",
        "3",
        "--games",
        "2",
        "--quiet",
        "--treatments",
        "T1",
        "--out",
        r,
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("other settings") && err.contains("depth"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&out);
}
