//! Graceful degradation of the OM driver under a budget (issue 38): when the budget ends
//! inside the OM root, the search plays its deepest completed α-β pass, never a shallower
//! speculative move — through the real binary, at a node limit too small for the probes.

use crate::common;

use common::{Engine, SEARCH, parse_bestmove};

#[test]
fn an_om_search_that_cannot_afford_its_probes_plays_alpha_betas_deepest_move() {
    let (mut e, _) = Engine::start_uci();
    // Each probe replays a depth-9 search: far more than the whole budget.
    for (k, v) in [
        ("OM_Mode", "om"),
        ("OM_OpponentTypes", "self:1:depth=9"),
        ("OM_Search", "replay=on"),
    ] {
        e.send(&format!("setoption name {k} value {v}"));
    }
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    let (lines, _) = e.go("go nodes 30000", SEARCH);
    let said = lines
        .iter()
        .find(|l| l.contains("no budget left for the OM root at depth"))
        .cloned();
    e.check(said.is_some(), "no message about the budget");
    let said = said.unwrap();
    let d: u32 = said
        .split("playing alpha-beta's depth-")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|r| {
            r.trim_end_matches("move")
                .trim_end_matches('-')
                .parse()
                .ok()
        })
        .unwrap_or(0);
    e.check(d >= 1, &format!("no depth in '{said}'"));
    let (best, _) = parse_bestmove(lines.last().unwrap());
    // The move is α-β's of that depth: the last info line's depth and first PV move.
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .cloned()
        .unwrap_or_default();
    e.check(
        last_info.contains(&format!("info depth {d} "))
            && last_info.contains(&format!(" pv {best}")),
        &format!("bestmove {best} is not the reported depth-{d} line: {last_info}"),
    );
    e.close();
}
