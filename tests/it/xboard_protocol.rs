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

// ---------------------------------------------------------------------------------------
// Playing

#[test]
fn engine_plays_white_after_go_and_black_after_usermove() {
    let (mut e, _) = start();
    say(&mut e, &["new", "random", "sd 3"]);
    e.send("go");
    let w = expect_move(&mut e, None, &[], SEARCH);
    say(&mut e, &[]);

    e.send("new");
    e.send("sd 3");
    e.send("usermove e2e4");
    expect_move(&mut e, None, &["e2e4"], SEARCH);
    // Castling and promotion notation: the engine keeps answering as Black.
    let fen = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1";
    say(
        &mut e,
        &["new", "force", &format!("setboard {fen}"), "sd 2"],
    );
    let lines = say(&mut e, &["usermove e1g1", "force", "undo"]);
    none_starting(&mut e, &lines, "Illegal", "for e1g1");
    e.send("playother");
    e.send("usermove b7a8q");
    expect_move(&mut e, Some(fen), &["b7a8q"], SEARCH);
    e.check(w.len() == 4, "a coordinate move");
    e.close();
}

#[test]
fn force_mode_records_moves_without_answering() {
    let (mut e, _) = start();
    let lines = say(
        &mut e,
        &["new", "force", "usermove e2e4", "usermove e7e5", "g1f3"],
    );
    none_starting(&mut e, &lines, "move", "in force mode");
    none_starting(&mut e, &lines, "Error", "in force mode");
    std::thread::sleep(Duration::from_millis(200));
    let later = say(&mut e, &[]);
    none_starting(&mut e, &later, "move", "in force mode");
    // `go` plays the side to move: Black here.
    say(&mut e, &["sd 3"]);
    e.send("go");
    expect_move(&mut e, None, &["e2e4", "e7e5", "g1f3"], SEARCH);
    e.close();
}

#[test]
fn playother_answers_the_next_move() {
    let (mut e, _) = start();
    let lines = say(&mut e, &["new", "force", "sd 3", "playother"]);
    none_starting(&mut e, &lines, "move", "after playother with White to move");
    e.send("usermove d2d4");
    let m = expect_move(&mut e, None, &["d2d4"], SEARCH);
    // The engine still plays Black two plies later.
    e.send("usermove c2c4");
    expect_move(&mut e, None, &["d2d4", &m, "c2c4"], SEARCH);
    e.close();
}

#[test]
fn time_controls_are_honoured() {
    let (mut e, _) = start();
    for l in [
        "level 40 5 0",
        "level 0 2:30 1",
        "level 0 0 3",
        "level 0 1 0.5",
        "level 40 0:30 0",
        "level 0 0:05 0.05",
        "time 500",
        "otim 480",
    ] {
        let lines = say(&mut e, &[l]);
        none_starting(&mut e, &lines, "Error", &format!("for '{l}'"));
    }
    for (bad, reason) in [
        ("level 40 5", "missing argument"),
        ("level x 5 0", "bad time control"),
        ("time soon", "bad number"),
        ("sd", "missing argument"),
        ("st -1", "bad time control"),
    ] {
        let lines = say(&mut e, &[bad]);
        let want = format!("Error ({reason}): {bad}");
        e.check(lines.contains(&want), &format!("no '{want}'"));
    }
    // A 0.2 s clock with a tiny increment: a quick move that keeps time in hand.
    say(&mut e, &["new", "level 0 0:01 0.01", "time 20", "otim 20"]);
    let lat = latency(&mut e);
    let t0 = Instant::now();
    e.send("go");
    expect_move(&mut e, None, &[], SEARCH);
    let spent = t0.elapsed();
    e.check(
        spent < Duration::from_millis(150) + 4 * lat,
        &format!("{spent:?} on a 0.2 s clock (idle round trip {lat:?})"),
    );
    // st: a fixed time per move.
    say(&mut e, &["new", "st 0.3"]);
    let lat = latency(&mut e);
    let t0 = Instant::now();
    e.send("usermove e2e4");
    expect_move(&mut e, None, &["e2e4"], SEARCH);
    let spent = t0.elapsed();
    e.check(
        spent < Duration::from_millis(600) + 4 * lat,
        &format!("{spent:?} for st 0.3 (idle round trip {lat:?})"),
    );
    // sd: the depth limit shows in the thinking output.
    say(
        &mut e,
        &["new", "level 0 5 0", "time 30000", "sd 3", "post"],
    );
    e.send("go");
    let lines = e.read_until("move ", SEARCH);
    let plies: Vec<u32> = thinking(&lines)
        .iter()
        .map(|l| {
            l.split_whitespace()
                .next()
                .unwrap_or("0")
                .parse()
                .unwrap_or(0)
        })
        .collect();
    e.check(
        plies.last() == Some(&3) && plies.iter().all(|&p| p <= 3),
        &format!("depths {plies:?} with sd 3"),
    );
    e.close();
}

