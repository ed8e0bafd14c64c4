//! Fitted opponent models: during a game every *candidate* opponent type is scored on the
//! opponent's actual moves, and the best-fitting one, with a probability earned by its
//! measured accuracy, becomes the OM type of `OM_Mode=auto` (Donkers 2003 ch. 6: PrOM over
//! an uncertain model; §6.6.1 the maximum-likelihood estimate 6.16 of the type
//! probabilities; §6.6.2 on-line learning 6.19 with a forgetting factor).
//!
//! A candidate is a *base* — a deterministic predictor: one of our own searches (an
//! evaluator at a fixed depth) or the external engine — with a *temperature* τ: the
//! opponent is assumed to play move `j` with probability ∝ exp(v(j)/τ) over the base's move
//! values `v` (τ = 0: the base's best move, with a small error rate), so that evaluation
//! noise of several sizes is part of the family. Each scored opponent move adds the
//! logarithm of its likelihood to every candidate, with older moves discounted by
//! [`FitParams::forget`]; the posterior over candidates is ∝ exp(log-likelihood).
//!
//! What OM can gain from a type is measured where it matters (admissibility, ch. 4: OM
//! gains only when the model's prediction differs from our own refutation and is right):
//! each base counts the opponent moves where its prediction differed from the *reference*
//! move — our own search's predicted reply from the previous move when there is one, else
//! our evaluation at the deepest fit depth — and how many of those the opponent played.
//! That error-prediction accuracy, shrunk towards 0 by [`FitParams::prior_misses`], is the
//! probability the hedged root gives the fitted type ([`super::hedge`]); the rest goes to
//! the hedge (our own full search), so an opponent nobody predicts is met with α-β.

use shakmaty::{Color, Move};

use crate::eval::Evaluator;
use crate::params::SearchParams;
pub use crate::params::om::FitParams;
use crate::position::Position;
use crate::score::{INFINITE, Score, is_decisive};
use crate::search::alphabeta::Worker;
use crate::tt::TranspositionTable;

/// A base predictor.
pub enum Base<'a> {
    /// One of our own searches: an evaluator and its table, searched to `depth` plies.
    Search {
        /// The evaluator.
        eval: &'a dyn Evaluator,
        /// Its transposition table.
        tt: &'a TranspositionTable,
        /// Depth in plies (≥ 1).
        depth: u32,
    },
    /// A predictor that names one move (the external engine): `None` if it failed.
    Oracle(Predictor<'a>),
}

/// A predictor of one move in a position (`None` if it has no answer).
pub type Predictor<'a> = Box<dyn FnMut(&Position) -> Option<Move> + 'a>;

/// One opponent move to score.
#[derive(Clone, Copy, Debug)]
pub struct Observation<'p> {
    /// The position before the move.
    pub before: &'p Position,
    /// The move the opponent played.
    pub played: Move,
    /// The move a strong player would play there (our own prediction), if known.
    pub reference: Option<Move>,
}

/// The fit's statistics of one base.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BaseStats {
    /// Its name in the type grammar, e.g. `self:depth=3`.
    pub name: String,
    /// Opponent moves scored.
    pub moves: u64,
    /// Moves it predicted (its single best move was played).
    pub hits: u64,
    /// Moves where its prediction differed from the reference move.
    pub differ: u64,
    /// Of those, the moves it predicted.
    pub differ_hits: u64,
}

impl BaseStats {
    /// Whether its useful rate ([`FitState::useful_rate`]) is not yet known to be below
    /// [`FitParams::min_useful`]: fewer than [`FitParams::judge_after`] moves scored, or the
    /// upper end of a 95 % Wilson interval reaches it.
    fn may_be_useful(&self, params: &FitParams) -> bool {
        self.moves < params.judge_after
            || wilson(self.differ_hits, self.moves).1 >= params.min_useful
    }
}

/// One candidate: a base and a temperature, with its discounted log-likelihood.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Index of its base.
    pub base: usize,
    /// Temperature in centipawns (0: best move).
    pub temperature: u32,
    /// Discounted sum of log-likelihoods of the opponent's moves.
    pub log_likelihood: f64,
}

