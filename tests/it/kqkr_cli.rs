//! `nosce kqkr` through the real binary: bad input gets a clear message on stderr and exit
//! code 2, never a panic; `--help` works; a UCI engine (nosce itself) can play the K+Q side
//! from an EPD file, and python-chess reads the PGN the sweep writes.

use crate::common;
use crate::prereq;

use std::path::PathBuf;
use std::process::Command;

fn nosce(args: &[&str]) -> (i32, String, String) {
    common::run_subcommand("kqkr", args)
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("nosce-kqkr-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn bad_input_exits_2_with_a_reason() {
    for (args, needle) in [
        (&["--games", "0"][..], "--games"),
        (&["--games"][..], "a value is required"),
        (&["--frobnicate"][..], "unexpected argument"),
        (&["--depths", "3..1"][..], "range"),
        (&["--shard", "0/2"][..], "--shard"),
        (&["--kr-depth", "x"][..], "--kr-depth"),
        (&["--positions", "/nonexistent.epd"][..], "cannot read"),
        (&["--model", "oracle:1"][..], "unknown evaluator"),
        (&["--model-perturb", "maybe"][..], "perturbation"),
        (&["--opponent-uci", "/nonexistent/engine"][..], "not found"),
        (
            &["--model", "engine:1:nodes=500"][..],
            "needs --opponent-uci",
        ),
        (
            &["--opp-nodes", "900", "--opp-nodes-spread", "0.5"][..],
            "UCI K+Q side",
        ),
        (&["--opp-nodes-spread", "2"][..], "fraction"),
        (&["merge", "/nonexistent-a"][..], "--out"),
        (
            &["merge", "/nonexistent-a", "--out", "/tmp/x"][..],
            "not a kqkr run folder",
        ),
        (&["analyze"][..], "PGN"),
        (&["analyze", "/nonexistent.pgn"][..], "cannot read"),
        (&["calibrate", "--candidates", "0"][..], "depths >= 1"),
    ] {
        let (code, out, err) = nosce(args);
        assert_eq!(code, 2, "{args:?}: exit {code}, stderr {err}");
        assert!(err.starts_with("nosce kqkr: "), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    let (code, out, _) = nosce(&["--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("calibrate") && out.contains("--depths <LIST>"),
        "{out}"
    );
}

#[test]
fn a_uci_engine_plays_the_queen_side_from_an_epd() {
    let dir = tmp("uci");
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("one.epd");
    std::fs::write(
        &epd,
        "K2Q4/8/8/8/r7/2k5/8/8 w - - id \"Browne-BELLE 2\"; bm Kb7 Kb8;\n",
    )
    .unwrap();
    let out = dir.join("run");
    let (code, stdout, err) = nosce(&[
        "--positions",
        &epd.display().to_string(),
        "--opponent-uci",
        env!("CARGO_BIN_EXE_nosce"),
        "--opponent-option",
        "Hash=4",
        "--opp-depth",
        "3",
        "--kr-depth",
        "3",
        "--depths",
        "0,1",
        "--games",
        "1",
        "--quiet",
        "--out",
        &out.display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("| Browne-BELLE 2 | 0 | 1 |"), "{stdout}");
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 3, "{games}");
    // python-chess reads our PGN (skipped without python3 + chess).
    let script = "import chess.pgn,sys\nn=0\nf=open(sys.argv[1])\nwhile True:\n g=chess.pgn.read_game(f)\n if g is None: break\n assert not g.errors, g.errors\n assert g.headers['SetUp']=='1'\n g.end().board()\n n+=1\nprint(n)\n";
    match Command::new("python3")
        .args(["-c", script, &out.join("games.pgn").display().to_string()])
        .output()
    {
        Ok(o) if o.status.success() => {
            assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "2");
        }
        Ok(o) if String::from_utf8_lossy(&o.stderr).contains("No module named") => {
            prereq::missing("python-chess not installed (pip install chess)");
        }
        Ok(o) => panic!("python-chess: {}", String::from_utf8_lossy(&o.stderr)),
        Err(_) => prereq::missing("no python3"),
    }
    let _ = std::fs::remove_dir_all(dir);
}
