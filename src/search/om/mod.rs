//! The opponent-model root driver: OM search and PrOM search over the real chess tree, with
//! the engine's PVS as α-β probe.
//!
//! Implements Donkers 2003 Alg. 3.8 (β-pruning OM search with α-β probes, "β-passing": a
//! probe at a MIN node searches the window [−∞, v+1] where v is the value the probe two
//! plies up returned) in its enhanced form (Alg. 3.5: unequal search depths for MAX and MIN;
//! ties at MIN nodes broken by the lowest value for MAX, the probe returning every
//! equal-best move) with restricted speculation (Alg. 3.6: speculation only in H_spec, the
//! histories of at most `s` plies; outside it, ordinary α-β with our own evaluation), and
//! PrOM search with probes (Alg. 6.3, differing depths and restricted speculation) with
//! β-passing per opponent type (Alg. 6.5); the PrOM combination lives in [`prom`].
//!
//! Values are kept in MAX's view (the side to move at the root) and in the root's frame
//! (mate distances counted from the root); probes run with their own root at the MIN node and
//! are converted (`to_tt`/`from_tt`). Every evaluator has its own transposition table and
//! move-ordering tables (§3.4.1–3.4.2); probes of one type share them within a move.
//!
//! One enhancement beyond the thesis, OM mode only: a lower bound α for MAX is passed down.
//! It is sound because a node's MAX value is either the maximum of its children (MAX nodes)
//! or the value of one chosen child (MIN nodes), so a subtree that fails low below α cannot
//! change the root decision: our own searches test α with a null window first (PVS, §3.4.6),
//! and a MIN node stops trying the opponent's tied moves once one of them is at most α.
//! Probes are never narrowed by α (the opponent's choice must not depend on it) — except
//! under bounded-sum pruning ([`bounded`], Alg. 3.10), which needs a bound B on
//! |V0 − V_op| and equal depths. No aspiration windows (§5.4.1). A probe is remembered for
//! the rest of the search (iterative deepening asks a fixed-depth type the same question
//! again). Late quiet MAX moves get α-β's late-move reduction (`max_move_reduction`), at the
//! root and at every MAX node inside H_spec: under β-pruning only for our own search below
//! a predicted reply that is α-β's refutation, under bounded-sum pruning for the subtree.
//! The root loop and iterative deepening live in [`root`].

pub mod auto;
pub mod auto_setup;
pub mod bounded;
pub mod config;
pub mod draw_value;
pub mod engine_probe;
pub mod fit;
pub mod hedge;
pub mod model;
pub mod overlap;
pub mod parallel;
pub mod policy;
pub mod probe;
pub mod prom;
pub mod resources;
pub mod root;
pub mod settings;

use shakmaty::{Color, Move, Position as _};

use super::Clock;
use super::alphabeta::Worker;
use crate::eval::Evaluator;
use crate::position::Position;
use crate::score::{INFINITE, Score, mate_in, mated_in};

/// At most this many opponent types.
pub const MAX_TYPES: usize = 8;

/// Which root driver runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OmMode {
    /// Plain α-β.
    #[default]
    Off,
    /// OM search with the most probable opponent type.
    Om,
    /// PrOM search over all types.
    Prom,
    /// A fitted model ([`fit`]) searched with the hedged root ([`hedge`]):
    /// the engine core turns it into OM mode with a hedge before the driver runs.
    Auto,
}

/// The type OM mode speculates with among types of these probabilities: the most probable,
/// the first of equally probable ones (0 if there are none).
pub fn om_type_of(probabilities: impl IntoIterator<Item = f64>) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, p) in probabilities.into_iter().enumerate() {
        if p > best.1 {
            best = (i, p);
        }
    }
    best.0
}

/// How an opponent type is probed.
pub struct ProbeSpec {
    /// Probability of the type.
    pub probability: f64,
    /// The opponent's own search depth when it moves (its horizon counted from the root:
    /// a MIN node `p` plies deep is probed to `depth - (p - 1)`); `None`: our remaining depth.
    pub depth: Option<u32>,
    /// Node budget of the opponent's search (iterative deepening until spent).
    pub nodes: Option<u64>,
    /// Replay the opponent's search exactly: the engine's full searcher with a cleared
    /// table and default settings, the type's depth or node limit and a full window (no
    /// β-passing, no ties) — the opponent whose choice is a function of the position. Its
    /// prediction at ply 1 is then exact.
    pub replay: bool,
    /// The external engine behind an `engine` type ([`engine_probe`]); `None`
    /// for our own searches.
    pub engine: Option<engine_probe::EngineProbe>,
}

