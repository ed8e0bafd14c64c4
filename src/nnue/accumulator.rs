//! The efficiently updatable part of the NNUE: an [`Accumulator`] holds both perspectives'
//! hidden-layer sums (`B1 + Σ W1[feature]`, N `i16` each) of one position. It is made from
//! scratch by [`Accumulator::refresh`], or — the point of the design — from the parent
//! position's accumulator and the move played by [`Accumulator::update_from`], which applies
//! the move's feature changes (at most two pieces removed and two added per perspective:
//! quiet moves, captures, en passant, promotions, castling including Chess960's overlapping
//! king and rook squares) in one fused pass. [`Accumulator::evaluate`] gives the net's score
//! from the accumulator. The arithmetic is that of [`Network::refresh`] and
//! [`Network::output`] (wrapping `i16`, `i32` sums), run by the [`simd`](super::simd)
//! kernels, so an updated accumulator and its evaluation equal a full refresh bit for bit.

use shakmaty::{Board, CastlingSide, Chess, Color, Move, Piece, Position, Role, Square};

use super::features::feature_index;
use super::network::Network;
use super::simd::{Kernel, kernel};
use crate::score::Score;

/// Both perspectives' hidden-layer accumulators of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    white: Box<[i16]>,
    black: Box<[i16]>,
}

/// The pieces a move takes off and puts on the board (at most two of each), as
/// perspective-independent (piece, square) pairs.
#[derive(Clone, Copy, Debug, Default)]
struct Delta {
    removed: [Option<(Piece, Square)>; 2],
    added: [Option<(Piece, Square)>; 2],
}

impl Delta {
    /// The changes of `m` played by `mover`.
    fn of(mover: Color, m: &Move) -> Delta {
        let own = |role| Piece { color: mover, role };
        let theirs = |role| Piece {
            color: !mover,
            role,
        };
        let mut d = Delta::default();
        match *m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                d.removed[0] = Some((own(role), from));
                d.removed[1] = capture.map(|c| (theirs(c), to));
                d.added[0] = Some((own(promotion.unwrap_or(role)), to));
            }
            Move::EnPassant { from, to } => {
                // The captured pawn stands beside `from`, on `to`'s file.
                let victim = Square::from_coords(to.file(), from.rank());
                d.removed[0] = Some((own(Role::Pawn), from));
                d.removed[1] = Some((theirs(Role::Pawn), victim));
                d.added[0] = Some((own(Role::Pawn), to));
            }
            Move::Castle { king, rook } => {
                // King takes own rook; in Chess960 either may end on the other's start
                // square or stay where it is. Features are per (piece, square), so removing
                // both and adding both is right in every case; a piece that stays is dropped.
                let side = CastlingSide::from_king_side(king < rook);
                let (king_to, rook_to) = (side.king_to(mover), side.rook_to(mover));
                if king_to != king {
                    d.removed[0] = Some((own(Role::King), king));
                    d.added[0] = Some((own(Role::King), king_to));
                }
                if rook_to != rook {
                    d.removed[1] = Some((own(Role::Rook), rook));
                    d.added[1] = Some((own(Role::Rook), rook_to));
                }
            }
            Move::Put { role, to } => d.added[0] = Some((own(role), to)),
        }
        d
    }
}

/// Feature `f`'s W1 row.
#[inline]
fn row(net: &Network, f: usize) -> &[i16] {
    let n = net.hidden();
    &net.w1()[f * n..(f + 1) * n]
}

impl Accumulator {
    /// The accumulator of an empty board (B1 for both perspectives): storage to update into.
    pub fn new(net: &Network) -> Accumulator {
        Accumulator {
            white: net.b1().into(),
            black: net.b1().into(),
        }
    }

    /// Both perspectives of `board` summed from scratch.
    pub fn refresh(net: &Network, board: &Board) -> Accumulator {
        let mut acc = Accumulator::new(net);
        acc.refresh_with(kernel(), net, board);
        acc
    }

