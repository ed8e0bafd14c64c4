//! Moves as CECP writes them (protocol version 2, §8 "usermove" and "move"): coordinate
//! notation (`e2e4`, `e7e8q`, `e1g1`), except that in `variant fischerandom` castling is
//! written `O-O` / `O-O-O` both ways, since a king move cannot say which castling is
//! meant when the king starts next to its rook or does not move. Reading accepts either
//! form in both variants (also the king taking its own rook, `e1h1`, and `0-0`).

use shakmaty::{CastlingSide, Move};

use crate::position::{Position, uci};

/// `m` as the engine writes it in a `move` command or a PV, in Chess960 if `chess960`.
pub fn format_move(m: Move, chess960: bool) -> String {
    match m.castling_side() {
        Some(CastlingSide::KingSide) if chess960 => "O-O".to_string(),
        Some(CastlingSide::QueenSide) if chess960 => "O-O-O".to_string(),
        _ => uci(m),
    }
}

/// The legal move `text` names in `pos`.
///
/// # Errors
/// When the text is not a move or the move is illegal here.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    let side = match text.trim_end_matches(['+', '#']) {
        "O-O" | "0-0" => Some(CastlingSide::KingSide),
        "O-O-O" | "0-0-0" => Some(CastlingSide::QueenSide),
        _ => None,
    };
    match side {
        Some(side) => pos
            .legal_moves()
            .into_iter()
            .find(|m| m.castling_side() == Some(side))
            .ok_or_else(|| format!("illegal move '{text}'")),
        None => pos.parse_uci(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_both_ways_in_chess960_and_standard() {
        // King f1 next to its g-rook, the other rook on b1: O-O is f1g1, O-O-O is f1b1.
        let pos = Position::from_fen_in("1r2k3/8/8/8/8/8/8/1R3KR1 w GB - 0 1", true).unwrap();
        let short = parse_move(&pos, "O-O").unwrap();
        assert_eq!(short.castling_side(), Some(CastlingSide::KingSide));
        assert_eq!(format_move(short, true), "O-O");
        assert_eq!(format_move(short, false), "f1g1");
        assert_eq!(parse_move(&pos, "f1g1").unwrap(), short);
        assert_eq!(parse_move(&pos, "0-0").unwrap(), short);
        let long = parse_move(&pos, "O-O-O").unwrap();
        assert_eq!(long.castling_side(), Some(CastlingSide::QueenSide));
        assert_eq!(parse_move(&pos, "f1b1").unwrap(), long);
        assert_eq!(format_move(long, true), "O-O-O");
        // Standard chess: not legal yet in the start position; e1c1 and O-O-O are one move.
        assert!(parse_move(&Position::default(), "O-O").is_err());
        let open = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let long = parse_move(&open, "O-O-O").unwrap();
        assert_eq!(format_move(long, false), "e1c1");
        assert_eq!(parse_move(&open, "e1c1").unwrap(), long);
        assert!(parse_move(&open, "O-O-O-O").is_err());
    }
}