/// The fit of one game (or carried over from a profile).
#[derive(Clone, Debug, Default)]
pub struct FitState {
    /// Per base.
    pub bases: Vec<BaseStats>,
    /// Per candidate.
    pub candidates: Vec<Candidate>,
    /// Keys (and history lengths) of the positions whose opponent move was scored.
    pub scored: Vec<(u64, usize)>,
    /// Our own predicted reply to our last move: (key of the position after it, move).
    pub expected: Option<(u64, Move)>,
    /// Opponent moves scored in all (with those carried over from a profile).
    pub moves: u64,
    /// Games this fit has seen (1 for a fresh one; more when it came from a profile).
    pub games: u32,
    /// True once the opponent's profile was looked for.
    pub profile_checked: bool,
    /// The opponent's measured drift in this game (the draw value's evidence).
    pub drift: super::draw_value::Drift,
    /// Opponent moves passed over since the fit stopped being able to earn its weight
    /// (not kept in the profile).
    pub idle: u64,
    /// Opponent moves seen since the fit settled on a base (`auto::settled`; not kept in
    /// the profile).
    pub settled_moves: u64,
}

impl FitState {
    /// A fresh fit over bases named `names`, one candidate per (base, temperature); an
    /// oracle base (`oracle[i]`) gets τ = 0 only.
    pub fn new(names: &[String], oracle: &[bool], params: &FitParams) -> Self {
        let mut candidates = Vec::new();
        for (b, &is_oracle) in oracle.iter().enumerate().take(names.len()) {
            for &t in &params.temperatures {
                if is_oracle && t > 0 {
                    continue;
                }
                candidates.push(Candidate {
                    base: b,
                    temperature: t,
                    log_likelihood: 0.0,
                });
            }
        }
        FitState {
            bases: names
                .iter()
                .map(|n| BaseStats {
                    name: n.clone(),
                    ..BaseStats::default()
                })
                .collect(),
            candidates,
            games: 1,
            ..FitState::default()
        }
    }

    /// Records the opponent move from `before` as dealt with, scored or passed over.
    pub fn mark_seen(&mut self, before: &Position) {
        self.scored.push((before.key(), before.history_len()));
    }

    /// The name of a candidate: its base, with `@τ` for τ > 0.
    pub fn candidate_name(&self, c: &Candidate) -> String {
        let base = &self.bases[c.base].name;
        if c.temperature == 0 {
            base.clone()
        } else {
            format!("{base}@{}", c.temperature)
        }
    }

    /// Posterior probabilities of the candidates (∝ exp(log-likelihood)).
    pub fn posterior(&self) -> Vec<f64> {
        let max = self
            .candidates
            .iter()
            .map(|c| c.log_likelihood)
            .fold(f64::NEG_INFINITY, f64::max);
        let raw: Vec<f64> = self
            .candidates
            .iter()
            .map(|c| (c.log_likelihood - max).exp())
            .collect();
        let sum: f64 = raw.iter().sum();
        raw.iter().map(|x| x / sum.max(f64::MIN_POSITIVE)).collect()
    }

    /// The base the hedged root searches as the OM type, and the probability it gives it:
    /// the base with the best error-prediction accuracy `differ_hits / (differ +
    /// prior_misses)` — what OM gains from (ch. 4: a predicted reply that differs from our
    /// refutation and is played) — ties broken by the posterior. Not simply the most
    /// probable candidate: the likelihood rewards a soft model that gives every good move
    /// some probability, while the hedged root plays against its single best move. (In the
    /// gnuchess pilot, match 9, gnuchess itself as an `engine` candidate was right on 48.5 %
    /// of its differing moves, `self:depth=4` at τ 40 on 20.4 %, and the latter was the most
    /// probable candidate.) A base whose useful rate is known to be too low
    /// ([`FitParams::min_useful`]) is never chosen.
    pub fn chosen(&self, params: &FitParams) -> Option<(usize, f64)> {
        let post = self.posterior();
        let mut best: Option<(usize, f64, f64)> = None;
        for (b, s) in self.bases.iter().enumerate() {
            let p = self
                .candidates
                .iter()
                .zip(&post)
                .filter(|(c, _)| c.base == b)
                .map(|(_, &p)| p)
                .fold(f64::NEG_INFINITY, f64::max);
            if p == f64::NEG_INFINITY {
                continue;
            }
            // A base that predicts too few of all the opponent's moves usefully is out
            // (see [`FitParams::min_useful`]), however right it is on the few.
            if !s.may_be_useful(params) {
                continue;
            }
            let accuracy = s.differ_hits as f64 / (s.differ as f64 + params.prior_misses);
            if best.is_none_or(|(_, a, q)| accuracy > a || (accuracy == a && p > q)) {
                best = Some((b, accuracy, p));
            }
        }
        best.map(|(b, a, _)| (b, a.clamp(0.0, 1.0)))
    }

