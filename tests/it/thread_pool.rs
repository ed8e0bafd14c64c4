//! The thread pool that outlives a move (`src/search/pool.rs`): a search on the pool with
//! fresh ordering tables is the search without it; the tables a search leaves are kept for
//! the next one until cleared; with two threads both slots are used; and through the binary,
//! `Threads` changes remake the pool while `ucinewgame` and `Clear Hash` bring a search back
//! to exactly what a fresh engine does.

use crate::common;

use std::time::Duration;

use common::{Engine, info_field, parse_bestmove};
use nosce::eval::FullEval;
use nosce::limits::Limits;
use nosce::position::Position;
use nosce::search::pool::SearchPool;
use nosce::search::{SearchConfig, SearchContext, SearchControl, SearchResult, root_moves, search};
use nosce::tt::TranspositionTable;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3P4/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const ITALIAN: &str = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

/// A depth-`depth` search of `fen` with a fresh 16 MB table, on `pool` if given.
fn run(fen: &str, depth: u32, threads: usize, pool: Option<&SearchPool>) -> SearchResult {
    let eval = FullEval::default();
    let tt = TranspositionTable::new(16);
    let control = SearchControl::default();
    let config = SearchConfig {
        threads,
        ..SearchConfig::default()
    };
    let ctx = SearchContext {
        pool,
        ..SearchContext::silent(&eval, &tt, &control, &config)
    };
    let pos = Position::from_fen(fen).expect("valid FEN");
    let limits = Limits::depth(depth);
    let allowed = root_moves(&pos, &limits);
    search(&ctx, &pos, &limits, &allowed)
}

fn clear(pool: &SearchPool, slot: usize) -> bool {
    pool.slot(slot).expect("slot").lock().own.is_clear()
}

#[test]
fn fresh_tables_on_the_pool_search_exactly_as_without_it_and_are_kept_until_cleared() {
    let pool = SearchPool::new(1).expect("a thread");
    assert!(clear(&pool, 0));
    let alone = run(KIWIPETE, 8, 1, None);
    let pooled = run(KIWIPETE, 8, 1, Some(&pool));
    assert_eq!(
        (alone.nodes, alone.best),
        (pooled.nodes, pooled.best),
        "a fresh slot is a fresh search"
    );
    assert!(!clear(&pool, 0), "the search's history stays in its slot");
    // The next search starts from the kept (aged) tables: a search of its own, whose
    // result is still a legal move; cleared, the slot gives the fresh search again.
    let kept = run(ITALIAN, 8, 1, Some(&pool));
    let italian = Position::from_fen(ITALIAN).unwrap();
    assert!(
        kept.best
            .is_some_and(|m| italian.legal_moves().contains(&m))
    );
    pool.clear();
    assert!(clear(&pool, 0));
    let again = run(KIWIPETE, 8, 1, Some(&pool));
    assert_eq!((again.nodes, again.best), (alone.nodes, alone.best));
}

#[test]
fn two_threads_run_on_the_pool_and_each_keeps_its_own_tables() {
    let pool = SearchPool::new(2).expect("two threads");
    let r = run(KIWIPETE, 9, 2, Some(&pool));
    let pos = Position::from_fen(KIWIPETE).unwrap();
    assert!(r.best.is_some_and(|m| pos.legal_moves().contains(&m)));
    assert!(!clear(&pool, 0), "the main thread's tables are kept");
    assert!(!clear(&pool, 1), "the helper's tables are kept");
    // A pool smaller than the search asks for is not used: threads of its own, fresh
    // tables, and the pool's slot untouched.
    let small = SearchPool::new(1).expect("a thread");
    let r = run(KIWIPETE, 7, 2, Some(&small));
    assert!(r.best.is_some());
    assert!(clear(&small, 0));
}

/// Nodes of the last `info ... nodes` line and the best move of a `go depth` search.
fn nodes_of(e: &mut Engine, go: &str) -> (u64, String) {
    let (lines, _) = e.go(go, Duration::from_secs(60));
    let nodes = lines
        .iter()
        .filter_map(|l| info_field(l, "nodes"))
        .filter_map(|n| n.parse::<u64>().ok())
        .next_back();
    let best = lines
        .iter()
        .find(|l| l.starts_with("bestmove"))
        .map(|l| parse_bestmove(l).0);
    match (nodes, best) {
        (Some(n), Some(b)) => (n, b),
        _ => e.fail(&format!("no nodes or bestmove for '{go}'")),
    }
}

#[test]
fn threads_changes_remake_the_pool_and_a_new_game_searches_as_a_fresh_engine() {
    let (mut e, _) = Engine::start_uci();
    let fresh = |e: &mut Engine| {
        e.send(&format!("position fen {KIWIPETE}"));
        nodes_of(e, "go depth 8")
    };
    let first = fresh(&mut e);
    // Moves of a game: the tables (and the hash) are kept from one to the next.
    e.send("position startpos moves e2e4");
    nodes_of(&mut e, "go depth 8");
    for threads in [2, 3, 1] {
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("position startpos moves e2e4 e7e5");
        let (_, best) = nodes_of(&mut e, "go depth 7");
        let lines = e.sync();
        e.check(
            !lines
                .iter()
                .any(|l| l.contains("warning") || l.contains("error")),
            &format!("Threads {threads}: {lines:?}"),
        );
        e.check(!best.is_empty(), "a bestmove");
    }
    e.send("ucinewgame");
    let after_new_game = fresh(&mut e);
    e.check(
        after_new_game == first,
        &format!("after ucinewgame {after_new_game:?}, a fresh engine {first:?}"),
    );
    e.send("position startpos moves d2d4");
    nodes_of(&mut e, "go depth 8");
    e.send("setoption name Clear Hash");
    let after_clear = fresh(&mut e);
    e.check(
        after_clear == first,
        &format!("after Clear Hash {after_clear:?}, a fresh engine {first:?}"),
    );
    e.close();
}
