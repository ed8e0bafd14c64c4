//! `matches/2026-11-27-multi-cut/rebuild_state.py`, which rebuilds fastchess's state file of
//! an SPRT from its kept PGN (issue 40's MC-A test, resumed on a new machine): on a small
//! PGN whose pairs are counted by hand, the statistics written are fastchess's (wins, draws,
//! losses and the pentanomial counts from the named engine's side), the template's other
//! settings are kept, a trailing unpaired game is moved aside, and bad input exits
//! non-zero with a message; with `--from-log` the same counts come from fastchess's console
//! log (a test whose PGN was lost, issue 41's candidate 1). Standard-library Python only.

use std::path::Path;
use std::process::{Command, Output};

fn run(dir: &Path, args: &[&str]) -> Output {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/matches/2026-11-27-multi-cut/rebuild_state.py"
    );
    Command::new("python3")
        .arg(script)
        .arg(dir)
        .args(args)
        .output()
        .expect("cannot run python3")
}

#[test]
fn the_state_holds_the_complete_pairs_of_the_pgn() {
    let dir = std::env::temp_dir().join(format!("nosce-sprt-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = crate::common::hand_counted_pairs_pgn();
    std::fs::write(dir.join("games.pgn"), &pgn).unwrap();
    let template = r#"{"seed": 1, "sprt": {"elo0": 0.0, "elo1": 5.0},
        "stats": {"new vs base": {"wins": 0, "losses": 0, "draws": 0}}}"#;
    std::fs::write(dir.join("state.json"), template).unwrap();
    let out = run(&dir, &["new"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("3 pairs: W 2 D 1 L 3"), "{said}");
    assert!(said.contains("Ptnml(0-2) [1, 0, 1, 1, 0]"), "{said}");
    let state = std::fs::read_to_string(dir.join("state.json")).unwrap();
    for field in [
        "\"wins\": 2",
        "\"draws\": 1",
        "\"losses\": 3",
        "\"penta_WD\": 1",
        "\"penta_LL\": 1",
        "\"penta_WL\": 1",
        "\"penta_DD\": 0",
        "\"elo1\": 5.0",
        "\"seed\": 1",
    ] {
        assert!(state.contains(field), "{field} missing from {state}");
    }
    let kept = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(kept.matches("[Event ").count(), 6);
    let aside = std::fs::read_to_string(dir.join("unpaired-4.pgn")).unwrap();
    assert!(aside.contains("[Round \"4\"]"));
    // Bad input: a name that plays no game, a missing folder, no arguments.
    assert!(!run(&dir, &["nobody"]).status.success());
    let missing = run(&dir.join("missing"), &["new"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("rebuild_state.py:"));
    let bare = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/matches/2026-11-27-multi-cut/rebuild_state.py"
        ))
        .output()
        .unwrap();
    assert_eq!(bare.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_state_can_be_rebuilt_from_fastchess_log() {
    let dir = std::env::temp_dir().join(format!("nosce-sprt-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // fastchess's console lines, out of order as two concurrent games finish; game 5's pair
    // never finished. From "new"'s side: round 1 WD, round 2 LL.
    let log = "Started game 1 of 40 (new vs base)\n\
        Finished game 2 (base vs new): 1/2-1/2 {Draw by 3-fold repetition}\n\
        Finished game 1 (new vs base): 1-0 {White mates}\n\
        Finished game 4 (new vs base): 0-1 {Black mates}\n\
        Results of new vs base (4+0.04, 1t, 16MB, 2moves-1000.epd):\n\
        Finished game 3 (base vs new): 1-0 {White mates}\n\
        Finished game 5 (new vs base): 1-0 {White mates}\n";
    std::fs::write(dir.join("log.txt"), log).unwrap();
    std::fs::write(dir.join("games.pgn"), "left as it is").unwrap();
    let template = r#"{"stats": {"new vs base": {"wins": 0}}}"#;
    std::fs::write(dir.join("state.json"), template).unwrap();
    let out = run(&dir, &["new", "--from-log"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("2 pairs: W 1 D 1 L 2"), "{said}");
    assert!(said.contains("Ptnml(0-2) [1, 0, 0, 1, 0]"), "{said}");
    assert!(said.contains("left out: ['3']"), "{said}");
    let state = std::fs::read_to_string(dir.join("state.json")).unwrap();
    assert!(state.contains("\"penta_WD\": 1") && state.contains("\"penta_LL\": 1"));
    assert_eq!(
        std::fs::read_to_string(dir.join("games.pgn")).unwrap(),
        "left as it is"
    );
    // A log without a finished game of the name is refused; so is an unknown flag.
    assert!(!run(&dir, &["nobody", "--from-log"]).status.success());
    assert_eq!(run(&dir, &["new", "--bogus"]).status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}
