//! Allocation failures answered, not fatal: the real binary under a real address-space limit
//! (`prlimit --as`, Linux) refuses a `Hash` (UCI) or `memory` (xboard) it cannot allocate
//! with a message and keeps the table it had, gives an opponent type whose table does not
//! fit a 1 MB table with a message, and `nosce tb gen` reports an allocation failure on
//! stderr instead of aborting; the sweep refuses `--kr-hash`/`--opp-hash` it cannot have;
//! threads that cannot start are reported once, and OM helpers whose private tables do not
//! fit are left out. After each refusal the engine still plays a legal move.
#![cfg(target_os = "linux")]

use crate::common;
use crate::prereq;

use std::process::Command;
use std::time::Duration;

use common::{Engine, QUICK};

/// The address-space limit of these tests: room for the engine and its 16 MB table, not
/// for 8 GB.
const LIMIT: &str = "1000000000";

fn have_prlimit() -> bool {
    if Command::new("prlimit").arg("--version").output().is_ok() {
        return true;
    }
    prereq::missing("prlimit (util-linux)");
    false
}

/// Runs the binary under `prlimit --as=LIMIT`, sends the lines of `script`, and returns its
/// output up to the first line starting with `end` (then it must quit cleanly).
fn session(script: &str, end: &str) -> Vec<String> {
    session_with(Some(LIMIT), script, end)
}

/// [`session`] with address-space limit `limit` (bytes; `None`: no limit).
fn session_with(limit: Option<&str>, script: &str, end: &str) -> Vec<String> {
    let bin = env!("CARGO_BIN_EXE_nosce");
    let cmd = match limit {
        Some(l) => {
            let mut c = Command::new("prlimit");
            c.arg(format!("--as={l}")).arg(bin);
            c
        }
        None => Command::new(bin),
    };
    let mut e = Engine::start_command(cmd);
    for line in script.lines() {
        e.send(line);
    }
    let lines = e.read_until(end, Duration::from_secs(60));
    e.send("quit");
    e.expect_exit(QUICK);
    lines
}

fn has(lines: &[String], text: &str) -> bool {
    lines.iter().any(|l| l == text)
}

#[test]
fn uci_hash_that_cannot_be_allocated_is_refused_and_the_old_size_kept() {
    if !have_prlimit() {
        return;
    }
    let lines = session(
        "uci\nsetoption name Hash value 8192\nisready\nposition startpos\ngo depth 6\n",
        "bestmove",
    );
    assert!(
        has(
            &lines,
            "info string error: cannot allocate 8192 MB for Hash; keeping 16 MB"
        ),
        "{lines:?}"
    );
    assert!(has(&lines, "readyok"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 6 ")),
        "{lines:?}"
    );
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove ") && !best.contains("0000"),
        "{best}"
    );

    // A size that fits is taken without a word, and the engine still searches.
    let lines = session(
        "uci\nsetoption name Hash value 8192\nsetoption name Hash value 64\n\
         position startpos moves e2e4\ngo depth 5\n",
        "bestmove",
    );
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "only the 8192 MB request fails: {lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 5 ")),
        "{lines:?}"
    );
}

#[test]
fn xboard_memory_that_cannot_be_allocated_is_an_error_and_play_goes_on() {
    if !have_prlimit() {
        return;
    }
    let lines = session(
        "xboard\nprotover 2\nmemory 8192\nping 1\nnew\nsd 4\ngo\n",
        "move ",
    );
    assert!(
        has(&lines, "Error (cannot allocate memory): memory 8192"),
        "{lines:?}"
    );
    assert!(has(&lines, "pong 1"), "{lines:?}");
}

/// The peak address space (`VmPeak`, bytes) of the binary, without a limit, after the lines
/// of `script` up to the first line starting with `end`.
fn peak_address_space(script: &str, end: &str) -> u64 {
    let mut e = Engine::start();
    for line in script.lines() {
        e.send(line);
    }
    e.read_until(end, Duration::from_secs(60));
    let kb = e.status_kb("VmPeak");
    e.send("quit");
    e.expect_exit(QUICK);
    kb * 1024
}

