//! Every pruned algorithm returns the root value and move of its unpruned reference
//! (CONTRIBUTING.md: tests can fail), on thousands of random trees of several depths and
//! widths.

use nosce::trees::*;

/// (depth, width, number of seeds): 2,400 trees for the plain OM family.
const SHAPES: [(usize, usize, u64); 6] = [
    (1, 3, 300),
    (2, 4, 300),
    (3, 3, 500),
    (4, 3, 500),
    (5, 3, 400),
    (6, 4, 400),
];

/// Lighter shapes for PrOM (its unpruned references are slow): 2,100 trees.
const PROM_SHAPES: [(usize, usize, u64); 6] = [
    (1, 3, 300),
    (2, 4, 300),
    (3, 3, 500),
    (4, 3, 500),
    (5, 3, 400),
    (6, 3, 100),
];

fn for_trees(nopp: usize, mut f: impl FnMut(&RandomTree)) {
    let shapes = if nopp > 2 { PROM_SHAPES } else { SHAPES };
    for (d, w, n) in shapes {
        for seed in 1..=n {
            let tree = RandomTree::new(seed * 7919 + d as u64, d, w, nopp).unwrap();
            f(&tree);
        }
    }
}

#[test]
fn plain_om_variants_agree() {
    let mut tt = TransTable::new(16, false);
    let mut tt_leaves = TransTable::new(16, true);
    let mut count = 0;
    for_trees(2, |t| {
        let r1p = om_search_1p(t, 1).unwrap();
        let rpb = om_search_pb(t, 1).unwrap();
        assert_eq!((r1p.value, r1p.best), (rpb.value, rpb.best));
        for r in [
            om_search_beta_1p(t, 1).unwrap(),
            om_search_beta_pb(t, 1).unwrap(),
            om_search_beta_pb_tt(t, 1, &mut tt).unwrap(),
            om_search_beta_pb_tt(t, 1, &mut tt_leaves).unwrap(),
            om_search_beta_pb_tt_pvs(t, 1, &mut tt).unwrap(),
            om_search_beta_pb_tt_pvs(t, 1, &mut tt_leaves).unwrap(),
            m_star(t, 1).unwrap(),
            m_star_1pass(t, 1).unwrap(),
            om_search_rs_pb(t, 1, t.depth()).unwrap(),
        ] {
            assert_eq!((r.value, r.best), (rpb.value, rpb.best));
        }
        // OM search never returns less than Minimax (thesis 2.3.3).
        let mm = minimax(t, 0).unwrap();
        assert!(rpb.value >= mm.value);
        let ab = alpha_beta_search(t, 0).unwrap();
        assert_eq!((ab.value, ab.best), (mm.value, mm.best));
        for pvs in [false, true] {
            let r = alpha_beta_tt_search(t, 0, &mut tt_leaves, pvs).unwrap();
            assert_eq!((r.value, r.best), (mm.value, mm.best));
        }
        count += 1;
    });
    assert!(count >= 2000);
}

#[test]
fn probing_counts_equal_m_star_with_simple_pruning() {
    // Alg 3.3 is M* with one model level and α-β at the innermost level (thesis 3.1.2).
    for_trees(2, |t| {
        assert_eq!(
            om_search_pb(t, 1).unwrap().evals,
            m_star(t, 1).unwrap().evals
        );
    });
}

#[test]
fn quantized_trees_ties_plain_and_enhanced() {
    // Coarse values make ties frequent: plain variants pick the first minimal move, enhanced
    // ones the minimal own value among the tied moves.
    let mut tt = TransTable::new(16, true);
    for (d, w, n) in SHAPES {
        for seed in 1..=n / 2 {
            let tree = Quantized::new(RandomTree::new(seed, d, w, 2).unwrap(), 150).unwrap();
            let pb = om_search_pb(&tree, 1).unwrap();
            for r in [
                om_search_1p(&tree, 1).unwrap(),
                om_search_beta_1p(&tree, 1).unwrap(),
                om_search_beta_pb(&tree, 1).unwrap(),
                om_search_beta_pb_tt(&tree, 1, &mut tt).unwrap(),
                om_search_beta_pb_tt_pvs(&tree, 1, &mut tt).unwrap(),
            ] {
                assert_eq!((r.value, r.best), (pb.value, pb.best), "seed {seed} d {d}");
            }
            let e1 = om_search_enh_1p(&tree, 1, d, d).unwrap();
            let ep = om_search_enh_pb(&tree, 1, d, d).unwrap();
            assert_eq!(
                (e1.value, e1.best),
                (ep.value, ep.best),
                "seed {seed} d {d}"
            );
            // Tie-breaking by the lowest own value can only lower the OM value.
            assert!(ep.value <= pb.value);
        }
    }
}

