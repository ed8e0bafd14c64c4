//! Playing with a network through the real binary (issue 17, item 3): the engine starts with
//! the embedded net (`EvalFile`'s default is its name); `EvalFile` `hce` switches to the
//! hand-crafted evaluation, a net file to that net (different results from both, the same
//! results every time), `<empty>` or the embedded name back to the embedded net; a missing,
//! corrupt or truncated file is refused with an `info string` and the evaluator in use is
//! kept; `nosce bench` searches with the embedded net and `--evalfile FILE|hce` exactly as
//! the library does with that evaluator; the `nnue` opponent type leaves the model with
//! `hce` and is searched with a net; xboard announces the file option as a file (a browse
//! button) and loads it too. The other nets are seeded random ones, written here.

use crate::common;

use std::path::{Path, PathBuf};

use common::{Engine, QUICK, SEARCH, info_field, run_subcommand};
use nosce::eval::NnueEval;
use nosce::nnue::Network;
use nosce::nnue::embedded::FILE_NAME;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nosce-nnue-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A seeded random net of 64 units, saved in `dir`; returns it and its file.
fn saved_net(dir: &Path, seed: u64) -> (Network, PathBuf) {
    let net = Network::random(64, seed, 60, 100).expect("a valid network");
    let path = dir.join(net.file_name());
    net.save(&path).expect("save the net");
    (net, path)
}

const FENS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "8/2k5/3p4/p2P1p2/P2P1P2/8/3K4/8 w - - 0 1",
];

/// Per position of [`FENS`]: the last `info depth 5` line's score and nodes, and the
/// best move, each from a fresh game.
fn searches(e: &mut Engine) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for fen in FENS {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        let (lines, _) = e.go("go depth 5", SEARCH);
        let last = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth 5 ") && l.contains(" pv "))
            .cloned()
            .unwrap_or_else(|| e.fail("no depth-5 line"));
        let score = last.split(" score ").nth(1).unwrap_or("").to_string();
        let score = score.split(" nodes").next().unwrap_or("").to_string();
        let nodes = info_field(&last, "nodes").unwrap_or("").to_string();
        let best = lines.last().cloned().unwrap_or_default();
        out.push((score, nodes, best));
    }
    out
}

/// Sets `EvalFile` and returns the `info string` it answers with.
fn set_eval_file(e: &mut Engine, value: &str) -> String {
    e.send(&format!("setoption name EvalFile value {value}"));
    let lines = e.sync();
    lines
        .iter()
        .find(|l| l.starts_with("info string "))
        .cloned()
        .unwrap_or_else(|| e.fail("setoption EvalFile gave no info string"))
}