/// A probe remembered for the rest of a search: its value relative to the probed node, the
/// predicted moves and its principal variation.
#[derive(Clone)]
pub(crate) struct ProbeMemo {
    value: Score,
    moves: Vec<Move>,
    line: Vec<Move>,
}

/// What identifies an α-β probe: (type, position key, depth, window).
type ProbeKey = (usize, u64, i32, Score, Score);

/// The probes every participant of a parallel root has run in this search (fast mode,
/// [`parallel`]): a probe one thread ran for a root move in one iteration is not run again
/// by another that takes the same move in the next.
#[derive(Default)]
pub(crate) struct SharedProbes(parking_lot::Mutex<std::collections::HashMap<ProbeKey, ProbeMemo>>);

/// The driver's state for one search.
pub struct Driver<'a, E: Evaluator + ?Sized> {
    /// Our own α-β (evaluation V0).
    pub own: Worker<'a, E>,
    /// One probe worker per opponent type.
    pub opps: Vec<Worker<'a, dyn Evaluator>>,
    /// Probing parameters per type.
    pub specs: Vec<ProbeSpec>,
    /// Settings.
    pub settings: &'a config::OmConfig,
    /// Root moves with exact OM values (MultiPV), at least 1.
    pub multipv: usize,
    /// The clock, lent to whichever worker runs.
    pub clock: Option<Clock<'a>>,
    pos: Position,
    root_color: Color,
    pv: Vec<Vec<Move>>,
    /// Replay probes already run in this search: (type, key, depth) → (node-relative value,
    /// move). A replay is a function of the position, so iterative deepening and
    /// transpositions need not repeat it.
    replays: std::collections::HashMap<(usize, u64, i32), (Score, Move)>,
    /// α-β probes already run in this search: (type, key, depth, window) →
    /// (node-relative value, predicted moves).
    probes: std::collections::HashMap<ProbeKey, ProbeMemo>,
    /// In fast mode with helpers, the participants' common memory of probes, used instead
    /// of `probes`.
    pub(crate) shared_probes: Option<&'a SharedProbes>,
    /// With helpers, how the participants use their threads ([`parallel::ThreadUse`]).
    pub(crate) thread_use: Option<&'a parallel::ThreadUse>,
    /// A late-move reduction the root grants the MIN node below it, for our own search
    /// under a predicted reply that is α-β's refutation (β-pruning mode; see [`root`]).
    pub(super) agree_reduction: i32,
    /// What the hedged root spent in this search.
    pub(super) hedge_use: hedge::HedgeUse,
    /// Our own α-β value of the root in the last completed iteration.
    pub(super) last_ab: Option<Score>,
    /// The deepest completed α-β pass of this search (sequential root): its depth, value
    /// and line — what the search plays when the budget ends inside the OM root of that
    /// depth ([`root::run`]).
    pub(super) ab_reached: Option<(u32, Score, Vec<Move>)>,
    /// The principal variation of the last probe (from the probed node).
    pub(super) probe_line: Vec<Move>,
    /// An opponent type that failed in this search (an engine that crashed, hung or
    /// answered nonsense) and why; the root loop drops it and repeats the iteration.
    pub(super) failure: Option<(usize, String)>,
    /// Set when the search was stopped.
    pub aborted: bool,
    /// The other participants of a parallel root (`Threads`, [`parallel`]).
    pub helpers: Vec<Driver<'a, E>>,
    /// Probes run in this search (remembered answers not counted).
    probes_run: u64,
    /// What this driver's external engine probes cost in this search ([`engine_probe`]).
    pub(super) engine_use: engine_probe::EngineUse,
    /// The stop flag of the helpers' own workers in fast mode ([`parallel`]), if any.
    pub pass_stop: Option<&'a std::sync::atomic::AtomicBool>,
    /// Where the helpers of our α-β pass publish a pass they complete first, in fast mode
    /// (the main pass then takes it, [`crate::search::race`]).
    pub pass_race: Option<&'a crate::search::race::DepthRace>,
    /// The engine's threads, on which the helpers run ([`crate::search::pool`]); `None`:
    /// threads of their own.
    pub pool: Option<&'a crate::search::pool::SearchPool>,
}

