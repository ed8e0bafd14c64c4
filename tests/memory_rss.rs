//! Memory stays where the options put it: the resident set of the real binary after
//! `ucinewgame` and a search is at most `Hash` + the opponent types' own tables (`Hash/2`
//! per evaluator/tables combination other than ours) + 30 MB, for `Hash` = 16, 256 and 1024
//! and for a PrOM model with three types. Read from `/proc/PID/status` (Linux).
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// What the program may hold beyond its tables (code, stacks, buffers, the search's own
/// arrays), in MB.
const OVERHEAD_MB: u64 = 30;

/// The resident set (MB) of the binary after `setup`, `ucinewgame` and `go depth D`, read
/// once its `bestmove` is out.
fn rss_after(setup: &str, depth: u32) -> u64 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nosce"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start the engine");
    let mut input = child.stdin.take().unwrap();
    write!(
        input,
        "uci\n{setup}ucinewgame\nposition startpos moves e2e4 e7e5\ngo depth {depth}\n"
    )
    .unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let Ok(line) = line else { break };
        let done = line.starts_with("bestmove");
        lines.push(line);
        if done {
            break;
        }
    }
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("error")),
        "every table was allocated: {lines:?}"
    );
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()))
        .expect("cannot read the child's /proc status");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("no VmRSS line");
    let _ = writeln!(input, "quit");
    let _ = child.wait();
    kb / 1024
}

#[test]
fn resident_memory_is_the_hash_and_a_little_more() {
    for hash in [16u64, 256, 1024] {
        let rss = rss_after(&format!("setoption name Hash value {hash}\n"), 9);
        println!("Hash={hash}: resident {rss} MB");
        assert!(
            rss <= hash + OVERHEAD_MB,
            "Hash={hash}: resident {rss} MB > {hash} + {OVERHEAD_MB} MB"
        );
    }
}

#[test]
fn resident_memory_of_a_three_type_model_is_its_tables_and_a_little_more() {
    // `self` shares our table; `material` and `notb` (no tablebases) get Hash/2 each.
    let hash = 256u64;
    let rss = rss_after(
        &format!(
            "setoption name Hash value {hash}\nsetoption name OM_Mode value prom\n\
             setoption name OM_OpponentTypes value \
             self:0.4,material:0.3:depth=3,notb:0.3:depth=4\n"
        ),
        6,
    );
    let tables = hash + 2 * (hash / 2);
    println!("PrOM, Hash={hash}: resident {rss} MB, tables {tables} MB");
    assert!(
        rss <= tables + OVERHEAD_MB,
        "resident {rss} MB > {tables} + {OVERHEAD_MB} MB"
    );
}
