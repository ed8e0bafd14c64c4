//! Endgame knowledge, dispatched by material signature before the general evaluation:
//!
//! * insufficient material (KK, KBK, KNK, KNNK, bishops all on one colour, and a single minor
//!   on each side with no pawns) is a draw, `0`;
//! * a lone king against mating material (KQK, KRK, KBBK, KBNK and anything bigger without
//!   pawns) scores `known_win` plus material plus gradients that drive the defending king to
//!   the edge (to a corner of the bishop's colour in KBNK) and bring the attacking king close;
//! * KPK: the rule of the square and the key squares give a win, the defending king in front
//!   of the pawn (or in the corner of a rook pawn) a draw, anything else falls through;
//! * KQ vs KR goes to `kqkr.rs`.
//!
//! [`scale_factor`] also scales the endgame half of the general evaluation for drawish
//! material: no pawns and at most a minor piece ahead (after the classical Stockfish rule),
//! and opposite-coloured bishops.

use shakmaty::{Bitboard, Board, Color, Role, Square};

use super::kqkr::kqkr;
use super::masks::{
    CENTRE_CHEBYSHEV, CENTRE_MANHATTAN, FORWARD_FILE, dist, manhattan, relative_rank,
};
use super::params::EndgameParams;
use crate::score::Score;

/// Full scale of [`scale_factor`].
pub(super) const SCALE_NORMAL: i32 = 64;

/// The specialised score of `board` for the side to move `turn`, or `None` when no endgame
/// rule applies and the general evaluation should run.
#[inline]
pub(super) fn probe(board: &Board, turn: Color, p: &EndgameParams) -> Option<Score> {
    let kings = board.kings();
    let white_bare = (board.white() & !kings).is_empty();
    let black_bare = (board.black() & !kings).is_empty();
    if !white_bare && !black_bare {
        if board.occupied().count() > 4 || board.pawns().any() {
            return None;
        }
        // Two kings and one piece each.
        let q = board.queens();
        let r = board.rooks();
        if q.count() == 1 && r.count() == 1 {
            let strong = if q.intersects(board.white()) {
                Color::White
            } else {
                Color::Black
            };
            if r.intersects(board.by_color(strong)) {
                return None;
            }
            let s = kqkr(board, strong, turn, &p.kqkr)?;
            return Some(if turn == strong { s } else { -s });
        }
        if (q | r).is_empty() {
            return Some(0); // minor against minor
        }
        return None;
    }
    if white_bare && black_bare {
        return Some(0);
    }
    let strong = if black_bare {
        Color::White
    } else {
        Color::Black
    };
    let s = lone_king(board, strong, turn, p)?;
    Some(if turn == strong { s } else { -s })
}

/// A lone defending king: the score from `strong`'s point of view, `None` for pawn endings
/// this module does not know.
fn lone_king(board: &Board, strong: Color, turn: Color, p: &EndgameParams) -> Option<Score> {
    let ours = board.by_color(strong);
    let sk = board.king_of(strong)?;
    let wk = board.king_of(!strong)?;
    let pawns = board.pawns() & ours;
    let knights = (board.knights() & ours).count();
    let bishops = board.bishops() & ours;
    let majors = ((board.rooks() | board.queens()) & ours).count();
    if pawns.any() {
        if majors == 0
            && knights == 0
            && bishops.is_empty()
            && let Some(pawn) = pawns.single_square()
        {
            return kpk(strong, turn, sk, wk, pawn, p);
        }
        return None;
    }
    if majors == 0 {
        let light = (bishops & Bitboard::LIGHT_SQUARES).any();
        let dark = (bishops & Bitboard::DARK_SQUARES).any();
        let only_one_colour = !(light && dark);
        let insufficient = (knights + bishops.count() <= 1)
            || (bishops.is_empty() && knights <= 2)
            || (knights == 0 && only_one_colour);
        if insufficient {
            return Some(0);
        }
        if knights == 1 && bishops.count() == 1 {
            return Some(kbnk(sk, wk, light, p));
        }
    }
    let mut material = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        material += p.value[role as usize - 1] * (board.by_role(role) & ours).count() as i32;
    }
    let wki = wk.to_usize();
    Some(
        p.known_win
            + material
            + p.edge_manhattan * CENTRE_MANHATTAN[wki]
            + p.edge_chebyshev * CENTRE_CHEBYSHEV[wki]
            + p.king_close * (7 - dist(sk, wk)),
    )
}