#[test]
fn an_opponent_type_whose_table_does_not_fit_gets_a_small_one() {
    if !have_prlimit() {
        return;
    }
    let script = |hash: u32| {
        format!(
            "uci\nsetoption name Hash value {hash}\nsetoption name OM_Mode value prom\n\
             setoption name OM_OpponentTypes value self:0.5:depth=3,material:0.5:depth=2\n\
             position startpos\ngo depth 5\n"
        )
    };
    // The same session with 16 MB (the material type's table: 8 MB) measures what the
    // process needs besides its tables; machines differ (allocator arenas, thread stacks).
    // With 800 MB ours needs 784 MB more and the type's 392 MB more: the limit leaves room
    // for ours and half of the type's.
    const MIB: u64 = 1 << 20;
    let limit = peak_address_space(&script(16), "bestmove") + (784 + 196) * MIB;
    let lines = session_with(Some(&limit.to_string()), &script(800), "bestmove");
    assert!(
        has(
            &lines,
            "info string error: cannot allocate 400 MB for an opponent type's table; it gets 1 MB"
        ),
        "limit {limit}: {lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("for Hash")),
        "our own 800 MB fit: {lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string om depth 5 ")),
        "the OM search still runs to depth 5: {lines:?}"
    );
}

#[test]
fn table_generation_reports_an_allocation_failure() {
    if !have_prlimit() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("nosce-memlimit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // 25 MB of address space: the program starts, the generation's arrays do not fit.
    let out = Command::new("prlimit")
        .arg("--as=25000000")
        .arg(env!("CARGO_BIN_EXE_nosce"))
        .args(["tb", "gen", "KQvKR"])
        .env("NOSCE_TABLES", &dir)
        .output()
        .expect("cannot run nosce tb gen");
    let _ = std::fs::remove_dir_all(&dir);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot allocate memory"),
        "status {:?}, stderr {err}",
        out.status
    );
    assert!(!out.status.success(), "a failed generation is a failure");
    assert!(
        out.status.code().is_some(),
        "an exit, not a signal (abort): {:?}",
        out.status
    );
}

#[test]
fn threads_that_cannot_start_are_reported_once_and_the_search_goes_on() {
    if !have_prlimit() {
        return;
    }
    // 256 threads with 64 MB stacks do not fit in 1 GB of address space.
    let lines = session(
        "uci\nsetoption name Threads value 256\nposition startpos\ngo depth 8\n",
        "bestmove",
    );
    let warnings: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string warning: could not start helper thread"))
        .collect();
    assert_eq!(
        warnings.len(),
        1,
        "one warning, not one per thread: {lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 8 ")),
        "{lines:?}"
    );
}

#[test]
fn kqkr_tables_that_cannot_be_allocated_end_the_sweep_with_a_message() {
    if !have_prlimit() {
        return;
    }
    for (flag, needle) in [
        (
            "--kr-hash",
            "cannot allocate 100000 MB for the K+R side's table (--kr-hash)",
        ),
        (
            "--opp-hash",
            "cannot allocate 100000 MB for the K+Q side's table (--opp-hash)",
        ),
    ] {
        let out_dir =
            std::env::temp_dir().join(format!("nosce-memlimit-kqkr-{}", std::process::id()));
        let out = Command::new("prlimit")
            .arg(format!("--as={LIMIT}"))
            .arg(env!("CARGO_BIN_EXE_nosce"))
            .args([
                "kqkr", flag, "100000", "--games", "1", "--jobs", "1", "--out",
            ])
            .arg(&out_dir)
            .output()
            .expect("cannot run nosce kqkr");
        let _ = std::fs::remove_dir_all(&out_dir);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(needle),
            "{flag}: status {:?}, stderr {err}",
            out.status
        );
        assert_eq!(out.status.code(), Some(2), "{flag}: {err}");
    }
}

#[test]
fn om_helpers_whose_tables_do_not_fit_are_left_out_not_fatal() {
    if !have_prlimit() {
        return;
    }
    // A deterministic PrOM search with 64 threads, each helper with private tables.
    let script = "uci\nsetoption name Threads value 64\nsetoption name OM_Mode value prom\n\
         setoption name OM_Search value deterministic=on\n\
         setoption name OM_OpponentTypes value self:0.5:depth=2,material:0.5:depth=2\n\
         position startpos\ngo depth 5\n";
    let last = |lines: &[String]| {
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth 5 "))
            .map(|l| l.split(" nodes ").next().unwrap_or("").to_string());
        (info, lines.last().cloned())
    };
    let free = session_with(None, script, "bestmove");
    // 400 MB of address space: 64 threads would want 768 MB of private tables.
    let tight = session_with(Some("400000000"), script, "bestmove");
    assert!(
        tight
            .iter()
            .any(|l| l.starts_with("info string error: cannot allocate the private tables")),
        "{tight:?}"
    );
    assert!(last(&free).0.is_some(), "{free:?}");
    assert_eq!(last(&free), last(&tight), "fewer helpers, same answer");
}