    /// Recomputes `self` from scratch for `board`, reusing its storage.
    pub fn refresh_in_place(&mut self, net: &Network, board: &Board) {
        self.refresh_with(kernel(), net, board);
    }

    fn refresh_with(&mut self, k: Kernel, net: &Network, board: &Board) {
        self.fit(net.hidden());
        self.white.copy_from_slice(net.b1());
        self.black.copy_from_slice(net.b1());
        for (square, piece) in board {
            k.add_row(
                &mut self.white,
                row(net, feature_index(Color::White, piece, square)),
            );
            k.add_row(
                &mut self.black,
                row(net, feature_index(Color::Black, piece, square)),
            );
        }
    }

    /// Makes both halves `n` long (only when the net changed: storage is kept otherwise).
    fn fit(&mut self, n: usize) {
        if self.white.len() != n {
            self.white = vec![0; n].into();
            self.black = vec![0; n].into();
        }
    }

    /// Sets `self` to the accumulator of the position after `m` is played in `parent`,
    /// whose accumulator is `parent_acc`: the parent's values plus the move's feature
    /// changes, in one pass per perspective. `m` must be legal in `parent`.
    pub fn update_from(
        &mut self,
        parent_acc: &Accumulator,
        net: &Network,
        parent: &Chess,
        m: &Move,
    ) {
        self.update_with(kernel(), parent_acc, net, parent.turn(), m);
    }

    /// [`update_from`](Self::update_from) for the search's `last_move`: `None` (a null
    /// move) copies the parent's accumulator unchanged.
    pub fn update_from_last(
        &mut self,
        parent_acc: &Accumulator,
        net: &Network,
        parent: &Chess,
        m: Option<&Move>,
    ) {
        match m {
            Some(m) => self.update_from(parent_acc, net, parent, m),
            None => self.copy_from(parent_acc),
        }
    }

    /// The accumulator after `m` in `parent`, as a new value (allocates; the search should
    /// prefer [`update_from`](Self::update_from) into preallocated storage).
    pub fn update(&self, net: &Network, parent: &Chess, m: &Move) -> Accumulator {
        let mut child = Accumulator::new(net);
        child.update_from(self, net, parent, m);
        child
    }

    /// Copies `parent_acc` into `self` (a null move changes no feature).
    pub fn copy_from(&mut self, parent_acc: &Accumulator) {
        self.fit(parent_acc.white.len());
        self.white.copy_from_slice(&parent_acc.white);
        self.black.copy_from_slice(&parent_acc.black);
    }

    fn update_with(
        &mut self,
        k: Kernel,
        parent_acc: &Accumulator,
        net: &Network,
        mover: Color,
        m: &Move,
    ) {
        let n = net.hidden();
        assert_eq!(
            parent_acc.white.len(),
            n,
            "the parent accumulator belongs to another net"
        );
        self.fit(n);
        let delta = Delta::of(mover, m);
        for (perspective, dst, src) in [
            (Color::White, &mut self.white, &parent_acc.white),
            (Color::Black, &mut self.black, &parent_acc.black),
        ] {
            let rows = |changes: &[Option<(Piece, Square)>; 2]| {
                let mut out: [&[i16]; 2] = [&[], &[]];
                let mut len = 0;
                for &(piece, square) in changes.iter().flatten() {
                    out[len] = row(net, feature_index(perspective, piece, square));
                    len += 1;
                }
                (out, len)
            };
            let (subs, ns) = rows(&delta.removed);
            let (adds, na) = rows(&delta.added);
            k.copy_update(dst, src, &subs[..ns], &adds[..na]);
        }
    }

    /// The net's raw output (scaled by QA·QB) with `side_to_move` to move: exactly
    /// [`Network::output`] of the side to move's and the other side's halves.
    pub fn output(&self, net: &Network, side_to_move: Color) -> i32 {
        self.output_with(kernel(), net, side_to_move)
    }