/// KBNK: drive the defending king to a corner of the bishop's colour.
fn kbnk(sk: Square, wk: Square, light_bishop: bool, p: &EndgameParams) -> Score {
    let (c1, c2) = if light_bishop {
        (Square::H1, Square::A8)
    } else {
        (Square::A1, Square::H8)
    };
    let corner = manhattan(wk, c1).min(manhattan(wk, c2));
    p.known_win
        + p.value[Role::Knight as usize - 1]
        + p.value[Role::Bishop as usize - 1]
        + p.kbnk_corner * (14 - corner)
        + p.edge_chebyshev * CENTRE_CHEBYSHEV[wk.to_usize()]
        + p.king_close * (7 - dist(sk, wk))
}

/// KPK by the rule of the square and the key squares; `None` when neither decides.
fn kpk(
    strong: Color,
    turn: Color,
    sk: Square,
    wk: Square,
    pawn: Square,
    p: &EndgameParams,
) -> Option<Score> {
    let rank = relative_rank(strong, pawn) as i32;
    let file = pawn.file().to_u32();
    let promo = Square::new(match strong {
        Color::White => 56 + file,
        Color::Black => file,
    });
    let win = p.kpk_win + p.kpk_rank * rank;
    let weak_to_move = turn != strong;
    // The pawn is lost at once if the defender can take it.
    if weak_to_move && dist(wk, pawn) == 1 && dist(sk, pawn) > 1 {
        return None;
    }
    let rook_pawn = file == 0 || file == 7;
    if rook_pawn && dist(wk, promo) <= 1 {
        return Some(0);
    }
    // Rule of the square: the pawn runs and the defender cannot catch it.
    let steps = (7 - rank) - i32::from(rank == 1);
    let reach = dist(wk, promo) - i32::from(weak_to_move);
    let path = Bitboard(FORWARD_FILE[strong as usize][pawn.to_usize()]);
    if reach > steps && !path.contains(sk) {
        return Some(win);
    }
    if key_squares(strong, pawn, rook_pawn).contains(sk) && !path.contains(wk) {
        return Some(win);
    }
    // The defender right in front of the pawn, the attacker not ahead of it: a draw with
    // correct defence (opposition).
    let sk_behind = relative_rank(strong, sk) as i32 <= rank;
    if path.contains(wk) && dist(wk, pawn) <= 2 && sk_behind {
        return Some(10 + rank);
    }
    None
}

/// The key squares of a pawn of `strong` on `pawn`: the attacking king on one wins.
fn key_squares(strong: Color, pawn: Square, rook_pawn: bool) -> Bitboard {
    let rank = relative_rank(strong, pawn);
    let file = pawn.file().to_usize();
    let rel = |f: usize, r: usize| -> Bitboard {
        let abs_rank = match strong {
            Color::White => r,
            Color::Black => 7 - r,
        };
        Bitboard::from_square(Square::new((abs_rank * 8 + f) as u32))
    };
    let mut keys = Bitboard::EMPTY;
    if rook_pawn {
        let f = if file == 0 { 1 } else { 6 };
        keys |= rel(f, 6) | rel(f, 7);
        return keys;
    }
    let ranks: &[usize] = match rank {
        1..=3 => &[rank + 2],
        4 | 5 => &[rank + 1, rank + 2],
        6 => &[7],
        _ => &[],
    };
    for &r in ranks {
        for f in [file - 1, file, file + 1] {
            keys |= rel(f, r);
        }
    }
    keys
}

