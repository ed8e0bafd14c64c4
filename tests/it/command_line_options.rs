//! `nosce -o NAME=VALUE ...`: the protocol loop with engine options set before its first
//! line, through the real binary. A match runner that sends only the options an engine
//! announces (fastchess) reaches the hidden tuning options this way (`scripts/sprt.sh`).
//! Checked: a search with an option given on the command line is the search with the same
//! option sent by `setoption` (and not the default one), for UCI and xboard alike; bad
//! arguments end the program with a message and exit code 2.

use crate::common;

use std::process::{Command, Stdio};

use common::{Engine, SEARCH, info_field, pv_lines};

const FEATURES: &str = "kept,tteval";

/// Nodes of the last scored info line of `go depth 9` from the start position.
fn nodes_at_depth_9(e: &mut Engine) -> u64 {
    e.send("position startpos");
    let (lines, _) = e.go("go depth 9", SEARCH);
    let l = pv_lines(&lines);
    let last = l.last().expect("an info line with a score");
    info_field(last, "nodes")
        .and_then(|n| n.parse().ok())
        .expect("nodes in an info line")
}

fn started_with(args: &[&str]) -> Engine {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_nosce"));
    cmd.args(args);
    let mut e = Engine::start_command(cmd);
    e.send("uci");
    e.read_until("uciok", common::QUICK);
    e
}

#[test]
fn an_option_on_the_command_line_is_the_option_set_by_setoption() {
    let mut given = started_with(&["-o", &format!("SearchFeatures={FEATURES}"), "-o", "Hash=8"]);
    let from_line = nodes_at_depth_9(&mut given);
    given.close();

    let mut sent = started_with(&[]);
    sent.send(&format!("setoption name SearchFeatures value {FEATURES}"));
    sent.send("setoption name Hash value 8");
    let from_setoption = nodes_at_depth_9(&mut sent);
    sent.close();

    let mut plain = started_with(&[]);
    let default = nodes_at_depth_9(&mut plain);
    plain.close();

    assert_eq!(
        from_line, from_setoption,
        "-o and setoption searched different trees"
    );
    assert_ne!(
        from_line, default,
        "-o SearchFeatures={FEATURES} was not applied"
    );
}

#[test]
fn the_xboard_loop_starts_with_the_options_too() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_nosce"));
    cmd.args(["-o", "Hash=8"]);
    let mut e = Engine::start_command(cmd);
    e.send("xboard");
    e.send("protover 2");
    let lines = e.read_until("feature done=1", common::QUICK);
    e.check(
        lines.iter().any(|l| l.contains("myname=\"nosce")),
        "no xboard handshake after -o",
    );
    e.close();
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    for (args, said) in [
        (&["-o", "Frobnicate=1"][..], "Frobnicate"),
        (&["-o", "SearchFeatures=kept,frob"][..], "frob"),
        (&["-o", "Hash"][..], "NAME=VALUE"),
        (&["-o", "Hash=8", "stray"][..], "stray"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_nosce"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run nosce");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?} started the loop");
    }
}