    /// Whether base `b` may still earn the hedged root: its useful rate is not yet known to
    /// be below [`FitParams::min_useful`] (judged after [`FitParams::judge_after`] scored
    /// moves) and its error-prediction accuracy not yet known to be below
    /// [`FitParams::min_weight`] (judged after as many differing moves), each by the upper
    /// end of a 95 % Wilson interval.
    pub fn may_earn(&self, b: usize, params: &FitParams) -> bool {
        let s = &self.bases[b];
        let accurate =
            s.differ < params.judge_after || wilson(s.differ_hits, s.differ).1 >= params.min_weight;
        s.may_be_useful(params) && accurate
    }

    /// The share of all opponent moves scored for base `b` on which it predicted a move
    /// that differs from our own reply, and the opponent played it.
    pub fn useful_rate(&self, b: usize) -> f64 {
        let s = &self.bases[b];
        s.differ_hits as f64 / s.moves.max(1) as f64
    }

    /// The chosen base and its weight ([`FitState::chosen`]) if it has earned the hedged
    /// root: a weight of at least [`FitParams::min_weight`] and a useful rate
    /// ([`FitState::useful_rate`]) of at least [`FitParams::min_useful`].
    pub fn earned(&self, params: &FitParams) -> Option<(usize, f64)> {
        self.chosen(params)
            .filter(|&(b, w)| w >= params.min_weight && self.useful_rate(b) >= params.min_useful)
    }

    /// The `info string` line: the most probable candidates, and the chosen base's record
    /// ([`FitState::chosen`]).
    pub fn report(&self, params: &FitParams) -> String {
        let post = self.posterior();
        let mut order: Vec<usize> = (0..post.len()).collect();
        order.sort_by(|&a, &b| post[b].total_cmp(&post[a]));
        let mut line = String::from("om model");
        for &i in order.iter().take(4) {
            line += &format!(
                " {}={:.2}",
                self.candidate_name(&self.candidates[i]),
                post[i]
            );
        }
        if let Some((b, a)) = self.chosen(params) {
            let s = &self.bases[b];
            line += &format!(
                " type {} predicted {}/{} differing {}/{} weight {:.2} useful {:.3}{}",
                s.name,
                s.hits,
                s.moves,
                s.differ_hits,
                s.differ,
                a,
                self.useful_rate(b),
                if self.earned(params).is_none() {
                    " (not earned: alpha-beta)"
                } else {
                    ""
                }
            );
        }
        line
    }
}

/// The opponent moves of the game in `pos` not yet scored, oldest first, at most `max`:
/// (the position before the move, the move).
pub fn unscored_moves(pos: &Position, state: &FitState, max: usize) -> Vec<(Position, Move)> {
    let opponent: Color = !pos.turn();
    let mut out = Vec::new();
    let mut p = pos.clone();
    while p.history_len() > 1 && out.len() < max {
        let m = p.last_move();
        p.undo();
        let Some(m) = m else { continue };
        if p.turn() != opponent {
            continue;
        }
        if state
            .scored
            .iter()
            .any(|&(k, n)| k == p.key() && n == p.history_len())
        {
            break;
        }
        out.push((p.clone(), m));
    }
    out.reverse();
    out
}

/// Each legal move's value for a base that searches to `depth`, in the mover's view.
fn move_values(
    eval: &dyn Evaluator,
    tt: &TranspositionTable,
    depth: u32,
    params: &SearchParams,
    stop: &std::sync::atomic::AtomicBool,
    pos: &Position,
    moves: &[Move],
) -> Option<Vec<Score>> {
    let mut root = pos.clone();
    root.set_root();
    let mut w: Worker<'_, dyn Evaluator> = Worker::new(eval, tt, params, stop, root);
    let mut values = Vec::with_capacity(moves.len());
    for &m in moves {
        w.pos.play(m);
        let v = if depth <= 1 {
            -w.qsearch(-INFINITE, INFINITE)
        } else {
            -w.search(-INFINITE, INFINITE, depth as i32 - 1, false)
        };
        w.pos.undo();
        if w.aborted {
            return None;
        }
        values.push(v);
    }
    Some(values)
}

