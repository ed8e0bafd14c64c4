//! Cross-cutting tests of the evaluators: colour and left-right symmetry, sanity orderings,
//! the KQ vs KR trend along the thesis' optimal Browne–BELLE lines (Donkers 2003, Appendix B),
//! and bounds on thousands of random positions.

use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, Setup, fen::Fen, san::San};

use super::{Evaluator, FullEval, MaterialEval};
use crate::score::MAX_EVAL;

fn chess(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .ok()
        .and_then(|f| f.into_position(CastlingMode::Standard).ok())
        .unwrap_or_else(|| panic!("bad test FEN {fen}"))
}

/// Colours swapped, ranks mirrored, side to move swapped.
fn colour_flipped(pos: &Chess) -> Chess {
    let setup = pos.to_setup(EnPassantMode::Legal).into_mirrored();
    setup
        .position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("flip failed: {e}"))
}

/// Files mirrored (castling rights dropped).
fn file_mirrored(pos: &Chess) -> Chess {
    let mut setup: Setup = pos.to_setup(EnPassantMode::Legal);
    setup.board.flip_horizontal();
    setup.castling_rights = shakmaty::Bitboard::EMPTY;
    setup.ep_square = setup.ep_square.map(shakmaty::Square::flip_horizontal);
    setup
        .position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("mirror failed: {e}"))
}

const SYMMETRY_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "2r2rk1/pp1bqppp/2n1pn2/3p4/3P4/P1NBPN2/1PQ2PPP/2R2RK1 w - - 4 14",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2N2B2/PPPQ2PP/2KR3R w - - 0 13",
    "3r1rk1/p4ppp/1qp1b3/2b1p3/4P3/1PN1BQ2/P1P3PP/3R1R1K b - - 0 20",
    "r2qk2r/pb4pp/1n2Pb2/2B2Q2/p1p5/2P5/2B2PPP/RN2R1K1 w - - 1 1",
    "2kr3r/ppp2ppp/2n5/2b1P3/2B5/5N2/PPP2PPP/R1B2RK1 b - - 0 12",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/1p6/p1p5/P1P5/1P3k2/8/5K2 w - - 0 1",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/8 b - - 0 1",
    "4r1k1/1p3pp1/p6p/3p4/3P4/P4N1P/1P3PP1/6K1 w - - 0 30",
    "8/8/4k3/3n4/8/4K3/3B4/8 w - - 0 1",
    "8/8/3bk3/8/8/4K3/3N4/4R3 w - - 0 1",
    "8/4kp2/6p1/8/8/2B5/4KPP1/3b4 w - - 0 1",
    "8/8/8/4k3/8/4P3/4K3/8 w - - 0 1",
    "8/8/8/8/4k3/8/1P6/4K3 b - - 0 1",
    "7k/8/8/8/8/8/8/1Q2K3 w - - 0 1",
    "8/8/8/3k4/8/8/8/R3K3 b - - 0 1",
    "8/8/8/3k4/8/8/8/2B1KN2 w - - 0 1",
    "8/8/8/3k4/8/8/8/2BBK3 w - - 0 1",
    "8/8/8/3k4/8/8/8/4K3 w - - 0 1",
    "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1",
    "K2Q4/8/8/8/r7/2k5/8/8 w - - 0 1",
    "8/8/4k3/8/2r5/8/3K4/5Q2 b - - 0 1",
    "3k4/8/3K4/8/8/8/1r6/Q7 w - - 0 1",
    "8/3r4/8/3k4/8/8/3Q4/3K4 b - - 0 1",
    "r7/8/8/8/3K3Q/8/8/6k1 b - - 0 1",
    "4k3/8/8/7r/8/8/3Q4/4K3 w - - 0 1",
    "4k3/8/8/7r/8/8/3Q4/4K3 b - - 0 1",
    "5rk1/5ppp/8/8/8/8/1Q3PPP/6K1 w - - 0 1",
    "6k1/6p1/6Pp/7P/8/8/r7/4K2R b - - 0 1",
    "8/pp3kpp/2p5/8/2P5/6P1/PP3PKP/8 w - - 0 1",
    "1k6/1pp5/p7/8/8/P7/1PP5/1K6 w - - 0 1",
    "8/1P6/8/8/8/k7/8/K7 w - - 0 1",
    "2q3k1/6pp/8/8/8/8/6PP/2Q3K1 b - - 0 1",
    "8/6k1/8/6KP/8/8/8/8 w - - 0 1",
];

