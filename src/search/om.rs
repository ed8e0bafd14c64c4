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
//! β-passing per opponent type (Alg. 6.5); the PrOM combination lives in [`super::prom`].
//!
//! Values are kept in MAX's view (the side to move at the root) and in the root's frame
//! (mate distances counted from the root); probes run with their own root at the MIN node and
//! are converted (`to_tt`/`from_tt`). Every evaluator has its own transposition table and
//! move-ordering tables (§3.4.1–3.4.2); probes of one type share them within a move.
//!
//! One enhancement beyond the thesis, OM mode only: a lower bound α for MAX is passed down.
//! It is sound because a node's MAX value is either the maximum of its children (MAX nodes)
//! or the value of one chosen child (MIN nodes), so a subtree that fails low below α cannot
//! change the root decision. Probes are never narrowed by α (the opponent's choice must not
//! depend on it). No aspiration windows (§5.4.1).

use shakmaty::{Color, Move, Position as _};

use super::alphabeta::Worker;
use super::{Clock, SearchConfig, SearchContext, SearchControl, SearchResult};
use crate::eval::Evaluator;
use crate::eval::score::{DRAW, INFINITE, Score, from_tt, mate_in, mated_in, to_tt};
use crate::limits::Limits;
use crate::position::{Position, uci};
use crate::report::Reporter;

/// At most this many opponent types.
pub const MAX_TYPES: usize = 8;

/// Which root driver runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OmMode {
    /// Plain α-β.
    Off,
    /// OM search with the most probable opponent type.
    Om,
    /// PrOM search over all types.
    Prom,
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
}

/// Settings of the driver.
#[derive(Clone, Debug)]
pub struct DriverSettings {
    /// OM or PrOM.
    pub mode: OmMode,
    /// Speculative depth s: speculation in histories of at most `s` plies.
    pub spec_depth: usize,
    /// Find all equal-best moves in probes (enhanced OM, Alg. 3.5).
    pub ties: bool,
    /// Root risk control: only root moves within this many centipawns of the α-β value are
    /// candidates (`None`: all moves the caller allowed).
    pub root_margin: Option<Score>,
}

/// The result of one driver iteration, for reporting.
#[derive(Clone, Debug, Default)]
pub struct OmIteration {
    /// OM (or PrOM) value of the best root move, MAX's view.
    pub value: Score,
    /// Plain α-β value of the root at the same depth.
    pub ab_value: Score,
    /// The speculated line: our move, the predicted reply, ...
    pub pv: Vec<Move>,
}

/// The driver's state for one search.
pub struct Driver<'a, E: Evaluator + ?Sized> {
    /// Our own α-β (evaluation V0).
    pub own: Worker<'a, E>,
    /// One probe worker per opponent type.
    pub opps: Vec<Worker<'a, dyn Evaluator>>,
    /// Probing parameters per type.
    pub specs: Vec<ProbeSpec>,
    /// Settings.
    pub settings: DriverSettings,
    /// The clock, lent to whichever worker runs.
    pub clock: Option<Clock<'a>>,
    pos: Position,
    root_color: Color,
    pv: Vec<Vec<Move>>,
    /// Replay probes already run in this search: (type, key, depth) → (node-relative value,
    /// move). A replay is a function of the position, so iterative deepening and
    /// transpositions need not repeat it.
    replays: std::collections::HashMap<(usize, u64, i32), (Score, Move)>,
    /// Set when the search was stopped.
    pub aborted: bool,
}

impl<'a, E: Evaluator + ?Sized> Driver<'a, E> {
    /// A driver searching `root` (whose current position becomes the root).
    pub fn new(
        own: Worker<'a, E>,
        opps: Vec<Worker<'a, dyn Evaluator>>,
        specs: Vec<ProbeSpec>,
        settings: DriverSettings,
        mut root: Position,
    ) -> Self {
        root.set_root();
        let root_color = root.turn();
        Driver {
            own,
            opps,
            specs,
            settings,
            clock: None,
            pos: root,
            root_color,
            pv: vec![Vec::new(); crate::eval::score::MAX_PLY + 2],
            replays: std::collections::HashMap::new(),
            aborted: false,
        }
    }

