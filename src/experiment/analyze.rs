//! `nosce kqkr analyze`: Tables 5.2–5.4 of Donkers 2003 §5.4.3 from any PGN of K+Q versus
//! K+R games — ours, or games played by other programs (cutechess-cli, fastchess,
//! `tests/kqkr_uci_runner.py`). Each game is replayed from its `FEN` tag, adjudicated by our
//! rules (a game is cut at conversion, the 50-move rule, repetition, stalemate or a thrown
//! win; one that stops earlier is `aborted` and counted as length 51) and every move is
//! costed by the exact tables. The speculative depth comes from a `SpecDepth` tag, else the
//! command line, else 0; predictions and search statistics are not in PGN and stay empty.

use std::collections::BTreeMap;
use std::path::Path;

use shakmaty::Position as _;
use shakmaty::san::SanPlus;

use super::adjudicate::{Outcome, adjudicate, move_cost, sides};
use super::config::BROWNE_BELLE;
use super::outputs::{finish, write_config, write_csvs};
use super::records::{GameRow, MoveRow};
use crate::position::{Position, uci};
use crate::tb::ExactTables;

fn four_fields(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// Analyses `pgn` into the folder `out`; returns the summary text.
pub fn analyze(
    pgn: &Path,
    spec_depth: Option<usize>,
    out: &Path,
    reference: Option<&Path>,
    tables: &ExactTables,
) -> Result<String, String> {
    let text = std::fs::read_to_string(pgn)
        .map_err(|e| format!("cannot read '{}': {e}", pgn.display()))?;
    let parsed = super::pgn::parse_pgn(&text);
    // Position ids: the PositionId tag, else Browne–BELLE 1/2, else new numbers.
    let mut ids: BTreeMap<String, (usize, String)> = BROWNE_BELLE
        .iter()
        .enumerate()
        .map(|(i, (name, fen))| (four_fields(fen), (i + 1, (*name).to_string())))
        .collect();
    let mut used = BTreeMap::new();
    let mut counters: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let (mut games, mut moves) = (Vec::new(), Vec::new());
    let mut skipped = 0;
    for g in &parsed {
        let Some(fen) = g.fen.clone() else {
            skipped += 1;
            continue;
        };
        let Ok(kq) = sides(&fen) else {
            skipped += 1;
            continue;
        };
        let (start, list) = g.moves().map_err(|e| format!("{}: {e}", pgn.display()))?;
        let fen = Position::from_chess(start).fen();
        let key4 = four_fields(&fen);
        let tagged = g.tag("PositionId").and_then(|v| v.parse::<usize>().ok());
        let next_id = ids.values().map(|v| v.0).max().unwrap_or(0) + 1;
        let (pid, pname) = ids
            .entry(key4)
            .or_insert_with(|| {
                let id = tagged.unwrap_or(next_id);
                (id, format!("position {id}"))
            })
            .clone();
        used.insert(pid, (pname, fen.clone()));
        let s = g
            .tag("SpecDepth")
            .and_then(|v| v.parse().ok())
            .or(spec_depth)
            .unwrap_or(0);
        let counter = counters.entry((pid, s)).or_insert(0);
        let index = *counter;
        *counter += 1;
        let mut pos = Position::from_fen(&fen)?;
        let mut rows = Vec::new();
        let mut played = Vec::new();
        let mut outcome = None;
        for &m in &list {
            if let Some(o) = adjudicate(&pos, kq, tables) {
                outcome = Some(o);
                break;
            }
            let before = pos.chess().clone();
            let cost = move_cost(tables, &before, m).unwrap_or_default();
            rows.push(MoveRow {
                position: pid,
                spec_depth: s,
                game: index,
                ply: played.len() + 1,
                kq: before.turn() == kq,
                mv: uci(m),
                san: SanPlus::from_move(before, m).to_string(),
                dtm_before: cost.dtm_before,
                dtc_before: cost.dtc_before,
                err_dtm: cost.err_dtm,
                err_dtc: cost.err_dtc,
                thrown: cost.thrown,
                ..MoveRow::default()
            });
            pos.play(m);
            played.push(uci(m));
        }
        let outcome = outcome
            .or_else(|| adjudicate(&pos, kq, tables))
            .unwrap_or(Outcome::Aborted);
        games.push(GameRow::from_moves(
            (pid, s, index),
            g.tag("Seed").and_then(|v| v.parse().ok()).unwrap_or(0),
            outcome,
            fen,
            &rows,
            0.0,
        ));
        moves.extend(rows);
    }
    if games.is_empty() {
        return Err(format!(
            "'{}' holds no K+Q versus K+R games with a FEN tag",
            pgn.display()
        ));
    }
    let mut config: Vec<(String, String)> = used
        .iter()
        .map(|(id, (name, fen))| (format!("position.{id}"), format!("{name} | {fen}")))
        .collect();
    config.push(("source".into(), format!("analyze {}", pgn.display())));
    config.push(("games".into(), games.len().to_string()));
    if skipped > 0 {
        config.push((
            "skipped".into(),
            format!("{skipped} games without a K+Q v K+R FEN"),
        ));
    }
    config.push(("run.git_revision".into(), super::config::git_revision()));
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create '{}': {e}", out.display()))?;
    write_config(out, &config)?;
    write_csvs(out, &mut games, &mut moves)?;
    finish(out, reference)
}