/// Positions whose evaluation comes from endgame knowledge only (no PST asymmetry).
const KNOWLEDGE_FENS: &[&str] = &[
    "7k/8/8/8/8/8/8/1Q2K3 w - - 0 1",
    "8/8/8/3k4/8/8/8/R3K3 b - - 0 1",
    "8/8/8/3k4/8/8/8/2B1KN2 w - - 0 1",
    "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1",
    "K2Q4/8/8/8/r7/2k5/8/8 w - - 0 1",
    "8/8/4k3/8/2r5/8/3K4/5Q2 b - - 0 1",
    "3k4/8/3K4/8/8/8/1r6/Q7 w - - 0 1",
    "r7/8/8/8/3K3Q/8/8/6k1 b - - 0 1",
    "4k3/8/8/7r/8/8/3Q4/4K3 w - - 0 1",
    "8/8/8/4k3/8/4P3/4K3/8 w - - 0 1",
    "7k/8/8/8/P7/8/8/4K3 w - - 0 1",
];

#[test]
fn colour_flip_gives_the_same_score() {
    let evaluators: [&dyn Evaluator; 2] = [&FullEval::default(), &MaterialEval::new()];
    assert!(SYMMETRY_FENS.len() >= 40);
    for fen in SYMMETRY_FENS {
        let pos = chess(fen);
        let flipped = colour_flipped(&pos);
        for e in evaluators {
            assert_eq!(
                e.evaluate(&pos),
                e.evaluate(&flipped),
                "{} on {fen}",
                e.name()
            );
        }
    }
}

#[test]
fn file_mirror_gives_the_same_score_where_terms_are_symmetric() {
    // PeSTO's tables are not left-right symmetric, so only material and the endgame
    // knowledge are checked.
    let full = FullEval::default();
    for fen in KNOWLEDGE_FENS {
        let pos = chess(fen);
        assert_eq!(
            full.evaluate(&pos),
            full.evaluate(&file_mirrored(&pos)),
            "{fen}"
        );
    }
    for fen in SYMMETRY_FENS {
        let pos = chess(fen);
        let m = MaterialEval::new();
        assert_eq!(m.evaluate(&pos), m.evaluate(&file_mirrored(&pos)), "{fen}");
    }
}

