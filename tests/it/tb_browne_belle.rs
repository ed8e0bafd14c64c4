//! The Browne–BELLE positions and the four optimal lines of Donkers 2003, Appendix B: start positions have DTC 61 plies (conversion in
//! 31 moves, Thompson's metric, §5.4 footnote 3) and DTM 69 plies (mate in 35); both king moves
//! are optimal and the queen check loses. Every move of the four lines must be DTM-optimal and
//! each line must end in mate with White's 35th move; plies that are not DTC-optimal are
//! reported (printed), not failed — the lines were never DTC-optimal throughout.
use crate::tb_common;

use nosce::tb::{Metric, Wdl, parse_fen};
use shakmaty::{Chess, Position, san::SanPlus};

const GAME1: &str = "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1";
const GAME2: &str = "K2Q4/8/8/8/r7/2k5/8/8 w - - 0 1";

const LINES: [(&str, &str, &str); 4] = [
    (
        "game 1, Thompson's DTC line",
        GAME1,
        "1. Ka7 Re7+ 2. Kb6 Re6+ 3. Kc7 Re7+ 4. Kd8 Re4 5. Qc5 Re5 6. Qc3 Ke6 7. Kc7 Rd5 8. Qe3+ Re5 9. Qb3+ Kf5 10. Qf3+ Ke6 11. Kc6 Ke7 12. Qg3 Kf6 13. Kd6 Re6+ 14. Kd5 Kf7 15. Qc7+ Re7 16. Qf4+ Kg6 17. Qg4+ Kf6 18. Kd6 Re8 19. Qf4+ Kg6 20. Kd7 Rg8 21. Ke7 Kh5 22. Qh2+ Kg6 23. Qh4 Rg7+ 24. Ke6 Ra7 25. Qe4+ Kh5 26. Qh1+ Kg5 27. Qg1+ Kf4 28. Qxa7 Ke4 29. Qb6 Kd3 30. Kd5 Kc3 31. Qd4+ Kc2 32. Kc4 Kb1 33. Kc3 Ka1 34. Qb4 Ka2 35. Qb2+ 1-0.",
    ),
    (
        "game 1, Nalimov's DTW line",
        GAME1,
        "1. Kb7 Re7+ 2. Kc8 Re8+ 3. Kd7 Re7+ 4. Kd8 Re3 5. Qb6+ Re6 6. Qb2+ Kf5 7. Kd7 Re3 8. Kd6 Ke4 9. Ke6 Kf4+ 10. Kd5 Rd3+ 11. Kc4 Re3 12. Qf6+ Kg4 13. Kd4 Re2 14. Qg6+ Kf4 15. Qh6+ Kg4 16. Qf6 Re1 17. Kd3 Kg3 18. Qg5+ Kf3 19. Qf5+ Kg3 20. Kd2 Rg1 21. Ke2 Rg2+ 22. Kf1 Rh2 23. Qe5+ Kh3 24. Qd6 Rh1+ 25. Kf2 Kg4 26. Qd4+ Kf5 27. Qd5+ Kf6 28. Q×h1 Ke7 29. Qc6 Kf7 30. Kg3 Ke7 31. Kg4 Kf7 32. Kf5 Ke7 33. Qc7+ Ke8 34. Kg6 Kf8 35. Qd8 1-0.",
    ),
    (
        "game 2, Thompson's DTC line",
        GAME2,
        "1. Kb8 Rb4+ 2. Ka7 Ra4+ 3. Kb6 Rb4+ 4. Ka5 Re4 5. Qd6 Rd4 6. Qa3+ Kc4 7. Kb6 Rd2 8. Qf8 Rd4 9. Qf7+ Kd3 10. Qf3+ Kc4 11. Kc6 Kb4 12. Qf2 Kc3 13. Kc5 Rc4+ 14. Kd5 Kb3 15. Qe2 Rc2 16. Qd3+ Rc3 17. Qb5+ Ka3 18. Kd4 Rg3 19. Qb6 Rb3 20. Qa5+ Kb2 21. Kc4 Ra3 22. Qb4+ Ka2 23. Qb8 Rh3 24. Qg8 Rb3 25. Qd5 Rb2 26. Kc3+ Kb1 27. Qh1+ Ka2 28. Qd1 Rh2 29. Qa4+ Kb1 30. Qe4+ Ka1 31. Qa8+ Kb1 32. Qb8+ Ka2 33. Q×h2+ Ka3 34. Kc4 Ka4 35. Qa2+ 1-0.",
    ),
    (
        "game 2, Nalimov's DTW line",
        GAME2,
        "1. Kb7 Rb4+ 2. Kc6 Rc4+ 3. Kb5 Rb4+ 4. Ka5 Re4 5. Qd6 Rd4 6. Qf6 Kd3 7. Kb5 Ke3 8. Kc5 Rf4 9. Qe5+ Re4 10. Qc3+ Kf4 11. Kd5 Re2 12. Qf6+ Kg3 13. Qf5 Re1 14. Qh5 Re3 15. Kd4 Ra3 16. Qd5 Ra1 17. Ke3 Re1+ 18. Kd2 Rf1 19. Qg5+ Kf3 20. Qf5+ Kg2 21. Qg4+ Kh2 22. Ke3 Rg1 23. Qh4+ Kg2 24. Ke2 Ra1 25. Qe4+ Kg3 26. Qe5+ Kg4 27. Q×a1 Kf5 28. Kf3 Ke6 29. Kf4 Kd5 30. Qa5+ Kc4 31. Ke4 Kb3 32. Kd3 Kb2 33. Qb4+ Ka2 34. Kc3 Ka1 35. Qb2 1-0.",
    ),
];

