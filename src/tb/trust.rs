//! Cross-checks of Syzygy tables at the root: damage that the size and magic checks at
//! loading cannot see (altered bytes inside a file) shows as values that contradict the
//! game's rules or our own tables. Before the root ranking uses a position's tables, three
//! cheap checks run (one probe per legal move and two per quiet move):
//!
//! - **successors**: the position's WDL (win, draw or loss, the 50-move rule aside) must be
//!   the best of its moves' values, each the negated WDL of the position after the move (a
//!   mate +1, a stalemate 0) — the minimax relation every correct table satisfies;
//! - **DTZ against WDL**: after each quiet move (same material), the sign of the DTZ must be
//!   the WDL's;
//! - **exact tables**: with four pieces or fewer, the WDL must be our own exact table's
//!   (`super::exact`, computed by retrograde analysis, Thompson 1986).
//!
//! A contradiction disables that material's tables for the rest of the session with a
//! warning (`SyzygyTables::distrust`); the search then goes on without them, as with any
//! failed probe (the thesis uses tables as a root-move oracle, Donkers 2003 §5.4: a broken one
//! must degrade to "no information", not to a wrong move). A position whose successors cannot
//! all be probed is not judged.

use shakmaty::{Chess, Position};
use shakmaty_syzygy::Wdl as SzWdl;

use super::{SyzygyTables, Wdl};

/// Win (+1), draw (0) or loss (−1) for the side to move, the 50-move rule aside.
fn sign(w: SzWdl) -> i32 {
    match w {
        SzWdl::Win | SzWdl::CursedWin => 1,
        SzWdl::Draw => 0,
        SzWdl::Loss | SzWdl::BlessedLoss => -1,
    }
}

impl SyzygyTables {
    /// Runs the checks of the module docs on `pos` (`exact`: our exact table's WDL for it,
    /// if loaded). Returns false if they found damage (the tables of `pos`'s material are
    /// distrusted from now on); true if the values agree or could not all be probed.
    pub fn verify_root(&self, pos: &Chess, exact: Option<Wdl>) -> bool {
        let Some(root) = self.probe_wdl(pos) else {
            return true;
        };
        let root = sign(root);
        if let Some(e) = exact {
            let e = match e {
                Wdl::Win => 1,
                Wdl::Draw => 0,
                Wdl::Loss => -1,
            };
            if e != root {
                self.distrust(
                    pos,
                    &format!("say {root:+} where our exact table says {e:+}"),
                );
                return false;
            }
        }
        let mut best = -1;
        for mv in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            let value = if after.is_checkmate() {
                1
            } else if after.is_stalemate() || after.is_insufficient_material() {
                0
            } else {
                let Some(w) = self.probe_wdl(&after) else {
                    return true;
                };
                if !mv.is_zeroing()
                    && let Some(dtz) = self.probe_dtz(&after)
                {
                    let d = dtz.ignore_rounding().0.signum();
                    if d != sign(w) {
                        self.distrust(
                            pos,
                            &format!("give a DTZ of sign {d:+} to a WDL of {:+}", sign(w)),
                        );
                        return false;
                    }
                }
                -sign(w)
            };
            best = best.max(value);
        }
        if best != root {
            self.distrust(
                pos,
                &format!("say {root:+} where the best move reaches {best:+}"),
            );
            return false;
        }
        true
    }
}