#[test]
fn start_position_is_balanced_and_a_piece_counts() {
    let full = FullEval::default();
    let start = full.evaluate(&Chess::default());
    assert!(start.abs() < 50, "start {start}");
    let knight_up = chess("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(full.evaluate(&knight_up) > 250);
    let knight_down = chess("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert!(full.evaluate(&knight_down) < -250);
    let bishop_up = chess("rnbqk1nr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    assert!(full.evaluate(&bishop_up) > 250);
    let m = MaterialEval::new();
    assert_eq!(m.evaluate(&Chess::default()), 0);
    assert_eq!(m.evaluate(&knight_up), 320);
    assert_eq!(m.evaluate(&knight_down), -320);
}

#[test]
fn kqk_prefers_the_defender_in_the_corner() {
    let full = FullEval::default();
    let centre = full.evaluate(&chess("8/8/8/3k4/8/8/8/1Q2K3 w - - 0 1"));
    let corner = full.evaluate(&chess("7k/8/8/8/8/8/8/1Q2K3 w - - 0 1"));
    assert!(corner > centre, "corner {corner} centre {centre}");
    // Converting KQKR into KQK must always pay.
    let kqkr_best = full.evaluate(&chess("3k4/8/3K4/8/8/8/1r6/Q7 w - - 0 1"));
    assert!(centre > kqkr_best + 500, "{centre} {kqkr_best}");
}

#[test]
fn insufficient_material_is_zero() {
    let full = FullEval::default();
    for fen in [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KB3/8/8 b - - 0 1",
        "8/8/4k3/8/8/3KN3/8/8 w - - 0 1",
        "8/8/4k3/8/8/2NKN3/8/8 b - - 0 1",
        "8/8/2n1k1n1/8/8/3K4/8/8 w - - 0 1",
    ] {
        assert_eq!(full.evaluate(&chess(fen)), 0, "{fen}");
    }
}

#[test]
fn kqkr_scores_are_in_the_band_and_signed_by_side() {
    let full = FullEval::default();
    for fen in [
        "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1",
        "K2Q4/8/8/8/r7/2k5/8/8 w - - 0 1",
    ] {
        let white = full.evaluate(&chess(fen));
        assert!((500..=1000).contains(&white), "{fen}: {white}");
    }
    for fen in [
        "8/8/4k3/8/2r5/8/3K4/5Q2 b - - 0 1",
        "8/3r4/8/3k4/8/8/3Q4/3K4 b - - 0 1",
    ] {
        let black = full.evaluate(&chess(fen));
        assert!((-1000..=-500).contains(&black), "{fen}: {black}");
        let white = full.evaluate(&colour_flipped(&chess(fen)));
        assert_eq!(white, black, "{fen}");
    }
}

/// The thesis' optimal lines (browne-belle-lines.md): start FEN and moves.
const LINES: [(&str, &str); 4] = [
    (
        "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1",
        "Ka7 Re7+ Kb6 Re6+ Kc7 Re7+ Kd8 Re4 Qc5 Re5 Qc3 Ke6 Kc7 Rd5 Qe3+ Re5 Qb3+ Kf5 Qf3+ \
         Ke6 Kc6 Ke7 Qg3 Kf6 Kd6 Re6+ Kd5 Kf7 Qc7+ Re7 Qf4+ Kg6 Qg4+ Kf6 Kd6 Re8 Qf4+ Kg6 \
         Kd7 Rg8 Ke7 Kh5 Qh2+ Kg6 Qh4 Rg7+ Ke6 Ra7 Qe4+ Kh5 Qh1+ Kg5 Qg1+ Kf4 Qxa7 Ke4 Qb6 \
         Kd3 Kd5 Kc3 Qd4+ Kc2 Kc4 Kb1 Kc3 Ka1 Qb4 Ka2 Qb2#",
    ),
    (
        "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1",
        "Kb7 Re7+ Kc8 Re8+ Kd7 Re7+ Kd8 Re3 Qb6+ Re6 Qb2+ Kf5 Kd7 Re3 Kd6 Ke4 Ke6 Kf4+ Kd5 \
         Rd3+ Kc4 Re3 Qf6+ Kg4 Kd4 Re2 Qg6+ Kf4 Qh6+ Kg4 Qf6 Re1 Kd3 Kg3 Qg5+ Kf3 Qf5+ Kg3 \
         Kd2 Rg1 Ke2 Rg2+ Kf1 Rh2 Qe5+ Kh3 Qd6 Rh1+ Kf2 Kg4 Qd4+ Kf5 Qd5+ Kf6 Qxh1 Ke7 Qc6 \
         Kf7 Kg3 Ke7 Kg4 Kf7 Kf5 Ke7 Qc7+ Ke8 Kg6 Kf8 Qd8#",
    ),
    (
        "K2Q4/8/8/8/r7/2k5/8/8 w - - 0 1",
        "Kb8 Rb4+ Ka7 Ra4+ Kb6 Rb4+ Ka5 Re4 Qd6 Rd4 Qa3+ Kc4 Kb6 Rd2 Qf8 Rd4 Qf7+ Kd3 Qf3+ \
         Kc4 Kc6 Kb4 Qf2 Kc3 Kc5 Rc4+ Kd5 Kb3 Qe2 Rc2 Qd3+ Rc3 Qb5+ Ka3 Kd4 Rg3 Qb6 Rb3 \
         Qa5+ Kb2 Kc4 Ra3 Qb4+ Ka2 Qb8 Rh3 Qg8 Rb3 Qd5 Rb2 Kc3+ Kb1 Qh1+ Ka2 Qd1 Rh2 Qa4+ \
         Kb1 Qe4+ Ka1 Qa8+ Kb1 Qb8+ Ka2 Qxh2+ Ka3 Kc4 Ka4 Qa2#",
    ),
    (
        "K2Q4/8/8/8/r7/2k5/8/8 w - - 0 1",
        "Kb7 Rb4+ Kc6 Rc4+ Kb5 Rb4+ Ka5 Re4 Qd6 Rd4 Qf6 Kd3 Kb5 Ke3 Kc5 Rf4 Qe5+ Re4 Qc3+ \
         Kf4 Kd5 Re2 Qf6+ Kg3 Qf5 Re1 Qh5 Re3 Kd4 Ra3 Qd5 Ra1 Ke3 Re1+ Kd2 Rf1 Qg5+ Kf3 \
         Qf5+ Kg2 Qg4+ Kh2 Ke3 Rg1 Qh4+ Kg2 Ke2 Ra1 Qe4+ Kg3 Qe5+ Kg4 Qxa1 Kf5 Kf3 Ke6 Kf4 \
         Kd5 Qa5+ Kc4 Ke4 Kb3 Kd3 Kb2 Qb4+ Ka2 Kc3 Ka1 Qb2#",
    ),
];

/// Every position of a line (including the start), with its ply number.
fn line_positions(start: &str, moves: &str) -> Vec<(usize, Chess)> {
    let mut pos = chess(start);
    let mut out = vec![(0, pos.clone())];
    for (i, san) in moves.split_whitespace().enumerate() {
        let m = san
            .parse::<San>()
            .ok()
            .and_then(|s| s.to_move(&pos).ok())
            .unwrap_or_else(|| panic!("illegal {san} at ply {i} of {start}"));
        pos.play_unchecked(m);
        out.push((i + 1, pos.clone()));
    }
    out
}

/// Average ranks (ties share the mean rank).
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0;
        for k in i..=j {
            r[idx[k]] = mean;
        }
        i = j + 1;
    }
    r
}

fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let (rx, ry) = (ranks(x), ranks(y));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let mut sxy = 0.0;
    let mut sxx = 0.0;
    let mut syy = 0.0;
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    sxy / (sxx * syy).sqrt()
}

