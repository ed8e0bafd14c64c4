//! Unit tests of `OM_Mode=auto`'s driver (`super`).

use std::sync::Arc;

use super::*;
use crate::profile::{ProfileStore, ProfileWriter};

#[test]
fn the_rating_prior_puts_programs_at_depth_4() {
    assert_eq!(elo_prior(2050, true), Some("self:depth=4@40"));
    assert_eq!(elo_prior(2900, true), Some("self:depth=4@40"));
    assert_eq!(elo_prior(1500, true), Some("self:depth=2@120"));
    assert_eq!(elo_prior(2050, false), Some("self:depth=3@40"));
    assert_eq!(elo_prior(2900, false), None);
}

#[test]
fn a_fit_that_cannot_earn_its_weight_goes_idle() {
    let params = FitParams::default();
    let names = vec!["self:depth=2".to_string(), "self:depth=4".to_string()];
    let mut state = FitState::new(&names, &[false, false], &params);
    // Phalanx in match 8: self:depth=4 right on 2,264 of 11,305 differing moves.
    assert!((wilson(2264, 11305).1 - 0.2077).abs() < 0.001);
    state.candidates[3].log_likelihood = 10.0; // depth 4 at τ = 0 leads
    assert_eq!(
        state.chosen(&params).map(|c| c.0),
        Some(1),
        "no differing moves yet: the most probable"
    );
    state.bases[1].differ = 60;
    state.bases[1].differ_hits = 6;
    assert!(
        may_earn(&state, &params),
        "too few differing moves to judge"
    );
    state.bases[1].differ = 300;
    state.bases[1].differ_hits = 45;
    assert!(
        !may_earn(&state, &params),
        "15 % of 300: the upper bound is below 0.3"
    );
    state.bases[1].differ_hits = 80;
    assert!(may_earn(&state, &params), "27 % of 300 may still be 0.3");
    // Another base that predicts the differing moves well is chosen instead (whatever
    // the likelihoods say), and the fit keeps going.
    state.bases[1].differ_hits = 45;
    state.bases[0].differ = 300;
    state.bases[0].differ_hits = 150;
    assert_eq!(state.chosen(&params).map(|c| c.0), Some(0));
    assert!(may_earn(&state, &params));
}

#[test]
fn a_base_that_rarely_differs_from_our_reply_earns_nothing() {
    let params = FitParams::default();
    let names = vec!["self:depth=4".to_string(), "material:depth=2".to_string()];
    let mut state = FitState::new(&names, &[false, false], &params);
    // A base that differs from our reply on 30 % of the opponent's moves and is right on
    // a third of those (a useful rate near 10 %), beside one right on 30 % of its
    // differing moves that differ on only 14 % of all.
    for (b, moves, differ, hits) in [(0, 6000, 1800, 660), (1, 6000, 872, 259)] {
        state.bases[b].moves = moves;
        state.bases[b].differ = differ;
        state.bases[b].differ_hits = hits;
    }
    assert!((state.useful_rate(1) - 0.0432).abs() < 0.001);
    assert_eq!(
        state.chosen(&params).map(|c| c.0),
        Some(0),
        "the rarely differing base is out, however accurate on its few"
    );
    assert!(state.may_earn(0, &params) && !state.may_earn(1, &params));
    // With little evidence it is still in the running.
    state.bases[1].moves = 60;
    state.bases[1].differ = 20;
    state.bases[1].differ_hits = 6;
    assert!(state.may_earn(1, &params));
    // Toga II after match 14's 140 games of the profile: self:depth=4 right on 787 of its
    // 3,921 differing moves (8.5 % of Toga's 9,275), material:depth=2 on 401 of 1,342
    // (4.3 %). Every base is out: nothing chosen or earned, and the fit goes idle.
    for (b, moves, differ, hits) in [(0, 9275, 3921, 787), (1, 9275, 1342, 401)] {
        state.bases[b].moves = moves;
        state.bases[b].differ = differ;
        state.bases[b].differ_hits = hits;
    }
    assert_eq!(state.chosen(&params), None);
    assert_eq!(state.earned(&params), None);
    assert!(!may_earn(&state, &params), "the fit goes idle");
}