#[test]
fn enhanced_with_unequal_depths() {
    let pairs = [
        (4, 2),
        (2, 4),
        (5, 3),
        (3, 5),
        (4, 4),
        (6, 3),
        (1, 3),
        (3, 1),
    ];
    for (d0, dop) in pairs {
        let depth = d0.max(dop);
        for seed in 1..=250u64 {
            for step in [1, 120] {
                let tree =
                    Quantized::new(RandomTree::new(seed, depth, 3, 2).unwrap(), step).unwrap();
                let e1 = om_search_enh_1p(&tree, 1, d0, dop).unwrap();
                let ep = om_search_enh_pb(&tree, 1, d0, dop).unwrap();
                assert_eq!(
                    (e1.value, e1.best),
                    (ep.value, ep.best),
                    "{seed} {d0} {dop} {step}"
                );
            }
        }
    }
}

#[test]
fn restricted_speculation_odd_and_even_depth_agree() {
    // H_spec = histories of at most s plies (3.1.4): with s = 2k-1 the MAX nodes at ply 2k are
    // outside H_spec and searched by α-β with V0; with s = 2k they maximise over children that
    // are outside H_spec, i.e. over α-β values: the same value and move.
    for (d, w, n) in SHAPES {
        for seed in 1..=n / 2 {
            let tree = RandomTree::new(seed, d, w, 2).unwrap();
            for k in 1..=d.div_ceil(2) {
                let odd = om_search_rs_pb(&tree, 1, 2 * k - 1).unwrap();
                let even = om_search_rs_pb(&tree, 1, 2 * k).unwrap();
                assert_eq!((odd.value, odd.best), (even.value, even.best));
            }
            // No speculation at all is Minimax.
            let none = om_search_rs_pb(&tree, 1, 0).unwrap();
            let mm = minimax(&tree, 0).unwrap();
            assert_eq!((none.value, none.best), (mm.value, mm.best));
        }
    }
}

#[test]
fn bounded_sum_on_bounded_difference_trees() {
    let mut trees = 0;
    for bound in [0, 10, 100, 400, 3000] {
        for (d, w, n) in SHAPES {
            for seed in 1..=n / 4 {
                let tree = BoundedTree::new(seed + 100_000, d, w, bound).unwrap();
                let reference = om_search_pb(&tree, 1).unwrap();
                let one = om_search_1p(&tree, 1).unwrap();
                assert_eq!((one.value, one.best), (reference.value, reference.best));
                let b1 = om_search_bounded_1p(&tree, 1, bound).unwrap();
                let bp = om_search_bounded_pb(&tree, 1, bound).unwrap();
                let want = (reference.value, reference.best);
                assert_eq!((b1.value, b1.best), want, "1p seed {seed} d {d} B {bound}");
                assert_eq!((bp.value, bp.best), want, "Pb seed {seed} d {d} B {bound}");
                trees += 1;
            }
        }
    }
    assert!(trees >= 2000);
}

#[test]
fn prom_variants_agree_and_obey_lemmas_and_theorem_3() {
    let models = [
        TreeModel::new(&[0.5, 0.5]).unwrap(),
        TreeModel::new(&[0.3, 0.7]).unwrap(),
        TreeModel::new(&[0.2, 0.3, 0.5]).unwrap(),
        TreeModel::new(&[0.1, 0.2, 0.3, 0.4]).unwrap(),
    ];
    let mut count = 0;
    for_trees(4, |t| {
        let mm = minimax(t, 0).unwrap();
        for model in &models {
            let r1 = prom_search_1p(t, model).unwrap();
            let rp = prom_search_pb(t, model).unwrap();
            assert_eq!((r1.value, r1.best), (rp.value, rp.best));
            let b1 = prom_search_beta_1p(t, model).unwrap();
            let bp = prom_search_beta_pb(t, model).unwrap();
            assert_eq!((b1.value, b1.best), (rp.value, rp.best));
            assert_eq!((bp.value, bp.best), (rp.value, rp.best));
            // Theorem 3: never below the Minimax value (up to the rounding of Σ Pr·v: e.g.
            // 0.3·x + 0.7·x may come out one ulp below x).
            assert!(rp.value >= f64::from(mm.value) * (1.0 - 1e-12));
            count += 1;
        }
        // Lemma 1: Pr(ω0) = 1 is Minimax.
        let only0 = TreeModel::new(&[1.0, 0.0]).unwrap();
        for r in [
            prom_search_1p(t, &only0).unwrap(),
            prom_search_pb(t, &only0).unwrap(),
            prom_search_beta_1p(t, &only0).unwrap(),
            prom_search_beta_pb(t, &only0).unwrap(),
        ] {
            assert_eq!((r.value, r.best), (f64::from(mm.value), mm.best));
        }
        // Lemma 2: Pr(ωj) = 1 is OM search with V_op = V_j.
        for j in 1..4 {
            let mut p = [0.0; 4];
            p[j] = 1.0;
            let model = TreeModel::new(&p).unwrap();
            let om = om_search_pb(t, j).unwrap();
            for r in [
                prom_search_1p(t, &model).unwrap(),
                prom_search_beta_pb(t, &model).unwrap(),
            ] {
                assert_eq!((r.value, r.best), (f64::from(om.value), om.best));
            }
        }
    });
    assert!(count >= 2000 * models.len());
}