/// White's score of a position (the evaluation is side-to-move relative).
fn white_score(e: &dyn Evaluator, pos: &Chess) -> f64 {
    let s = f64::from(e.evaluate(pos));
    if pos.turn().is_white() { s } else { -s }
}

#[test]
fn kqkr_optimal_lines_trend_upward_for_white() {
    let full = FullEval::default();
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    let (mut kx, mut ky) = (Vec::new(), Vec::new());
    for (start, moves) in LINES {
        let line = line_positions(start, moves);
        assert!(line.last().is_some_and(|(_, p)| p.is_checkmate()));
        let (mut lx, mut ly) = (Vec::new(), Vec::new());
        for (ply, pos) in line.iter().filter(|(_, p)| !p.is_checkmate()) {
            let y = white_score(&full, pos);
            lx.push(*ply as f64);
            ly.push(y);
            if pos.board().rooks().any() {
                kx.push(*ply as f64);
                ky.push(y);
            }
        }
        let rho = spearman(&lx, &ly);
        println!("line from {start}: rho {rho:.3} ({} positions)", lx.len());
        xs.extend(lx);
        ys.extend(ly);
    }
    let rho = spearman(&xs, &ys);
    let rho_kqkr = spearman(&kx, &ky);
    println!("all four lines: rho {rho:.3}; KQKR positions only: rho {rho_kqkr:.3}");
    assert!(rho > 0.0, "rho {rho}");
    assert!(rho_kqkr > 0.0, "KQKR-only rho {rho_kqkr}");
}

#[test]
fn random_playouts_stay_in_bounds_and_symmetric() {
    let full = FullEval::default();
    let material = MaterialEval::new();
    let starts = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1",
        "K2Q4/8/8/8/r7/2k5/8/8 w - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 1",
        "8/8/8/3k4/8/8/8/2B1KN2 w - - 0 1",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    ];
    let mut rng = crate::rng::GameRng::from_seed(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for start in starts {
        for _ in 0..60 {
            let mut pos = chess(start);
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                pos.play_unchecked(m);
                let s = full.evaluate(&pos);
                assert!(s.abs() <= MAX_EVAL, "{s}");
                assert!(material.evaluate(&pos).abs() <= MAX_EVAL);
                if rng.below(8) == 0 {
                    let flipped = colour_flipped(&pos);
                    assert_eq!(
                        s,
                        full.evaluate(&flipped),
                        "{}",
                        Fen::from_position(&pos, EnPassantMode::Legal)
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}
