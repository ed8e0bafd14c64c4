//! Move ordering: the transposition-table move first, then winning and equal captures
//! (MVV-LVA, SEE-checked) and queen promotions, the two killer moves of the ply, the quiet
//! moves by the relative history heuristic (Winands 2004 ch. 7: history score divided by the
//! butterfly count, i.e. how often a move was good relative to how often it was tried), and
//! losing captures last. With the trial refinements of issue 41 on ([`super::history`]),
//! continuation history joins the quiet moves' score and capture history orders the captures
//! within each SEE class; with `quiethist` (kept by its SPRT, issue 41 candidate 14, so on by
//! default) a butterfly history kept by the gravity rule plus the continuation history replace
//! the relative history. Moves are generated all at once by shakmaty and picked by selection,
//! so a cut-off early in the list costs no full sort.

use shakmaty::{Chess, Color, Move, MoveList};

use super::history::{Histories, Recent};
use super::see::{SEE_VALUE, see};
use crate::params::SearchParams;
use crate::score::MAX_PLY;
use crate::tt::PackedMove;

/// The ordering score of the table's move (also what staged picking hands out with it).
pub(super) const TT_SCORE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 24;
const KILLER_1: i32 = 1 << 22;
const KILLER_2: i32 = KILLER_1 - 1;
const COUNTER: i32 = KILLER_1 - 2;
const BAD_CAPTURE: i32 = -(1 << 24);
/// History scores stay below this, under the killers.
const HISTORY_MAX: i32 = 1 << 20;

/// Killer moves, history and butterfly counters of one search thread (one evaluator).
pub struct OrderingTables {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<u32>,
    butterfly: Vec<u32>,
    counter: Vec<Option<Move>>,
    /// Continuation, capture and correction histories (allocated only when used).
    pub hist: Histories,
    /// Continuation history's weight in the quiet moves' score (0: not used).
    cont_weight: i32,
    /// Capture history in the captures' score.
    use_capture: bool,
    /// Butterfly plus continuation history, instead of the relative history, in the quiet
    /// moves' score (trial switch `quiethist`).
    use_quiet: bool,
}

impl Default for OrderingTables {
    fn default() -> Self {
        OrderingTables {
            killers: vec![[None, None]; MAX_PLY + 8],
            history: vec![0; 2 * 64 * 64],
            butterfly: vec![0; 2 * 64 * 64],
            counter: vec![None; 2 * 64 * 64],
            hist: Histories::empty(),
            cont_weight: 0,
            use_capture: false,
            use_quiet: false,
        }
    }
}

#[inline]
fn hidx(color: Color, m: Move) -> usize {
    let from = m.from().map_or(0, |s| s as usize);
    (color as usize) * 4096 + from * 64 + m.to() as usize
}

impl OrderingTables {
    /// A set without room, for a slot whose tables a search holds ([`super::pool`]); a
    /// search never runs on it.
    pub fn empty() -> Self {
        OrderingTables {
            killers: Vec::new(),
            history: Vec::new(),
            butterfly: Vec::new(),
            counter: Vec::new(),
            hist: Histories::empty(),
            cont_weight: 0,
            use_capture: false,
            use_quiet: false,
        }
    }

    /// Takes the tables out, leaving [`Self::empty`]'s set in their place (a pool slot
    /// lending them to a search, a search giving them back).
    pub fn take(&mut self) -> Self {
        std::mem::replace(self, Self::empty())
    }

