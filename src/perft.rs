//! Perft: counts the leaf nodes of the legal move tree to a fixed depth, through our own
//! [`Position`] (so keys, make and undo are exercised too), with `divide` output per root
//! move for debugging move generation.

use crate::position::{Position, uci};

/// Number of leaf positions `depth` plies below `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for m in moves {
        pos.play(m);
        n += perft(pos, depth - 1);
        pos.undo();
    }
    n
}

/// Perft split by root move: `(move in UCI, count)` pairs in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    if depth == 0 {
        return out;
    }
    for m in pos.legal_moves() {
        pos.play(m);
        out.push((uci(m), perft(pos, depth - 1)));
        pos.undo();
    }
    out
}
