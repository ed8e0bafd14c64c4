//! The quiescence search's moves out of check ([`noisy_moves`]): every legal capture (under-
//! promotions that capture too), then the queen promotions that capture nothing — the moves
//! Winands 2004 §2.6's quiescence search tries — generated without the quiet moves.
//!
//! shakmaty's `capture_moves` generates every legal move and drops the quiet ones, and it has
//! no generator for captures alone; the quiescence search's node is the most frequent of all,
//! so this file generates the captures with shakmaty's own attack tables and its rule for
//! pinned pieces (a piece between its king and an enemy slider moves only along that line),
//! and checks en passant and king captures as shakmaty does. The list is the one shakmaty's
//! generation filtered to those moves gives, move for move and in the same order (the
//! quiescence search's move ordering breaks ties by that order), which the tests check on
//! random games; so the search is unchanged by it.

use shakmaty::attacks;
use shakmaty::{Bitboard, Board, Chess, Color, Move, MoveList, Position as _, Role, Square};

/// The legal captures of `chess` (side to move not in check) in shakmaty's order, then its
/// legal queen promotions that capture nothing, in place of what `moves` held.
pub(super) fn noisy_moves(chess: &Chess, moves: &mut MoveList) {
    moves.clear();
    let board = chess.board();
    let turn = chess.turn();
    let Some(king) = board.king_of(turn) else {
        *moves = reference(chess);
        return;
    };
    let us = board.by_color(turn);
    let them = board.by_color(!turn);
    let occupied = board.occupied();
    let blockers = slider_blockers(board, them, king);
    // shakmaty's rule for every move but en passant's and the king's.
    let safe =
        |from: Square, to: Square| !blockers.contains(from) || attacks::aligned(from, to, king);
    let normal = |role, from, to, promotion| Move::Normal {
        role,
        from,
        capture: board.role_at(to),
        to,
        promotion,
    };
    let pawns = board.by_role(Role::Pawn) & us;

    // En passant first, as shakmaty generates it: legal if no slider sees the king once both
    // pawns have left their squares.
    if let Some(to) = chess.maybe_ep_square() {
        (pawns & attacks::pawn_attacks(!turn, to)).for_each(|from| {
            let captured = Square::from_coords(to.file(), from.rank());
            let seen = occupied.toggled(from).toggled(captured).with(to);
            if board
                .attacks_to(king, !turn, seen)
                .without(captured)
                .is_empty()
            {
                moves.push(Move::EnPassant { from, to });
            }
        });
    }

    // Pawn captures towards the a-file, then towards the h-file: those short of the last rank
    // first, then the promotions (queen, rook, bishop, knight).
    for (step, targets) in pawn_capture_steps(turn).map(|(step, f)| (step, f(pawns) & them)) {
        for to in targets & !Bitboard::BACKRANKS {
            let from = Square::new((to as i32 - step) as u32);
            if safe(from, to) {
                moves.push(normal(Role::Pawn, from, to, None));
            }
        }
        for to in targets & Bitboard::BACKRANKS {
            let from = Square::new((to as i32 - step) as u32);
            if safe(from, to) {
                for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    moves.push(normal(Role::Pawn, from, to, Some(promotion)));
                }
            }
        }
    }

    // The pieces in shakmaty's order, each from its squares in order.
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.by_role(role) & us {
            let reach = match role {
                Role::Knight => attacks::knight_attacks(from),
                Role::Bishop => attacks::bishop_attacks(from, occupied),
                Role::Rook => attacks::rook_attacks(from, occupied),
                _ => attacks::queen_attacks(from, occupied),
            };
            for to in reach & them {
                if safe(from, to) {
                    moves.push(normal(role, from, to, None));
                }
            }
        }
    }

    // The king takes what no enemy piece defends.
    for to in attacks::king_attacks(king) & them {
        if board.attacks_to(to, !turn, occupied).is_empty() {
            moves.push(normal(Role::King, king, to, None));
        }
    }

    // Then the quiet queen promotions.
    let forward = turn.fold_wb(8, -8);
    for to in pawns.shift(forward) & !occupied & Bitboard::BACKRANKS {
        let from = Square::new((to as i32 - forward) as u32);
        if safe(from, to) {
            moves.push(normal(Role::Pawn, from, to, Some(Role::Queen)));
        }
    }
}

/// A side's pawn captures as (square offset, the targets of a set of pawns), towards the
/// a-file first, as shakmaty's directions.
#[allow(clippy::type_complexity)]
fn pawn_capture_steps(turn: Color) -> [(i32, fn(Bitboard) -> Bitboard); 2] {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    match turn {
        Color::White => [
            (7, |b| Bitboard((b.0 & !FILE_A) << 7)),
            (9, |b| Bitboard((b.0 << 9) & !FILE_A)),
        ],
        Color::Black => [
            (-9, |b| Bitboard((b.0 & !FILE_A) >> 9)),
            (-7, |b| Bitboard((b.0 >> 7) & !FILE_A)),
        ],
    }
}

/// The pieces alone between `king` and an enemy slider that would attack it without them
/// (of either colour, as shakmaty counts them).
fn slider_blockers(board: &Board, enemy: Bitboard, king: Square) -> Bitboard {
    let snipers = (attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
    let mut blockers = Bitboard(0);
    for sniper in snipers & enemy {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            blockers |= between;
        }
    }
    blockers
}

/// The same list from shakmaty's full generation: the captures, then the quiet queen
/// promotions (the tests' reference, and the answer for a position without a king).
pub(super) fn reference(chess: &Chess) -> MoveList {
    let mut moves = chess.legal_moves();
    let mut promotions = MoveList::new();
    moves.retain(|m| {
        if m.is_capture() {
            return true;
        }
        if m.promotion() == Some(Role::Queen) {
            promotions.push(*m);
        }
        false
    });
    moves.extend(promotions.iter().copied());
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    /// Random games from positions with pins, en passant (legal and not), promotions and
    /// crowded boards: out of check, the list is shakmaty's, move for move.
    #[test]
    fn the_list_is_shakmatys_move_for_move() {
        let (mut checked, mut with_ep, mut with_promotion) = (0, 0, 0);
        crate::random_games::walk(&crate::random_games::STARTS, 60, 120, |pos, _| {
            if !pos.is_check() {
                let mut got = MoveList::new();
                noisy_moves(pos, &mut got);
                assert_eq!(got.as_slice(), reference(pos).as_slice(), "{pos:?}");
                checked += 1;
                with_ep += usize::from(got.iter().any(|m| m.is_en_passant()));
                with_promotion += usize::from(got.iter().any(|m| m.is_promotion()));
            }
        });
        assert!(checked > 20_000, "{checked} positions");
        assert!(
            with_ep > 20 && with_promotion > 200,
            "{with_ep} {with_promotion}"
        );
    }

    /// En passant after the double step: legal, and not when taking would open the king's
    /// rank to a rook.
    #[test]
    fn en_passant_is_generated_only_when_legal() {
        for (fen, legal) in [
            ("7k/3p4/8/4P3/8/8/8/K7 b - - 0 1", true),
            ("7k/3p4/8/K3P2r/8/8/8/8 b - - 0 1", false),
        ] {
            let mut pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let d5 = shakmaty::uci::UciMove::from_ascii(b"d7d5")
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(d5);
            let mut got = MoveList::new();
            noisy_moves(&pos, &mut got);
            assert_eq!(got.as_slice(), reference(&pos).as_slice(), "{fen}");
            assert_eq!(got.iter().any(|m| m.is_en_passant()), legal, "{fen}");
        }
    }
}
