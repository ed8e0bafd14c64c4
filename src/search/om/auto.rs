//! `OM_Mode=auto`: before each search the opponent's new moves are scored against the
//! candidate family ([`super::fit`]), the fit is reported (`info string om model …`), and
//! the best-fitting candidate's base becomes the OM type of a hedged root
//! ([`super::hedge`]) whose hedge — our own full search — keeps the probability the fitted
//! type has not earned. With no evidence yet, or a type that never predicted a move that
//! differs from our own reply, the search is plain α-β.
//!
//! Risk control from evidence (Donkers 2003 ch. 4, admissibility; §5.4.1, the root margin):
//! the fitted type's weight is its measured error-prediction accuracy `a`, and a chosen move
//! may give up at most `a · margin` (`OM_Search`) centipawns of α-β value — a model that predicted
//! 30 % of the opponent's differing moves may risk less than one that predicted 90 %, and
//! none more than the user's ceiling. Below a least weight ([`FitParams::min_weight`]) the
//! hedged root is not searched at all: its cost (about a third of a ply at blitz) would buy
//! a margin of a few centipawns.
//!
//! The draw value (§2.1.7, the contempt factor as an opponent model): a draw is worth less
//! than 0 to us by what the opponent's measured mean loss per move (in earlier games) would
//! concede over the moves a draw cuts short, within `OM_Search` `contempt`
//! ([`super::draw_value`]), in the whole search of the move.

use std::time::Instant;

use shakmaty::Move;

use super::OmMode;
use super::auto_setup::{AutoSetup, ProfileLink};
use super::config::OmConfig;
use super::draw_value::{DrawParams, Drift};
use super::fit::{Base, FitParams, FitState, Observation, score_move, unscored_moves, wilson};
use super::hedge::Hedge;
use super::model::search_model;
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::position::Position;
use crate::profile::{CandidateStats, Profile};
use crate::search::{SearchContext, SearchResult};

/// The prior candidate for an opponent of rating `elo` (a program if `computer`) when
/// nothing was learned about it yet; it only chooses which candidate is tried first — the
/// weight OM gives a type is earned by its predictions alone.
///
/// Calibrated for programs on the profiles of seven matches at 5+0.05 (`matches/`, 40 to
/// 400 games each): Stockfish 15.1 at `UCI_Elo` 2050 (three runs) and 2300, Toga II 3.0 and
/// phalanx all fit best as `self:depth=4` at τ = 40 once they have 240 games or more
/// (depth 4 at τ = 120 in one run of 240; after only 40 games depth 3 at τ = 40 and, once,
/// depth 1): an engine searches deeper than every candidate, and the rating does not
/// separate them. Programs rated 1800 or more therefore start at depth 4 at τ = 40. For
/// people the mapping is provisional (no rated human games were available): depth grows and
/// noise shrinks with the rating.
pub fn elo_prior(elo: u32, computer: bool) -> Option<&'static str> {
    match elo {
        1800.. if computer => Some("self:depth=4@40"),
        0..1400 => Some("self:depth=1@120"),
        1400..1800 => Some("self:depth=2@120"),
        1800..2200 => Some("self:depth=3@40"),
        2200..2600 => Some("self:depth=4@40"),
        _ => None,
    }
}

use crate::params::om::ELO_PRIOR_BONUS;

/// The profile row of the drift evidence: `moves` = samples, log-likelihood = their sum.
const DRIFT_ROW: &str = "#drift";

/// Profile rows of the fit: one per base (`moves`, `predicted` = its hits), one per base
/// named `<base>#differ` (the moves where it differed from the reference, and its hits
/// there), one per candidate (`<base>@τ`, with its log-likelihood), and the drift of the
/// draw value (`#drift`: samples, and their sum in the log-likelihood column).
pub fn to_profile(state: &FitState, link: &ProfileLink) -> Profile {
    let mut p = Profile::new(link.key.clone(), link.display_name.clone());
    p.games = state.games;
    p.moves = state.moves;
    p.elo = link.elo;
    for b in &state.bases {
        p.candidates.push(CandidateStats {
            name: b.name.clone(),
            moves: b.moves,
            predicted: b.hits.min(b.moves),
            log_likelihood: 0.0,
        });
        p.candidates.push(CandidateStats {
            name: format!("{}#differ", b.name),
            moves: b.differ,
            predicted: b.differ_hits.min(b.differ),
            log_likelihood: 0.0,
        });
    }
    for c in &state.candidates {
        p.candidates.push(CandidateStats {
            name: format!("{}@{}", state.bases[c.base].name, c.temperature),
            moves: state.moves,
            predicted: 0,
            log_likelihood: c.log_likelihood,
        });
    }
    let (sum, samples) = state.drift.total();
    p.candidates.push(CandidateStats {
        name: DRIFT_ROW.into(),
        moves: samples,
        predicted: 0,
        log_likelihood: sum,
    });
    p
}

