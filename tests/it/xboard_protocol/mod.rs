//! CECP (xboard protocol v2) transcripts through the real binary: feature negotiation, the
//! engine playing either colour, force mode, time controls, move now, ping ordering,
//! analyze mode, undo/remove, setboard, a game played to mate, pondering, options and bad
//! input.
//!
//! `ping N` / `pong N` is the barrier: the engine answers only after everything sent before
//! it is done (§8), so the lines read up to the `pong` are everything those commands said.
//! Every wait has a timeout (see `common`).

use crate::common;

use std::time::{Duration, Instant};

use common::{Engine, QUICK, SEARCH, legal_uci, position_after};

/// Mate in 2 for White: 1.Re8+ Rxe8 2.Rxe8#.
const MATE_IN_2: &str = "2r3k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1";

/// Starts the binary and completes the `xboard` / `protover 2` handshake; returns the
/// feature lines.
fn start() -> (Engine, Vec<String>) {
    Engine::start_xboard()
}

/// Sends `ping n` and returns every line up to and including `pong n`.
fn sync(e: &mut Engine, n: u32, timeout: Duration) -> Vec<String> {
    e.send(&format!("ping {n}"));
    e.read_until(&format!("pong {n}"), timeout)
}

/// The engine's idle round trip (`ping`/`pong`), the slowest of three: the baseline that
/// timing checks add to their budgets, so that a busy machine delays both alike.
fn latency(e: &mut Engine) -> Duration {
    (0..3)
        .map(|i| {
            let t0 = Instant::now();
            sync(e, 900 + i, QUICK);
            t0.elapsed()
        })
        .max()
        .unwrap_or_default()
}

/// Sends each line, then a ping barrier; returns the lines before the `pong`.
fn say(e: &mut Engine, lines: &[&str]) -> Vec<String> {
    for l in lines {
        e.send(l);
    }
    let mut got = sync(e, 999, QUICK);
    got.pop();
    got
}

/// Asserts no line of `lines` starts with `prefix`.
fn none_starting(e: &mut Engine, lines: &[String], prefix: &str, when: &str) {
    let bad: Vec<&String> = lines.iter().filter(|l| l.starts_with(prefix)).collect();
    e.check(bad.is_empty(), &format!("unexpected {bad:?} {when}"));
}

/// Waits for `move X`, checks X is legal in the position `fen` + `moves`, returns X.
fn expect_move(e: &mut Engine, fen: Option<&str>, moves: &[&str], timeout: Duration) -> String {
    let line = e.expect("move ", timeout);
    let mv = line["move ".len()..].trim().to_string();
    let legal = legal_uci(&position_after(fen, moves));
    e.check(
        legal.contains(&mv),
        &format!("move {mv} is illegal after {moves:?}"),
    );
    mv
}

/// Thinking-output lines (`ply score time nodes pv`).
fn thinking(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|t| t.parse::<u32>().is_ok())
        })
        .collect()
}

/// Asserts `line` has the thinking-output shape; returns (ply, score, centiseconds, nodes, pv).
fn parse_thinking(e: &mut Engine, line: &str) -> (u32, i64, u64, u64, Vec<String>) {
    let t: Vec<&str> = line.split_whitespace().collect();
    let parsed = (|| {
        Some((
            t.first()?.parse().ok()?,
            t.get(1)?.parse().ok()?,
            t.get(2)?.parse().ok()?,
            t.get(3)?.parse().ok()?,
            t[4..].iter().map(|s| s.to_string()).collect(),
        ))
    })();
    match parsed {
        Some(p) => p,
        None => e.fail(&format!("bad thinking line '{line}'")),
    }
}

// ---------------------------------------------------------------------------------------
// Handshake

#[test]
fn features_are_negotiated_with_done_last() {
    let mut e = Engine::start();
    e.send("");
    e.send("   ");
    e.send("xboard");
    e.send("protover 2");
    let lines = e.read_until("feature done=1", QUICK);
    let first = &lines[0];
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "time=1",
        "draw=0",
        "sigint=0",
        "sigterm=1",
        "reuse=1",
        "analyze=1",
        "colors=0",
        "memory=1",
        "smp=1",
        "egt=\"syzygy\"",
        "myname=\"nosce ",
    ] {
        e.check(first.contains(f), &format!("feature {f} missing"));
    }
    e.check(
        lines.iter().all(|l| l.starts_with("feature ")),
        "only feature lines before done=1",
    );
    for opt in [
        "feature option=\"OM_Mode -combo *off /// om /// prom /// auto\"",
        "feature option=\"Move Overhead -spin 50 0 5000\"",
        "feature option=\"OM_Search -string depth=0 nodes=0 tb=on replay=off ties=on root=tb-optimal margin=50 contempt=0 bound=auto policy=search deterministic=off odds=auto\"",
        "feature option=\"Clear Hash -button\"",
        "feature option=\"OM_OpponentTypes -string self:1\"",
    ] {
        e.check(lines.iter().any(|l| l == opt), &format!("{opt} missing"));
    }
    // Covered by memory / cores / egtpath: not offered twice.
    e.check(
        !lines.iter().any(|l| l.contains("option=\"Hash ")),
        "Hash is covered by memory",
    );
    // Nothing after done=1; the GUI's replies are accepted silently.
    let rest = say(
        &mut e,
        &["accepted ping", "accepted done", "rejected sigint"],
    );
    e.check(rest.is_empty(), &format!("output after done=1: {rest:?}"));
    e.send("quit");
    e.expect_exit(QUICK);
}

mod input_output;
mod play;
