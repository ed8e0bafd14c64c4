//! The bench signature: `nosce bench` must print the node count recorded in
//! `tests/bench.signature` (and quoted as `Bench: N` in the last commit that changed the
//! search). A change of search behaviour shows up here first; update the file in the same
//! commit and quote the number in its message.

use std::process::Command;

#[test]
fn bench_prints_the_recorded_node_count() {
    let expected = include_str!("../bench.signature").trim();
    let out = Command::new(env!("CARGO_BIN_EXE_nosce"))
        .arg("bench")
        .output()
        .expect("run nosce bench");
    assert!(out.status.success(), "bench failed: {out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or("");
    let fields: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(fields.len(), 4, "last line '{last}' is not 'N nodes M nps'");
    assert_eq!(fields[1], "nodes");
    assert_eq!(fields[3], "nps");
    assert_eq!(
        fields[0], expected,
        "bench node count changed: update tests/bench.signature"
    );
}

#[test]
fn bench_rejects_a_bad_depth() {
    let out = Command::new(env!("CARGO_BIN_EXE_nosce"))
        .args(["bench", "zero"])
        .output()
        .expect("run nosce bench");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("depth"));
}
