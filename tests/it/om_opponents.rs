//! Opponent models of engines nosce did not build, through the real binary: a UCI engine as
//! an opponent type (`OM_OpponentEngine`, `engine:` types), its faults (a deliberately broken
//! fake engine that crashes, hangs or answers illegal moves: the type leaves the search, the
//! engine keeps answering on time), and `OM_Mode=auto` with its fit report.
//!
//! The fake engine is `tests/fake_uci.py` (python3 with python-chess, which `.ci/run`
//! installs); a missing python is a failure, not a skip.

use crate::common;

use std::time::Duration;

use common::{Engine, QUICK, SEARCH, legal_uci, parse_bestmove, position_after};

/// The command line of the fake engine in `mode`.
fn fake(mode: &str) -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_uci.py");
    format!("python3 \"{script}\" {mode}")
}

/// An engine with the given options set, synchronised.
fn engine_with(options: &[(&str, &str)]) -> Engine {
    let (mut e, _) = Engine::start_uci();
    for (k, v) in options {
        e.send(&format!("setoption name {k} value {v}"));
    }
    e.sync();
    e
}

/// Runs `go` in the position after `moves` and returns the lines; checks the bestmove.
fn go_checked(e: &mut Engine, moves: &[&str], go: &str, timeout: Duration) -> Vec<String> {
    let pos = if moves.is_empty() {
        "position startpos".to_string()
    } else {
        format!("position startpos moves {}", moves.join(" "))
    };
    e.send(&pos);
    let (lines, _) = e.go(go, timeout);
    let board = position_after(None, moves);
    let (best, _) = parse_bestmove(lines.last().expect("bestmove"));
    let legal = legal_uci(&board);
    e.check(
        legal.contains(&best),
        &format!("bestmove {best} is illegal"),
    );
    lines
}

/// The move the fake engine (mode `ok`) plays after `moves`: the first legal one in sorted
/// UCI order.
fn first_legal(moves: &[String]) -> Option<String> {
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let mut legal = legal_uci(&position_after(None, &refs));
    legal.sort();
    legal.first().cloned()
}

/// Our move and the predicted reply of the last `om depth D move M predicted R ...` line.
fn om_move_and_prediction(lines: &[String], depth: u32) -> Option<(String, String)> {
    let tag = format!("om depth {depth} ");
    let line = lines.iter().rev().find(|l| l.contains(&tag))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| {
        let i = words.iter().position(|&w| w == key)?;
        words.get(i + 1).map(|w| w.to_string())
    };
    Some((after("move")?, after("predicted")?))
}

fn says(lines: &[String], text: &str) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with("info string") && l.contains(text))
}

#[test]
fn python_chess_is_there_for_the_fake_engine() {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import chess"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "python3 with python-chess is needed (pip install chess)"
    );
}

#[test]
fn a_working_engine_type_predicts_the_reply() {
    let mut e = engine_with(&[
        ("OM_Mode", "om"),
        ("OM_OpponentTypes", "engine:1:nodes=100"),
        ("OM_OpponentEngine", &fake("ok")),
    ]);
    let lines = go_checked(&mut e, &["e2e4", "e7e5"], "go depth 4", SEARCH);
    e.check(says(&lines, "om depth 4"), "no OM iteration report");
    e.check(
        !says(&lines, "fails"),
        "a working engine was reported as failing",
    );
    // The fake engine plays the first legal move in sorted UCI order: the predicted reply
    // of the reported line must be that move in the position after our move.
    let Some((ours, predicted)) = om_move_and_prediction(&lines, 4) else {
        e.fail("no OM iteration report at depth 4");
    };
    let predicted = predicted.as_str();
    let after = position_after(None, &["e2e4", "e7e5", &ours]);
    let mut legal = legal_uci(&after);
    legal.sort();
    e.check(
        legal.first().map(String::as_str) == Some(predicted),
        &format!(
            "predicted {predicted}, the fake engine plays {:?}",
            legal.first()
        ),
    );
    e.close();
}

#[test]
fn a_crashing_engine_leaves_the_search_and_the_engine_keeps_playing() {
    let mut e = engine_with(&[
        ("OM_Mode", "om"),
        ("OM_OpponentTypes", "engine:1:nodes=100"),
        ("OM_OpponentEngine", &fake("crash")),
    ]);
    let lines = go_checked(&mut e, &[], "go depth 3", SEARCH);
    e.check(
        says(&lines, "fails and leaves this search") && says(&lines, "alpha-beta"),
        "the crash was not reported",
    );
    // Again (a restart, a crash), and then the restart budget is spent: still bestmoves.
    for _ in 0..4 {
        go_checked(&mut e, &["d2d4"], "go depth 3", SEARCH);
    }
    e.sync();
    e.close();
}