#[test]
fn move_now_ends_a_long_search() {
    let (mut e, _) = start();
    say(&mut e, &["new", "st 60"]);
    e.send("go");
    std::thread::sleep(Duration::from_millis(300));
    let t0 = Instant::now();
    e.send("?");
    expect_move(&mut e, None, &[], QUICK);
    let took = t0.elapsed();
    e.check(took < Duration::from_secs(1), &format!("'?' took {took:?}"));
    // `?` when not thinking is a no-op.
    let lines = say(&mut e, &["?"]);
    e.check(
        lines.is_empty(),
        &format!("output for an idle '?': {lines:?}"),
    );
    e.close();
}

#[test]
fn pong_follows_the_move_of_a_running_search() {
    let (mut e, _) = start();
    say(&mut e, &["new", "st 0.4"]);
    e.send("go");
    e.send("ping 7");
    e.send("hint");
    let lines = e.read_until("pong 7", SEARCH);
    let mv = lines.iter().position(|l| l.starts_with("move "));
    e.check(
        mv.is_some_and(|i| i + 1 == lines.len() - 1),
        "the move must come right before 'pong 7'",
    );
    // The hint sent after the ping is answered after the pong.
    let after = e.read_until("Hint: ", QUICK);
    e.check(after.len() == 1, "Hint right after pong");
    e.close();
}

#[test]
fn analyze_mode_thinks_without_moving() {
    let (mut e, _) = start();
    say(&mut e, &["new", "force", "post"]);
    let lat = latency(&mut e);
    e.send("analyze");
    std::thread::sleep(Duration::from_millis(300));
    // `ping` is answered at once in analyze mode.
    let t0 = Instant::now();
    let mut lines = sync(&mut e, 1, QUICK);
    e.check(
        t0.elapsed() < Duration::from_millis(500) + 4 * lat,
        &format!("pong while analysing (idle round trip {lat:?})"),
    );
    e.send("usermove e2e4");
    e.send(".");
    std::thread::sleep(Duration::from_millis(300));
    lines.extend(sync(&mut e, 2, QUICK));
    e.send("exit");
    lines.extend(sync(&mut e, 3, QUICK));
    let later = e.collect_for(Duration::from_millis(200));
    none_starting(&mut e, &lines, "move", "in analyze mode");
    none_starting(&mut e, &later, "", "after exit");
    let think = thinking(&lines);
    e.check(think.len() >= 2, "thinking output while analysing");
    // The last lines analyse the position after e2e4: their PVs are legal there.
    let last = think.last().map(|s| s.to_string()).unwrap_or_default();
    let (_, _, _, _, pv) = parse_thinking(&mut e, &last);
    let legal = legal_uci(&position_after(None, &["e2e4"]));
    e.check(
        pv.first().is_some_and(|m| legal.contains(m)),
        &format!("pv {pv:?} is not for the position after e2e4"),
    );
    e.close();
}

#[test]
fn undo_and_remove_take_moves_back() {
    let (mut e, _) = start();
    let lines = say(&mut e, &["new", "force", "undo"]);
    e.check(
        lines.contains(&"Error (command not legal now): undo".to_string()),
        "undo at the start",
    );
    let lines = say(
        &mut e,
        &[
            "e2e4", "e7e5", "g1f3", "undo", "g1f3", "remove", "e7e5", "d2d4", "remove",
        ],
    );
    none_starting(&mut e, &lines, "Illegal", "while taking back");
    none_starting(&mut e, &lines, "Error", "while taking back");
    // e2e4 e7e5 d2d4 minus two plies: e2e4 only, Black to move.
    say(&mut e, &["sd 2"]);
    e.send("go");
    expect_move(&mut e, None, &["e2e4"], SEARCH);
    e.close();
}

#[test]
fn setboard_good_and_bad() {
    let (mut e, _) = start();
    let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    say(
        &mut e,
        &["new", "force", &format!("setboard {kiwi}"), "sd 3"],
    );
    e.send("go");
    expect_move(&mut e, Some(kiwi), &[], SEARCH);

    let lines = say(&mut e, &["force", "setboard 8/8/8/8/8/8/8/8 w - - 0 1"]);
    e.check(
        lines.contains(&"tellusererror Illegal position".to_string()),
        "tellusererror",
    );
    e.check(
        lines
            .iter()
            .any(|l| l.starts_with("Error (bad FEN): setboard ")),
        "Error (bad FEN)",
    );
    let lines = say(&mut e, &["usermove e2e4", "setboard not a fen"]);
    e.check(
        lines.iter().any(|l| l.starts_with("Illegal move")),
        "moves are refused after a bad setboard",
    );
    say(&mut e, &["new", "sd 2"]);
    e.send("usermove e2e4");
    expect_move(&mut e, None, &["e2e4"], SEARCH);
    e.close();
}

