//! `scripts/sprt_replay.py`, which replays a fastchess SPRT from its PGN (issue 41: candidate
//! 6's log was lost with a machine while its PGN survived). Checked against fastchess itself:
//! every `Ptnml(0-2)` / `LLR` report of the kept logs of candidates 2, 4, 5 and 12 is
//! recomputed from its counts to fastchess's printed two decimals, and on the kept PGNs of
//! candidates 4 and 5 (every game kept) the replay's first crossing of a bound is the pair
//! at which fastchess stopped by itself (H1 at games 2,820 and 574). A small PGN whose pairs
//! are counted by hand gives its pentanomial; bad input exits non-zero with a message.
//! Standard-library Python only.

use std::path::Path;
use std::process::{Command, Output};

fn replay(args: &[&str]) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Command::new("python3")
        .arg(root.join("scripts/sprt_replay.py"))
        .args(args)
        .current_dir(root)
        .output()
        .expect("cannot run python3")
}

fn said(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

const RUNS: &str = "matches/2026-11-28-search41";

#[test]
fn the_replay_computes_fastchess_llr_from_its_logs() {
    for c in ["c2", "c4", "c5", "c12"] {
        let out = said(&replay(&["--check-log", &format!("{RUNS}/{c}/log.txt")]));
        let last = out.lines().last().unwrap_or_default();
        assert!(last.contains(" reports, largest difference "), "{c}: {out}");
        let n: usize = last.split(' ').next().unwrap().parse().unwrap();
        assert!(n >= 5, "{c}: only {n} reports: {out}");
    }
}

#[test]
fn the_replay_stops_where_fastchess_stopped() {
    for (c, name, stop) in [
        ("c5", "singular", "pair 287 (game 574), LLR +2.97, H1"),
        ("c4", "improving", "pair 1410 (game 2820), LLR +2.96, H1"),
    ] {
        let out = said(&replay(&[&format!("{RUNS}/{c}/games.pgn.gz"), name]));
        assert!(
            out.contains(&format!("first crossing: {stop}")),
            "{c}: {out}"
        );
    }
}

#[test]
fn the_replay_counts_pairs_and_refuses_bad_input() {
    let dir = std::env::temp_dir().join(format!("nosce-sprt-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = crate::common::hand_counted_pairs_pgn();
    let file = dir.join("games.pgn");
    std::fs::write(&file, pgn).unwrap();
    let f = file.to_str().unwrap();
    let out = said(&replay(&[f, "new"]));
    assert!(
        out.contains("3 pairs (6 games), unpaired rounds: ['4']"),
        "{out}"
    );
    assert!(out.contains("Ptnml(0-2): [1, 0, 1, 1, 0]"), "{out}");
    assert!(out.contains("first crossing: none"), "{out}");
    // Bad input: no pair for that name, a missing file, no arguments, a log with no report.
    let none = replay(&[f, "nobody"]);
    assert_eq!(none.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no complete game pair"));
    let missing = replay(&[dir.join("missing.pgn").to_str().unwrap(), "new"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("sprt_replay.py:"));
    assert_eq!(replay(&[]).status.code(), Some(2));
    assert_eq!(replay(&["--check-log", f]).status.code(), Some(1));
    std::fs::remove_dir_all(&dir).ok();
}