    fn output_with(&self, k: Kernel, net: &Network, side_to_move: Color) -> i32 {
        let (w_stm, w_other) = net.w2().split_at(net.hidden());
        let (stm, other) = match side_to_move {
            Color::White => (&self.white, &self.black),
            Color::Black => (&self.black, &self.white),
        };
        net.b2()
            .wrapping_add(k.crelu_dot(stm, w_stm))
            .wrapping_add(k.crelu_dot(other, w_other))
    }

    /// The evaluation in centipawns, side to move's view: equals [`Network::evaluate`] of
    /// the position this accumulator belongs to.
    pub fn evaluate(&self, net: &Network, side_to_move: Color) -> Score {
        Network::centipawns(self.output(net, side_to_move))
    }

    /// The accumulator of perspective `colour`.
    pub fn perspective(&self, colour: Color) -> &[i16] {
        match colour {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::features::FeatureList;
    use crate::rng::GameRng;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    /// A net with random weights: |W1| ≤ `w1`, |B1| ≤ `b1`, |W2| ≤ 127.
    fn random_net(hidden: usize, seed: u64, w1: u16, b1: u16) -> Network {
        Network::random(hidden, seed, w1, b1).unwrap()
    }

    fn position(fen: &str, mode: CastlingMode) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(mode).unwrap()
    }

    /// The back rank of Chess960 start position `n` (0..960), by the standard numbering.
    fn chess960_rank(mut n: usize) -> [char; 8] {
        let mut rank = [' '; 8];
        rank[2 * (n % 4) + 1] = 'b';
        n /= 4;
        rank[2 * (n % 4)] = 'b';
        n /= 4;
        let place = |rank: &mut [char; 8], k: usize, c: char| {
            let i = (0..8).filter(|&i| rank[i] == ' ').nth(k).unwrap();
            rank[i] = c;
        };
        place(&mut rank, n % 6, 'q');
        n /= 6;
        let (a, b) = [
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 2),
            (1, 3),
            (1, 4),
            (2, 3),
            (2, 4),
            (3, 4),
        ][n];
        place(&mut rank, b, 'n');
        place(&mut rank, a, 'n');
        for c in ['r', 'k', 'r'] {
            place(&mut rank, 0, c);
        }
        rank
    }

    fn chess960(n: usize) -> Chess {
        let black: String = chess960_rank(n).iter().collect();
        let fen = format!(
            "{black}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1",
            black.to_uppercase()
        );
        position(&fen, CastlingMode::Chess960)
    }

    /// How often each kind of move was checked.
    #[derive(Debug, Default)]
    struct Seen {
        plies: usize,
        king_side: usize,
        queen_side: usize,
        castle_overlap: usize,
        en_passant: usize,
        promotion: usize,
        capture_promotion: usize,
        capture: usize,
        null: usize,
    }

