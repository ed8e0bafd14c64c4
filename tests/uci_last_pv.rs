//! The last principal variation a GUI sees starts with the move the engine plays: match
//! runners check it (fastchess: "Bestmove does not match beginning of last PV"), and GUIs
//! show that line as the engine's reason for its move. Through the real binary, for the
//! plain search and the opponent-model driver, with searches cut at every point of an
//! iteration by node limits (where a partial iteration's new best move used to be played
//! without being shown).

mod common;

use std::time::Duration;

use common::{Engine, info_field, parse_bestmove, pv_lines};

fn bench_positions(n: usize) -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/bench.epd");
    let text = std::fs::read_to_string(path).expect("bench.epd");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .take(n)
        .map(|l| l.split_whitespace().take(6).collect::<Vec<_>>().join(" "))
        .collect()
}

/// Plays `go nodes N` for each position and limit; returns how many searches were checked.
fn check(e: &mut Engine, positions: &[String], limits: &[u64]) -> usize {
    let mut checked = 0;
    for fen in positions {
        for &nodes in limits {
            e.send("ucinewgame");
            e.send(&format!("position fen {fen}"));
            let (lines, _) = e.go(&format!("go nodes {nodes}"), Duration::from_secs(30));
            let (best, _) = parse_bestmove(lines.last().expect("a bestmove line"));
            let pvs = pv_lines(&lines);
            let Some(last) = pvs.last() else {
                e.fail(&format!("no pv line for {fen} at {nodes} nodes"));
            };
            let first = info_field(last, "pv").unwrap_or("");
            e.check(
                first == best,
                &format!("{fen}, go nodes {nodes}: bestmove {best}, last pv starts {first}"),
            );
            checked += 1;
        }
    }
    checked
}

const LIMITS: [u64; 8] = [1_500, 4_000, 9_000, 17_000, 29_000, 41_000, 63_000, 97_000];

#[test]
fn the_last_pv_starts_with_the_bestmove() {
    let (mut e, _) = Engine::start_uci();
    let n = check(&mut e, &bench_positions(24), &LIMITS);
    assert_eq!(n, 24 * LIMITS.len());
    e.close();
}

#[test]
fn the_last_pv_starts_with_the_bestmove_in_om_mode() {
    let (mut e, _) = Engine::start_uci();
    e.send("setoption name OM_Mode value om");
    e.send("setoption name OM_OpponentTypes value self:1:depth=3");
    let n = check(&mut e, &bench_positions(12), &LIMITS[..5]);
    assert_eq!(n, 12 * 5);
    e.close();
}
