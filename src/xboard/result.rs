//! Game ends as the CECP engine claims them (protocol version 2, §9 "RESULT {COMMENT}"):
//! mate, stalemate, insufficient material, the fifty-move rule and threefold repetition,
//! judged on the session's game position after every move.

use shakmaty::{Color, Move, Position as _};

use crate::position::Position;

/// The claim for a finished game (§9 "RESULT {COMMENT}"), or `None` while it goes on.
pub fn game_result(pos: &Position) -> Option<&'static str> {
    if pos.legal_moves().is_empty() {
        return Some(if !pos.chess().is_check() {
            "1/2-1/2 {Stalemate}"
        } else if pos.turn() == Color::White {
            "0-1 {Black mates}"
        } else {
            "1-0 {White mates}"
        });
    }
    if pos.is_insufficient_material() {
        Some("1/2-1/2 {Insufficient material}")
    } else if pos.is_fifty_move_draw() {
        Some("1/2-1/2 {50 move rule}")
    } else if pos.is_threefold() {
        Some("1/2-1/2 {3-fold repetition}")
    } else {
        None
    }
}

/// True if the game goes on after `m` (a ponder hit on a move that ends the game is not
/// worth a search: the claim follows instead).
pub fn goes_on_after(pos: &Position, m: Move) -> bool {
    let mut after = pos.clone();
    after.play(m);
    game_result(&after).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_claimed() {
        let mate = Position::from_fen("6k1/5ppp/8/8/8/8/8/4R1K1 b - - 0 1").unwrap();
        assert_eq!(game_result(&mate), None);
        let mated = Position::from_fen("4R1k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
        assert_eq!(game_result(&mated), Some("1-0 {White mates}"));
        let stale = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(game_result(&stale), Some("1/2-1/2 {Stalemate}"));
        let bare = Position::from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1").unwrap();
        assert_eq!(game_result(&bare), Some("1/2-1/2 {Insufficient material}"));
        let fifty = Position::from_fen("8/8/4k3/8/8/3RK3/8/8 w - - 100 80").unwrap();
        assert_eq!(game_result(&fifty), Some("1/2-1/2 {50 move rule}"));
    }
}
