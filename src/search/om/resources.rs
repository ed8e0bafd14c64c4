//! When `OM_Mode=auto` may speculate at all: the resources condition of Donkers, van den
//! Herik and Uiterwijk, *Opponent-Model Search in Bao: Conditions for a Successful
//! Application*, §7 — OM search pays only when additional resources, compared with the
//! opponent, are spent on prediction or on risk management; without them plain α-β is the
//! safer choice. The other condition, that the model predicts the opponent's deviations, is
//! the fit's ([`super::fit`], [`super::auto`]); this module judges the resources from the
//! search limits alone:
//!
//! - **clocks** (UCI `wtime btime winc binc`, xboard `time`/`otim`): our time plus
//!   [`FitParams::odds_horizon`] increments against the opponent's, by the running clocks or
//!   by the time control (the clocks at the game's first search), whichever is larger
//!   ([`time_odds`]); open at [`FitParams::min_time_odds`] or more;
//! - **fixed depth** (`go depth D`, xboard `sd`) against a model type of known depth: open
//!   when we search at least [`FitParams::min_extra_depth`] plies deeper (the paper's
//!   tournaments 4 and 6: two plies);
//! - **fixed nodes** against a model type of known node budget: open at
//!   [`FitParams::min_node_odds`] times its nodes or more;
//! - anything else (a fixed move time, infinite analysis, a clock without the opponent's):
//!   no evidence of extra resources, so closed.
//!
//! A closed gate makes `auto` plain α-β: the same move and node count as `OM_Mode=off`;
//! closed against every candidate, the fit waits as well (`auto::search_auto`).
//! The thresholds are the measured ones (see `docs/tournaments.md`): the extra depth from the
//! depth run (T6 > T2 at two plies), the node odds from the budget run (K* = 100), and the
//! time odds the same K*: the time-odds matches measured no gain at 3× the opponent's time
//! with models right on 44–49 % of its differing moves (O4 −3.5 ± 5.5, O5 +1.9 ± 6.0
//! points), and a clock's time is nodes at the search's speed. Under the clocks of ordinary
//! games `auto` is therefore α-β.

use std::time::Duration;

use super::config::TypeSetup;
use super::fit::FitParams;
use crate::limits::Limits;

/// Our time against the opponent's, each as its clock plus `horizon` increments: the larger
/// of the running clocks' odds and the time control's (the clocks at the game's first
/// search, [`Limits::game_clocks`], with the same increments); `None` unless both running
/// clocks are known.
///
/// Why the larger: the running odds drift from the time control's as the sides spend their
/// time differently. With three times Toga II's time (30+0.3 against 10+0.1) nosce's clock
/// fell to about twice Toga's within the first game (it spends more of its clock a move),
/// and at equal time to 0.5–1.0 of it on most moves (`matches/2026-11-27-bao-tournaments/`,
/// time-odds E and the first start of O1): spending the extra time is what the odds are
/// for, so the time control still counts; an opponent who fell behind on its clock gives
/// odds as well.
pub fn time_odds(limits: &Limits, horizon: u32) -> Option<f64> {
    let budget = |t: Duration, inc: Option<Duration>| {
        t.as_secs_f64() + f64::from(horizon) * inc.unwrap_or_default().as_secs_f64()
    };
    let ratio = |ours: Duration, theirs: Duration| {
        let theirs = budget(theirs, limits.opponent_inc);
        if theirs <= 0.0 {
            f64::INFINITY
        } else {
            budget(ours, limits.inc) / theirs
        }
    };
    let running = ratio(limits.time?, limits.opponent_time?);
    Some(match limits.game_clocks {
        Some((ours, theirs)) => running.max(ratio(ours, theirs)),
        None => running,
    })
}

