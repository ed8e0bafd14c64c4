//! `benches/clock_use.py` (issue 41, item 2: how an engine uses its clock): on a small PGN in
//! fastchess's comment format and one in `benches/match.py`'s `[%emt]` format, the seconds a
//! move, the clock rebuilt from base and increment (a per-side `A/B` control too), the games
//! below a tenth of the base and the losses on time are those counted by hand; bad input
//! exits non-zero with a message. Standard-library Python only.

use std::path::Path;
use std::process::{Command, Output};

fn run(args: &[&Path]) -> Output {
    Command::new("python3")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/benches/clock_use.py"))
        .args(args)
        .output()
        .expect("cannot run python3")
}

/// The table line of `name` in the script's output, split at its `|`.
fn row(out: &str, name: &str) -> Vec<String> {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("{name} |")))
        .unwrap_or_else(|| panic!("no line for {name} in {out}"));
    line.split('|').map(|c| c.trim().to_string()).collect()
}

#[test]
fn clock_use_rebuilds_each_sides_clock() {
    let dir = std::env::temp_dir().join(format!("nosce-clock-use-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // fastchess: 4+0.04; White "a" spends 1.0 and 3.5 s (clock 4 → 3.04 → −0.42: below 0.4),
    // Black "b" 0.5 and 0.25 s and loses on time.
    let fast = dir.join("fast.pgn");
    std::fs::write(
        &fast,
        "[Event \"t\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\
         [Termination \"time forfeit\"]\n[TimeControl \"4+0.04\"]\n\n\
         1. e4 {+0.10/9 1.000s} e5 {-0.10/9 0.500s} 2. Nf3 {+0.2/9 3.500s} \
         Nc6 {-0.2/9 0.250s} 1-0\n\n",
    )
    .unwrap();
    // match.py: White has 30+0.3, Black 10+0.1; the game starts with Black to move.
    let emt = dir.join("emt.pgn");
    std::fs::write(
        &emt,
        "[Event \"t\"]\n[White \"a\"]\n[Black \"c\"]\n[Result \"1/2-1/2\"]\n\
         [FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 1\"]\n[TimeControl \"30+0.3/10+0.1\"]\n\n\
         1... Kd7 { [%clk 0:00:09.1] [%emt 1.0] d=9 s=0 } 2. Kd2 { [%emt 2.0] d=9 } 1/2-1/2\n\n",
    )
    .unwrap();
    let out = run(&[&fast, &emt]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    // a: moves 1.0, 3.5 (fast) and 2.0 (emt, clock 30 → 28.3); lowest −0.42.
    let a = row(&said, "a");
    assert_eq!(&a[1..5], ["2", "3", "2.167", "2.167"], "{said}");
    assert_eq!(&a[9..12], ["-0.42", "1", "0"], "{said}");
    let b = row(&said, "b");
    assert_eq!(&b[1..4], ["1", "2", "0.375"], "{said}");
    assert_eq!(&b[9..12], ["3.33", "0", "1"], "{said}");
    let c = row(&said, "c");
    assert_eq!(&c[2..4], ["1", "1.000"], "{said}");
    assert_eq!(c[9], "9.10", "{said}");
    // Bad input: no argument, a missing file, a file without a timed game.
    assert_eq!(run(&[]).status.code(), Some(2));
    let missing = run(&[&dir.join("missing.pgn")]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("clock_use.py:"));
    let untimed = dir.join("untimed.pgn");
    std::fs::write(&untimed, "[Event \"t\"]\n[White \"a\"]\n\n1. e4 e5 *\n").unwrap();
    assert_eq!(run(&[&untimed]).status.code(), Some(1));
    std::fs::remove_dir_all(&dir).ok();
}
