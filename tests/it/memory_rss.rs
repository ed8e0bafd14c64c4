//! Memory stays where the options put it: the resident set of the real binary after
//! `ucinewgame` and a search is at most `Hash` + the opponent types' own tables (`Hash/2`
//! per evaluator/tables combination other than ours) + 30 MB, for `Hash` = 16, 256 and 1024
//! and for a PrOM model with three types. Read from `/proc/PID/status` (Linux).
#![cfg(target_os = "linux")]

use crate::common;

use common::{Engine, QUICK, SEARCH};

/// What the program may hold beyond its tables (code, stacks, buffers, the search's own
/// arrays), in MB.
const OVERHEAD_MB: u64 = 30;

/// The resident set (MB) of the binary after `setup` (option lines), `ucinewgame` and
/// `go depth D`, read once its `bestmove` is out.
fn rss_after(setup: &[String], depth: u32) -> u64 {
    let (mut e, _) = Engine::start_uci();
    for line in setup {
        e.send(line);
    }
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5");
    e.send(&format!("go depth {depth}"));
    let lines = e.read_until("bestmove", SEARCH);
    let errors = lines.iter().any(|l| l.contains("error"));
    e.check(!errors, "every table was allocated");
    let kb = e.status_kb("VmRSS");
    e.send("quit");
    e.expect_exit(QUICK);
    kb / 1024
}

fn hash(mb: u64) -> String {
    format!("setoption name Hash value {mb}")
}

#[test]
fn resident_memory_is_the_hash_and_a_little_more() {
    for mb in [16u64, 256, 1024] {
        let rss = rss_after(&[hash(mb)], 9);
        println!("Hash={mb}: resident {rss} MB");
        assert!(
            rss <= mb + OVERHEAD_MB,
            "Hash={mb}: resident {rss} MB > {mb} + {OVERHEAD_MB} MB"
        );
    }
}

#[test]
fn resident_memory_of_a_three_type_model_is_its_tables_and_a_little_more() {
    // `self` shares our table; `material` and `notb` (no tablebases) get Hash/2 each.
    let mb = 256u64;
    let rss = rss_after(
        &[
            hash(mb),
            "setoption name OM_Mode value prom".into(),
            "setoption name OM_OpponentTypes value self:0.4,material:0.3:depth=3,notb:0.3:depth=4"
                .into(),
        ],
        6,
    );
    let tables = mb + 2 * (mb / 2);
    println!("PrOM, Hash={mb}: resident {rss} MB, tables {tables} MB");
    assert!(
        rss <= tables + OVERHEAD_MB,
        "resident {rss} MB > {tables} + {OVERHEAD_MB} MB"
    );
}
