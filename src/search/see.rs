//! Static exchange evaluation: the material balance of the capture sequence on one square
//! when both sides always recapture with their least valuable attacker, x-rays included
//! (the classic swap-list algorithm). Used to order captures and to prune losing ones in
//! quiescence.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square, attacks};

/// Piece values used by SEE and MVV-LVA ordering (king large, never really captured).
pub const SEE_VALUE: [i32; 7] = [0, 100, 320, 330, 500, 950, 20_000];

#[inline]
fn value(r: Role) -> i32 {
    SEE_VALUE[r as usize]
}

fn attackers_to(pos: &Chess, sq: Square, occupied: Bitboard) -> Bitboard {
    let b = pos.board();
    (attacks::rook_attacks(sq, occupied) & b.rooks_and_queens())
        | (attacks::bishop_attacks(sq, occupied) & b.bishops_and_queens())
        | (attacks::knight_attacks(sq) & b.knights())
        | (attacks::king_attacks(sq) & b.kings())
        | (attacks::pawn_attacks(Color::White, sq) & b.pawns() & b.black())
        | (attacks::pawn_attacks(Color::Black, sq) & b.pawns() & b.white())
}

/// The SEE value of `m` from the mover's point of view (0 for quiet moves that lose
/// nothing). Promotions count the promoted piece's gain.
pub fn see(pos: &Chess, m: Move) -> i32 {
    let Some(from) = m.from() else { return 0 };
    if m.is_castle() {
        return 0;
    }
    let to = m.to();
    let board = pos.board();
    let mut gain = [0i32; 32];
    let mut occupied = board.occupied();
    let captured = if m.is_en_passant() {
        Role::Pawn
    } else {
        m.capture().unwrap_or(Role::Pawn)
    };
    gain[0] = if m.is_capture() { value(captured) } else { 0 };
    let mut moved_value = value(m.role());
    if let Some(p) = m.promotion() {
        gain[0] += value(p) - value(Role::Pawn);
        moved_value = value(p);
    }
    occupied ^= Bitboard::from(from);
    if m.is_en_passant() {
        let cap_sq = Square::from_coords(to.file(), from.rank());
        occupied ^= Bitboard::from(cap_sq);
    }
    let mut side = !pos.turn();
    let mut attackers = attackers_to(pos, to, occupied) & occupied;
    let mut d = 0;
    loop {
        let ours = attackers & board.by_color(side);
        if ours.is_empty() {
            break;
        }
        // Least valuable attacker.
        let mut found = None;
        for role in Role::ALL {
            let bb = ours & board.by_role(role);
            if let Some(sq) = bb.first() {
                found = Some((sq, role));
                break;
            }
        }
        let Some((sq, role)) = found else { break };
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = moved_value - gain[d - 1];
        if role == Role::King && !(attackers & board.by_color(!side) & occupied).is_empty() {
            // The king cannot capture into a defended square.
            d -= 1;
            break;
        }
        moved_value = value(role);
        occupied ^= Bitboard::from(sq);
        // Reveal x-ray attackers.
        attackers = attackers_to(pos, to, occupied) & occupied;
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
        d -= 1;
    }
    gain[0]
}

/// True if the SEE value of `m` is at least `threshold`.
#[inline]
pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    see(pos, m) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        see(&pos, m)
    }

    #[test]
    fn classic_exchanges() {
        // Rook takes an undefended pawn.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Knight takes a pawn defended by pawn and more: loses the knight for a pawn.
        assert_eq!(
            see_of(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            100 - 320
        );
        // Pawn takes a defended knight: wins 320 - 100.
        assert_eq!(see_of("4k3/8/2n5/3P4/8/8/8/4K3 w - - 0 1", "d5c6"), 320);
        assert_eq!(see_of("4k3/1p6/2n5/3P4/8/8/8/4K3 w - - 0 1", "d5c6"), 220);
    }
}
