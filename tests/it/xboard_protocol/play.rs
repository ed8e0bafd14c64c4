//! Playing through xboard: either colour, force mode, `playother`, time controls, move now,
//! ping ordering, analyze mode, undo/remove, setboard, a game to mate, pondering, `quit`.

use super::*;

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
