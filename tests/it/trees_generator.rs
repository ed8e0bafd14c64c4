//! The generator reproduces `random-trees.md` bit for bit: MT19937 test vectors (1998 seeding)
//! and the worked example MTRandomGame(2,2,2), seed 1, depth 2.

use nosce::trees::mt19937::{JavaDraws, LazyMt, Mt19937};
use nosce::trees::random::leaf_value;
use nosce::trees::{
    GameTree, MAX_WIDTH, RandomTree, alpha_beta_search, minimax, om_search_1p, om_search_pb,
};

#[test]
fn mt19937_seed_4357_matches_mt19937int_out() {
    let mut mt = Mt19937::new(4357);
    let first: Vec<u32> = (0..3).map(|_| mt.next_u32()).collect();
    assert_eq!(first, [3510405877, 4290933890, 2191955339]);
}

#[test]
fn mt19937_seed_1_first_five() {
    let expect = [
        3796174982u32,
        4182529786,
        2180050607,
        3809380472,
        2960793660,
    ];
    let mut mt = Mt19937::new(1);
    let mut lazy = LazyMt::new(1);
    for e in expect {
        assert_eq!(mt.next_u32(), e);
        assert_eq!(lazy.next_u32(), e);
    }
}

#[test]
fn java_draws_use_the_documented_bits() {
    let mut a = Mt19937::new(1);
    let mut b = Mt19937::new(1);
    let d = a.next_double();
    let hi = u64::from(b.next_u32() >> 6);
    let lo = u64::from(b.next_u32() >> 5);
    assert_eq!(d, ((hi << 27) + lo) as f64 / 9007199254740992.0);
    let f = a.next_float();
    assert_eq!(f, (b.next_u32() >> 8) as f32 / 16777216.0);
}

#[test]
fn worked_example_seed_1_depth_2_width_2() {
    let tree = RandomTree::new(1, 2, 2, 2).unwrap();
    let root = tree.root();
    assert_eq!(root.base[0], 0.8838658775958582);
    assert_eq!(root.base[0].to_bits(), 0x3FEC48A117CA62B7);
    assert_eq!(root.base[1], 0.5075825882992223);
    assert_eq!(root.base[0].to_bits() & 0xFFFF_FFFF, 399139511);

    let mut kids = [Default::default(); MAX_WIDTH];
    assert_eq!(tree.children(&root, &mut kids), 2);
    let (m0, m1) = (kids[0], kids[1]);
    assert_eq!(m0.base[0], 1.4496203392270268);
    assert_eq!(m0.base[0].to_bits(), 0x3FF731A518C98B4A);
    assert_eq!(m0.base[1], 1.4238047557410698);
    assert_eq!(m0.base[0].to_bits() & 0xFFFF_FFFF, 415861578);
    assert_eq!(m1.base[0], 1.0495398911152014);
    assert_eq!(m1.base[0].to_bits(), 0x3FF0CAEA5742FEBC);
    assert_eq!(m1.base[1], 1.4363778114216479);
    assert_eq!(m1.base[0].to_bits() & 0xFFFF_FFFF, 1464008380);

    let mut leaves = [Default::default(); MAX_WIDTH];
    assert_eq!(tree.children(&m0, &mut leaves), 2);
    assert_eq!(leaves[0].base[0], 1.8439261594793661);
    assert_eq!(leaves[0].base[1], 1.4548188390656112);
    assert_eq!(leaves[1].base[0], 1.4590338501476423);
    assert_eq!(leaves[1].base[1], 2.1198411006445106);
    let v: Vec<(i32, i32)> = leaves[..2]
        .iter()
        .map(|l| (tree.evaluate(l, 0), tree.evaluate(l, 1)))
        .collect();
    assert_eq!(v, [(1844, 1455), (1459, 2120)]);

    assert_eq!(tree.children(&m1, &mut leaves), 2);
    assert_eq!(leaves[0].base[0], 1.1809257046533288);
    assert_eq!(leaves[0].base[1], 2.3618372275701764);
    assert_eq!(leaves[1].base[0], 1.7801133665376863);
    assert_eq!(leaves[1].base[1], 2.314623659428347);
    let v: Vec<(i32, i32)> = leaves[..2]
        .iter()
        .map(|l| (tree.evaluate(l, 0), tree.evaluate(l, 1)))
        .collect();
    assert_eq!(v, [(1181, 2362), (1780, 2315)]);

    // Repeated expansion gives identical children.
    let mut again = [Default::default(); MAX_WIDTH];
    tree.children(&root, &mut again);
    assert_eq!(again[..2], kids[..2]);

    assert_eq!(minimax(&tree, 0).unwrap().value, 1459);
    assert_eq!(alpha_beta_search(&tree, 0).unwrap().value, 1459);
    assert_eq!(om_search_1p(&tree, 1).unwrap().value, 1844);
    assert_eq!(om_search_pb(&tree, 1).unwrap().value, 1844);
}

#[test]
fn root_bases_of_seeds_2_and_3() {
    assert_eq!(
        RandomTree::new(2, 2, 2, 2).unwrap().root().base[0],
        0.06469086423465009
    );
    assert_eq!(
        RandomTree::new(3, 2, 2, 2).unwrap().root().base[0],
        0.609685519183219
    );
}

#[test]
fn leaf_value_is_java_math_round() {
    assert_eq!(leaf_value(1.8439261594793661), 1844);
    assert_eq!(leaf_value(0.0005), 1); // half up
    assert_eq!(leaf_value(0.0), 0);
}

#[test]
fn wide_trees_fall_back_to_the_full_generator_consistently() {
    // nopp = 8, width 32: 1 + 2·8·32 outputs exceed the lazy range.
    let tree = RandomTree::new(7, 2, 32, 8).unwrap();
    let mut kids = [Default::default(); MAX_WIDTH];
    assert_eq!(tree.children(&tree.root(), &mut kids), 32);
    let narrow = RandomTree::new(7, 2, 32, 2).unwrap();
    let mut k2 = [Default::default(); MAX_WIDTH];
    narrow.children(&narrow.root(), &mut k2);
    // Same stream start: the first child's first increment is the same draw.
    assert_eq!(kids[0].base[0], k2[0].base[0]);
}

#[test]
fn bad_parameters_are_errors() {
    assert!(RandomTree::new(0, 4, 4, 2).is_err());
    assert!(RandomTree::new(1 << 32, 4, 4, 2).is_err());
    assert!(RandomTree::new(1, 4, 0, 2).is_err());
    assert!(RandomTree::new(1, 4, 33, 2).is_err());
    assert!(RandomTree::new(1, 40, 4, 2).is_err());
    assert!(RandomTree::new(1, 4, 4, 9).is_err());
    let t = RandomTree::new(1, 4, 4, 2).unwrap();
    assert!(om_search_pb(&t, 2).is_err());
}