    /// True for [`Self::empty`]'s set.
    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }

    /// True when nothing is recorded: no killer, no history, no counter move (a new set, or
    /// one cleared).
    pub fn is_clear(&self) -> bool {
        self.killers.iter().all(|k| k == &[None, None])
            && self.history.iter().all(|&h| h == 0)
            && self.butterfly.iter().all(|&h| h == 0)
            && self.counter.iter().all(Option::is_none)
            && self.hist.is_clear()
    }

    /// Follows the search's refinements: gives the histories room when one of them needs
    /// them and sets how move ordering uses them. False when they need room that could not
    /// be had (the search then goes on as if they were off; [`Histories::allocate`]).
    pub fn configure(&mut self, params: &SearchParams) -> bool {
        let f = &params.features;
        let room = !f.needs_histories() || self.hist.allocate(&params.feature_params);
        self.cont_weight = if f.cont_history {
            params.feature_params.cont_history_weight
        } else {
            0
        };
        self.use_capture = f.capture_history;
        self.use_quiet = f.quiet_history;
        room
    }

    /// Updates the continuation and capture histories after `best` reached β at `depth`:
    /// a bonus for it, a malus for the quiet moves and captures tried before it (`tried`) —
    /// the captures also when a quiet move refuted the node.
    pub fn record_histories(
        &mut self,
        params: &SearchParams,
        color: Color,
        recent: &Recent,
        best: Move,
        depth: i32,
        tried: Tried<'_>,
    ) {
        let Tried { quiets, captures } = tried;
        let (f, fp) = (&params.features, &params.feature_params);
        let bonus = (fp.history_bonus_scale * depth * depth).min(fp.history_bonus_max);
        let limit = fp.history_limit;
        let quiet = !best.is_capture() && !best.is_promotion();
        if f.keeps_cont_history() && quiet {
            self.hist.update_cont(recent, best, bonus, limit);
            for &q in quiets.iter().flatten() {
                self.hist.update_cont(recent, q, -bonus, limit);
            }
        }
        if f.quiet_history && quiet {
            self.hist.update_quiet(color, best, bonus, limit);
            for &q in quiets.iter().flatten() {
                self.hist.update_quiet(color, q, -bonus, limit);
            }
        }
        if f.capture_history {
            if best.is_capture() {
                self.hist.update_capture(color, best, bonus, limit);
            }
            for &c in captures.iter().flatten() {
                self.hist.update_capture(color, c, -bonus, limit);
            }
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        self.history.iter_mut().for_each(|h| *h = 0);
        self.butterfly.iter_mut().for_each(|h| *h = 0);
        self.counter.iter_mut().for_each(|c| *c = None);
        self.hist.clear();
    }

    /// Starts a new search: killers are cleared, history is halved (aged).
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        self.history.iter_mut().for_each(|h| *h /= 2);
        self.butterfly.iter_mut().for_each(|h| *h /= 2);
    }

    /// Records a quiet move that caused a beta cut-off at `ply` with `depth` to go, after
    /// the quiet moves in `tried` (which did not).
    pub fn record_cutoff(
        &mut self,
        color: Color,
        m: Move,
        prev: Option<Move>,
        ply: usize,
        depth: i32,
        tried: &[Option<Move>],
    ) {
        let k = &mut self.killers[ply.min(MAX_PLY)];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let bonus = (depth * depth).min(400) as u32;
        let i = hidx(color, m);
        self.history[i] = self.history[i].saturating_add(bonus);
        self.butterfly[i] = self.butterfly[i].saturating_add(bonus);
        for &q in tried.iter().flatten() {
            let j = hidx(color, q);
            self.butterfly[j] = self.butterfly[j].saturating_add(bonus);
        }
        if self.history[i] > 1 << 28 {
            self.history.iter_mut().for_each(|h| *h /= 2);
            self.butterfly.iter_mut().for_each(|h| *h /= 2);
        }
        if let Some(p) = prev {
            self.counter[hidx(!color, p)] = Some(m);
        }
    }

    /// Relative history score of a quiet move (0 ..= `HISTORY_MAX`).
    #[inline]
    pub fn relative_history(&self, color: Color, m: Move) -> i32 {
        let i = hidx(color, m);
        let h = u64::from(self.history[i]);
        let b = u64::from(self.butterfly[i]);
        ((h * HISTORY_MAX as u64) / (b + 1)) as i32
    }

    /// The killers of a ply.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply.min(MAX_PLY)]
    }
}

/// The moves a node searched before the one that reached β: quiet moves and captures.
#[derive(Clone, Copy)]
pub struct Tried<'a> {
    /// Quiet moves (searched or pruned).
    pub quiets: &'a [Option<Move>],
    /// Captures.
    pub captures: &'a [Option<Move>],
}

/// A list of moves with ordering scores, handed out best first.
pub struct Picker {
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
}

impl Picker {
    /// A picker with no moves, to be filled where it stays ([`Self::fill`],
    /// [`Self::fill_captures`]): a picker is a few kilobytes, and one built elsewhere and
    /// moved into its place was copied on the way (1.5 % of the search's instructions).
    pub fn empty() -> Self {
        Picker {
            moves: MoveList::new(),
            scores: [0; 256],
            next: 0,
        }
    }

