//! `benches/foresight.py` (issue 41: where the gap to a stronger engine lies): in two games
//! lost by one engine, once with White and once with Black, the ply at which the winner's own
//! score first reached +1 and +2 pawns and the loser's own score at its next move are those
//! found by hand, with their median and quartiles. Standard-library Python only.

use crate::common::{bench_script_on, table_row as row};

#[test]
fn foresight_reads_the_losers_score_when_the_winner_saw_its_advantage() {
    // Game 1, "b" (Black) loses: White reaches +1.10 at ply 2 (Nf3), Black then reads -0.40;
    // +2.50 at ply 4 (Bb5), Black then -2.10.
    let one = "[Event \"t\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n\
         1. e4 {+0.30/9 0.100s} e5 {-0.20/9 0.100s} 2. Nf3 {+1.10/9 0.100s} \
         Nc6 {-0.40/9 0.100s} 3. Bb5 {+2.50/9 0.100s} a6 {-2.10/9 0.100s} \
         4. Ba4 {+3.00/9 0.100s} 1-0\n\n";
    // Game 2, "b" (White) loses: Black reaches +1.50 at ply 3 (e6), White then reads -1.00;
    // +2.00 at ply 5 (Nf6), White then -2.50.
    let two = "[Event \"t\"]\n[White \"b\"]\n[Black \"w\"]\n[Result \"0-1\"]\n\n\
         1. d4 {+0.10/9 0.100s} d5 {+0.50/9 0.100s} 2. c4 {-0.30/9 0.100s} \
         e6 {+1.50/9 0.100s} 3. Nc3 {-1.00/9 0.100s} Nf6 {+2.00/9 0.100s} \
         4. Nf3 {-2.50/9 0.100s} 0-1\n\n";
    let said = bench_script_on("foresight.py", &[one, two]);
    // loser | lost | +1: games | median ply | quartiles | +2: games | median ply | quartiles
    // (Python's exclusive quartiles of two values a < b: a - (b-a)/4, (a+b)/2, b + (b-a)/4).
    assert_eq!(
        &row(&said, "b")[1..],
        [
            "2",
            "2",
            "2.5",
            "-1.15 / -0.70 / -0.25",
            "2",
            "4.5",
            "-2.60 / -2.30 / -2.00"
        ],
        "{said}"
    );
    assert!(
        !said.lines().any(|l| l.starts_with("w |")),
        "w lost nothing: {said}"
    );
}