/// Starts `state` from a profile: the rows it shares with the fit's bases and candidates
/// (a family that changed since keeps what still matches).
pub fn from_profile(state: &mut FitState, p: &Profile) {
    state.games = p.games.saturating_add(1);
    state.moves = p.moves;
    for row in &p.candidates {
        if row.name == DRIFT_ROW {
            state.drift = Drift::carried(row.log_likelihood, row.moves, &DrawParams::default());
        } else if let Some(b) = state.bases.iter_mut().find(|b| b.name == row.name) {
            b.moves = row.moves;
            b.hits = row.predicted;
        } else if let Some(name) = row.name.strip_suffix("#differ")
            && let Some(b) = state.bases.iter_mut().find(|b| b.name == name)
        {
            b.differ = row.moves;
            b.differ_hits = row.predicted;
        } else if let Some((base, t)) = row.name.rsplit_once('@')
            && let Ok(t) = t.parse::<u32>()
            && let Some(bi) = state.bases.iter().position(|b| b.name == base)
            && let Some(c) = state
                .candidates
                .iter_mut()
                .find(|c| c.base == bi && c.temperature == t)
        {
            c.log_likelihood = row.log_likelihood;
        }
    }
}

/// Looks for the opponent's profile once per game: starts the fit from it, or from the
/// rating's prior; a bad profile is reported and ignored.
fn load_profile<E: Evaluator + ?Sized>(
    ctx: &SearchContext<'_, E>,
    link: &ProfileLink,
    state: &mut FitState,
) {
    state.profile_checked = true;
    for e in link.writer.take_errors() {
        ctx.reporter.message(&format!("om profile: {e}"));
    }
    match link.writer.load(&link.store, &link.key) {
        Ok(Some(p)) => {
            from_profile(state, &p);
            ctx.reporter.message(&format!(
                "om profile '{}': {} games, {} moves",
                link.display_name, p.games, p.moves
            ));
        }
        Ok(None) => {
            let prior = link.elo.and_then(|e| elo_prior(e, link.computer));
            if let Some(name) = prior
                && let Some(c) = state
                    .candidates
                    .iter()
                    .position(|c| state.candidate_name(c) == name)
            {
                state.candidates[c].log_likelihood += ELO_PRIOR_BONUS;
            }
            ctx.reporter.message(&format!(
                "om profile '{}': new{}",
                link.display_name,
                prior.map_or(String::new(), |n| format!(", prior {n}"))
            ));
        }
        Err(e) => ctx
            .reporter
            .message(&format!("om profile: {e}; starting afresh")),
    }
}