#[test]
fn prom_enhanced_matches_plain_and_restricted_speculation() {
    let model = TreeModel::new(&[0.4, 0.6]).unwrap();
    for (d, w, n) in SHAPES {
        for seed in 1..=n / 3 {
            let t = RandomTree::new(seed, d, w, 2).unwrap();
            let full = PromDepths {
                d0: d,
                type_depths: [d; MAX_EVALS],
                spec: d,
            };
            let e = prom_search_enh(&t, &model, &full).unwrap();
            let p = prom_search_pb(&t, &model).unwrap();
            assert_eq!((e.value, e.best), (p.value, p.best));
            for k in 1..=d.div_ceil(2) {
                let odd = PromDepths {
                    spec: 2 * k - 1,
                    ..full
                };
                let even = PromDepths {
                    spec: 2 * k,
                    ..full
                };
                let a = prom_search_enh(&t, &model, &odd).unwrap();
                let b = prom_search_enh(&t, &model, &even).unwrap();
                assert_eq!((a.value, a.best), (b.value, b.best));
            }
        }
    }
    // A type too shallow for the speculative MIN nodes is an error, not a panic.
    let t = RandomTree::new(1, 4, 3, 2).unwrap();
    let bad = PromDepths {
        d0: 4,
        type_depths: [1; MAX_EVALS],
        spec: 4,
    };
    assert!(prom_search_enh(&t, &model, &bad).is_err());
}

#[test]
fn m_star_one_pass_equals_multi_pass() {
    for (d, w, n) in SHAPES {
        if d > 5 {
            continue; // multi-pass M* is exponential in the number of levels
        }
        for seed in 1..=n / 2 {
            let t = RandomTree::new(seed, d, w, 4).unwrap();
            for levels in 0..4 {
                let a = m_star(&t, levels).unwrap();
                let b = m_star_1pass(&t, levels).unwrap();
                assert_eq!(
                    (a.value, a.best),
                    (b.value, b.best),
                    "seed {seed} d {d} n {levels}"
                );
            }
            let mm = minimax(&t, 0).unwrap();
            assert_eq!(m_star(&t, 0).unwrap().value, mm.value);
        }
    }
}

#[test]
fn table_probes_pick_the_first_best_move_under_ties() {
    // The table puts its stored move first inside a probe, yet MIN's choice must stay the
    // *first* minimal move in move order (Alg 3.1), with and without PVS in the probes. Very
    // coarse values make such ties common at probe roots that have a stored move.
    let mut tt = TransTable::new(16, true);
    let mut checked = 0;
    for (d, w) in [(4, 3), (5, 3), (6, 3), (5, 4), (6, 4)] {
        for step in [300, 700, 1500] {
            for seed in 1..=60 {
                let tree = Quantized::new(RandomTree::new(seed, d, w, 2).unwrap(), step).unwrap();
                let pb = om_search_pb(&tree, 1).unwrap();
                for r in [
                    om_search_beta_pb_tt(&tree, 1, &mut tt).unwrap(),
                    om_search_beta_pb_tt_pvs(&tree, 1, &mut tt).unwrap(),
                ] {
                    assert_eq!(
                        (r.value, r.best),
                        (pb.value, pb.best),
                        "seed {seed} d {d} w {w} step {step}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 900);
}
