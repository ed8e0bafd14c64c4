//! Without tablebases, the K+Q side must convert the two Browne–BELLE positions
//! (Donkers 2003 Fig. 5.9, built in here): nosce plays both sides with
//! 200,000 nodes per move and the K+Q side has to capture the rook or mate before the
//! 50-move rule ends the game. This is what the evaluation's KQKR knowledge is for.

use nosce::eval::FullEval;
use nosce::limits::Limits;
use nosce::position::{Position, uci};
use nosce::search::{SearchConfig, SearchContext, SearchControl, root_moves, search};
use nosce::tt::TranspositionTable;
use shakmaty::{Position as _, Role};

const NODES_PER_MOVE: u64 = 200_000;

/// Plays from `fen` until the rook is gone or mate (Ok: plies played), or the 50-move rule /
/// a repetition / stalemate ends the game (Err: description).
fn convert(fen: &str) -> Result<usize, String> {
    let mut pos = Position::from_fen(fen).expect("valid start position");
    let eval = FullEval::default();
    // One table per side, as two separate engines would have.
    let tts = [TranspositionTable::new(32), TranspositionTable::new(32)];
    let config = SearchConfig::default();
    let mut line = Vec::new();
    for ply in 0..200 {
        let chess = pos.chess();
        if chess.is_checkmate() {
            return Ok(ply);
        }
        if chess.board().by_role(Role::Rook).is_empty() {
            return Ok(ply);
        }
        if chess.board().by_role(Role::Queen).is_empty() {
            return Err(format!("the K+Q side lost its queen: {}", line.join(" ")));
        }
        if pos.is_fifty_move_draw() || pos.is_threefold() || chess.is_stalemate() {
            return Err(format!("draw after {ply} plies: {}", line.join(" ")));
        }
        let control = SearchControl::default();
        let ctx = SearchContext::silent(&eval, &tts[ply % 2], &control, &config);
        let limits = Limits::nodes(NODES_PER_MOVE);
        let allowed = root_moves(&pos, &limits);
        let r = search(&ctx, &pos, &limits, &allowed);
        let m = r.best.expect("a legal move");
        line.push(uci(m));
        pos.play(m);
    }
    Err(format!("no result in 200 plies: {}", line.join(" ")))
}

#[test]
fn browne_belle_1_is_converted_without_tables() {
    let plies = convert("K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1").unwrap_or_else(|e| panic!("{e}"));
    println!("Browne-BELLE 1 converted in {plies} plies");
}

#[test]
fn browne_belle_2_is_converted_without_tables() {
    let plies = convert("K2Q4/8/8/8/r7/2k5/8/8 w - - 0 1").unwrap_or_else(|e| panic!("{e}"));
    println!("Browne-BELLE 2 converted in {plies} plies");
}
