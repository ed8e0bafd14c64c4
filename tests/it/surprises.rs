//! `benches/surprises.py` (issue 41: where the gap to a stronger engine lies): on a small PGN
//! in fastchess's comment format (pawns, a mate score, a move without a comment) and one in
//! `benches/match.py`'s `s=` format (centipawns, Black moving first), each engine's falls and
//! rises of its own score between its consecutive moves are those counted by hand; bad input
//! exits non-zero with a message. Standard-library Python only.

use crate::common::{bench_script_on, table_row as row};

#[test]
fn surprises_counts_each_sides_falls_and_rises() {
    // White "a": +0.50, -0.60 (a fall of 1.1 after the quiet reply e5), mated (a fall of 2 or
    // more, after the capture exd4; from inside ±3), then nothing counted from the mate
    // score. Black "b": -0.20, +1.00 (a rise), +4.00 (a rise), +1.50 (from outside ±3: not
    // counted); Qe3 has no comment, so b5's score must still be Black's.
    let fast = "[Event \"t\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n\
         1. e4 {+0.50/9 0.100s} e5 {-0.20/9 0.100s} 2. d4 {-0.60/9 0.100s} \
         exd4 {+1.00/9 0.100s} 3. Qxd4 {-M3/9 0.100s} a6 {+4.00/9 0.100s} 4. Qe3 \
         b5 {+1.50/9 0.100s} 0-1\n\n";
    // match.py: Black "d" moves first, +20 then -90 cp (a fall of 1.1); White "c" -30 cp,
    // then a mate for it (a rise).
    let emt = "[Event \"t\"]\n[White \"c\"]\n[Black \"d\"]\n[Result \"1/2-1/2\"]\n\
         [FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 1\"]\n\n\
         1... Kd7 { [%clk 0:00:09.1] [%emt 0.1] d=9 s=+20 } 2. Kd2 { [%emt 0.1] d=9 s=-30 } \
         2... Ke7 { d=9 s=-90 } 3. Ke2 { d=9 s=+99990 } 1/2-1/2\n\n";
    let said = bench_script_on("surprises.py", &[fast, emt]);
    // engine | games | moves | falls>=1 | per 100 | falls>=2 | per 100 | rises | lost falls |
    // falls after a quiet / capture / checking reply
    assert_eq!(
        &row(&said, "a")[1..],
        ["1", "3", "2", "66.67", "1", "33.33", "0", "2", "1 / 1 / 0"],
        "{said}"
    );
    assert_eq!(
        &row(&said, "b")[1..],
        ["1", "4", "0", "0.00", "0", "0.00", "2", "0", "0 / 0 / 0"],
        "{said}"
    );
    assert_eq!(
        &row(&said, "c")[1..],
        ["1", "2", "0", "0.00", "0", "0.00", "1", "0", "0 / 0 / 0"],
        "{said}"
    );
    assert_eq!(&row(&said, "d")[1..5], ["1", "2", "1", "50.00"], "{said}");
    assert_eq!(row(&said, "d")[9], "1 / 0 / 0", "{said}");
}