#[test]
fn a_hanging_engine_never_makes_us_late() {
    let mut e = engine_with(&[
        ("OM_Mode", "om"),
        ("OM_OpponentTypes", "engine:1:nodes=100"),
        ("OM_OpponentEngine", &fake("hang")),
    ]);
    e.send("position startpos");
    let (lines, took) = e.go("go movetime 400", SEARCH);
    e.check(
        took < Duration::from_millis(1200),
        &format!("bestmove after {took:?} with movetime 400"),
    );
    let (best, _) = parse_bestmove(lines.last().unwrap());
    e.check(best != "0000" && best != "(none)", "no move");
    // Without a clock the hang is a fault after the answer timeout: α-β takes over.
    e.send("position startpos moves e2e4");
    let (lines, took) = e.go("go depth 3", Duration::from_secs(20));
    e.check(took < Duration::from_secs(12), &format!("took {took:?}"));
    e.check(says(&lines, "fails"), "the hang was not reported");
    e.close();
}

#[test]
fn an_engine_that_never_completes_its_handshake_never_makes_us_late() {
    let mut e = engine_with(&[
        ("OM_Mode", "om"),
        ("OM_OpponentTypes", "engine:1:nodes=100"),
        ("OM_OpponentEngine", &fake("no-uciok")),
    ]);
    e.send("position startpos");
    let (lines, took) = e.go("go movetime 400", SEARCH);
    e.check(
        took < Duration::from_millis(1200),
        &format!("bestmove after {took:?} with movetime 400"),
    );
    e.check(
        says(&lines, "did not start"),
        "the start failure was not reported",
    );
    e.close();
}

#[test]
fn a_slow_starting_engine_is_started_by_the_new_game_not_in_the_first_move() {
    // The engine takes 600 ms to answer `uci`, four times the first move's time: started
    // inside that move it could not count (and would count a fault).
    let mut e = engine_with(&[
        ("OM_Mode", "om"),
        ("OM_OpponentTypes", "engine:1:nodes=100"),
        ("OM_OpponentEngine", &fake("slow-start 600")),
    ]);
    e.send("ucinewgame");
    e.sync();
    e.send("position startpos");
    let (lines, _) = e.go("go movetime 150", SEARCH);
    e.check(
        !says(&lines, "fails") && !says(&lines, "did not start"),
        "the engine was started inside the move",
    );
    e.check(
        lines
            .iter()
            .any(|l| l.starts_with("info string om engine calls ") && !l.contains("calls 0 ")),
        "the engine was not asked in the first move",
    );
    e.close();
}

#[test]
fn illegal_and_garbage_answers_are_faults() {
    for mode in ["illegal", "garbage"] {
        let mut e = engine_with(&[
            ("OM_Mode", "prom"),
            ("OM_OpponentTypes", "self:0.5:depth=2,engine:0.5:nodes=100"),
            ("OM_OpponentEngine", &fake(mode)),
        ]);
        let lines = go_checked(&mut e, &["g1f3"], "go depth 3", SEARCH);
        e.check(
            says(&lines, "fails and leaves this search")
                && says(&lines, "the other types share its probability"),
            &format!("{mode}: the fault was not reported"),
        );
        e.close();
    }
}

#[test]
fn bad_engine_settings_are_rejected_and_a_missing_engine_is_reported() {
    let mut e = engine_with(&[]);
    e.send("setoption name OM_OpponentEngine value \"unterminated");
    e.expect("info string", QUICK);
    e.send("setoption name OM_OpponentEngine value fake | Threads");
    e.expect("info string", QUICK);
    e.send("setoption name OM_OpponentTypes value engine:1:tb=on");
    e.expect("info string", QUICK);
    // An engine type without an engine leaves the model.
    e.send("setoption name OM_Mode value om");
    e.send("setoption name OM_OpponentTypes value engine:1:nodes=50");
    let lines = go_checked(&mut e, &[], "go depth 3", SEARCH);
    e.check(says(&lines, "needs OM_OpponentEngine"), "no warning");
    // A program that does not exist: a start failure, reported; bestmove all the same.
    e.send("setoption name OM_OpponentEngine value /nonexistent/engine-binary");
    let lines = go_checked(&mut e, &[], "go depth 3", SEARCH);
    e.check(says(&lines, "fails"), "the start failure was not reported");
    e.close();
}