#[test]
fn a_game_played_to_mate_is_claimed() {
    let (mut e, _) = start();
    say(
        &mut e,
        &["new", "force", &format!("setboard {MATE_IN_2}"), "sd 6"],
    );
    e.send("go");
    let m1 = expect_move(&mut e, Some(MATE_IN_2), &[], SEARCH);
    e.check(m1 == "e2e8", &format!("mate in 2 starts with {m1}"));
    e.send("usermove c8e8");
    let m2 = expect_move(&mut e, Some(MATE_IN_2), &["e2e8", "c8e8"], SEARCH);
    e.check(m2 == "e1e8", &format!("the mate is e1e8, not {m2}"));
    let claim = e.read_until("1-0", QUICK);
    e.check(
        claim.last().map(String::as_str) == Some("1-0 {White mates}"),
        "claim 1-0 {White mates}",
    );
    // The game is over: no more thinking, no further move.
    let lines = say(&mut e, &["result 1-0 {White mates}"]);
    none_starting(&mut e, &lines, "move", "after the mate");
    // The opponent's move ends the game too: Kxd4 leaves bare kings.
    let bare = "8/8/8/4k3/3R4/8/8/K7 b - - 0 1";
    say(
        &mut e,
        &[
            "new",
            "force",
            &format!("setboard {bare}"),
            "sd 2",
            "playother",
        ],
    );
    let lines = say(&mut e, &["usermove e5d4"]);
    e.check(
        lines == ["1/2-1/2 {Insufficient material}"],
        &format!("claim after the opponent's move: {lines:?}"),
    );
    e.close();
}

#[test]
fn illegal_moves_keep_the_state() {
    let (mut e, _) = start();
    let lines = say(
        &mut e,
        &["new", "sd 2", "usermove e2e5", "usermove e1g1", "e7e5"],
    );
    for m in ["e2e5", "e1g1", "e7e5"] {
        e.check(
            lines.contains(&format!("Illegal move: {m}")),
            &format!("no 'Illegal move: {m}'"),
        );
    }
    none_starting(&mut e, &lines, "move", "after illegal moves");
    e.send("usermove e2e4");
    expect_move(&mut e, None, &["e2e4"], SEARCH);
    e.close();
}

#[test]
fn bad_input_is_reported_never_fatal() {
    let (mut e, _) = start();
    for (line, want) in [
        ("foo bar", "Error (unknown command): foo bar"),
        ("ping x", "Error (bad number): ping x"),
        ("memory", "Error (missing argument): memory"),
        (
            "variant atomic",
            "Error (unsupported variant): variant atomic",
        ),
        (
            "egtpath nalimov /tmp",
            "Error (unsupported tablebase format): egtpath nalimov /tmp",
        ),
        ("option Nope=1", "Error (unknown option): option Nope=1"),
        (
            "option OM_Mode=sometimes",
            "Error (bad option value): option OM_Mode=sometimes",
        ),
        ("usermove", "Error (missing argument): usermove"),
    ] {
        let lines = say(&mut e, &[line]);
        e.check(lines.iter().any(|l| l == want), &format!("no '{want}'"));
    }
    // Information about the game and the opponent (name, rating and computer feed the
    // opponent profile of OM_Mode=auto) never produces an error.
    let lines = say(
        &mut e,
        &[
            "random",
            "computer",
            "name Some One",
            "rating 2400 2300",
            "ics -",
            "nps 1000",
            "variant normal",
            "draw",
            "hard",
            "easy",
            "post",
            "nopost",
            ".",
            "otim 100",
            "result 1/2-1/2 {Draw}",
            "accepted usermove",
            "exit",
        ],
    );
    e.check(
        lines.is_empty(),
        &format!("output for ignorable commands: {lines:?}"),
    );
    let lines = say(&mut e, &["bk"]);
    e.check(
        lines.len() == 2 && lines[0].starts_with(' ') && lines[1].is_empty(),
        &format!("bk answer {lines:?}"),
    );
    e.close();
}