impl<'a, E: Evaluator + ?Sized> Driver<'a, E> {
    /// A driver searching `root` (whose current position becomes the root).
    pub fn new(
        own: Worker<'a, E>,
        opps: Vec<Worker<'a, dyn Evaluator>>,
        specs: Vec<ProbeSpec>,
        settings: &'a config::OmConfig,
        multipv: usize,
        mut root: Position,
    ) -> Self {
        root.set_root();
        let root_color = root.turn();
        Driver {
            own,
            opps,
            specs,
            settings,
            multipv: multipv.max(1),
            clock: None,
            pos: root,
            root_color,
            pv: vec![Vec::new(); crate::score::MAX_PLY + 2],
            replays: std::collections::HashMap::new(),
            probes: std::collections::HashMap::new(),
            shared_probes: None,
            thread_use: None,
            probe_line: Vec::new(),
            agree_reduction: 0,
            hedge_use: hedge::HedgeUse::default(),
            last_ab: None,
            ab_reached: None,
            failure: None,
            aborted: false,
            helpers: Vec::new(),
            probes_run: 0,
            engine_use: engine_probe::EngineUse::default(),
            pass_stop: None,
            pass_race: None,
            pool: None,
        }
    }

    /// Plies from the root to the current node.
    pub(super) fn pos_ply(&self) -> usize {
        self.pos.ply()
    }

    /// The position at the current node of the tree.
    pub(super) fn position(&self) -> &Position {
        &self.pos
    }

    /// The line found below the node `ply` plies deep.
    pub(super) fn line(&self, ply: usize) -> &[Move] {
        &self.pv[ply]
    }

    /// Plays a move in the tree.
    pub(super) fn play_move(&mut self, m: Move) {
        self.pos.play(m);
    }

    /// Takes back the last move in the tree.
    pub(super) fn undo_move(&mut self) {
        self.pos.undo();
    }

    /// Total nodes of all workers, helpers' included.
    pub fn nodes(&self) -> u64 {
        self.own_nodes() + self.type_nodes().iter().sum::<u64>()
    }

    /// Nodes of our own searches, helpers' included.
    pub fn own_nodes(&self) -> u64 {
        self.own.nodes + self.helpers.iter().map(|h| h.own.nodes).sum::<u64>()
    }

    /// Nodes of each opponent type's probes, helpers' included.
    pub fn type_nodes(&self) -> Vec<u64> {
        let mut n: Vec<u64> = self.opps.iter().map(|w| w.nodes).collect();
        for h in &self.helpers {
            for (a, w) in n.iter_mut().zip(&h.opps) {
                *a += w.nodes;
            }
        }
        n
    }

    /// Probes run in this search, helpers' included.
    pub fn probes_run(&self) -> u64 {
        self.probes_run + self.helpers.iter().map(|h| h.probes_run()).sum::<u64>()
    }

    /// Table hits of all workers, helpers' included.
    pub fn tbhits(&self) -> u64 {
        let own = self.own.tbhits + self.opps.iter().map(|w| w.tbhits).sum::<u64>();
        own + self.helpers.iter().map(|h| h.tbhits()).sum::<u64>()
    }

    /// The move our own table keeps for the current node (α-β's best reply there, as far as
    /// the table remembers), if it is legal here.
    pub(super) fn own_table_move(&self) -> Option<Move> {
        self.own_table_move_at(&self.pos)
    }

    /// The move our own table keeps for `pos`, if it is legal there.
    pub(super) fn own_table_move_at(&self, pos: &Position) -> Option<Move> {
        let hit = self.own.tt.probe(pos.key())?;
        hit.mv.legal_in(pos.chess())
    }