#[test]
fn nosce_itself_as_the_engine_type() {
    // The engine type with nosce's own binary, replayed at a node limit: a real engine,
    // deterministic answers, and the OM driver searching below them.
    let me = env!("CARGO_BIN_EXE_nosce");
    let mut e = engine_with(&[
        ("OM_Mode", "om"),
        ("OM_OpponentTypes", "engine:1:nodes=2000"),
        ("OM_Search", "replay=on"),
        ("OM_OpponentEngine", &format!("\"{me}\"")),
    ]);
    let a = go_checked(&mut e, &["e2e4", "c7c5"], "go depth 5", SEARCH);
    e.check(says(&a, "om depth 5"), "no OM iteration");
    e.check(!says(&a, "fails"), "nosce as an engine type failed");
    e.send("ucinewgame");
    let b = go_checked(&mut e, &["e2e4", "c7c5"], "go depth 5", SEARCH);
    e.check(
        a.last() == b.last(),
        "the same search with a deterministic engine type chose differently",
    );
    e.close();
}

#[test]
fn auto_mode_reports_its_fit_and_plays_a_game() {
    let mut e = engine_with(&[("OM_Mode", "auto")]);
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    let mut reported = 0;
    for _ in 0..8 {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let lines = go_checked(&mut e, &refs, "go depth 5", SEARCH);
        if says(&lines, "om model ") {
            reported += 1;
            let l = lines
                .iter()
                .find(|l| l.contains("om model "))
                .cloned()
                .unwrap_or_default();
            e.check(
                l.contains("predicted "),
                &format!("no prediction count: {l}"),
            );
        }
        let (best, _) = parse_bestmove(lines.last().unwrap());
        moves.push(best);
        // The "opponent": the first legal move in sorted order.
        let Some(reply) = first_legal(&moves) else {
            break;
        };
        moves.push(reply);
    }
    e.check(
        reported >= 6,
        &format!("the fit was reported {reported} times"),
    );
    e.close();
}

