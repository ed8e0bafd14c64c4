//! What the engine says and what it takes through xboard: illegal moves and bad input
//! (reported, never fatal), the thinking output's format and mate scores, `memory`, `cores`,
//! `egtpath` and options.

use super::*;

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