    /// The legal moves of `pos`, scored for the main search, in place of what the picker held.
    pub fn fill(
        &mut self,
        pos: &Chess,
        tt_move: PackedMove,
        tables: &OrderingTables,
        ply: usize,
        recent: &Recent,
    ) {
        self.moves = shakmaty::Position::legal_moves(pos);
        self.next = 0;
        let (moves, scores) = (&self.moves, &mut self.scores);
        let color = shakmaty::Position::turn(pos);
        let killers = tables.killers(ply);
        let counter = recent.prev.and_then(|p| tables.counter[hidx(!color, p)]);
        // The target squares of the table's move, the killers and the counter move: a move
        // to another square is none of them, which a byte's comparison tells before the
        // moves' own (the same answers; 3 % fewer instructions in a profile of `bench 8`).
        let special_to = [killers[0], killers[1], counter].map(|k| k.map(Move::to));
        let tt_to = tt_move.parts().map(|(_, to, _)| to);
        for (i, &m) in moves.iter().enumerate() {
            let to = Some(m.to());
            scores[i] = if tt_to == to && tt_move.matches(m) {
                TT_SCORE
            } else if m.is_capture() || m.promotion() == Some(shakmaty::Role::Queen) {
                let victim = if m.is_en_passant() {
                    SEE_VALUE[1]
                } else {
                    m.capture().map_or(0, |r| SEE_VALUE[r as usize])
                };
                let mvv_lva = victim * 16 - SEE_VALUE[m.role() as usize] / 10
                    + m.promotion().map_or(0, |r| SEE_VALUE[r as usize]);
                let attacker = SEE_VALUE[m.role() as usize];
                let mvv_lva = if tables.use_capture {
                    mvv_lva + tables.hist.capture_score(color, m) / 16
                } else {
                    mvv_lva
                };
                if victim >= attacker || m.promotion().is_some() || see(pos, m) >= 0 {
                    GOOD_CAPTURE + mvv_lva
                } else {
                    BAD_CAPTURE + mvv_lva
                }
            } else if special_to[0] == to && killers[0] == Some(m) {
                KILLER_1
            } else if special_to[1] == to && killers[1] == Some(m) {
                KILLER_2
            } else if special_to[2] == to && counter == Some(m) {
                COUNTER
            } else if m.is_promotion() {
                // Under-promotions last among the quiet moves.
                -(1 << 23)
            } else if tables.use_quiet {
                tables.hist.quiet_score(color, m) + tables.hist.cont_score(recent, m)
            } else if tables.cont_weight != 0 {
                tables.relative_history(color, m)
                    + tables.cont_weight * tables.hist.cont_score(recent, m)
            } else {
                tables.relative_history(color, m)
            };
        }
    }

    /// Takes the table's move `tt_move` (legal and already searched: staged picking) out;
    /// the rest follow in the order the list would give them after it.
    pub fn skip_table_move(&mut self, tt_move: PackedMove) {
        let taken = self.pick();
        debug_assert!(taken.is_some_and(|(m, s)| s == TT_SCORE && tt_move.matches(m)));
    }

    /// The quiescence search's moves of `pos` — every legal move in check, else the captures
    /// and queen promotions of `search/noisy.rs` — scored by MVV-LVA, in place of what the
    /// picker held.
    pub fn fill_captures(&mut self, pos: &Chess, in_check: bool) {
        if in_check {
            self.moves = shakmaty::Position::legal_moves(pos);
        } else {
            super::noisy::noisy_moves(pos, &mut self.moves);
        }
        self.next = 0;
        for (score, &m) in self.scores.iter_mut().zip(self.moves.iter()) {
            let victim = if m.is_en_passant() {
                SEE_VALUE[1]
            } else {
                m.capture().map_or(0, |r| SEE_VALUE[r as usize])
            };
            *score = victim * 16 - SEE_VALUE[m.role() as usize] / 10
                + m.promotion().map_or(0, |r| SEE_VALUE[r as usize]);
        }
    }

    /// The next move and its ordering score, best first.
    #[inline]
    pub fn pick(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        // The first of the highest scores, found in two passes that the compiler vectorises
        // (the maximum, then where it first occurs): the same move a scan for a strictly
        // greater score picks, in a fraction of its time (that scan was 9 % of the search's
        // instructions).
        let rest = &self.scores[self.next..n];
        let top = rest.iter().copied().max().unwrap_or(i32::MIN);
        let best = self.next + rest.iter().position(|&s| s == top).unwrap_or(0);
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let r = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(r)
    }

    /// Number of moves in the list.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True if there are no moves at all.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// True if an ordering score marks a losing capture.
    pub fn is_bad_capture(score: i32) -> bool {
        score < -(1 << 23)
    }
}
