//! The published Bao numbers, for orientation beside ours: Donkers, van den Herik,
//! Uiterwijk, *Opponent-Model Search in Bao: Conditions for a Successful Application*,
//! Tables 1–7 (games won by South out of 100 per pairing; South the row, North the column),
//! Table 8 (South's total out of 400 per tournament) and Table 9 (mean moves per game where
//! OM search chose another move than α-β at depth 6). Bao has no draws.

/// The paper's evaluation functions, in the order of its tables.
pub const EVALUATORS: [&str; 5] = ["MATERIAL", "DEFAULT", "GA3", "TDL2B", "NGND6"];

/// Tables 1–7: `TABLES[t][row][col]`, games won of 100 (the diagonal is not played: 0).
pub const TABLES: [[[u32; 5]; 5]; 7] = [
    [
        [0, 55, 35, 19, 18],
        [48, 0, 54, 30, 28],
        [55, 61, 0, 36, 30],
        [69, 65, 57, 0, 39],
        [79, 73, 75, 60, 0],
    ],
    [
        [0, 57, 62, 40, 32],
        [71, 0, 52, 49, 34],
        [80, 75, 0, 62, 49],
        [86, 76, 69, 0, 57],
        [88, 76, 80, 70, 0],
    ],
    [
        [0, 57, 50, 30, 24],
        [46, 0, 46, 26, 25],
        [59, 57, 0, 40, 35],
        [78, 64, 60, 0, 46],
        [71, 58, 66, 61, 0],
    ],
    [
        [0, 60, 64, 49, 39],
        [63, 0, 47, 44, 41],
        [70, 66, 0, 57, 40],
        [80, 69, 70, 0, 56],
        [84, 68, 71, 59, 0],
    ],
    [
        [0, 59, 57, 31, 27],
        [50, 0, 48, 32, 23],
        [53, 64, 0, 36, 30],
        [69, 73, 66, 0, 40],
        [77, 82, 77, 63, 0],
    ],
    [
        [0, 76, 69, 54, 58],
        [59, 0, 66, 48, 46],
        [75, 77, 0, 56, 55],
        [79, 88, 83, 0, 57],
        [80, 88, 85, 68, 0],
    ],
    [
        [0, 66, 49, 32, 33],
        [49, 0, 45, 37, 31],
        [63, 62, 0, 35, 33],
        [72, 66, 64, 0, 46],
        [75, 71, 76, 69, 0],
    ],
];

/// Table 9 for tournaments 3–7: mean deviations from α-β per game, per South evaluator.
pub const DEVIATIONS: [[f64; 5]; 5] = [
    [3.27, 3.36, 2.38, 2.47, 2.21],
    [4.85, 5.43, 4.90, 4.46, 4.55],
    [3.30, 3.12, 2.52, 2.43, 2.26],
    [4.35, 5.14, 4.47, 3.93, 3.98],
    [1.83, 0.82, 0.29, 0.73, 0.50],
];

/// South's total of tournament `t` (0-based) for row `row`, out of 400 (Table 8).
pub fn row_total(t: usize, row: usize) -> u32 {
    TABLES[t][row].iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_totals_are_table_8() {
        // Table 8 of the paper, tournaments 1-7, MATERIAL..NGND6.
        let table8 = [
            [127, 160, 182, 230, 287],
            [191, 206, 266, 288, 314],
            [161, 143, 191, 248, 256],
            [212, 195, 233, 275, 282],
            [174, 153, 183, 248, 299],
            [257, 219, 263, 307, 321],
            [180, 162, 193, 248, 291],
        ];
        for (t, row) in table8.iter().enumerate() {
            for (r, &total) in row.iter().enumerate() {
                assert_eq!(row_total(t, r), total, "tournament {} row {r}", t + 1);
            }
        }
    }
}