/// A fresh, empty directory under the system's temp directory.
fn temp_dir(tag: &str) -> std::path::PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!("nosce-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn auto_mode_keeps_a_profile_per_opponent() {
    let dir = temp_dir("profiles");
    let dir_s = dir.display().to_string();
    let mut e = engine_with(&[
        ("OM_Mode", "auto"),
        ("OM_Profiles", &dir_s),
        ("UCI_Opponent", "none 1500 computer Fake Opponent"),
    ]);
    e.send("ucinewgame");
    let game = ["e2e4", "a7a6", "d2d4", "h7h6", "g1f3", "a6a5"];
    let first = go_checked(&mut e, &game[..2], "go depth 3", SEARCH);
    e.check(
        says(
            &first,
            "om profile 'Fake Opponent': new, prior self:depth=2@120",
        ),
        "no new profile with the rating's prior",
    );
    // GUIs may send the same UCI_Opponent before every move: that is no new opponent (the
    // fit must not start again and count the game's moves twice).
    e.send("setoption name UCI_Opponent value none 1500 computer Fake Opponent");
    go_checked(&mut e, &game[..4], "go depth 3", SEARCH);
    e.send("setoption name UCI_Opponent value none 1500 computer Fake Opponent");
    go_checked(&mut e, &game, "go depth 3", SEARCH);
    // Profiles are written in the background; a new game waits for them.
    e.send("ucinewgame");
    e.sync();
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    e.check(files.len() == 1, &format!("profile files: {files:?}"));
    // The second game starts with what the first learned: three moves.
    e.send("ucinewgame");
    let again = go_checked(&mut e, &["d2d4", "e7e6"], "go depth 3", SEARCH);
    e.check(
        says(&again, "om profile 'Fake Opponent': 1 games, 3 moves"),
        "the second game did not load the profile",
    );
    // A corrupt profile is reported and ignored (written once the second game's profile is
    // on disk, so that the writer cannot overwrite it).
    e.send("ucinewgame");
    e.sync();
    let path = files[0].path();
    std::fs::write(&path, "nosce-profile 1\ngarbage\n").unwrap();
    e.send("ucinewgame");
    let bad = go_checked(&mut e, &["d2d4", "e7e6"], "go depth 3", SEARCH);
    e.check(
        says(&bad, "starting afresh"),
        "a corrupt profile was not reported",
    );
    e.close();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn auto_mode_with_an_engine_candidate_answers_on_time_under_a_short_clock() {
    let mut e = engine_with(&[
        ("OM_Mode", "auto"),
        ("OM_OpponentTypes", "engine:1:nodes=100"),
        ("OM_OpponentEngine", &fake("ok")),
        ("Move Overhead", "20"),
    ]);
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    let mut clock_ms: i64 = 2000;
    for _ in 0..12 {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let go = format!("go wtime {clock_ms} btime {clock_ms} winc 20 binc 20");
        let board = position_after(None, &refs);
        if legal_uci(&board).is_empty() {
            break;
        }
        e.send(&format!("position startpos moves {}", refs.join(" ")));
        let (lines, took) = e.go(&go, SEARCH);
        e.check(
            (took.as_millis() as i64) < clock_ms,
            &format!("{took:?} with {clock_ms} ms on the clock"),
        );
        clock_ms = clock_ms - took.as_millis() as i64 + 20;
        let (best, _) = parse_bestmove(lines.last().unwrap());
        e.check(legal_uci(&board).contains(&best), "illegal bestmove");
        moves.push(best);
        let Some(reply) = first_legal(&moves) else {
            break;
        };
        moves.push(reply);
    }
    e.close();
}

/// An engine candidate of `auto`'s fit that cannot answer (one that exits at `go`, one that
/// does not start) is reported by the fit, and the move is played all the same.
#[test]
fn auto_mode_reports_an_engine_candidate_that_fails() {
    for (engine, what) in [
        (fake("crash"), "exited"),
        ("/nonexistent/engine-binary".to_string(), "did not start"),
    ] {
        let mut e = engine_with(&[
            ("OM_Mode", "auto"),
            ("OM_OpponentTypes", "engine:1:depth=1"),
            ("OM_OpponentEngine", &engine),
            ("OM_Search", "odds=3"),
        ]);
        e.send("ucinewgame");
        // Black to move after the opponent's e2e4, with three times White's time and the
        // threshold at 3: the resources gate is open, so the fit scores e2e4 with every
        // candidate.
        let lines = go_checked(
            &mut e,
            &["e2e4"],
            "go wtime 9000 btime 30000 winc 100 binc 300",
            // A python engine's start on a loaded machine (the fake imports python-chess).
            SEARCH * 3,
        );
        e.check(
            lines
                .iter()
                .any(|l| l.starts_with("info string om fit:") && l.contains(what)),
            &format!("no fit report of an engine that {what}: {lines:?}"),
        );
        e.close();
    }
}

/// The numbers of the `om engine calls C time T ms budget B ms own replies F` line.
fn engine_use(lines: &[String]) -> Option<(u64, u64, u64, u64)> {
    let line = lines.iter().rev().find(|l| l.contains("om engine calls"))?;
    let w: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| -> Option<u64> {
        let i = w.iter().position(|&x| x == key)?;
        w.get(i + 1)?.parse().ok()
    };
    Some((
        after("calls")?,
        after("time")?,
        after("budget")?,
        after("replies")?,
    ))
}

#[test]
fn a_slow_engine_gets_only_its_share_of_the_move_time() {
    // Each answer of this engine takes 150 ms; the engine's share of an 800 ms move is a
    // quarter, 200 ms. Past it the type predicts our own reply, a call in flight is cut at
    // the share's end, and the late answer is drained by the next search's first call.
    let mut e = engine_with(&[
        ("OM_Mode", "om"),
        ("OM_OpponentTypes", "engine:1:depth=1"),
        ("OM_OpponentEngine", &fake("slow 150")),
        ("Move Overhead", "0"),
    ]);
    e.send("ucinewgame");
    // The first search starts the engine (the handshake is bounded by the clock only), so
    // the share is checked from the second on.
    let games: [&[&str]; 3] = [
        &["e2e4"],
        &["e2e4", "e7e5"],
        &["e2e4", "e7e5", "g1f3", "b8c6"],
    ];
    for (i, moves) in games.into_iter().enumerate() {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        // The first search starts the engine: python's start may take seconds on a busy
        // machine, and the handshake is bounded by the clock only.
        let movetime = if i == 0 { 5000 } else { 800 };
        let (lines, took) = e.go(&format!("go movetime {movetime}"), SEARCH);
        let (best, _) = parse_bestmove(lines.last().expect("bestmove"));
        let legal = legal_uci(&position_after(None, moves));
        e.check(
            legal.contains(&best),
            &format!("bestmove {best} is illegal"),
        );
        e.check(
            !says(&lines, "fails"),
            "a slow engine cut at its share was reported as failing",
        );
        // The first search also waits for the helper's start, which a loaded machine stretches.
        let slack = if i == 0 { 2000 } else { 400 };
        e.check(
            took < Duration::from_millis(movetime + slack),
            &format!("bestmove after {took:?} with movetime {movetime}"),
        );
        if i == 0 {
            continue;
        }
        let Some((calls, time, budget, own)) = engine_use(&lines) else {
            e.fail("no 'om engine calls' report");
        };
        e.check(
            (150..=200).contains(&budget),
            &format!("budget {budget} ms, expected a quarter of 800 ms"),
        );
        e.check(calls >= 1, "the engine was never asked");
        e.check(
            time <= budget + 60,
            &format!("the engine took {time} ms of a {budget} ms share"),
        );
        e.check(own >= 1, "no move fell back to our own reply");
    }
    e.close();
}

#[test]
fn an_xboard_engine_as_the_opponent_type() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_xboard.py");
    // Its prediction is the first legal move in sorted order of the position after ours.
    let mut e = engine_with(&[
        ("OM_Mode", "om"),
        ("OM_OpponentTypes", "engine:1:depth=3"),
        (
            "OM_OpponentEngine",
            &format!("xboard:python3 \"{script}\" ok"),
        ),
    ]);
    let lines = go_checked(&mut e, &["e2e4", "e7e5"], "go depth 4", SEARCH);
    e.check(!says(&lines, "fails"), "a working xboard engine failed");
    let Some((ours, predicted)) = om_move_and_prediction(&lines, 4) else {
        e.fail("no OM iteration report at depth 4");
    };
    let moves = vec!["e2e4".to_string(), "e7e5".to_string(), ours];
    e.check(
        first_legal(&moves).as_deref() == Some(predicted.as_str()),
        &format!("predicted {predicted}"),
    );
    // A node limit cannot be put to an xboard engine: the type leaves with a message.
    e.send("setoption name OM_OpponentTypes value engine:1:nodes=500");
    let lines = go_checked(&mut e, &["d2d4"], "go depth 3", SEARCH);
    e.check(
        says(&lines, "no node limit"),
        "the node limit was not refused with a message",
    );
    // A crashing xboard engine leaves the search; we still answer.
    e.send(&format!(
        "setoption name OM_OpponentEngine value xboard:python3 \"{script}\" crash"
    ));
    e.send("setoption name OM_OpponentTypes value engine:1:depth=3");
    let lines = go_checked(&mut e, &["g1f3"], "go depth 3", SEARCH);
    e.check(
        says(&lines, "xboard engine 'fake-crash'") && says(&lines, "fails"),
        "the crash was not reported",
    );
    e.close();
}