#[test]
fn a_fit_that_has_earned_its_weight_settles() {
    let params = FitParams::default();
    let names = vec!["self:depth=4".to_string(), "engine:depth=5".to_string()];
    let mut state = FitState::new(&names, &[false, true], &params);
    assert_eq!(settled(&state, &params), None, "no evidence");
    // gnuchess modelling gnuchess in match 13: right on 4,880 of 10,137 differing moves.
    state.bases[1].moves = 22184;
    state.bases[1].differ = 10137;
    state.bases[1].differ_hits = 4880;
    state.bases[0].moves = 26037;
    state.bases[0].differ = 11153;
    state.bases[0].differ_hits = 2367;
    let (lo, hi) = wilson(4880, 10137);
    assert!(lo > 0.47 && hi < 0.50, "{lo} {hi}");
    assert_eq!(settled(&state, &params), Some(1));
    let (b, w) = state.earned(&params).expect("earned");
    assert_eq!(b, 1);
    assert!((w - 0.481).abs() < 0.001 && (state.useful_rate(1) - 0.22).abs() < 0.001);
    // Too few differing moves to judge, or a lower bound below the least weight.
    state.bases[1].differ = params.judge_after - 1;
    state.bases[1].differ_hits = params.judge_after - 1;
    assert_eq!(settled(&state, &params), None);
    state.bases[1].moves = 300;
    state.bases[1].differ = 120;
    state.bases[1].differ_hits = 40; // 33 %: the interval reaches below 0.3
    assert_eq!(state.chosen(&params).map(|c| c.0), Some(1));
    assert_eq!(settled(&state, &params), None);
}

#[test]
fn a_profile_carries_the_fit_and_the_drift_into_the_next_game() {
    let names: Vec<String> = vec!["self:depth=2".into(), "material:depth=2".into()];
    let params = FitParams::default();
    let mut state = FitState::new(&names, &[false, false], &params);
    state.moves = 30;
    state.bases[0].moves = 30;
    state.bases[0].hits = 12;
    state.bases[0].differ = 9;
    state.bases[0].differ_hits = 4;
    state.candidates[1].log_likelihood = -41.5;
    state.drift.earlier_sum = 100.0;
    state.drift.earlier_samples = 10;
    state.drift.sum = 150.0;
    state.drift.samples = 15;
    state.drift.last = Some((7, 30));
    let link = ProfileLink {
        store: ProfileStore::new("unused"),
        writer: Arc::new(ProfileWriter::new()),
        key: "k".into(),
        display_name: "K".into(),
        elo: Some(2050),
        computer: true,
    };
    let p = to_profile(&state, &link);
    assert_eq!(p.validate(), Ok(()));
    let mut next = FitState::new(&names, &[false, false], &params);
    from_profile(&mut next, &p);
    assert_eq!(next.games, 2);
    assert_eq!(next.moves, 30);
    assert_eq!(
        (
            next.bases[0].hits,
            next.bases[0].differ,
            next.bases[0].differ_hits
        ),
        (12, 9, 4)
    );
    assert_eq!(next.candidates[1].log_likelihood, -41.5);
    assert_eq!(next.drift.total(), (250.0, 25));
    assert_eq!(
        next.drift.samples, 0,
        "the new game has no samples of its own yet"
    );
    assert_eq!(
        next.drift.last, None,
        "a new game has no reference position yet"
    );
    // A profile from before the draw value (no drift row) starts it afresh.
    let mut old = p.clone();
    old.candidates.retain(|c| c.name != DRIFT_ROW);
    let mut fresh = FitState::new(&names, &[false, false], &params);
    from_profile(&mut fresh, &old);
    assert_eq!(fresh.drift.total(), (0.0, 0));
}