    /// Runs `f` on our own worker with the tree position and the clock lent to it.
    pub(super) fn with_own<R>(&mut self, f: impl FnOnce(&mut Worker<'a, E>) -> R) -> Option<R> {
        std::mem::swap(&mut self.pos, &mut self.own.pos);
        self.own.clock = self.clock.take();
        let r = f(&mut self.own);
        self.clock = self.own.clock.take();
        std::mem::swap(&mut self.pos, &mut self.own.pos);
        if self.own.aborted {
            self.aborted = true;
            return None;
        }
        Some(r)
    }

    /// Our own α-β value of the current node (MAX view, root frame) at `depth` within the
    /// MAX window (`alpha`, `beta`). Principal-variation search (§3.4.6): a finite `alpha` is
    /// first tested with a null window, and only a node that beats it is searched with the
    /// whole window for its exact value and line; a node that fails low returns an upper
    /// bound at most `alpha`, which cannot change the root decision.
    pub(super) fn own_value(&mut self, depth: i32, alpha: Score, beta: Score) -> Option<Score> {
        let max_to_move = self.pos.turn() == self.root_color;
        let ply = self.pos.ply();
        // Window (a, b) in MAX's view, searched from the side to move's view.
        let run = move |w: &mut Worker<'a, E>, a: Score, b: Score| match (max_to_move, depth > 0) {
            (true, true) => w.search(a, b, depth, false),
            (true, false) => w.qsearch(a, b),
            (false, true) => -w.search(-b, -a, depth, false),
            (false, false) => -w.qsearch(-b, -a),
        };
        let (v, line) = self.with_own(|w| {
            let null_first = alpha > -INFINITE && alpha + 1 < beta;
            let mut v = if null_first {
                run(w, alpha, alpha + 1)
            } else {
                run(w, alpha, beta)
            };
            if null_first && v > alpha && v < beta && !w.aborted {
                v = run(w, alpha, beta);
            }
            (v, w.pv_at(ply))
        })?;
        self.pv[ply] = line;
        Some(v)
    }

