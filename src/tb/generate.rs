//! The retrograde solver (Thompson 1986, the method behind BELLE's KQKR database in the
//! Browne–BELLE games, Donkers 2003 §5.4 and Appendix B). It solves one material with at
//! most four pieces and pawns on one side at most, both sides to move, given the solved
//! sub-endings reached by a conversion (a capture or a promotion; pawn pushes stay inside the
//! table and are un-made like piece moves), and stores two metrics per position:
//!
//! * **DTM** (distance to mate, plies): 0 if the side to move is mated; a winning position has
//!   `1 + min` over moves to lost positions, a losing one `1 + max` over all moves. Captures
//!   continue into the sub-ending's DTM, so DTM counts the whole way to mate.
//! * **DTC** (Thompson's distance to conversion, plies): a phase ends with mate or with a
//!   capture into a smaller ending that is won (for the capturer) or lost (for the capturer).
//!   A mated side to move has DTC 0. A capture move into a decisive smaller ending has value
//!   1 ply from the position before it (e.g. `Qxa7` taking the rook in KQvKR is DTC 1, the
//!   Black move before it DTC 2). Otherwise DTC is `1 + min` (winner) or `1 + max` (loser,
//!   maximal resistance; the loser may also convert by its own capture into a lost smaller
//!   ending, counting 1). A capture into a drawn smaller ending is simply a drawing move.
//!
//! The 50-move rule is ignored. Algorithm: one forward pass counts, for every position, the
//! distinct symmetry classes of its quiet successors and evaluates its captures in the
//! sub-tables; then for each metric a breadth-first pass over increasing distance walks
//! un-moves (`shakmaty::attacks` bitboards) from resolved positions: a predecessor of a lost
//! position is won one ply later, a predecessor whose last open successor class became won is
//! lost (later still if a losing capture takes longer). Counting successor *classes* (not
//! moves) keeps the counts exact under the 8-fold symmetry, including symmetric positions.

use std::sync::Arc;

use shakmaty::{Color, Piece, Role};

use crate::tb::{
    error::TbError,
    index::Layout,
    material::Material,
    moves::{CANDIDATES, Candidate, between, candidates, color_of, is_slider, pawn_origins},
    params::MAX_DISTANCE,
    placement::{Placement, attacked, attacks_of, occupancy, piece_attacks},
    table::{CODE_DRAW, CODE_ILLEGAL, Table, Wdl, side},
};

/// Not yet resolved during a breadth-first pass (becomes a draw at the end).
const UNRESOLVED: u8 = 253;
/// The side to move has a capture into a smaller ending it wins.
const F_WIN_CAP: u8 = 1;
/// The side to move has a capture into a drawn smaller ending.
const F_DRAW_CAP: u8 = 2;
/// The side to move has a capture into a smaller ending it loses.
const F_LOSE_CAP: u8 = 4;
/// Capacity of the per-position move buffers (at most 62 moves with four pieces).
const MOVE_BUF: usize = 80;

/// Entry flags in the breadth-first lists: bit 31 = Black to move, bit 30 = win.
const E_BLACK: u32 = 1 << 31;
const E_WIN: u32 = 1 << 30;
const E_INDEX: u32 = E_WIN - 1;

/// Which distance a breadth-first pass computes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Metric {
    Dtm,
    Dtc,
}

/// The solved tables a conversion (a capture or a promotion) can lead to.
struct Conversions {
    tables: Vec<Arc<Table>>,
}

