//! `benches/clock_use.py` (issue 41, item 2: how an engine uses its clock): on a small PGN in
//! fastchess's comment format and one in `benches/match.py`'s `[%emt]` format, the seconds a
//! move, the clock rebuilt from base and increment (a per-side `A/B` control too), the games
//! below a tenth of the base and the losses on time are those counted by hand; bad input
//! exits non-zero with a message. Standard-library Python only.

use crate::common::{bench_script_on, table_row as row};

#[test]
fn clock_use_rebuilds_each_sides_clock() {
    // fastchess: 4+0.04; White "a" spends 1.0 and 3.5 s (clock 4 → 3.04 → −0.42: below 0.4),
    // Black "b" 0.5 and 0.25 s and loses on time.
    let fast = "[Event \"t\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\
         [Termination \"time forfeit\"]\n[TimeControl \"4+0.04\"]\n\n\
         1. e4 {+0.10/9 1.000s} e5 {-0.10/9 0.500s} 2. Nf3 {+0.2/9 3.500s} \
         Nc6 {-0.2/9 0.250s} 1-0\n\n";
    // match.py: White has 30+0.3, Black 10+0.1; the game starts with Black to move.
    let emt = "[Event \"t\"]\n[White \"a\"]\n[Black \"c\"]\n[Result \"1/2-1/2\"]\n\
         [FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 1\"]\n[TimeControl \"30+0.3/10+0.1\"]\n\n\
         1... Kd7 { [%clk 0:00:09.1] [%emt 1.0] d=9 s=0 } 2. Kd2 { [%emt 2.0] d=9 } 1/2-1/2\n\n";
    let said = bench_script_on("clock_use.py", &[fast, emt]);
    // a: moves 1.0, 3.5 (fast) and 2.0 (emt, clock 30 → 28.3); lowest −0.42.
    let a = row(&said, "a");
    assert_eq!(&a[1..5], ["2", "3", "2.167", "2.167"], "{said}");
    assert_eq!(&a[9..12], ["-0.42", "1", "0"], "{said}");
    let b = row(&said, "b");
    assert_eq!(&b[1..4], ["1", "2", "0.375"], "{said}");
    assert_eq!(&b[9..12], ["3.33", "0", "1"], "{said}");
    let c = row(&said, "c");
    assert_eq!(&c[2..4], ["1", "1.000"], "{said}");
    assert_eq!(c[9], "9.10", "{said}");
}