#[test]
fn thinking_output_format_and_mate_scores() {
    let (mut e, _) = start();
    say(
        &mut e,
        &[
            "new",
            "force",
            &format!("setboard {MATE_IN_2}"),
            "sd 5",
            "post",
        ],
    );
    e.send("go");
    let lines = e.read_until("move ", SEARCH);
    let think: Vec<String> = thinking(&lines).into_iter().cloned().collect();
    e.check(!think.is_empty(), "thinking output with post");
    let mut last_time = 0;
    for l in &think {
        let (ply, _, cs, nodes, pv) = parse_thinking(&mut e, l);
        e.check(
            ply >= 1 && nodes > 0 && !pv.is_empty(),
            &format!("line '{l}'"),
        );
        e.check(cs >= last_time && cs < 1000, "time in centiseconds, rising");
        last_time = cs;
    }
    let last = think.last().cloned().unwrap_or_default();
    let (_, score, _, _, pv) = parse_thinking(&mut e, &last);
    e.check(
        score == 100_002,
        &format!("mate in 2 shown as {score}, not 100002"),
    );
    e.check(pv[..3] == ["e2e8", "c8e8", "e1e8"], &format!("pv {pv:?}"));
    // The side being mated sees -(100000 + N): 1...Kb8 2.Rh8#.
    let mated = "k7/8/1K6/8/8/8/8/7R b - - 0 1";
    say(
        &mut e,
        &["new", "force", &format!("setboard {mated}"), "sd 4"],
    );
    e.send("go");
    let lines = e.read_until("move ", SEARCH);
    let last = thinking(&lines)
        .last()
        .map(|s| s.to_string())
        .unwrap_or_default();
    let (_, score, _, _, _) = parse_thinking(&mut e, &last);
    e.check(
        score == -100_001,
        &format!("mated in 1 shown as {score}, not -100001"),
    );
    // nopost: silence.
    say(&mut e, &["new", "nopost", "sd 4"]);
    e.send("go");
    let lines = e.read_until("move ", SEARCH);
    e.check(thinking(&lines).is_empty(), "thinking output after nopost");
    e.close();
}

#[test]
fn memory_cores_egtpath_and_options_are_accepted() {
    let (mut e, _) = start();
    let lines = say(
        &mut e,
        &[
            "memory 32",
            "cores 2",
            "egtpath syzygy /nonexistent",
            "option OM_Mode=om",
            "option OM_SpeculationDepth=1",
            "option Move Overhead=20",
            "option Clear Hash",
            "option OM_Search=ties=off",
            "new",
            "cores 1",
        ],
    );
    none_starting(&mut e, &lines, "Error", "for valid settings");
    // The engine still plays (now with the opponent model on).
    say(&mut e, &["sd 3"]);
    e.send("usermove e2e4");
    expect_move(&mut e, None, &["e2e4"], SEARCH);
    e.close();
}

#[test]
fn pondering_hits_and_misses() {
    let (mut e, _) = start();
    say(
        &mut e,
        &["new", "hard", "level 0 0:10 0", "time 1000", "otim 1000"],
    );
    let lat = latency(&mut e);
    e.send("go");
    let m1 = expect_move(&mut e, None, &[], SEARCH);
    // `ping` is answered at once while pondering.
    let t0 = Instant::now();
    let lines = sync(&mut e, 1, QUICK);
    e.check(
        t0.elapsed() < Duration::from_millis(300) + 4 * lat,
        &format!("pong while pondering (idle round trip {lat:?})"),
    );
    none_starting(&mut e, &lines, "move", "while pondering");
    e.send("hint");
    let h = e.expect("Hint: ", QUICK)["Hint: ".len()..].to_string();
    // Ponder hit: the expected reply.
    e.send("time 990");
    e.send(&format!("usermove {h}"));
    let m2 = expect_move(&mut e, None, &[&m1, &h], SEARCH);
    // Ponder miss: any other reply is searched afresh.
    let pos = position_after(None, &[&m1, &h, &m2]);
    e.send("hint");
    let hint = e.read_until("Hint: ", QUICK);
    let expected = hint.last().map(|l| l["Hint: ".len()..].to_string());
    let other = legal_uci(&pos)
        .into_iter()
        .find(|m| Some(m) != expected.as_ref())
        .unwrap_or_default();
    e.send(&format!("usermove {other}"));
    expect_move(&mut e, None, &[&m1, &h, &m2, &other], SEARCH);
    // easy stops pondering; force leaves it silent.
    let lines = say(&mut e, &["easy", "force"]);
    none_starting(&mut e, &lines, "move", "after easy/force");
    e.close();
}

#[test]
fn quit_and_end_of_input_end_the_session() {
    let (mut e, _) = start();
    say(&mut e, &["new", "st 60"]);
    e.send("go");
    e.send("ping 5"); // waits for the move...
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit"); // ...but quit does not
    e.expect_exit(QUICK);
    let (mut e, _) = start();
    e.send("analyze");
    e.close();
}
