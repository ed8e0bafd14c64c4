//! Criterion benchmarks of the engine's hot paths: move generation (perft through our
//! `Position`), static evaluation over the bench positions, and a fixed-depth search.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use nosce::bench::positions;
use nosce::eval::{Evaluator, FullEval, MaterialEval};
use nosce::perft::perft;
use nosce::position::Position;
use nosce::search::search_depth;
use nosce::tt::TranspositionTable;

fn movegen(c: &mut Criterion) {
    let mut pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .expect("kiwipete");
    c.bench_function("perft 3 kiwipete", |b| {
        b.iter(|| perft(black_box(&mut pos), 3))
    });
}

fn eval(c: &mut Criterion) {
    let boards: Vec<_> = positions()
        .iter()
        .filter_map(|f| Position::from_fen(f).ok())
        .map(|p| p.chess().clone())
        .collect();
    let full = FullEval::default();
    let material = MaterialEval;
    c.bench_function("eval full (all bench positions)", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|p| full.evaluate(black_box(p)))
                .sum::<i32>()
        })
    });
    c.bench_function("eval material (all bench positions)", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|p| material.evaluate(black_box(p)))
                .sum::<i32>()
        })
    });
}

fn search(c: &mut Criterion) {
    let pos =
        Position::from_fen("r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14")
            .expect("bench position");
    let tt = TranspositionTable::new(16);
    let eval = FullEval::default();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("depth 8 middlegame", |b| {
        b.iter(|| {
            tt.clear();
            search_depth(&eval, &tt, black_box(&pos), 8).nodes
        })
    });
    group.finish();
}

criterion_group!(benches, movegen, eval, search);
criterion_main!(benches);