/// A net file of an earlier generation, kept in the repository.
const GEN0: &str = "matches/2026-11-25-nnue-gen0/nosce-20a6e878b5d6.nnue";

#[test]
fn an_nnue_type_with_its_own_net_file_predicts_that_net_exactly() {
    // The model: generation 0's net at depth 3, replayed (a cleared table per probe).
    let spec = format!("nnue:1:depth=3:file={GEN0}");
    let mut e = engine_with(&[
        ("OM_Mode", "om"),
        ("OM_OpponentTypes", &spec),
        ("OM_Search", "replay=on"),
        ("Hash", "16"),
    ]);
    // The opponent itself: nosce with that net at depth 3, a fresh table before the move;
    // its table is the size of the replay's (half our Hash).
    let mut opp = engine_with(&[("EvalFile", GEN0), ("Hash", "8")]);
    let mut moves: Vec<String> = vec!["e2e4".into(), "c7c5".into()];
    for _ in 0..3 {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let lines = go_checked(&mut e, &refs, "go depth 4", SEARCH);
        let (best, predicted) = parse_bestmove(lines.last().unwrap());
        moves.push(best);
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        opp.send("ucinewgame");
        let reply = go_checked(&mut opp, &refs, "go depth 3", SEARCH);
        let (reply, _) = parse_bestmove(reply.last().unwrap());
        e.check(
            predicted.as_deref() == Some(reply.as_str()),
            &format!("predicted {predicted:?}, the gen0 net played {reply} after {moves:?}"),
        );
        moves.push(reply);
    }
    e.close();
    opp.close();
}

#[test]
fn an_nnue_type_whose_net_file_is_missing_leaves_the_model_with_a_message() {
    let mut e = engine_with(&[
        ("OM_Mode", "om"),
        (
            "OM_OpponentTypes",
            "nnue:1:depth=2:file=/nonexistent/net.nnue",
        ),
    ]);
    let lines = go_checked(&mut e, &["e2e4"], "go depth 3", SEARCH);
    e.check(
        says(&lines, "cannot load its net"),
        "no message about the missing net file",
    );
    e.close();
}