    /// Plays a random game from `start`, preferring castling, en passant and promotions,
    /// and checks every updated accumulator (with the best and the portable kernel) and its
    /// evaluation against a full refresh.
    fn play(net: &Network, start: Chess, rng: &mut GameRng, plies: usize, seen: &mut Seen) {
        let mut pos = start;
        let mut acc = Accumulator::refresh(net, pos.board());
        assert_eq!(acc.evaluate(net, pos.turn()), net.evaluate(&pos));
        let mut next = Accumulator::new(net);
        let mut other = Accumulator::new(net);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let special: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
                .collect();
            let m = if !special.is_empty() && rng.below(2) == 0 {
                special[rng.below(special.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            match m {
                Move::Castle { king, rook } => {
                    let side = CastlingSide::from_king_side(king < rook);
                    match side {
                        CastlingSide::KingSide => seen.king_side += 1,
                        CastlingSide::QueenSide => seen.queen_side += 1,
                    }
                    if side.king_to(pos.turn()) == rook || side.rook_to(pos.turn()) == king {
                        seen.castle_overlap += 1;
                    }
                }
                Move::EnPassant { .. } => seen.en_passant += 1,
                _ if m.is_promotion() && m.is_capture() => seen.capture_promotion += 1,
                _ if m.is_promotion() => seen.promotion += 1,
                _ if m.is_capture() => seen.capture += 1,
                _ => {}
            }
            // Now and then a null move: the accumulator must stay as it is.
            if rng.below(16) == 0 && !pos.is_check() {
                let nulled = pos.clone().swap_turn().unwrap();
                next.update_from_last(&acc, net, &pos, None);
                assert_eq!(next, acc);
                assert_eq!(next.evaluate(net, nulled.turn()), net.evaluate(&nulled));
                seen.null += 1;
            }
            let parent = acc.clone();
            next.update_from(&acc, net, &pos, &m);
            other.update_with(Kernel::portable(), &acc, net, pos.turn(), &m);
            assert_eq!(acc, parent, "the parent accumulator changed");
            let fen_before = Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
            pos.play_unchecked(m);
            let fresh = Accumulator::refresh(net, pos.board());
            assert_eq!(next, fresh, "{fen_before} then {m:?}");
            assert_eq!(other, fresh, "portable: {fen_before} then {m:?}");
            let e = net.evaluate(&pos);
            assert_eq!(next.evaluate(net, pos.turn()), e, "{fen_before} then {m:?}");
            assert_eq!(
                Network::centipawns(other.output_with(Kernel::portable(), net, pos.turn())),
                e
            );
            seen.plies += 1;
            std::mem::swap(&mut acc, &mut next);
        }
    }

    const FENS: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "rnbqkbnr/pp1ppppp/8/8/2pPP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 3",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "r1b1k2r/1P4P1/8/2pP4/8/8/1p4p1/R1B1K2R w KQkq c6 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];

    /// Chess960 positions where the king or rook ends on the other's start square.
    const FENS_960: &[&str] = &[
        "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w KQkq - 0 1",
        "2rk3r/pppppppp/8/8/8/8/PPPPPPPP/2RK3R w KQkq - 0 1",
        "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w KQkq - 0 1",
    ];

    fn incremental_equals_refresh(net: &Network, seed: u64) {
        let mut seen = Seen::default();
        let mut game = 0;
        let mut rng = || {
            game += 1;
            GameRng::new(seed, game)
        };
        for fen in FENS {
            let start = position(fen, CastlingMode::Standard);
            for _ in 0..25 {
                play(net, start.clone(), &mut rng(), 160, &mut seen);
            }
        }
        for fen in FENS_960 {
            let start = position(fen, CastlingMode::Chess960);
            for _ in 0..10 {
                play(net, start.clone(), &mut rng(), 120, &mut seen);
            }
        }
        for _ in 0..60 {
            let mut r = rng();
            let start = chess960(r.below(960));
            play(net, start, &mut r, 160, &mut seen);
        }
        eprintln!("N = {}: {seen:?}", net.hidden());
        assert!(seen.plies > 20_000, "{seen:?}");
        for (kind, count) in [
            ("king-side castling", seen.king_side),
            ("queen-side castling", seen.queen_side),
            (
                "Chess960 castling onto the other's square",
                seen.castle_overlap,
            ),
            ("en passant", seen.en_passant),
            ("promotion", seen.promotion),
            ("capture-promotion", seen.capture_promotion),
            ("capture", seen.capture),
            ("null move", seen.null),
        ] {
            assert!(count > 0, "no {kind} was played: {seen:?}");
        }
    }

    #[test]
    fn chess960_numbering_gives_legal_start_positions() {
        // Position 518 is the standard start position.
        assert_eq!(chess960_rank(518).iter().collect::<String>(), "rnbqkbnr");
        for n in 0..960 {
            let _ = chess960(n);
        }
    }

    #[test]
    fn incremental_update_equals_refresh_n32() {
        incremental_equals_refresh(&random_net(32, 5, 120, 200), 100);
    }

    #[test]
    fn incremental_update_equals_refresh_n256() {
        incremental_equals_refresh(&random_net(256, 6, 120, 200), 200);
    }

    #[test]
    fn incremental_update_equals_refresh_with_extreme_weights() {
        // |B1| + 32·|W1| up to 32 700: the largest weights a net may have.
        incremental_equals_refresh(&random_net(32, 7, 1000, 700), 300);
    }

    #[test]
    fn refresh_matches_network_refresh_and_update_allocates_once() {
        let net = random_net(64, 8, 120, 200);
        let pos = position(FENS[1], CastlingMode::Standard);
        let acc = Accumulator::refresh(&net, pos.board());
        for colour in Color::ALL {
            let mut want = vec![0i16; 64];
            net.refresh(&FeatureList::new(pos.board(), colour), &mut want);
            assert_eq!(acc.perspective(colour), &want[..]);
        }
        let m = pos.legal_moves()[0];
        let child = acc.update(&net, &pos, &m);
        let mut after = pos.clone();
        after.play_unchecked(m);
        assert_eq!(child, Accumulator::refresh(&net, after.board()));
        let mut reused = Accumulator::new(&random_net(16, 9, 10, 10));
        reused.refresh_in_place(&net, after.board());
        assert_eq!(reused, child);
    }

    /// Update + evaluate per second against a full refresh + evaluate, for each kernel:
    /// `cargo test --release --lib nnue::accumulator -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement, not a check"]
    fn measure_update_against_refresh() {
        use std::hint::black_box;
        use std::time::Instant;
        let mut kernels = vec![Kernel::portable()];
        kernels.extend(Kernel::avx2());
        for hidden in [256, 1024] {
            let net = random_net(hidden, 10, 120, 200);
            // A sample of (parent, accumulator, move) from random games.
            let mut rng = GameRng::new(11, 0);
            let mut sample = Vec::new();
            while sample.len() < 4096 {
                let mut pos = Chess::default();
                for _ in 0..80 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len())];
                    sample.push((pos.clone(), Accumulator::refresh(&net, pos.board()), m));
                    pos.play_unchecked(m);
                }
            }
            let children: Vec<Chess> = sample
                .iter()
                .map(|(p, _, m)| {
                    let mut c = p.clone();
                    c.play_unchecked(*m);
                    c
                })
                .collect();
            let rounds = 50;
            let total = (rounds * sample.len()) as f64;
            for &k in &kernels {
                let mut out = Accumulator::new(&net);
                let t = Instant::now();
                let mut sum = 0i64;
                for _ in 0..rounds {
                    for (p, acc, m) in &sample {
                        out.update_with(k, acc, &net, p.turn(), m);
                        sum += i64::from(Network::centipawns(out.output_with(k, &net, !p.turn())));
                    }
                }
                let upd = total / t.elapsed().as_secs_f64();
                let t = Instant::now();
                for _ in 0..rounds {
                    for c in &children {
                        out.refresh_with(k, &net, c.board());
                        sum += i64::from(Network::centipawns(out.output_with(k, &net, c.turn())));
                    }
                }
                let refr = total / t.elapsed().as_secs_f64();
                black_box(sum);
                eprintln!(
                    "N = {hidden:4} {:8}: update+evaluate {:6.2} M/s, refresh+evaluate {:6.2} M/s \
                     ({:.1}x)",
                    k.name(),
                    upd / 1e6,
                    refr / 1e6,
                    upd / refr
                );
            }
            let t = Instant::now();
            let mut sum = 0i64;
            for _ in 0..5 {
                for c in &children {
                    sum += i64::from(net.evaluate(black_box(c)));
                }
            }
            black_box(sum);
            eprintln!(
                "N = {hidden:4} Network::evaluate (reference, allocating): {:6.2} M/s",
                (5 * children.len()) as f64 / t.elapsed().as_secs_f64() / 1e6
            );
        }
    }
}