impl Conversions {
    /// Value for the side to move after a conversion: `child` holds the parent's squares with
    /// the moved piece on its target, slot `removed` (the captured piece) is gone and slot
    /// `promoted`, if given, holds a new piece of that role.
    fn probe(
        &self,
        layout: &Layout,
        child: &[u8; 4],
        removed: Option<usize>,
        promoted: Option<(usize, Role)>,
        turn: Color,
    ) -> Option<crate::tb::table::TbEntry> {
        let mut list = [(layout.pieces[0], 0u8); 4];
        let mut n = 0;
        for (i, (&square, &piece)) in child.iter().zip(&layout.pieces).enumerate() {
            if i >= layout.n || Some(i) == removed {
                continue;
            }
            let mut piece = piece;
            if let Some((slot, role)) = promoted
                && slot == i
            {
                piece.role = role;
            }
            list[n] = (piece, square);
            n += 1;
        }
        let placement = Placement::from_pieces(&list[..n], turn)?;
        self.tables
            .iter()
            .find(|t| t.material() == placement.material)?
            .probe(&placement)
    }
}

/// Per-position data of the forward pass, shared by both breadth-first passes.
struct Forward {
    /// `CODE_ILLEGAL`, `CODE_DRAW` (stalemate or only drawing captures) or `UNRESOLVED`.
    state: [Vec<u8>; 2],
    /// Number of distinct quiet successor classes.
    remaining: [Vec<u8>; 2],
    /// `F_*_CAP` bits.
    flags: [Vec<u8>; 2],
    /// Smallest DTM over winning captures (`1 + child DTM`).
    cap_win_dtm: [Vec<u8>; 2],
    /// Largest DTM over losing captures (`1 + child DTM`).
    cap_lose_dtm: [Vec<u8>; 2],
    /// Mated positions (DTM 0, DTC 0), as breadth-first entries.
    mates: Vec<u32>,
}

/// Solves `material` (canonical orientation). `sub` must return the solved table of any
/// smaller canonical material (called once per capturable piece slot).
pub fn solve(
    material: &Material,
    sub: &dyn Fn(&Material) -> Result<Arc<Table>, TbError>,
) -> Result<Table, TbError> {
    if !material.is_canonical() {
        return Err(TbError::Internal(format!(
            "{material} is not in canonical orientation"
        )));
    }
    let layout = Layout::new(material);
    let conversions = Conversions {
        tables: material
            .conversions()
            .iter()
            .map(sub)
            .collect::<Result<_, _>>()?,
    };
    let forward = forward_pass(&layout, &conversions)?;
    let (dtm, dtm_win) = backward_pass(&layout, &forward, Metric::Dtm)?;
    let (dtc, dtc_win) = backward_pass(&layout, &forward, Metric::Dtc)?;
    for s in 0..2 {
        let same = dtm[s]
            .iter()
            .zip(&dtc[s])
            .zip(dtm_win[s].iter().zip(&dtc_win[s]))
            .all(|((&a, &b), (&wa, &wb))| {
                (a >= CODE_DRAW) == (b >= CODE_DRAW) && (a >= CODE_DRAW || wa == wb)
            });
        if !same {
            return Err(TbError::Internal(format!(
                "{material}: DTM and DTC passes disagree on WDL"
            )));
        }
        if dtm[s]
            .iter()
            .zip(&dtm_win[s])
            .any(|(&d, &w)| d < CODE_DRAW && (d % 2 == 1) != w)
        {
            return Err(TbError::Internal(format!("{material}: DTM parity broken")));
        }
    }
    Table::from_parts(*material, dtm, dtc)
        .ok_or_else(|| TbError::Internal(format!("{material}: table size mismatch")))
}

/// Number of distinct values in a small list (sorted in place).
fn distinct_count(list: &mut [u32]) -> u8 {
    list.sort_unstable();
    let mut distinct = 0u8;
    for k in 0..list.len() {
        if k == 0 || list[k] != list[k - 1] {
            distinct += 1;
        }
    }
    distinct
}

