//! The opponent-model driver's tunables (the search's own are in [`super`]): the fit of
//! `OM_Mode=auto` (Donkers 2003 §6.6: candidate temperatures, forgetting, the least weight
//! a fitted type must earn, and the resources condition that the Bao tournaments measure),
//! the draw value (§2.1.7, contempt as an opponent model), the engine policy's caps and the
//! learning searches' depth. The driver (`search::om`) reads them from here; nothing here
//! names the search.

use crate::score::Score;

/// Tunables of the fit.
#[derive(Clone, Debug)]
pub struct FitParams {
    /// Temperatures of the candidates in centipawns (0: the base's best move).
    pub temperatures: Vec<u32>,
    /// Error rate of a τ = 0 candidate: probability of a move that is not its best.
    pub epsilon: f64,
    /// Weight of the uniform distribution mixed into every τ > 0 likelihood.
    pub floor: f64,
    /// Discount of older moves per scored move (6.19's forgetting).
    pub forget: f64,
    /// Pseudo-count of missed predictions added to the error-prediction accuracy.
    pub prior_misses: f64,
    /// Move values are clamped to ± this before a softmax (mates are not infinitely better).
    pub value_clamp: Score,
    /// Opponent moves scored at most per search (older ones are skipped when joining late).
    pub max_new_moves: usize,
    /// The least weight for which the hedged root is searched at all: below it the search
    /// is α-β (the hedged root costs about a third of a ply at blitz, measured; a type that
    /// predicts fewer of the opponent's differing moves cannot earn that back).
    pub min_weight: f64,
    /// Differing moves of the chosen base before the fit judges whether it can still earn
    /// [`FitParams::min_weight`] (see `auto::may_earn`).
    pub judge_after: u64,
    /// A fit that cannot earn its weight scores only every this many opponent moves (to
    /// notice an opponent that changes), saving the rest of its cost.
    pub idle_sample_every: u64,
    /// Root moves besides α-β's best that the hedged root searches (`search::om::hedge::Hedge::breadth`).
    pub hedge_breadth: usize,
    /// The least share of *all* the opponent's moves on which the chosen base must have
    /// predicted a move that differs from our own reply (and been right) for the hedged root
    /// to be searched (`FitState::earned`): the hedged root costs on every move and can
    /// gain only on those. A base that rarely differs may be right on many of its few
    /// differing moves (match 14 against Toga II: `material:depth=2` differed on 14 % of
    /// Toga's moves and was right on 30 % of those, 4.3 % of all; gnuchess modelling
    /// gnuchess in match 13: 22 %).
    pub min_useful: f64,
    /// The resources condition (`search::om::resources`): the least ratio of our time to the
    /// opponent's (clock plus [`FitParams::odds_horizon`] increments) at which `auto`
    /// speculates. The budget run's K\* like [`FitParams::min_node_odds`]: no time-odds match
    /// measured a gain at 3× (E, O4, O5; `docs/tournaments.md`), and time is nodes at the
    /// search's speed.
    pub min_time_odds: f64,
    /// Increments counted with a clock when weighing the two sides' time.
    pub odds_horizon: u32,
    /// The least extra depth over a model type of known depth at a fixed depth limit (the
    /// depth run: T6 > T2 at two plies, `docs/tournaments.md`).
    pub min_extra_depth: u32,
    /// The least ratio of our node limit to a model type's node budget: the budget run's
    /// K* (OM with exact prediction first beats α-β with the same nodes at K* times the
    /// opponent's, `docs/tournaments.md`).
    pub min_node_odds: f64,
}

impl Default for FitParams {
    fn default() -> Self {
        FitParams {
            temperatures: vec![0, 40, 120],
            epsilon: 0.15,
            floor: 0.02,
            forget: 0.97,
            prior_misses: 4.0,
            value_clamp: 1500,
            max_new_moves: 12,
            min_weight: 0.3,
            judge_after: 100,
            idle_sample_every: 8,
            hedge_breadth: 2,
            min_useful: 0.1,
            min_time_odds: 100.0,
            odds_horizon: 30,
            min_extra_depth: 2,
            min_node_odds: 100.0,
        }
    }
}

/// Tunables of the draw value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawParams {
    /// Each drift sample is clamped to ± this (centipawns).
    pub sample_clamp: Score,
    /// Pseudo-samples of zero drift (shrinkage towards no contempt with little evidence).
    pub prior_moves: f64,
    /// The most samples earlier games carry into a new one (their mean is kept): a few
    /// games' worth, so that the draw value still follows an opponent who changes.
    pub carried_samples: u32,
    /// The opponent moves whose expected drift a draw gives up (see the module paragraph).
    pub horizon_moves: f64,
}

impl Default for DrawParams {
    fn default() -> Self {
        DrawParams {
            sample_clamp: 100,
            prior_moves: 6.0,
            carried_samples: 400,
            horizon_moves: 8.0,
        }
    }
}

/// With `OM_Search` `policy=engine`, the most one line may count toward the opponent's
/// expected loss, in centipawns (a line the engine scores as lost would otherwise swamp the
/// value of the move).
pub const GIFT_CAP_CP: i32 = 300;

/// With `OM_Search` `policy=engine`, how many root moves besides α-β's best are valued (those
/// α-β's root pass scored highest).
pub const ENGINE_VALUED_BREADTH: usize = 2;

/// Log-likelihood bonus of the rating's prior candidate (nats), `auto`'s start from a
/// known rating.
pub const ELO_PRIOR_BONUS: f64 = 2.0;

/// Depth of the searches that tell what each opponent type would have played (`OM_Learning`).
pub const LEARN_DEPTH: u32 = 4;