    /// Plies from the root to the current node.
    pub(super) fn pos_ply(&self) -> usize {
        self.pos.ply()
    }

    /// Plays a move in the tree.
    pub(super) fn play_move(&mut self, m: Move) {
        self.pos.play(m);
    }

    /// Takes back the last move in the tree.
    pub(super) fn undo_move(&mut self) {
        self.pos.undo();
    }

    /// Total nodes of all workers.
    pub fn nodes(&self) -> u64 {
        self.own.nodes + self.opps.iter().map(|w| w.nodes).sum::<u64>()
    }

    /// Runs `f` on our own worker with the tree position and the clock lent to it.
    fn with_own<R>(&mut self, f: impl FnOnce(&mut Worker<'a, E>) -> R) -> Option<R> {
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

    /// Probes opponent type `t` at the current node with a MAX-view, root-frame bound
    /// `beta` (the probe window is [−∞, β] in MAX's view). Returns the probe value in MAX's
    /// view and root frame, and the predicted moves.
    pub(super) fn probe_type(
        &mut self,
        t: usize,
        beta: Score,
        remaining: i32,
    ) -> Option<(Score, Vec<Move>)> {
        let ply = self.pos.ply();
        let spec = &self.specs[t];
        let depth = match spec.depth {
            Some(n) => (n as i32 - (ply as i32 - 1)).max(1),
            None => remaining.max(1),
        };
        let depth = if spec.nodes.is_some() { 64 } else { depth };
        let node_budget = spec.nodes;
        // The opponent maximises -v (MAX view); the bound v < β becomes -v > -β.
        let alpha_opp = if beta >= INFINITE {
            -INFINITE
        } else {
            (-to_tt(beta, ply)).max(-INFINITE)
        };
        if spec.replay {
            return self.replay_type(t, depth);
        }
        let ties = self.settings.ties;
        let w = &mut self.opps[t];
        std::mem::swap(&mut self.pos, &mut w.pos);
        w.clock = self.clock.take();
        if let Some(n) = node_budget {
            w.local_limit = w.nodes.saturating_add(n);
        }
        let r = w.probe(alpha_opp, INFINITE, depth, ties);
        w.local_limit = u64::MAX;
        self.clock = w.clock.take();
        std::mem::swap(&mut self.pos, &mut w.pos);
        if w.aborted {
            self.aborted = true;
            return None;
        }
        let r = r?;
        Some((from_tt(-r.value, ply), r.moves))
    }

    /// A replay probe (see [`ProbeSpec::replay`]): the opponent's own search, repeated.
    fn replay_type(&mut self, t: usize, depth: i32) -> Option<(Score, Vec<Move>)> {
        let ply = self.pos.ply();
        let cache_key = (t, self.pos.key(), depth);
        if let Some(&(v, m)) = self.replays.get(&cache_key) {
            return Some((from_tt(-v, ply), vec![m]));
        }
        let spec = &self.specs[t];
        let limits = match spec.nodes {
            Some(n) => Limits::nodes(n),
            None => Limits::depth(depth.max(1) as u32),
        };
        let w = &self.opps[t];
        w.tt.clear_fast();
        let control = SearchControl::default();
        let config = SearchConfig::default();
        let ctx = SearchContext {
            eval: w.eval,
            tt: w.tt,
            control: &control,
            tb: w.tb,
            config: &config,
            reporter: &crate::report::Silent,
            root_tb_score: None,
        };
        let mut pos = self.pos.clone();
        pos.set_root();
        let allowed = super::root_moves(&pos, &limits);
        let r = super::search(&ctx, &pos, &limits, &allowed);
        // The replayed search is work of this type's probes: count it (node limits, reports).
        let w = &mut self.opps[t];
        w.nodes += r.nodes;
        if let Some(c) = w.node_counter {
            c.store(w.nodes, std::sync::atomic::Ordering::Relaxed);
        }
        if self.own.stop.load(std::sync::atomic::Ordering::Relaxed) {
            self.aborted = true;
            return None;
        }
        let best = r.best?;
        self.replays.insert(cache_key, (r.score, best));
        Some((from_tt(-r.score, ply), vec![best]))
    }

    /// Our own α-β value of the current node (MAX view, root frame) at `depth`, with a lower
    /// bound `alpha` for MAX.
    fn own_value(&mut self, depth: i32, alpha: Score) -> Option<Score> {
        let max_to_move = self.pos.turn() == self.root_color;
        let ply = self.pos.ply();
        let (v, line) = self.with_own(|w| {
            let v = if max_to_move {
                if depth <= 0 {
                    w.qsearch(alpha, INFINITE)
                } else {
                    w.search(alpha, INFINITE, depth, false)
                }
            } else if depth <= 0 {
                -w.qsearch(-INFINITE, -alpha)
            } else {
                -w.search(-INFINITE, -alpha, depth, false)
            };
            (v, w.pv_at(ply))
        })?;
        self.pv[ply] = line;
        Some(v)
    }

    /// The MAX-view value of the current node (Alg. 3.8 with 3.5 and 3.6; PrOM: Alg. 6.5).
    pub(super) fn node(
        &mut self,
        depth: i32,
        alpha: Score,
        betas: &[Score; MAX_TYPES],
    ) -> Option<Score> {
        if self.aborted {
            return None;
        }
        let ply = self.pos.ply();
        let max_to_move = self.pos.turn() == self.root_color;
        if depth <= 0 || ply > self.settings.spec_depth {
            return self.own_value(depth, alpha);
        }
        if ply > 0
            && (self.pos.is_repetition()
                || self.pos.is_fifty_move_draw()
                || self.pos.is_insufficient_material())
        {
            self.pv[ply].clear();
            return Some(DRAW);
        }
        let moves = self.pos.legal_moves();
        if moves.is_empty() {
            self.pv[ply].clear();
            let v = if !self.pos.chess().is_check() {
                DRAW
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
            return self.own_value(depth, alpha);
        }
        if max_to_move {
            let ordered = self.order_max_moves(moves.into_iter().collect());
            let mut best = -INFINITE;
            let mut a = alpha;
            for m in ordered {
                self.pos.play(m);
                let v = self.node(depth - 1, a, betas);
                self.pos.undo();
                let v = v?;
                if v > best {
                    best = v;
                    self.set_pv(ply, m);
                    if self.settings.mode == OmMode::Om && v > a {
                        a = v;
                    }
                }
            }
            Some(best)
        } else if self.settings.mode == OmMode::Prom {
            self.prom_min_node(depth, betas)
        } else {
            self.om_min_node(depth, alpha, betas)
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
        let ply = self.pos.ply();
        let t = self.om_type();
        let (v_op, moves) = self.probe_type(t, betas[t], depth)?;
        let mut child_betas = [INFINITE; MAX_TYPES];
        child_betas[t] = v_op.saturating_add(1).min(INFINITE);
        let mut worst = INFINITE;
        for m in moves {
            self.pos.play(m);
            let v = self.node(depth - 1, alpha, &child_betas);
            self.pos.undo();
            let v = v?;
            if v < worst {
                worst = v;
                self.set_pv(ply, m);
            }
        }
        Some(worst)
    }

    /// The type OM mode speculates with: the most probable one.
    pub fn om_type(&self) -> usize {
        let mut best = 0;
        for (i, s) in self.specs.iter().enumerate() {
            if s.probability > self.specs[best].probability {
                best = i;
            }
        }
        best
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

    /// One iteration at the root over `root_moves` (in order) to `depth`. Returns the best
    /// move's value and the speculated line; the moves are reordered best first.
    pub fn iterate(&mut self, root_moves: &mut Vec<Move>, depth: i32) -> Option<OmIteration> {
        let ab_value = self.with_own(|w| {
            w.root_only = root_moves.clone();
            w.root_depth = depth;
            w.search(-INFINITE, INFINITE, depth, false)
        })?;
        let candidates = match self.settings.root_margin {
            Some(margin) => self.within_margin(root_moves, depth, ab_value - margin)?,
            None => root_moves.clone(),
        };
        let betas = [INFINITE; MAX_TYPES];
        let mut scored: Vec<(Score, Move)> = Vec::with_capacity(root_moves.len());
        let mut best = -INFINITE;
        let mut best_pv = Vec::new();
        for &m in candidates.iter() {
            self.pos.play(m);
            let alpha = if self.settings.mode == OmMode::Om {
                best
            } else {
                -INFINITE
            };
            let v = self.node(depth - 1, alpha, &betas);
            self.pos.undo();
            let v = v?;
            scored.push((v, m));
            if v > best {
                best = v;
                best_pv = vec![m];
                best_pv.extend_from_slice(&self.pv[1]);
            }
        }
        // Stable sort: equal values keep the previous order (first found wins ties); moves
        // outside the margin go last.
        scored.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        let mut order: Vec<Move> = scored.iter().map(|&(_, m)| m).collect();
        order.extend(root_moves.iter().filter(|m| !candidates.contains(m)));
        *root_moves = order;
        Some(OmIteration {
            value: best,
            ab_value,
            pv: best_pv,
        })
    }
}

impl<E: Evaluator + ?Sized> Driver<'_, E> {
    /// Root moves whose own α-β value at `depth` is at least `floor` (null-window tests).
    fn within_margin(&mut self, moves: &[Move], depth: i32, floor: Score) -> Option<Vec<Move>> {
        let mut out = Vec::new();
        for &m in moves {
            self.pos.play(m);
            let v = self.with_own(|w| -w.search(-floor, -floor + 1, depth - 1, false));
            self.pos.undo();
            if v? >= floor {
                out.push(m);
            }
        }
        if out.is_empty() {
            out = moves.to_vec();
        }
        Some(out)
    }
}

/// Runs the driver with iterative deepening until `max_depth`, the clock or `stop`, reporting
/// each completed iteration; returns the result of the last completed one.
pub fn run<E: Evaluator + ?Sized>(
    driver: &mut Driver<'_, E>,
    allowed: &[Move],
    max_depth: u32,
    reporter: &dyn Reporter,
    report: &mut dyn FnMut(&Driver<'_, E>, u32, &OmIteration),
) -> SearchResult {
    let mut root_moves = allowed.to_vec();
    let mut result = SearchResult {
        best: allowed.first().copied(),
        ..SearchResult::default()
    };
    if allowed.is_empty() {
        return result;
    }
    for depth in 1..=max_depth.max(1) {
        let Some(it) = driver.iterate(&mut root_moves, depth as i32) else {
            break;
        };
        result.best = it.pv.first().copied().or(result.best);
        result.ponder = it.pv.get(1).copied();
        result.score = it.value;
        result.depth = depth;
        result.pv = it.pv.clone();
        report(driver, depth, &it);
        if let Some(p) = it.pv.get(1) {
            reporter.message(&format!(
                "om depth {depth} move {} predicted {} om {} ab {} surplus {}",
                uci(it.pv[0]),
                uci(*p),
                it.value,
                it.ab_value,
                it.value - it.ab_value
            ));
        }
        if let Some(c) = driver.clock.as_mut()
            && c.soft_expired()
        {
            break;
        }
    }
    result.nodes = driver.nodes();
    result
}