/// Counts successor classes and evaluates conversions (captures and promotions) for every
/// index slot.
fn forward_pass(layout: &Layout, conversions: &Conversions) -> Result<Forward, TbError> {
    let size = layout.size;
    let mut f = Forward {
        state: [filled(CODE_ILLEGAL, size)?, filled(CODE_ILLEGAL, size)?],
        remaining: [filled(0, size)?, filled(0, size)?],
        flags: [filled(0, size)?, filled(0, size)?],
        cap_win_dtm: [filled(u8::MAX, size)?, filled(u8::MAX, size)?],
        cap_lose_dtm: [filled(0, size)?, filled(0, size)?],
        mates: Vec::new(),
    };
    let n = layout.n;
    let pieces = &layout.pieces;
    let mut children = [0u32; MOVE_BUF];
    for idx in 0..size as u32 {
        if !layout.is_canonical(idx) {
            continue;
        }
        let sq = layout.decode(idx);
        let occ = occupancy(&sq, n);
        for s in 0..2 {
            let us = color_of(s);
            let them = !us;
            // The side not to move must not be in check.
            if attacked(pieces, &sq, n, usize::MAX, us, sq[side(them)], occ) {
                continue;
            }
            let in_check = attacked(pieces, &sq, n, usize::MAX, them, sq[s], occ);
            let mut own = 0u64;
            for i in 0..n {
                if pieces[i].color == us {
                    own |= 1 << sq[i];
                }
            }
            let (mut n_children, mut legal_moves, mut folded) = (0usize, 0usize, false);
            let (mut flags, mut win_dtm, mut lose_dtm) = (0u8, u8::MAX, 0u8);
            let mut cands = [Candidate::default(); CANDIDATES];
            for i in 0..n {
                if pieces[i].color != us {
                    continue;
                }
                let count = candidates(pieces, &sq, n, i, occ, own, &mut cands);
                for c in &cands[..count] {
                    if c.captured.is_some_and(|j| j < 2) {
                        continue; // never happens in a legal position
                    }
                    let mut child = sq;
                    child[i] = c.to;
                    let child_occ = (occ & !(1u64 << sq[i])) | (1u64 << c.to);
                    let king = child[s];
                    let skip = c.captured.unwrap_or(usize::MAX);
                    if attacked(pieces, &child, n, skip, them, king, child_occ) {
                        continue;
                    }
                    legal_moves += 1;
                    if c.captured.is_none() && c.promotion.is_none() {
                        let (c, direct) = layout.index_flagged(&child).ok_or_else(|| {
                            TbError::Internal("quiet move reached an invalid index".into())
                        })?;
                        folded |= !direct;
                        children[n_children] = c;
                        n_children += 1;
                        continue;
                    }
                    let promoted = c.promotion.map(|role| (i, role));
                    let entry = conversions
                        .probe(layout, &child, c.captured, promoted, them)
                        .ok_or_else(|| {
                            TbError::Internal("conversion reached an illegal sub-position".into())
                        })?;
                    let after = entry.dtm.map_or(0, |d| d.min(255) as u8);
                    match entry.wdl {
                        Wdl::Loss => {
                            flags |= F_WIN_CAP;
                            win_dtm = win_dtm.min(after.saturating_add(1));
                        }
                        Wdl::Draw => flags |= F_DRAW_CAP,
                        Wdl::Win => {
                            flags |= F_LOSE_CAP;
                            lose_dtm = lose_dtm.max(after.saturating_add(1));
                        }
                    }
                }
            }
            // Distinct placements reached "directly" have distinct indices; only symmetry
            // folding can merge two successors into one class.
            let list = &mut children[..n_children];
            let distinct = if folded {
                distinct_count(list)
            } else {
                n_children as u8
            };
            let i = idx as usize;
            f.remaining[s][i] = distinct;
            f.flags[s][i] = flags;
            f.cap_win_dtm[s][i] = win_dtm;
            f.cap_lose_dtm[s][i] = lose_dtm;
            f.state[s][i] = UNRESOLVED;
            if legal_moves == 0 {
                if in_check {
                    f.mates.push(idx | if s == 1 { E_BLACK } else { 0 });
                } else {
                    f.state[s][i] = CODE_DRAW;
                }
            } else if distinct == 0 && flags & F_WIN_CAP == 0 && flags & F_DRAW_CAP != 0 {
                f.state[s][i] = CODE_DRAW;
            }
        }
    }
    Ok(f)
}

