//! `nosce datagen` through the real binary: every record decodes to a legal-looking
//! position; the summary counts the search's nodes; the file is the same byte for byte with
//! one, two or three threads and after an interrupted run is resumed (also when a crash left
//! junk after the last synced game);
//! openings are used; mismatched settings on resume and bad options are refused with exit
//! code 2 and a message on stderr; Syzygy tables (`SYZYGY_PATH` or `tables/syzygy`, shipped
//! with the repository; missing tables fail the test, see `tests/it/prereq.rs`) end games; with
//! `--evalfile` the games are the net's (other records, the same with two threads, the net's
//! id in the progress file, a resume without it refused).

use crate::common;
use crate::prereq;

use std::path::{Path, PathBuf};

use nosce::datagen::{RECORD_SIZE, Record, RecordReader};
use shakmaty::{Color, Role};

/// Tiny settings: every run here takes well under a second.
const TINY: &[&str] = &["--nodes", "300", "--max-plies", "60"];

fn datagen(args: &[&str]) -> (i32, String, String) {
    common::run_subcommand("datagen", args)
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nosce-datagen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Runs `datagen --out FILE --games N --threads T` plus [`TINY`] and `extra`; must succeed.
fn generate(file: &Path, games: u32, threads: u32, extra: &[&str]) -> String {
    let (games, threads) = (games.to_string(), threads.to_string());
    let mut args = vec![
        "--out",
        file.to_str().expect("utf-8 temp path"),
        "--games",
        &games,
        "--threads",
        &threads,
    ];
    args.extend_from_slice(TINY);
    args.extend_from_slice(extra);
    let (code, out, err) = datagen(&args);
    assert_eq!(code, 0, "{args:?}: exit {code}\nstdout {out}\nstderr {err}");
    out
}

fn read(file: &Path) -> Vec<u8> {
    std::fs::read(file).expect("read data file")
}

fn records(file: &Path) -> Vec<Record> {
    let bytes = read(file);
    assert_eq!(bytes.len() % RECORD_SIZE, 0, "partial record in {file:?}");
    RecordReader::new(&bytes[..])
        .enumerate()
        .map(|(i, r)| r.unwrap_or_else(|e| panic!("record {i}: {e}")))
        .collect()
}

fn check_legal_looking(r: &Record) {
    let b = &r.board;
    for color in [Color::White, Color::Black] {
        let kings = (b.by_color(color) & b.by_role(Role::King)).count();
        assert_eq!(kings, 1, "{color:?} kings in {r:?}");
    }
    let back_ranks = 0xff00_0000_0000_00ffu64;
    assert_eq!(
        b.by_role(Role::Pawn).0 & back_ranks,
        0,
        "pawn on rank 1/8: {r:?}"
    );
    assert!(b.occupied().count() <= 32);
    assert!(r.result as u8 <= 2);
    assert!(r.score.abs() < 3000, "{r:?}");
    assert!(r.fullmove >= 1);
}

#[test]
fn records_are_legal_and_threads_do_not_change_the_file() {
    let d = tmp("threads");
    let two = d.join("two.bin");
    let one = d.join("one.bin");
    let summary = generate(&two, 4, 2, &[]);
    assert!(summary.contains("4 games played"), "{summary}");
    assert!(summary.contains("positions/s"), "{summary}");
    generate(&one, 4, 1, &[]);
    let recs = records(&two);
    assert!(recs.len() >= 20, "only {} records from 4 games", recs.len());
    for r in &recs {
        check_legal_looking(r);
    }
    // Both sides' positions are recorded.
    assert!(
        recs.iter().any(|r| r.turn == Color::Black) && recs.iter().any(|r| r.turn == Color::White)
    );
    assert_eq!(
        read(&one),
        read(&two),
        "--threads 1 and 2 wrote different files"
    );
    // The summary's search line: nodes in all, per second and thread, per position written.
    let line = summary
        .lines()
        .find(|l| l.starts_with("search: "))
        .unwrap_or_else(|| panic!("no search line in {summary}"));
    let numbers: Vec<f64> = line
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(numbers.len(), 3, "{line}");
    // Every record is a searched move (300 nodes a move; 100 allows for searches that end
    // early), and the ratio agrees.
    assert!(numbers[0] >= 100.0 * recs.len() as f64, "{line}");
    assert!(numbers[1] > 0.0, "{line}");
    let per_position = numbers[0] / recs.len() as f64;
    assert!((numbers[2] - per_position).abs() <= 1.0, "{line}");
    // More games than threads, on three threads (the games finish out of order; the file
    // is written in game order all the same).
    let three = d.join("three.bin");
    let one13 = d.join("one13.bin");
    generate(&three, 13, 3, &[]);
    generate(&one13, 13, 1, &[]);
    assert_eq!(
        read(&three),
        read(&one13),
        "13 games: --threads 1 and 3 wrote different files"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_resumed_run_writes_the_same_file() {
    let d = tmp("resume");
    let whole = d.join("whole.bin");
    let parts = d.join("parts.bin");
    let junk = d.join("junk.bin");
    generate(&whole, 4, 2, &[]);
    generate(&parts, 2, 2, &[]);
    let summary = generate(&parts, 4, 2, &[]);
    assert!(summary.contains("games 2..4"), "{summary}");
    assert_eq!(
        read(&parts),
        read(&whole),
        "2 + 2 games differ from 4 games"
    );
    // A crash in the middle of an append: junk after the last recorded game is cut off.
    generate(&junk, 2, 1, &[]);
    let mut bytes = read(&junk);
    bytes.extend_from_slice(&[0xde, 0xad, 0xbe, 0xef, 0x01]);
    std::fs::write(&junk, &bytes).expect("append junk");
    let summary = generate(&junk, 4, 1, &[]);
    assert!(summary.contains("cut 5 bytes"), "{summary}");
    assert_eq!(read(&junk), read(&whole), "the junk tail was not cut off");
    // Nothing left to do.
    let summary = generate(&whole, 4, 2, &[]);
    assert!(summary.contains("nothing to play"), "{summary}");
    assert_eq!(read(&parts), read(&whole));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn resuming_with_other_settings_or_over_data_is_refused() {
    let d = tmp("refuse");
    let file = d.join("data.bin");
    generate(&file, 1, 1, &[]);
    let before = read(&file);
    let path = file.to_str().unwrap();
    for (args, needle) in [
        (
            vec![
                "--out",
                path,
                "--games",
                "2",
                "--nodes",
                "301",
                "--max-plies",
                "60",
            ],
            "--nodes",
        ),
        (
            vec![
                "--out",
                path,
                "--games",
                "2",
                "--nodes",
                "300",
                "--max-plies",
                "60",
                "--seed",
                "2",
            ],
            "--seed",
        ),
        (
            vec!["--out", path, "--games", "2", "--nodes", "300"],
            "--max-plies",
        ),
    ] {
        let (code, out, err) = datagen(&args);
        assert_eq!(code, 2, "{args:?}: exit {code}, stdout {out}");
        assert!(
            err.contains(needle) && err.contains("differs"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(read(&file), before, "a refused resume changed the data");
    // Data without a progress file is never overwritten.
    std::fs::remove_file(d.join("data.bin.progress")).expect("remove progress");
    let (code, _, err) = datagen(&["--out", path, "--games", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("not overwriting"), "{err}");
    assert_eq!(read(&file), before);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_net_plays_the_games_of_an_evalfile_run() {
    let dir = tmp("evalfile");
    let net = nosce::nnue::Network::random(32, 7, 60, 100).expect("a net");
    let net_file = dir.join(net.file_name());
    net.save(&net_file).expect("save the net");
    let net_arg = net_file.to_str().expect("utf-8 temp path");
    let (hce, one, two) = (
        dir.join("hce.bin"),
        dir.join("one.bin"),
        dir.join("two.bin"),
    );
    generate(&hce, 4, 1, &[]);
    generate(&one, 4, 1, &["--evalfile", net_arg]);
    generate(&two, 4, 2, &["--evalfile", net_arg]);
    assert_eq!(read(&one), read(&two), "threads change a net's run");
    assert_ne!(read(&one), read(&hce), "the net's games are other games");
    records(&one).iter().for_each(check_legal_looking);
    let progress = std::fs::read_to_string(dir.join("one.bin.progress")).expect("progress");
    assert!(
        progress.contains(&format!("eval nnue {}\n", net.id())),
        "the net named in the progress file: {progress}"
    );
    let hce_progress = std::fs::read_to_string(dir.join("hce.bin.progress")).expect("progress");
    assert!(hce_progress.contains("eval hce\n"), "{hce_progress}");

    // Extending the run without the net (or the hand-crafted run with it) is refused.
    let one_arg = one.to_str().expect("utf-8 temp path");
    let mut args = vec!["--out", one_arg, "--games", "6"];
    args.extend_from_slice(TINY);
    let (code, _, err) = datagen(&args);
    assert_eq!(code, 2, "resumed without the net: {err}");
    assert!(err.contains("--evalfile") && err.contains("'hce'"), "{err}");
    let (code, _, err) = datagen(&[
        "--out",
        one_arg,
        "--games",
        "1",
        "--evalfile",
        "/no/such.nnue",
    ]);
    assert_eq!(code, 2, "a missing net: {err}");
    assert!(err.contains("cannot read"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn openings_are_played_from_their_own_positions() {
    let d = tmp("openings");
    let epd = d.join("openings.epd");
    std::fs::write(
        &epd,
        "# rooks only\nr3k3/8/8/8/8/8/8/4K2R w - - 0 40\n4k2r/8/8/8/8/8/8/R3K3 b - - 0 40\n",
    )
    .unwrap();
    let file = d.join("data.bin");
    generate(
        &file,
        2,
        2,
        &["--openings", epd.to_str().unwrap(), "--random-plies", "0"],
    );
    let recs = records(&file);
    assert!(!recs.is_empty());
    for r in &recs {
        check_legal_looking(r);
        assert!(r.board.occupied().count() <= 4, "{r:?}");
        assert_eq!(r.board.by_role(Role::Pawn).count(), 0);
        assert!(r.fullmove >= 40, "{r:?}");
    }
    // Game 0 starts with White to move, game 1 with Black.
    assert_eq!(recs[0].turn, Color::White);
    assert!(recs.iter().any(|r| r.turn == Color::Black));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn syzygy_tables_end_covered_games() {
    let dir = std::env::var_os("SYZYGY_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("tables/syzygy"));
    if !dir.is_dir() {
        prereq::missing(
            "syzygy_tables_end_covered_games: no Syzygy tables (tables/syzygy ships with the repository; SYZYGY_PATH overrides)",
        );
        return;
    }
    let d = tmp("syzygy");
    let epd = d.join("openings.epd");
    // K+R v K (White to move wins) and K+R v K+R (a draw): both end before the first search.
    std::fs::write(
        &epd,
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1\n8/8/3k4/2r5/8/4K3/5R2/8 w - - 0 1\n",
    )
    .unwrap();
    let openings = ["--openings", epd.to_str().unwrap(), "--random-plies", "0"];
    let with = d.join("with.bin");
    let mut extra = openings.to_vec();
    extra.extend_from_slice(&["--syzygy", dir.to_str().unwrap()]);
    let summary = generate(&with, 2, 2, &extra);
    assert!(
        summary.contains("1 wins, 1 draws, 0 losses") && summary.contains("tablebase 2"),
        "{summary}"
    );
    assert!(read(&with).is_empty());
    // Without the tables the same games are played out.
    let without = d.join("without.bin");
    let summary = generate(&without, 2, 2, &openings);
    assert!(!summary.contains("tablebase"), "{summary}");
    assert!(!records(&without).is_empty());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_options_exit_2_with_a_message() {
    let d = tmp("bad");
    let out = d.join("x.bin");
    let out = out.to_str().unwrap();
    for (args, needle) in [
        (vec!["--games", "2"], "--out"),
        (vec!["--out", out], "--games"),
        (vec!["--out", out, "--games"], "--games"),
        (vec!["--out", out, "--games", "many"], "'many'"),
        (vec!["--out", out, "--games", "0"], "--games"),
        (
            vec!["--out", out, "--games", "1", "--threads", "0"],
            "--threads",
        ),
        (
            vec!["--out", out, "--games", "1", "--nodes", "x"],
            "--nodes",
        ),
        (
            vec!["--out", out, "--games", "1", "--frobnicate", "1"],
            "'--frobnicate'",
        ),
        (
            vec![
                "--out",
                out,
                "--games",
                "1",
                "--openings",
                "/nonexistent/o.epd",
            ],
            "cannot read",
        ),
        (
            vec![
                "--out",
                out,
                "--games",
                "1",
                "--syzygy",
                "/nonexistent/syzygy",
            ],
            "--syzygy",
        ),
    ] {
        let (code, stdout, err) = datagen(&args);
        assert_eq!(
            code, 2,
            "{args:?}: exit {code}, stdout {stdout}, stderr {err}"
        );
        assert!(
            err.contains("nosce datagen:") && err.contains(needle),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    assert!(!Path::new(out).exists(), "a refused run created its output");
    let (code, help, _) = datagen(&["--help"]);
    assert_eq!(code, 0);
    assert!(help.contains("--random-plies"));
    let _ = std::fs::remove_dir_all(&d);
}
