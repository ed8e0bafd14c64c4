//! The fifty-move rule inside the search: a line that reaches the hundredth half-move
//! without a capture or pawn move (and not with mate) is a draw, so no principal variation
//! goes on after it — match runners check it (fastchess: "PV continues after fifty-move
//! rule", seen once in the conformance run, `matches/2026-11-24-conformance/`, where the
//! quiescence search played a capture after the draw).

use crate::common;

use std::time::Duration;

use common::{Engine, parse_move, position_after, pv_lines, pv_moves};
use shakmaty::Position;

/// From the conformance run: Black to move with the half-move clock at 98. There fastchess
/// saw `pv d1f3 d4f2 f3g4` at depth 2: after two quiet moves the game is drawn, but the
/// quiescence search still played Bxg4.
const AT_98: &str = "6k1/2R3p1/5p2/5Pp1/3B2P1/3K4/8/3b4 b - - 98 115";

#[test]
fn no_pv_goes_past_the_fifty_move_draw() {
    let (mut e, _) = Engine::start_uci();
    let mut checked = 0;
    // Free, and with the root move of the game's line (our best move here is a capture).
    for (depth, only) in (1..=8).flat_map(|d| [(d, ""), (d, " searchmoves d1f3")]) {
        e.send("ucinewgame");
        e.send(&format!("position fen {AT_98}"));
        let (lines, _) = e.go(&format!("go depth {depth}{only}"), Duration::from_secs(30));
        for line in pv_lines(&lines) {
            let pv = pv_moves(line);
            let mut pos = position_after(Some(AT_98), &[]);
            for (i, m) in pv.iter().enumerate() {
                let fifty = pos.halfmoves() >= 100 && !pos.is_checkmate();
                e.check(
                    !fifty,
                    &format!(
                        "depth {depth}{only}: pv move {} ({m}) after the fifty-move draw: {line}",
                        i + 1
                    ),
                );
                let Some(mv) = parse_move(&pos, m) else {
                    e.fail(&format!("illegal pv move {m}: {line}"));
                };
                pos.play_unchecked(mv);
            }
            checked += 1;
        }
    }
    assert!(checked >= 16, "only {checked} pv lines");
    e.close();
}