/// Scores the opponent's new moves, reports the fit, and searches with the fitted type and
/// its hedge (or plain α-β). External engines are asked no later than `deadline`.
pub fn search_auto<E: Evaluator + ?Sized>(
    ctx: &SearchContext<'_, E>,
    setup: &OmConfig,
    auto: &AutoSetup,
    pos: &Position,
    limits: &Limits,
    allowed: &[Move],
    deadline: Option<Instant>,
) -> SearchResult {
    let entered = Instant::now();
    // Without extra resources against every candidate the move is plain α-β whatever the
    // fit would say (the resources condition, [`super::resources`]): the fit waits, and its
    // cost with it (the opponent's moves are scored when a later move can use them).
    if !setup
        .types
        .iter()
        .any(|t| super::resources::gate(limits, t, &auto.params).is_ok())
    {
        let why = setup.types.first().map_or_else(
            || "no candidate".to_string(),
            |t| {
                super::resources::gate(limits, t, &auto.params)
                    .err()
                    .unwrap_or_default()
            },
        );
        ctx.reporter
            .message(&format!("om auto: alpha-beta ({why}); no fit this move"));
        let config = crate::search::SearchConfig {
            contempt: 0,
            ..ctx.config.clone()
        };
        let ctx = &SearchContext {
            config: &config,
            ..*ctx
        };
        return crate::search::search(ctx, pos, limits, allowed);
    }
    let chosen = {
        let mut state = auto.fit.lock();
        if state.bases.iter().map(|b| &b.name).ne(auto.names.iter()) {
            let oracle: Vec<bool> = setup.types.iter().map(|t| t.engine.is_some()).collect();
            *state = FitState::new(&auto.names, &oracle, &auto.params);
        }
        if !state.profile_checked
            && let Some(link) = &auto.profile
        {
            load_profile(ctx, link, &mut state);
        }
        let before = state.moves;
        fit_new_moves(ctx, setup, auto, pos, &mut state, deadline);
        if let Some(link) = &auto.profile {
            if state.moves > before {
                link.writer.save(&link.store, to_profile(&state, link));
            }
            for e in link.writer.take_errors() {
                ctx.reporter.message(&format!("om profile: {e}"));
            }
        }
        if state.moves > 0 {
            let mut line = state.report(&auto.params);
            if settled(&state, &auto.params).is_some() {
                line += &format!(
                    " settled (the other candidates scored 1 move in {})",
                    auto.params.idle_sample_every
                );
            } else if !may_earn(&state, &auto.params) {
                line += &format!(
                    " idle (cannot earn weight {}: fitting 1 move in {})",
                    auto.params.min_weight, auto.params.idle_sample_every
                );
            }
            ctx.reporter.message(&line);
        }
        let contempt = state
            .drift
            .contempt(auto.contempt_ceiling, &DrawParams::default());
        let (sum, samples) = state.drift.total();
        if samples > 0 {
            ctx.reporter.message(&format!(
                "om draw value: drift {:+.1} cp/move over {samples} moves ({} from earlier \
                 games), contempt {contempt}",
                sum / samples as f64,
                state.drift.earlier_samples
            ));
        }
        (state.earned(&auto.params), contempt)
    };
    let (mut chosen, mut contempt) = chosen;
    // The resources condition (Bao paper §7): without extra resources against the opponent
    // the search is plain α-β — no hedged root and no contempt from the model.
    let model = chosen.map_or(0, |(b, _)| b);
    if let Some(t) = setup.types.get(model) {
        match super::resources::gate(limits, t, &auto.params) {
            Ok(why) => ctx
                .reporter
                .message(&format!("om auto: resources to speculate ({why})")),
            Err(why) => {
                ctx.reporter
                    .message(&format!("om auto: alpha-beta ({why})"));
                chosen = None;
                contempt = 0;
            }
        }
    }
    // Fitting and saving the profile came out of this move's time.
    let limits = &limits.after(entered.elapsed());
    let config = crate::search::SearchConfig {
        contempt,
        ..ctx.config.clone()
    };
    let ctx = &SearchContext {
        config: &config,
        ..*ctx
    };
    let result = match chosen {
        Some((b, weight)) => {
            let mut single = setup.clone();
            let mut t = setup.types[b].clone();
            t.probability = 1.0;
            single.types = vec![t];
            single.mode = OmMode::Om;
            single.spec_depth = 2;
            single.bound = None;
            single.root_margin = None;
            single.hedge = Some(Hedge {
                weight: 1.0 - weight,
                margin: (f64::from(auto.margin_ceiling) * weight).round() as i32,
                breadth: auto.params.hedge_breadth,
            });
            search_model(ctx, &single, pos, limits, allowed)
        }
        _ => crate::search::search(ctx, pos, limits, allowed),
    };
    // Our predicted reply is the reference for scoring the opponent's next move, our value
    // the reference for its drift.
    if let Some(best) = result.best {
        let mut after = pos.clone();
        after.play(best);
        let before = (pos.history_len() > 1).then(|| {
            let mut p = pos.clone();
            p.undo();
            p.key()
        });
        let mut state = auto.fit.lock();
        state
            .drift
            .observe(before, result.score, after.key(), &DrawParams::default());
        state.expected = result.own_reply.map(|reply| (after.key(), reply));
    }
    result
}