/// Scale (out of [`SCALE_NORMAL`]) for the endgame half of the general evaluation when
/// `strong` is the side ahead there.
#[inline]
pub(super) fn scale_factor(board: &Board, strong: Color, p: &EndgameParams) -> i32 {
    let ours = board.by_color(strong);
    let theirs = board.by_color(!strong);
    let npm = |side: Bitboard| -> i32 {
        let mut v = 0;
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            v += p.value[role as usize - 1] * (board.by_role(role) & side).count() as i32;
        }
        v
    };
    if (board.pawns() & ours).is_empty() {
        let (us, them) = (npm(ours), npm(theirs));
        let bishop = p.value[Role::Bishop as usize - 1];
        if us - them <= bishop {
            return if us < p.value[Role::Rook as usize - 1] {
                0
            } else if them <= bishop {
                4
            } else {
                14
            };
        }
    }
    let bishops = board.bishops();
    let (wb, bb) = (bishops & board.white(), bishops & board.black());
    if wb.count() == 1 && bb.count() == 1 {
        let opposite = (bishops & Bitboard::LIGHT_SQUARES).count() == 1;
        if opposite {
            let others = board.knights() | board.rooks() | board.queens();
            return if others.is_empty() { 24 } else { 46 };
        }
    }
    SCALE_NORMAL
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    fn probe_fen(fen: &str) -> Option<Score> {
        let pos: Chess = fen
            .parse::<Fen>()
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())?;
        probe(pos.board(), pos.turn(), &EndgameParams::default())
    }

    #[test]
    fn insufficient_material_is_a_draw() {
        for fen in [
            "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
            "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",
            "8/8/4k3/8/8/3KN3/8/8 b - - 0 1",
            "8/8/4k3/8/8/2NKN3/8/8 w - - 0 1",
            "8/8/4kn2/8/8/3K4/8/8 w - - 0 1",
            "8/8/4kb2/8/8/3KB3/8/8 w - - 0 1",
            "8/8/4k3/8/8/2BKB3/8/8 w - - 0 1",
        ] {
            assert_eq!(probe_fen(fen), Some(0), "{fen}");
        }
    }

    #[test]
    fn lone_king_goes_to_the_corner() {
        let centre = probe_fen("8/8/8/3k4/8/8/8/1Q2K3 w - - 0 1").unwrap_or(0);
        let corner = probe_fen("7k/8/8/8/8/8/8/1Q2K3 w - - 0 1").unwrap_or(0);
        assert!(corner > centre + 50 && centre > 2000, "{corner} {centre}");
        let black_view = probe_fen("7k/8/8/8/8/8/8/1Q2K3 b - - 0 1").unwrap_or(0);
        assert_eq!(black_view, -corner);
    }

    #[test]
    fn kbnk_prefers_the_bishop_corner() {
        // Dark-squared bishop (c1): a1 and h8 are the mating corners.
        let right = probe_fen("7k/8/5K2/8/8/8/8/2B1N3 w - - 0 1").unwrap_or(0);
        let wrong = probe_fen("k7/8/2K5/8/8/8/8/2B1N3 w - - 0 1").unwrap_or(0);
        assert!(right > wrong + 100, "{right} {wrong}");
    }

    #[test]
    fn kpk_rules() {
        // Unstoppable: the black king is outside the square.
        let run = probe_fen("7k/8/8/8/P7/8/8/4K3 w - - 0 1").unwrap_or(0);
        assert!(run > 500, "{run}");
        // Defender in front of the pawn, attacker behind: drawish.
        let blocked = probe_fen("8/8/8/4k3/8/4P3/4K3/8 w - - 0 1");
        assert!(blocked.is_some_and(|s| s < 50), "{blocked:?}");
        // Rook pawn with the defender in the corner.
        assert_eq!(probe_fen("k7/8/8/P7/8/8/8/4K3 w - - 0 1"), Some(0));
        // Attacking king on a key square.
        let key = probe_fen("8/8/3K4/8/4P3/8/8/6k1 b - - 0 1").unwrap_or(0);
        assert!(key < -500, "{key}");
    }

    #[test]
    fn scale_factors() {
        let b = |fen: &str| {
            fen.parse::<Fen>()
                .unwrap_or_else(|e| panic!("test FEN '{fen}' does not parse: {e}"))
                .into_position::<Chess>(CastlingMode::Standard)
                .unwrap_or_else(|e| panic!("test FEN '{fen}' is not a legal position: {e}"))
                .board()
                .clone()
        };
        let p = EndgameParams::default();
        assert_eq!(
            scale_factor(&b("8/8/4kn2/8/8/R2K4/8/8 w - - 0 1"), Color::White, &p),
            4
        );
        assert_eq!(
            scale_factor(&b("8/5p2/4k3/8/8/3KB3/8/8 w - - 0 1"), Color::White, &p),
            0
        );
        assert_eq!(
            scale_factor(&b("8/5p2/4k1b1/8/8/3KB3/5P2/8 w - - 0 1"), Color::White, &p),
            24
        );
        assert_eq!(
            scale_factor(&b("r3k3/8/8/8/8/8/P7/R3K3 w - - 0 1"), Color::White, &p),
            64
        );
    }
}
