//! Drives the real binary with python-chess (`tests/python_client.py`): a self-play game
//! with legality checks, MultiPV analysis and a mate score, failing on any warning the
//! client logs. Skipped (with a message) when `python3` or the `chess` module is missing,
//! a failure under CI (which installs it).
use crate::prereq;

use std::process::Command;

#[test]
fn python_chess_client_plays_and_analyses() {
    let have_chess = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_chess {
        prereq::missing("python-chess not installed (pip install chess)");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python_client.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_nosce"))
        .output()
        .expect("cannot run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "python client failed ({})\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}",
        out.status
    );
    assert!(stdout.starts_with("ok: "), "unexpected output: {stdout}");
}