/// Whether the limits give us the extra resources to speculate against `model`: `Ok` with
/// the reason when they do, `Err` with the reason when they do not.
pub fn gate(limits: &Limits, model: &TypeSetup, p: &FitParams) -> Result<String, String> {
    if limits.infinite || limits.mate.is_some() {
        return Err("no extra resources: analysis or a mate search".into());
    }
    if let Some(odds) = time_odds(limits, p.odds_horizon) {
        // Odds of exactly the threshold (30+0.3 against 10+0.1) are met whatever the
        // rounding of the clocks' sums.
        return if odds >= p.min_time_odds - 1e-9 {
            Ok(format!("time odds {odds:.1} >= {:.1}", p.min_time_odds))
        } else {
            Err(format!("time odds {odds:.1} < {:.1}", p.min_time_odds))
        };
    }
    if limits.is_timed() {
        return Err("no extra resources known: the opponent's clock is not given".into());
    }
    match (limits.nodes, model.nodes, limits.depth, model.depth) {
        (Some(ours), Some(theirs), _, _) => {
            let odds = ours as f64 / theirs.max(1) as f64;
            if odds >= p.min_node_odds {
                Ok(format!("node odds {odds:.1} >= {:.1}", p.min_node_odds))
            } else {
                Err(format!("node odds {odds:.1} < {:.1}", p.min_node_odds))
            }
        }
        (None, _, Some(ours), Some(theirs)) => {
            if ours >= theirs + p.min_extra_depth {
                Ok(format!(
                    "depth {ours} >= the model's {theirs} + {}",
                    p.min_extra_depth
                ))
            } else {
                Err(format!(
                    "depth {ours} < the model's {theirs} + {}",
                    p.min_extra_depth
                ))
            }
        }
        _ => Err("no extra resources known: the limit says nothing of the opponent's".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::MaterialEval;
    use crate::tt::TranspositionTable;
    use std::sync::Arc;

    fn model(depth: Option<u32>, nodes: Option<u64>) -> TypeSetup {
        TypeSetup {
            eval: Arc::new(MaterialEval),
            tt: Arc::new(TranspositionTable::new(1)),
            probability: 1.0,
            depth,
            nodes,
            tablebases: false,
            replay: false,
            engine: None,
        }
    }

    fn clocks(ours: u64, theirs: Option<u64>, inc: u64) -> Limits {
        let ms = Duration::from_millis;
        Limits {
            time: Some(ms(ours)),
            inc: Some(ms(inc)),
            opponent_time: theirs.map(ms),
            opponent_inc: Some(ms(inc)),
            ..Limits::default()
        }
    }

    #[test]
    fn the_gate_opens_with_the_clocks() {
        let p = FitParams::default();
        let m = model(Some(4), None);
        // Equal time: closed; three times the opponent's: still closed (no time-odds match
        // gained there); a hundred times: open; and back.
        assert!(gate(&clocks(10_000, Some(10_000), 100), &m, &p).is_err());
        assert!(gate(&clocks(30_000, Some(10_000), 0), &m, &p).is_err());
        assert!(gate(&clocks(1_000_000, Some(10_000), 0), &m, &p).is_ok());
        assert!(gate(&clocks(30_000, Some(30_000), 0), &m, &p).is_err());
        // The increments count for the rest of the game.
        let odds = time_odds(&clocks(1_000, Some(1_000), 100), 30).unwrap();
        assert!((odds - 1.0).abs() < 1e-9);
        // Our clock without the opponent's says nothing.
        let e = gate(&clocks(30_000, None, 0), &m, &p).unwrap_err();
        assert!(e.contains("opponent's clock"), "{e}");
        assert!(gate(&clocks(30_000, Some(0), 0), &m, &p).is_ok());
    }

    #[test]
    fn the_time_control_counts_when_the_running_clocks_drift() {
        // The threshold of the time-odds matches (the default is the budget run's 100).
        let p = FitParams {
            min_time_odds: 3.0,
            ..FitParams::default()
        };
        let m = model(Some(4), None);
        let ms = Duration::from_millis;
        // 30+0.3 against 10+0.1, later in the game: the clocks now 2.0 : 1, the control 3 : 1.
        let drifted = Limits {
            time: Some(ms(16_000)),
            inc: Some(ms(300)),
            opponent_time: Some(ms(8_000)),
            opponent_inc: Some(ms(100)),
            ..Limits::default()
        };
        let running = time_odds(&drifted, p.odds_horizon).unwrap();
        assert!((running - 25.0 / 11.0).abs() < 1e-9, "{running}");
        assert!(gate(&drifted, &m, &p).is_err());
        let in_game = Limits {
            game_clocks: Some((ms(30_000), ms(10_000))),
            ..drifted.clone()
        };
        let odds = time_odds(&in_game, p.odds_horizon).unwrap();
        assert!((odds - 3.0).abs() < 1e-9, "{odds}");
        assert!(gate(&in_game, &m, &p).unwrap().contains("time odds 3.0"));
        // Equal time control, the opponent fallen behind: the running odds count.
        let behind = Limits {
            game_clocks: Some((ms(10_000), ms(10_000))),
            time: Some(ms(9_000)),
            opponent_time: Some(ms(1_000)),
            inc: None,
            opponent_inc: None,
            ..Limits::default()
        };
        assert!((time_odds(&behind, 30).unwrap() - 9.0).abs() < 1e-9);
        // Without the running clocks, the game's first ones say nothing.
        let no_clock = Limits {
            game_clocks: Some((ms(30_000), ms(10_000))),
            ..Limits::default()
        };
        assert_eq!(time_odds(&no_clock, 30), None);
    }

    #[test]
    fn fixed_limits_open_only_against_a_model_of_known_budget() {
        let p = FitParams::default();
        assert!(gate(&Limits::depth(6), &model(Some(4), None), &p).is_ok());
        assert!(gate(&Limits::depth(5), &model(Some(4), None), &p).is_err());
        assert!(gate(&Limits::depth(9), &model(None, None), &p).is_err());
        let n = (p.min_node_odds * 1000.0) as u64;
        assert!(gate(&Limits::nodes(n), &model(None, Some(1000)), &p).is_ok());
        assert!(gate(&Limits::nodes(n - 1), &model(None, Some(1000)), &p).is_err());
        assert!(gate(&Limits::nodes(10_000_000), &model(Some(4), None), &p).is_err());
        let movetime = Limits {
            movetime: Some(Duration::from_secs(5)),
            ..Limits::default()
        };
        assert!(gate(&movetime, &model(Some(1), None), &p).is_err());
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert!(gate(&infinite, &model(Some(1), None), &p).is_err());
    }
}