/// Scores one opponent move for every base and candidate, or with `only = Some(b)` for
/// base `b`'s record alone (a settled fit, see `auto::settled`: the candidates' likelihoods
/// wait for the next move that scores them all). Returns `false` if stopped.
pub fn score_move(
    state: &mut FitState,
    bases: &mut [Base<'_>],
    params: &FitParams,
    search: &SearchParams,
    stop: &std::sync::atomic::AtomicBool,
    seen: Observation<'_>,
    only: Option<usize>,
) -> bool {
    let Observation {
        before,
        played,
        reference,
    } = seen;
    let moves: Vec<Move> = before.legal_moves().into_iter().collect();
    let Some(idx) = moves.iter().position(|&m| m == played) else {
        return true;
    };
    let n = moves.len();
    // Per base: its values (None for an oracle) and its best moves.
    let mut values: Vec<Option<Vec<Score>>> = Vec::with_capacity(bases.len());
    let mut best: Vec<Vec<usize>> = Vec::with_capacity(bases.len());
    for (i, b) in bases.iter_mut().enumerate() {
        if only.is_some_and(|o| o != i) {
            best.push(Vec::new());
            values.push(None);
            continue;
        }
        match b {
            Base::Search { eval, tt, depth } => {
                let Some(v) = move_values(*eval, tt, *depth, search, stop, before, &moves) else {
                    return false;
                };
                let max = v.iter().copied().max().unwrap_or(0);
                best.push((0..n).filter(|&j| v[j] == max).collect());
                values.push(Some(v));
            }
            Base::Oracle(f) => {
                let pick = f(before).and_then(|m| moves.iter().position(|&x| x == m));
                best.push(pick.into_iter().collect());
                values.push(None);
            }
        }
    }
    // The reference: our own prediction, else the deepest search base's first best move.
    let reference = reference
        .and_then(|r| moves.iter().position(|&m| m == r))
        .or_else(|| {
            let deepest = bases
                .iter()
                .enumerate()
                .filter(|&(i, _)| only.is_none_or(|o| o == i))
                .filter_map(|(i, b)| match b {
                    Base::Search { depth, .. } => Some((*depth, i)),
                    Base::Oracle(_) => None,
                })
                .max()?;
            best[deepest.1].first().copied()
        });
    for (i, s) in state.bases.iter_mut().enumerate() {
        let Some(top) = best[i].first().copied() else {
            continue;
        };
        s.moves += 1;
        // A prediction counts when it names the move alone (a base indifferent between
        // many moves predicts nothing).
        s.hits += u64::from(best[i].len() == 1 && top == idx);
        // Where it differs from the reference, OM's tie rule (Alg. 3.5) meets any of its
        // equal-best moves: the opponent playing one of them bears the model out.
        if reference.is_some_and(|r| !best[i].contains(&r)) {
            s.differ += 1;
            s.differ_hits += u64::from(best[i].contains(&idx));
        }
    }
    for c in state.candidates.iter_mut().filter(|_| only.is_none()) {
        let l = likelihood(
            &values[c.base],
            &best[c.base],
            idx,
            n,
            c.temperature,
            params,
        );
        c.log_likelihood = params.forget * c.log_likelihood + l.max(1e-12).ln();
    }
    state.mark_seen(before);
    state.moves += 1;
    true
}

/// The 95 % Wilson score interval of `hits` successes in `n` trials ((0, 1) for none).
pub fn wilson(hits: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z) = (n as f64, hits as f64 / n as f64, 1.96_f64);
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let d = 1.0 + z * z / n;
    (
        ((centre - spread) / d).max(0.0),
        ((centre + spread) / d).min(1.0),
    )
}

/// Pr(move `idx` | base, τ) among `n` legal moves.
fn likelihood(
    values: &Option<Vec<Score>>,
    best: &[usize],
    idx: usize,
    n: usize,
    temperature: u32,
    params: &FitParams,
) -> f64 {
    if n <= 1 {
        return 1.0;
    }
    match values {
        Some(v) if temperature > 0 => {
            let clamp = |x: Score| {
                let x = if is_decisive(x) {
                    x.signum() * params.value_clamp
                } else {
                    x
                };
                f64::from(x.clamp(-params.value_clamp, params.value_clamp))
            };
            let max = v.iter().map(|&x| clamp(x)).fold(f64::MIN, f64::max);
            let t = f64::from(temperature);
            let z: f64 = v.iter().map(|&x| ((clamp(x) - max) / t).exp()).sum();
            let p = ((clamp(v[idx]) - max) / t).exp() / z;
            (1.0 - params.floor) * p + params.floor / n as f64
        }
        _ if best.is_empty() => 1.0 / n as f64,
        _ if best.contains(&idx) => (1.0 - params.epsilon) / best.len() as f64,
        _ => params.epsilon / (n - best.len()).max(1) as f64,
    }
}

#[cfg(test)]
mod tests;
