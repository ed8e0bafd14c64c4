//! `nosce generation` through the real binary: a two-generation lineage made in one run is
//! byte for byte the lineage made one generation at a time (the second run resumes after
//! the first); every step's command and time are in `generation.log`; a rerun with nothing
//! left to do changes no file; generation 2 plays with generation 1's best net and trains on
//! both generations' data; bad options and a step that fails exit 2 with the step named.

use crate::common;

use std::path::{Path, PathBuf};

/// A lineage small enough for a test: 6 games of 300 nodes a move, a 16-unit net, a few
/// epochs.
const TINY: &[&str] = &[
    "--games",
    "6",
    "--nodes",
    "300",
    "--max-plies",
    "60",
    "--hidden",
    "16",
    "--imitate-epochs",
    "2",
    "--epochs",
    "3",
    "--seed",
    "4",
];

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nosce-generation-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `nosce generation --dir DIR --gens K` plus [`TINY`]; must succeed; returns stdout.
fn lineage(dir: &Path, gens: u32) -> String {
    let gens = gens.to_string();
    let mut args = vec![
        "--dir",
        dir.to_str().expect("utf-8 temp path"),
        "--gens",
        &gens,
    ];
    args.extend_from_slice(TINY);
    let (code, out, err) = common::run_subcommand("generation", &args);
    assert_eq!(code, 0, "{args:?}: exit {code}\nstdout {out}\nstderr {err}");
    out
}

/// The summary's line for generation `k`.
fn summary_line(out: &str, k: u32) -> String {
    out.lines()
        .find(|l| l.starts_with(&format!("generation {k}: ")))
        .unwrap_or_else(|| panic!("no summary for generation {k} in\n{out}"))
        .to_string()
}

/// The net a summary line names (relative to the lineage's directory).
fn net_of(line: &str, dir: &Path) -> PathBuf {
    let path = line
        .split(", net ")
        .nth(1)
        .and_then(|r| r.split(" (epoch").next())
        .unwrap_or_else(|| panic!("no net in '{line}'"));
    let p = Path::new(path);
    let rel = p
        .strip_prefix(dir)
        .unwrap_or_else(|_| panic!("{path} outside {dir:?}"));
    rel.to_path_buf()
}

fn bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("read {p:?}: {e}"))
}

#[test]
fn a_lineage_made_at_once_or_in_parts_is_the_same() {
    let whole = tmp("whole");
    let parts = tmp("parts");
    let out = lineage(&whole, 2);
    lineage(&parts, 1);
    let out_parts = lineage(&parts, 2);
    for k in [1, 2] {
        let (a, b) = (summary_line(&out, k), summary_line(&out_parts, k));
        let (na, nb) = (net_of(&a, &whole), net_of(&b, &parts));
        assert_eq!(na, nb, "generation {k}: {a} / {b}");
        assert_eq!(bytes(&whole.join(&na)), bytes(&parts.join(&nb)));
        let data = format!("gen{k}/data.bin");
        assert_eq!(
            bytes(&whole.join(&data)),
            bytes(&parts.join(&data)),
            "{data}"
        );
        assert!(
            bytes(&whole.join(&data)).len() >= 32 * 20,
            "{data}: few positions"
        );
    }
    // Generation 2 played with generation 1's net and trained on both generations' data.
    let log = String::from_utf8(bytes(&whole.join("generation.log"))).unwrap();
    let net1 = net_of(&summary_line(&out, 1), &whole);
    let lines: Vec<&str> = log.lines().collect();
    let steps: Vec<&str> = lines
        .iter()
        .map(|l| l.split(' ').nth(2).unwrap_or(""))
        .collect();
    assert_eq!(
        steps,
        ["datagen", "imitate", "fit", "datagen", "fit"],
        "{log}"
    );
    assert!(
        lines[3].contains("--seed 5")
            && lines[3].contains(&format!("--evalfile {}", whole.join(&net1).display())),
        "{}",
        lines[3]
    );
    assert!(lines[4].contains("gen1/data.bin,"), "{}", lines[4]);
    assert!(lines[0].contains("--seed 4") && !lines[0].contains("--evalfile"));
    // Every line carries its seconds; the summary adds them up.
    for l in &lines {
        let secs: f64 = l.split(' ').nth(3).unwrap().parse().expect(l);
        assert!(secs >= 0.0);
    }
    assert!(out.contains("s in all (gen 1 datagen"), "{out}");
    // Nothing left to do: the same summary, one more line a step, no file changed.
    let net2 = whole.join(net_of(&summary_line(&out, 2), &whole));
    let before = bytes(&net2);
    let again = lineage(&whole, 2);
    assert_eq!(summary_line(&again, 2), summary_line(&out, 2));
    assert_eq!(bytes(&net2), before);
    let log = String::from_utf8(bytes(&whole.join("generation.log"))).unwrap();
    assert_eq!(log.lines().count(), 10);
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&parts);
}

#[test]
fn bad_options_and_failing_steps_exit_2_with_a_message() {
    let d = tmp("bad");
    let dir = d.to_str().unwrap();
    for (args, word) in [
        (vec!["--dir", dir], "--games"),
        (vec!["--dir", dir, "--games", "x"], "--games"),
        (vec!["--dir", dir, "--games", "3", "--gens", "0"], "--gens"),
        (vec!["--dir", dir, "--games", "3", "--frob"], "--frob"),
    ] {
        let (code, out, err) = common::run_subcommand("generation", &args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.contains(word), "{args:?}: {err}");
    }
    // A value passed on is checked by the step's own command, and the step is named.
    let (code, _, err) = common::run_subcommand(
        "generation",
        &["--dir", dir, "--games", "2", "--nodes", "0"],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("generation 1, datagen") && err.contains("--nodes"),
        "{err}"
    );
    let log = String::from_utf8(bytes(&d.join("generation.log"))).unwrap();
    assert!(
        log.contains("gen 1 datagen") && log.contains("(failed)"),
        "{log}"
    );
    let (code, out, _) = common::run_subcommand("generation", &["--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("--imitate-epochs") && out.contains("--seed"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