    /// The MAX-view value of the current node (Alg. 3.8 with 3.5 and 3.6; PrOM: Alg. 6.5;
    /// with a bound, Alg. 3.10) within the MAX window (`alpha`, `beta`); `beta` is finite
    /// only under bounded-sum pruning.
    pub(super) fn node(
        &mut self,
        depth: i32,
        alpha: Score,
        beta: Score,
        betas: &[Score; MAX_TYPES],
    ) -> Option<Score> {
        if self.aborted {
            return None;
        }
        let ply = self.pos.ply();
        let max_to_move = self.pos.turn() == self.root_color;
        if depth <= 0 || ply > self.settings.spec_depth {
            return self.own_value(depth, alpha, beta);
        }
        if ply > 0
            && (self.pos.is_repetition()
                || self.pos.is_fifty_move_draw()
                || self.pos.is_insufficient_material())
        {
            self.pv[ply].clear();
            // MAX's view: a draw is worth our contempt less than 0 (0 without one).
            return Some(-self.own.contempt);
        }
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            self.pv[ply].clear();
            let v = if !self.pos.chess().is_check() {
                -self.own.contempt
            } else if max_to_move {
                mated_in(ply)
            } else {
                mate_in(ply)
            };
            return Some(v);
        }
        if max_to_move && ply == self.settings.spec_depth {
            // Every child lies outside H_spec: the maximum of their own α-β values is our
            // own α-β value of this node (Alg. 3.6 line 1, one ply up), searched with all of
            // α-β's pruning instead of child by child.
            return self.own_value(depth, alpha, beta);
        }
        if max_to_move {
            let ordered = self.order_max_moves(moves.into_iter().collect());
            let mut best = -INFINITE;
            let mut a = alpha;
            let in_check = self.pos.chess().is_check();
            for (i, m) in ordered.into_iter().enumerate() {
                self.pos.play(m);
                // As at the root: late quiet moves get α-β's reduction.
                let (r, agree) = self.max_move_reduction(m, i + 1, depth, a, in_check, false);
                self.agree_reduction = agree;
                let mut v = self.node(depth - 1 - r, a, beta, betas);
                self.agree_reduction = 0;
                if r > 0 && v.is_some_and(|v| v > a) {
                    v = self.node(depth - 1, a, beta, betas);
                }
                self.pos.undo();
                let v = v?;
                if v > best {
                    best = v;
                    self.set_pv(ply, m);
                    if self.settings.mode == OmMode::Om && v > a {
                        a = v;
                    }
                }
                if best >= beta {
                    break;
                }
            }
            Some(best)
        } else if self.settings.mode == OmMode::Prom {
            self.prom_min_node(depth, betas)
        } else if let Some(bound) = self.settings.bound_sum() {
            self.bounded_min_node(depth, alpha, beta, bound)
        } else {
            self.om_min_node(depth, alpha, betas)
        }
    }

    /// α-β's late-move reduction of the `count`-th MAX move `m`, just played, at `depth`
    /// (OM mode, once a finite α can show that a reduced value needs a full-depth search;
    /// quiet moves that neither evade nor give check). Split into the part for the whole
    /// subtree (bounded-sum pruning, where MAX has a β and OM is α-β-like) and the part for
    /// our own search below a predicted reply that is α-β's refutation (β-pruning: a reply
    /// the model predicts differently may be the blunder OM is after, so it keeps full depth).
    pub(super) fn max_move_reduction(
        &self,
        m: Move,
        count: usize,
        depth: i32,
        alpha: Score,
        evading: bool,
        root: bool,
    ) -> (i32, i32) {
        let lmr = if self.settings.mode == OmMode::Om
            && alpha > -INFINITE
            && !m.is_capture()
            && !m.is_promotion()
            && !evading
            && !self.pos.chess().is_check()
        {
            self.own.late_move_reduction(depth, count, root)
        } else {
            0
        };
        if self.settings.bound_sum().is_some() {
            (lmr, 0)
        } else {
            (0, lmr)
        }
    }

    /// An OM MIN node: the predicted moves of the (single) type, the lowest MAX value among
    /// equally good ones.
    fn om_min_node(
        &mut self,
        depth: i32,
        alpha: Score,
        betas: &[Score; MAX_TYPES],
    ) -> Option<Score> {
        let t = self.om_type();
        let agree = std::mem::take(&mut self.agree_reduction);
        let (v_op, moves) = self.probe_type(t, -INFINITE, betas[t], depth)?;
        let mut child_betas = [INFINITE; MAX_TYPES];
        child_betas[t] = v_op.saturating_add(1).min(INFINITE);
        let refutation = if agree > 0 {
            self.own.tt.probe(self.pos.key()).map(|h| h.mv)
        } else {
            None
        };
        self.lowest_over_ties(&moves, alpha, |d, m| {
            if refutation.is_some_and(|r| r.matches(m)) {
                // The model predicts α-β's refutation of a late root move: α-β's reduction.
                let v = d.node(depth - 1 - agree, alpha, INFINITE, &child_betas)?;
                if v <= alpha {
                    return Some(v);
                }
            }
            d.node(depth - 1, alpha, INFINITE, &child_betas)
        })
    }

    /// The lowest MAX value over the opponent's equal-best `moves` at this MIN node (Alg. 3.5),
    /// `child` valuing the position after each; the line follows the lowest. Stops once it
    /// is at most `alpha`: the node then cannot change the decision above it.
    pub(super) fn lowest_over_ties(
        &mut self,
        moves: &[Move],
        alpha: Score,
        mut child: impl FnMut(&mut Self, Move) -> Option<Score>,
    ) -> Option<Score> {
        let ply = self.pos.ply();
        let mut worst = INFINITE;
        for &m in moves {
            self.pos.play(m);
            let v = child(self, m);
            self.pos.undo();
            let v = v?;
            if v < worst {
                worst = v;
                self.set_pv(ply, m);
            }
            if worst <= alpha {
                break;
            }
        }
        Some(worst)
    }

    /// The type OM mode speculates with: the most probable one.
    pub fn om_type(&self) -> usize {
        om_type_of(self.specs.iter().map(|s| s.probability))
    }

    /// True while some opponent type still has a positive probability (types that failed
    /// in this search have none).
    pub fn has_model(&self) -> bool {
        self.specs.iter().any(|s| s.probability > 0.0)
    }

    /// Drops type `t` from this search: its probability goes to the others in proportion
    /// (PrOM renormalises, §6.1); with none left the driver is plain α-β.
    pub(super) fn drop_type(&mut self, t: usize) {
        for h in &mut self.helpers {
            h.drop_type(t);
            h.aborted = false;
        }
        let gone = std::mem::take(&mut self.specs[t].probability);
        let rest = 1.0 - gone;
        for s in &mut self.specs {
            s.probability = if rest > 1e-12 {
                s.probability / rest
            } else {
                0.0
            };
        }
    }

    /// Sets the line below the node `ply` plies deep.
    pub(super) fn set_line(&mut self, ply: usize, line: &[Move]) {
        self.pv[ply].clear();
        self.pv[ply].extend_from_slice(line);
    }

    pub(super) fn set_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// MAX nodes: our own transposition-table move first, then captures, then the rest.
    fn order_max_moves(&self, mut moves: Vec<Move>) -> Vec<Move> {
        let hit = self.own.tt.probe(self.pos.key());
        let key = |m: &Move| {
            let tt = hit.is_some_and(|h| h.mv.matches(*m));
            (!tt, !m.is_capture(), !m.is_promotion())
        };
        moves.sort_by_key(key);
        moves
    }
}
