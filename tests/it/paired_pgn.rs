//! `benches/paired_pgn.py`, the time-odds matches' analysis (issue 38), on two small PGNs
//! whose paired test is worked out by hand: openings are paired only when both arms
//! finished both games, unfinished games are left out, each arm's wins, draws and losses are
//! counted over the paired games and over all it finished, and the t value, its degrees of
//! freedom and p-values are those of Student's paired test. Bad input exits non-zero with a
//! message. Needs python3 with python-chess (a failure when missing).
use crate::prereq;

use std::path::Path;
use std::process::{Command, Output};

fn have_python_chess() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A PGN of engine "E" against "X": one (round, E's points) per game, E White in odd rounds.
fn pgn(games: &[(u32, Option<f64>)]) -> String {
    let mut s = String::new();
    for &(round, points) in games {
        let white = round % 2 == 1;
        let result = match points {
            None => "*",
            Some(0.5) => "1/2-1/2",
            Some(p) if (p == 1.0) == white => "1-0",
            Some(_) => "0-1",
        };
        let (w, b) = if white { ("E", "X") } else { ("X", "E") };
        s.push_str(&format!(
            "[Event \"t\"]\n[Round \"{round}\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n\
             [Result \"{result}\"]\n\n{result}\n\n"
        ));
    }
    s
}

fn run(dir: &Path, args: &[&str]) -> Output {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/paired_pgn.py");
    Command::new("python3")
        .arg(script)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cannot run python3")
}

#[test]
fn paired_test_over_openings_matches_the_hand_computation() {
    if !have_python_chess() {
        prereq::missing("python-chess not installed (pip install chess)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("nosce-paired-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Openings 0-3 (rounds 1-8) in both arms; opening 4 only in A; in B round 8's game is
    // unfinished, so opening 3 is not paired. E's points per opening:
    // A: 1.5, 0, 2, (1), 1 ; B: 2, 0.5, 2, (unfinished).
    let a = pgn(&[
        (1, Some(1.0)),
        (2, Some(0.5)),
        (3, Some(0.0)),
        (4, Some(0.0)),
        (5, Some(1.0)),
        (6, Some(1.0)),
        (7, Some(0.5)),
        (8, Some(0.5)),
        (9, Some(1.0)),
        (10, Some(0.0)),
    ]);
    let b = pgn(&[
        (1, Some(1.0)),
        (2, Some(1.0)),
        (3, Some(0.5)),
        (4, Some(0.0)),
        (5, Some(1.0)),
        (6, Some(1.0)),
        (7, Some(1.0)),
        (8, None),
    ]);
    std::fs::write(dir.join("a.pgn"), a).unwrap();
    std::fs::write(dir.join("b.pgn"), b).unwrap();
    std::fs::write(
        dir.join("info.log"),
        "<p>: info string om auto: alpha-beta (time odds 0.8 < 3.0); no fit this move\n\
         <p>: info string om auto: resources to speculate (time odds 3.1)\n\
         <p>: info string om model a=0.9 type a predicted 1/2 differing 1/2 weight 0.20 \
         useful 0.500 (not earned: alpha-beta)\n\
         <p>: info string om auto: resources to speculate (time odds 3.1)\n\
         <p>: info string om model a=0.9 type a predicted 9/10 differing 5/6 weight 0.60 \
         useful 0.500\n\
         <p>: info string om auto: resources to speculate (time odds 3.1)\n\
         <p>: info string something else\n",
    )
    .unwrap();
    let out = run(
        &dir,
        &[
            "--engine",
            "E",
            "--a",
            "a.pgn",
            "--b",
            "b.pgn",
            "--info-log",
            "info.log",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Paired openings 0-2: differences (B - A) / 2 = 0.25, 0.25, 0: mean 1/6, sd 0.1443,
    // se 0.0833, t = 2.00 with 2 degrees of freedom: two-sided p = 0.184, one-sided 0.092.
    // Paired games (rounds 1-6) A: 1, ½, 0, 0, 1, 1; B: 1, 1, ½, 0, 1, 1. Every finished
    // game: A's ten (5.5 points), B's seven (5.5 points).
    assert!(
        stdout.contains(
            "A a.pgn: 6 games +3 =1 -2, score 58.3 %, Elo +58 ± 450 (95 %); \
             all 10 finished games of this arm +4 =3 -3, score 55.0 %"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "B b.pgn: 6 games +4 =1 -1, score 75.0 %, Elo +191 ± 1230 (95 %); \
             all 7 finished games of this arm +5 =1 -1, score 78.6 %"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("B - A: +16.7 ± 35.9 points (95 %) over 3 openings; paired t = 2.00 (df 2), p = 0.184 two-sided, 0.0918 one-sided"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "4 moves, 3 with resources to speculate (75.0 %), 1 as alpha-beta; speculated \
             (the fit's weight earned too) on 1 (25.0 %)"
        ),
        "{stdout}"
    );

    // Bad input: a missing file and a name that plays neither side.
    let out = run(&dir, &["--engine", "E", "--a", "none.pgn", "--b", "b.pgn"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read none.pgn"));
    let out = run(&dir, &["--engine", "Z", "--a", "a.pgn", "--b", "b.pgn"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("'Z' plays neither side"));
    let _ = std::fs::remove_dir_all(&dir);
}
