//! Drives the real binary with python-chess's xboard client (`tests/xboard_client.py`): a
//! self-play game on a running clock with legality and time checks, and analysis with a mate
//! score, failing on any warning the client logs. Skipped (with a message) when `python3` or
//! the `chess` module is missing; CI installs it.
use crate::prereq;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The whole script (an 80-ply game on 1 s clocks plus analysis) takes about 5 s.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Reads a child's pipe to the end on a thread of its own.
fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = pipe.read_to_string(&mut text);
        text
    })
}

#[test]
fn python_chess_xboard_client_plays_and_analyses() {
    let have_chess = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_chess {
        prereq::missing("python-chess not installed (pip install chess)");
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/xboard_client.py");
    let mut child = Command::new("python3")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_nosce"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot run python3");
    let stdout = drain(child.stdout.take().expect("piped stdout"));
    let stderr = drain(child.stderr.take().expect("piped stderr"));
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("child status") {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    let Some(status) = status else {
        panic!(
            "python client timed out after {TIMEOUT:?}\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}"
        );
    };
    assert!(
        status.success(),
        "python client failed ({status})\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}"
    );
    assert!(stdout.starts_with("ok: "), "unexpected output: {stdout}");
    println!("{}", stdout.trim());
}