#[test]
fn start_positions() {
    let exact = tb_common::exact();
    for fen in [GAME1, GAME2] {
        let pos = parse_fen(fen).expect("fen");
        let entry = exact.probe(&pos).expect("covered");
        assert_eq!(entry.wdl, Wdl::Win, "{fen}");
        assert_eq!(
            entry.dtc,
            Some(61),
            "{fen}: DTC 61 plies = conversion in 31 moves"
        );
        assert_eq!(
            entry.dtm,
            Some(69),
            "{fen}: DTM 69 plies = mate in 35 moves"
        );
        let ranked = exact.rank_moves(&pos, Metric::Dtm).expect("ranked");
        assert_eq!(ranked.len(), 3, "{fen}: three legal moves");
        let kings: Vec<_> = ranked
            .iter()
            .filter(|r| r.mv.role() == shakmaty::Role::King)
            .collect();
        assert_eq!(kings.len(), 2);
        for r in kings {
            assert_eq!(
                (r.value.wdl, r.value.dtm, r.value.dtc),
                (Wdl::Win, Some(69), Some(61)),
                "{fen}: {}",
                r.mv
            );
        }
        let queen = ranked
            .iter()
            .find(|r| r.mv.role() == shakmaty::Role::Queen)
            .expect("queen move");
        assert_eq!(
            queen.value.wdl,
            Wdl::Loss,
            "{fen}: the queen check loses the queen"
        );
        assert!(pos.clone().tap_play(queen.mv).is_check());
        let best = exact.best_moves(&pos, Metric::Dtc).expect("best");
        assert_eq!(best.len(), 2, "{fen}: both king moves are DTC-optimal");
    }
}

trait TapPlay {
    fn tap_play(self, m: shakmaty::Move) -> Self;
}

impl TapPlay for Chess {
    fn tap_play(mut self, m: shakmaty::Move) -> Chess {
        self.play_unchecked(m);
        self
    }
}

#[test]
fn appendix_b_lines_are_dtm_optimal() {
    let exact = tb_common::exact();
    for (name, fen, text) in LINES {
        let mut pos = parse_fen(fen).expect("fen");
        let mut plies = 0;
        let mut not_dtc_optimal = Vec::new();
        for token in text.split_whitespace() {
            if token.ends_with('.')
                && token.starts_with(|c: char| c.is_ascii_digit())
                && !token.contains('-')
            {
                continue; // move number
            }
            if token.starts_with("1-0") {
                break;
            }
            let san: SanPlus = token
                .replace('×', "x")
                .parse()
                .unwrap_or_else(|e| panic!("{name}: bad SAN {token}: {e}"));
            let mv = san
                .san
                .to_move(&pos)
                .unwrap_or_else(|e| panic!("{name}: illegal {token}: {e}"));
            let ranked = exact.rank_moves(&pos, Metric::Dtm).expect("covered");
            let played = ranked
                .iter()
                .find(|r| r.mv == mv)
                .expect("ranked move")
                .value;
            let best_dtm = ranked[0].value.score(Metric::Dtm);
            assert_eq!(
                played.score(Metric::Dtm),
                best_dtm,
                "{name}: ply {} {token} is not DTM-optimal",
                plies + 1
            );
            let best_dtc = ranked
                .iter()
                .map(|r| r.value.score(Metric::Dtc))
                .max()
                .expect("moves");
            if played.score(Metric::Dtc) != best_dtc {
                let best: Vec<String> = ranked
                    .iter()
                    .filter(|r| r.value.score(Metric::Dtc) == best_dtc)
                    .map(|r| SanPlus::from_move(pos.clone(), r.mv).to_string())
                    .collect();
                not_dtc_optimal.push(format!(
                    "{}{} {token} (DTC {:?}, best {:?} by {})",
                    plies / 2 + 1,
                    if plies % 2 == 0 { "." } else { "..." },
                    played.dtc,
                    ranked
                        .iter()
                        .find(|r| r.value.score(Metric::Dtc) == best_dtc)
                        .and_then(|r| r.value.dtc),
                    best.join("/")
                ));
            }
            pos.play_unchecked(mv);
            plies += 1;
        }
        assert_eq!(plies, 69, "{name}: White's 35th move is ply 69");
        assert!(pos.is_checkmate(), "{name}: the line must end in mate");
        println!(
            "{name}: DTM-optimal at every ply, mate at 35; not DTC-optimal at {} plies: {}",
            not_dtc_optimal.len(),
            not_dtc_optimal.join("; ")
        );
    }
}

#[test]
fn probe_report_and_evaluation() {
    let exact = tb_common::exact();
    let text = nosce::tb::probe_text(&exact, None, GAME1).expect("report");
    println!("{text}");
    assert!(text.contains("dtm       69 plies (mate in 35 moves)"));
    assert!(text.contains("dtc       61 plies (conversion or mate in 31 moves)"));
    assert!(text.contains("a8a7") && text.contains("Ka7") && text.contains("Qd8+"));
    let pos = parse_fen(GAME1).expect("fen");
    assert_eq!(exact.evaluate(&pos, 32_000), Some(32_000 - 69));
    assert_eq!(exact.probe_if_loaded(&pos).map(|e| e.dtm), Some(Some(69)));
    let black = parse_fen("K7/8/5k2/Q7/8/8/8/4r3 b - - 0 1").expect("fen");
    let e = exact.probe(&black).expect("covered");
    assert_eq!(
        exact.evaluate(&black, 32_000),
        Some(match e.wdl {
            Wdl::Win => 32_000 - i32::from(e.dtm.unwrap_or(0)),
            Wdl::Draw => 0,
            Wdl::Loss => -(32_000 - i32::from(e.dtm.unwrap_or(0))),
        })
    );
}
