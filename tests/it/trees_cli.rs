//! `run_cli`: help, errors for bad arguments (never a panic), CSV and text layout.

use nosce::trees::run_cli;

fn run(args: &[&str]) -> Result<String, String> {
    run_cli(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

#[test]
fn help() {
    for h in ["--help", "-h", "help"] {
        let h = run(&[h]).unwrap();
        assert!(
            h.contains("Usage: nosce trees") && h.contains("--csv"),
            "{h}"
        );
        assert!(
            h.contains("[default: 8]") && h.contains("5th percentile"),
            "{h}"
        );
    }
}

#[test]
fn bad_arguments_are_errors() {
    for bad in [
        &["--depth"][..],
        &["--depth", "x"],
        &["--depth", "5..2"],
        &["--width", "0"],
        &["--width", "40"],
        &["--seed", "0", "--trees", "1"],
        &["--seeds", "4294967296"],
        &["--trees", "0"],
        &["--probs", "0.5,0.6"],
        &["--probs", "-1,2"],
        &["--types", "0"],
        &["--types", "9"],
        &["--tt-bits", "40"],
        &["--bound", "-3"],
        &["--depth", "40"],
        &["--frobnicate"],
        &["--seed", "18446744073709551615", "--trees", "2"],
    ] {
        let r = run(bad);
        assert!(r.is_err(), "{bad:?} gave {r:?}");
    }
}

#[test]
fn csv_matches_the_worked_example() {
    let out = run(&["--csv", "--seeds", "1", "--depth", "2", "--width", "2"]).unwrap();
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap(),
        "seed,depth,width,minimax,om,evals_alphabeta,evals_om_beta_1p,evals_om_beta_pb"
    );
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&row[..5], ["1", "2", "2", "1459", "1844"]);
    // α-β: leaves 00, 01, 10 (11 is cut: 1181 < 1459). OM^β1p: V_op of 4 leaves + 2 V_0.
    // OM^βPb: probe at move 0 (2 V_op) and move 1 (2 V_op) + 2 V_0.
    assert_eq!(&row[5..], ["3", "6", "6"]);
}

#[test]
fn text_report_has_all_blocks() {
    let out = run(&["--trees", "3", "--depth", "3..4", "--width", "3"]).unwrap();
    for title in [
        "OM^b1p",
        "OM^bPb / alpha-beta",
        "OM^bPb+TT",
        "TT saving",
        "PrOM^b1p",
        "PrOM^bPb",
        "bounded-sum Pb",
        "bounded-sum 1p",
    ] {
        assert!(out.contains(title), "missing {title}");
    }
    assert!(out.lines().any(|l| l.trim_start().starts_with("3     3")));
    assert!(out.lines().any(|l| l.trim_start().starts_with("4     3")));
}

#[test]
fn three_types_report() {
    let out = run(&[
        "--trees",
        "2",
        "--depth",
        "3",
        "--width",
        "2",
        "--probs",
        "0.2,0.3,0.5",
    ]);
    assert!(out.unwrap().contains("3 opponent types"));
}