/// Breadth-first pass for one metric. Returns the distance codes and the win bits.
#[allow(clippy::type_complexity)]
fn backward_pass(
    layout: &Layout,
    f: &Forward,
    metric: Metric,
) -> Result<([Vec<u8>; 2], [Vec<bool>; 2]), TbError> {
    let size = layout.size;
    let n = layout.n;
    let pieces = &layout.pieces;
    let mut dist = [copied(&f.state[0])?, copied(&f.state[1])?];
    let mut remaining = [copied(&f.remaining[0])?, copied(&f.remaining[1])?];
    let mut win = [filled(0u8, size)?, filled(0u8, size)?];
    let limit = usize::from(MAX_DISTANCE) + 2;
    let mut sched: Vec<Vec<u32>> = vec![Vec::new(); limit + 1];
    sched[0].extend_from_slice(&f.mates);
    // Positions decided by their captures alone.
    for s in 0..2 {
        for i in 0..size {
            if dist[s][i] != UNRESOLVED {
                continue;
            }
            let flags = f.flags[s][i];
            let e = i as u32 | if s == 1 { E_BLACK } else { 0 };
            if flags & F_WIN_CAP != 0 {
                let d = match metric {
                    Metric::Dtm => usize::from(f.cap_win_dtm[s][i]),
                    Metric::Dtc => 1,
                };
                sched[d.min(limit)].push(e | E_WIN);
            } else if remaining[s][i] == 0 && flags & F_DRAW_CAP == 0 && flags & F_LOSE_CAP != 0 {
                let d = match metric {
                    Metric::Dtm => usize::from(f.cap_lose_dtm[s][i]),
                    Metric::Dtc => 1,
                };
                sched[d.min(limit)].push(e);
            }
        }
    }
    let mut frontier: Vec<u32> = Vec::new();
    let mut next: Vec<u32> = Vec::new();
    let mut preds = [0u32; MOVE_BUF];
    // Slots of each colour's pieces (the movers of an un-move).
    let mut movers = [[0usize; 4]; 2];
    let mut n_movers = [0usize; 2];
    for (i, piece) in pieces.iter().enumerate().take(n) {
        let c = side(piece.color);
        movers[c][n_movers[c]] = i;
        n_movers[c] += 1;
    }
    let mut d = 0usize;
    loop {
        // Candidates scheduled for this distance (captures, mates, delayed losses).
        for &e in &sched[d] {
            let s = usize::from(e & E_BLACK != 0);
            let i = (e & E_INDEX) as usize;
            if dist[s][i] == UNRESOLVED {
                dist[s][i] = d as u8;
                win[s][i] = u8::from(e & E_WIN != 0);
                frontier.push(e & (E_BLACK | E_INDEX));
            }
        }
        sched[d] = Vec::new();
        if frontier.is_empty() && sched[d..].iter().all(Vec::is_empty) {
            break;
        }
        if d >= usize::from(MAX_DISTANCE) {
            return Err(TbError::Internal(format!(
                "distance exceeds {MAX_DISTANCE} plies"
            )));
        }
        for &e in &frontier {
            let t = usize::from(e & E_BLACK != 0); // side to move in the resolved position
            let i = e & E_INDEX;
            let q_wins = win[t][i as usize] != 0;
            let sq = layout.decode(i);
            let occ = occupancy(&sq, n);
            let p = 1 - t; // side to move in the predecessors
            let tk = sq[t];
            let tk_bit = 1u64 << tk;
            let mut count = 0usize;
            let mut folded = false;
            for &k in &movers[1 - t][..n_movers[1 - t]] {
                let role = pieces[k].role;
                let base = occ & !(1u64 << sq[k]);
                // Predecessor legality (the side t not in check) as masks: the moved piece
                // must not attack t's king from its origin, and a line opened by lifting it
                // must be closed again by the origin square.
                let mut froms = if role == Role::Pawn {
                    pawn_origins(pieces[k].color, sq[k], occ)
                        & !piece_attacks(
                            Piece {
                                color: !pieces[k].color,
                                role,
                            },
                            tk,
                            base,
                        )
                } else {
                    attacks_of(role, sq[k], occ) & !occ & !attacks_of(role, tk, base)
                };
                for &j in &movers[1 - t][..n_movers[1 - t]] {
                    if j != k && piece_attacks(pieces[j], sq[j], base) & tk_bit != 0 {
                        froms &= if is_slider(pieces[j].role) {
                            between(sq[j], tk)
                        } else {
                            0
                        };
                    }
                }
                while froms != 0 {
                    let from = froms.trailing_zeros() as u8;
                    froms &= froms - 1;
                    let mut prev = sq;
                    prev[k] = from;
                    if let Some((idx, direct)) = layout.index_flagged(&prev) {
                        folded |= !direct;
                        preds[count] = idx;
                        count += 1;
                    }
                }
            }
            let list = &mut preds[..count];
            if folded && q_wins {
                list.sort_unstable();
            }
            for k in 0..list.len() {
                if folded && q_wins && k > 0 && list[k] == list[k - 1] {
                    continue;
                }
                let j = list[k] as usize;
                if dist[p][j] != UNRESOLVED {
                    continue;
                }
                let entry = list[k] | if p == 1 { E_BLACK } else { 0 };
                if !q_wins {
                    dist[p][j] = (d + 1) as u8;
                    win[p][j] = 1;
                    next.push(entry);
                    continue;
                }
                remaining[p][j] = remaining[p][j].saturating_sub(1);
                let flags = f.flags[p][j];
                if remaining[p][j] != 0 || flags & (F_WIN_CAP | F_DRAW_CAP) != 0 {
                    continue;
                }
                let capture = if flags & F_LOSE_CAP == 0 {
                    0
                } else {
                    match metric {
                        Metric::Dtm => usize::from(f.cap_lose_dtm[p][j]),
                        Metric::Dtc => 1,
                    }
                };
                let at = capture.max(d + 1);
                if at == d + 1 {
                    dist[p][j] = at as u8;
                    next.push(entry);
                } else {
                    sched[at.min(limit)].push(entry);
                }
            }
        }
        frontier.clear();
        std::mem::swap(&mut frontier, &mut next);
        d += 1;
        // Positions resolved by quiet moves at distance d are already in `frontier`.
    }
    let mut wins = [Vec::new(), Vec::new()];
    for s in 0..2 {
        for c in dist[s].iter_mut() {
            if *c == UNRESOLVED {
                *c = CODE_DRAW;
            }
        }
        let mut w = filled(false, size)?;
        for (to, &from) in w.iter_mut().zip(&win[s]) {
            *to = from != 0;
        }
        wins[s] = w;
    }
    Ok((dist, wins))
}

/// `n` copies of `value`, or [`TbError::Memory`] if the memory cannot be had (a table's
/// size grows 64-fold with each piece: a user's material must not abort the program).
fn filled<T: Clone>(value: T, n: usize) -> Result<Vec<T>, TbError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| too_big::<T>(n))?;
    v.resize(n, value);
    Ok(v)
}

/// A copy of `from`, fallibly (see [`filled`]).
fn copied<T: Clone>(from: &[T]) -> Result<Vec<T>, TbError> {
    let mut v = Vec::new();
    v.try_reserve_exact(from.len())
        .map_err(|_| too_big::<T>(from.len()))?;
    v.extend_from_slice(from);
    Ok(v)
}

fn too_big<T>(n: usize) -> TbError {
    let mb = n.saturating_mul(std::mem::size_of::<T>()) / (1024 * 1024);
    TbError::Memory(format!("{mb} MB for one array of the table's generation"))
}
