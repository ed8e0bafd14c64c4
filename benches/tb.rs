//! Criterion benches of the endgame tables: KQvKR generation by the retrograde solver
//! (Thompson's method, Donkers 2003 §5.4) and probe times of the exact tables (and Syzygy WDL
//! when `SYZYGY_PATH` is set).
// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::{hint::black_box, sync::Arc};

use criterion::{Criterion, criterion_group, criterion_main};
use nosce::tb::{
    ExactTables, Material, Metric, SyzygyTables,
    generate::solve,
    sample::{position_at, reorient},
};
use shakmaty::{Chess, Color};

fn positions(tables: &ExactTables, key: &str, count: usize) -> Vec<Chess> {
    let m: Material = key.parse().expect("material");
    let t = tables.table(&m).expect("table");
    let mut rng = nosce::rng::GameRng::from_seed(42);
    let mut out = Vec::new();
    while out.len() < count {
        let turn = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        if let Some(p) = position_at(&t, rng.below(t.layout().size) as u32, turn) {
            out.push(reorient(&p, rng.below(8) as u8, rng.below(2) == 1).unwrap_or(p));
        }
    }
    out
}

fn generation(c: &mut Criterion) {
    let tables = ExactTables::in_memory();
    let m: Material = "KQvKR".parse().expect("material");
    for sub in ["KQvK", "KRvK"] {
        tables.generate(sub).expect("sub-table");
    }
    let sub = |m: &Material| tables.table(m);
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    group.bench_function("KQvKR (sub-tables ready)", |b| {
        b.iter(|| black_box(solve(&m, &sub).expect("solve")))
    });
    group.bench_function("KQvK", |b| {
        let m: Material = "KQvK".parse().expect("material");
        b.iter(|| black_box(solve(&m, &sub).expect("solve")))
    });
    group.finish();
}

fn probes(c: &mut Criterion) {
    let tables = Arc::new(ExactTables::in_memory());
    let pos = positions(&tables, "KQvKR", 1024);
    let mut i = 0;
    c.bench_function("exact probe KQvKR", |b| {
        b.iter(|| {
            i = (i + 1) & 1023;
            black_box(tables.probe(&pos[i]))
        })
    });
    c.bench_function("exact rank_moves KQvKR", |b| {
        b.iter(|| {
            i = (i + 1) & 1023;
            black_box(tables.rank_moves(&pos[i], Metric::Dtm))
        })
    });
    if let Some(dir) = std::env::var_os("SYZYGY_PATH") {
        let mut syzygy = SyzygyTables::new();
        let _ = syzygy.add_paths(&dir);
        c.bench_function("syzygy probe_wdl KQvKR", |b| {
            b.iter(|| {
                i = (i + 1) & 1023;
                black_box(syzygy.probe_wdl(&pos[i]))
            })
        });
    }
}

criterion_group!(benches, generation, probes);
criterion_main!(benches);