/// Whether the fit may still earn the hedged root: while the chosen base may
/// ([`FitState::may_earn`]: neither its error-prediction accuracy nor its useful rate is
/// known, by the upper end of a 95 % Wilson interval, to be below [`FitParams::min_weight`]
/// or [`FitParams::min_useful`]). Match 8 measured what fitting costs when it cannot: 0.23
/// ply and 5.4 points against phalanx, whose moves `self:depth=4` predicted 20.0 % of the
/// time in 11,305 differing moves (upper bound 0.21). Match 14 found a fit that never went
/// idle: against Toga II `material:depth=2` was right on 30 % of its differing moves (upper
/// bound 0.33) but these were 4.3 % of Toga's moves.
pub fn may_earn(state: &FitState, params: &FitParams) -> bool {
    match state.chosen(params) {
        Some((b, _)) => state.may_earn(b, params),
        // No base left (every one predicts too few moves usefully), or none scored yet.
        None => state.bases.iter().all(|s| s.moves < params.judge_after),
    }
}

/// The base whose weight the fit has earned beyond doubt, if any: the chosen base, once it
/// has [`FitParams::judge_after`] differing moves and the lower ends of 95 % (Wilson)
/// intervals around its error-prediction accuracy and its useful rate reach
/// [`FitParams::min_weight`] and [`FitParams::min_useful`]. Such a
/// fit keeps scoring that base on every opponent move (its weight follows the opponent) but
/// the rest of the family only every [`FitParams::idle_sample_every`] moves: their searches
/// (about 12 ms a move at depth ≤ 4) cannot change which type the hedged root uses unless
/// the chosen one falls behind, and at blitz they came out of our own search's time.
pub fn settled(state: &FitState, params: &FitParams) -> Option<usize> {
    let (b, _) = state.chosen(params)?;
    let s = &state.bases[b];
    (s.differ >= params.judge_after
        && wilson(s.differ_hits, s.differ).0 >= params.min_weight
        && wilson(s.differ_hits, s.moves).0 >= params.min_useful)
        .then_some(b)
}

/// Scores the opponent moves of the game not yet scored (see [`unscored_moves`]), all of
/// them while the fit may earn its weight ([`may_earn`]), one in
/// [`FitParams::idle_sample_every`] after that.
fn fit_new_moves<E: Evaluator + ?Sized>(
    ctx: &SearchContext<'_, E>,
    setup: &OmConfig,
    auto: &AutoSetup,
    pos: &Position,
    state: &mut FitState,
    deadline: Option<Instant>,
) {
    let todo = unscored_moves(pos, state, auto.params.max_new_moves);
    if todo.is_empty() {
        return;
    }
    let stop = &ctx.control.stop;
    // The first fault of an engine base this search (a helper that does not start, exits,
    // hangs or answers garbage), reported once below; our own stop or deadline is not one.
    let fault: std::cell::RefCell<Option<String>> = std::cell::RefCell::new(None);
    let mut bases: Vec<Base<'_>> = setup
        .types
        .iter()
        .map(|t| match &t.engine {
            Some(probe) => {
                let probe = probe.clone();
                let replay = t.replay;
                let fault = &fault;
                Base::Oracle(Box::new(move |p: &Position| {
                    probe
                        .ask(p, replay, deadline, stop)
                        .map_err(|e| {
                            if let Some(f) = probe.fault(&e, deadline) {
                                fault.borrow_mut().get_or_insert(f);
                            }
                        })
                        .ok()
                }))
            }
            None => Base::Search {
                eval: &*t.eval,
                tt: &t.tt,
                depth: t.depth.unwrap_or(1).max(1),
            },
        })
        .collect();
    for (before, played) in todo {
        // A fit that cannot earn its weight any more is sampled, not kept up move by move.
        if !may_earn(state, &auto.params) {
            state.idle += 1;
            if !state
                .idle
                .is_multiple_of(auto.params.idle_sample_every.max(1))
            {
                state.mark_seen(&before);
                continue;
            }
        }
        // A settled fit scores the other bases only on sampled moves.
        let only = settled(state, &auto.params).filter(|_| {
            state.settled_moves += 1;
            !state
                .settled_moves
                .is_multiple_of(auto.params.idle_sample_every.max(1))
        });
        let reference = state
            .expected
            .filter(|&(k, _)| k == before.key())
            .map(|(_, m)| m);
        let seen = Observation {
            before: &before,
            played,
            reference,
        };
        let done = score_move(
            state,
            &mut bases,
            &auto.params,
            &ctx.config.params,
            stop,
            seen,
            only,
        );
        if !done || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    drop(bases);
    if let Some(e) = fault.into_inner() {
        ctx.reporter.message(&format!(
            "om fit: {e}; the engine type predicts nothing until it answers again"
        ));
    }
}

#[cfg(test)]
mod tests;