#[test]
fn evalfile_switches_the_evaluator_and_back() {
    let dir = temp_dir("switch");
    let (net, path) = saved_net(&dir, 1);
    let embedded_id = FILE_NAME
        .trim_start_matches("nosce-")
        .trim_end_matches(".nnue");
    let (mut e, handshake) = Engine::start_uci();
    e.check(
        handshake
            .iter()
            .any(|l| l == &format!("option name EvalFile type string default {FILE_NAME}")),
        "EvalFile announced with the embedded net's name as its default",
    );
    let embedded = searches(&mut e);

    let msg = set_eval_file(&mut e, "hce");
    e.check(
        msg == "info string evaluation: the hand-crafted evaluation",
        &format!("hce: the hand-crafted evaluation: {msg}"),
    );
    let hand_crafted = searches(&mut e);
    for (h, n) in hand_crafted.iter().zip(&embedded) {
        e.check(
            (&h.0, &h.1) != (&n.0, &n.1),
            &format!("the embedded net is not the hand-crafted evaluation: {h:?} vs {n:?}"),
        );
    }

    let msg = set_eval_file(&mut e, &path.display().to_string());
    e.check(
        msg.starts_with(&format!("info string evaluation: network {}", net.id())),
        &format!("the network's id named: {msg}"),
    );
    let with_net = searches(&mut e);
    let again = searches(&mut e);
    e.check(with_net == again, "the same searches with the net twice");
    for (h, n) in hand_crafted.iter().zip(&with_net) {
        e.check(
            (&h.0, &h.1) != (&n.0, &n.1),
            &format!("the net changes score or nodes: {h:?} vs {n:?}"),
        );
    }

    let msg = set_eval_file(&mut e, "<empty>");
    e.check(
        msg.starts_with(&format!("info string evaluation: network {embedded_id} "))
            && msg.contains("embedded"),
        &format!("<empty>: the embedded net: {msg}"),
    );
    let back = searches(&mut e);
    e.check(back == embedded, "the embedded net's searches again");

    set_eval_file(&mut e, "HCE");
    let back = searches(&mut e);
    e.check(back == hand_crafted, "the hand-crafted searches again");
    let msg = set_eval_file(&mut e, FILE_NAME);
    e.check(
        msg.contains(embedded_id) && msg.contains("embedded"),
        &format!("the default name: the embedded net: {msg}"),
    );
    e.send("quit");
    e.expect_exit(QUICK);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_evalfile_is_refused_and_the_net_in_use_kept() {
    let dir = temp_dir("bad");
    let (net, path) = saved_net(&dir, 2);
    let bytes = std::fs::read(&path).expect("read the net");
    let garbage = dir.join("garbage.nnue");
    std::fs::write(&garbage, b"not a network at all").expect("write");
    let truncated = dir.join("truncated.nnue");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).expect("write");
    let flipped = dir.join("flipped.nnue");
    let mut f = bytes.clone();
    let mid = f.len() / 3;
    f[mid] ^= 0x10;
    std::fs::write(&flipped, &f).expect("write");
    let missing = dir.join("no-such.nnue");

    let (mut e, _) = Engine::start_uci();
    set_eval_file(&mut e, &path.display().to_string());
    let with_net = searches(&mut e);
    let keeping = format!("keeping network {}", net.id());
    for bad in [&garbage, &truncated, &flipped, &missing] {
        let msg = set_eval_file(&mut e, &bad.display().to_string());
        e.check(
            msg.starts_with("info string error: ") && msg.contains(&keeping),
            &format!("{} refused, the net kept: {msg}", bad.display()),
        );
    }
    let after = searches(&mut e);
    e.check(after == with_net, "the searches are still the net's");
    e.send("quit");
    e.expect_exit(QUICK);

    // Refused at the start: the embedded net stays; after `hce`: the hand-crafted one.
    let (mut e, _) = Engine::start_uci();
    let msg = set_eval_file(&mut e, &garbage.display().to_string());
    e.check(
        msg.contains("keeping network") && msg.contains("embedded"),
        &format!("the embedded net kept: {msg}"),
    );
    set_eval_file(&mut e, "hce");
    let msg = set_eval_file(&mut e, &missing.display().to_string());
    e.check(
        msg.contains("keeping the hand-crafted evaluation"),
        &format!("hand-crafted kept: {msg}"),
    );
    e.send("quit");
    e.expect_exit(QUICK);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_with_an_evalfile_searches_as_the_library_does() {
    let dir = temp_dir("bench");
    let (net, path) = saved_net(&dir, 3);
    let file = path.display().to_string();
    let (code, out, err) = run_subcommand("bench", &["4", "--evalfile", &file]);
    assert_eq!(code, 0, "bench --evalfile failed: {err}");
    let want = nosce::bench::run_with(4, &NnueEval::new(net)).expect("library bench");
    let last = out.lines().last().unwrap_or("");
    assert_eq!(
        last.split_whitespace().next(),
        Some(want.nodes.to_string().as_str()),
        "binary and library node counts: {last}"
    );
    let hand_crafted = nosce::bench::run_hce(4).expect("bench");
    let embedded = nosce::bench::run(4).expect("bench");
    assert_ne!(want.nodes, hand_crafted.nodes, "the net's search differs");
    assert_ne!(want.nodes, embedded.nodes, "from the embedded net's too");
    assert_ne!(
        embedded.nodes, hand_crafted.nodes,
        "the embedded net is a net"
    );
    for (args, want) in [
        (vec!["4"], embedded.nodes),
        (vec!["4", "--evalfile", "hce"], hand_crafted.nodes),
        (vec!["4", "--evalfile", FILE_NAME], embedded.nodes),
    ] {
        let (code, out, err) = run_subcommand("bench", &args);
        assert_eq!(code, 0, "bench {args:?} failed: {err}");
        let last = out.lines().last().unwrap_or("");
        assert_eq!(
            last.split_whitespace().next(),
            Some(want.to_string().as_str()),
            "bench {args:?}: {last}"
        );
    }

    let (code, _, err) = run_subcommand("bench", &["4", "--evalfile", "/no/such/net.nnue"]);
    assert_eq!(code, 2, "a missing file is a usage error");
    assert!(err.contains("cannot read"), "names the problem: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_nnue_opponent_type_needs_a_network() {
    let dir = temp_dir("type");
    let (_, path) = saved_net(&dir, 4);
    let (mut e, _) = Engine::start_uci();
    set_eval_file(&mut e, "hce");
    e.send("setoption name OM_Mode value om");
    e.send("setoption name OM_OpponentTypes value nnue:depth=2");
    e.send("position startpos moves e2e4 e7e5");
    let (lines, _) = e.go("go depth 4", SEARCH);
    e.check(
        lines
            .iter()
            .any(|l| l.contains("the nnue opponent type needs a network (EvalFile)")),
        "without a net the nnue type leaves the model, with a message",
    );
    e.check(
        !lines.iter().any(|l| l.starts_with("info string om depth")),
        "and the search is α-β",
    );

    set_eval_file(&mut e, &path.display().to_string());
    let (lines, _) = e.go("go depth 4", SEARCH);
    e.check(
        !lines.iter().any(|l| l.contains("needs a network")),
        "with a net the type stays",
    );
    e.check(
        lines.iter().any(|l| l.starts_with("info string om depth")),
        "and the OM driver searches with it",
    );

    e.send("setoption name OM_OpponentTypes value hce:0.5,nnue:0.5:depth=3");
    let lines = e.sync();
    e.check(
        !lines.iter().any(|l| l.contains("error")),
        &format!("hce and nnue types accepted: {lines:?}"),
    );
    e.send("setoption name OM_OpponentTypes value bogus:1");
    let lines = e.sync();
    e.check(
        lines
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("hce, nnue")),
        &format!("an unknown evaluator names the known ones: {lines:?}"),
    );
    e.send("quit");
    e.expect_exit(QUICK);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn xboard_offers_and_loads_the_evalfile() {
    let dir = temp_dir("xboard");
    let (net, path) = saved_net(&dir, 5);
    let (mut e, features) = Engine::start_xboard();
    e.check(
        features
            .iter()
            .any(|l| l == &format!("feature option=\"EvalFile -file {FILE_NAME}\"")),
        "EvalFile announced as a file option",
    );
    e.send(&format!("option EvalFile={}", path.display()));
    e.send("ping 1");
    let lines = e.read_until("pong 1", QUICK);
    e.check(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("# evaluation: network {}", net.id()))),
        &format!("loaded: {lines:?}"),
    );
    e.send("option EvalFile=/no/such/file.nnue");
    e.send("ping 2");
    let lines = e.read_until("pong 2", QUICK);
    e.check(
        lines
            .iter()
            .any(|l| l.starts_with("Error (bad option value)")),
        &format!("a missing file is an error: {lines:?}"),
    );
    e.send("new");
    e.send("sd 4");
    e.send("usermove e2e4");
    let lines = e.read_until("move ", SEARCH);
    e.check(
        lines.last().is_some_and(|l| l.starts_with("move ")),
        "the engine plays with the net",
    );
    e.send("quit");
    e.expect_exit(QUICK);
    let _ = std::fs::remove_dir_all(&dir);
}
