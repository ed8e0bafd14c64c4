//! `Threads` in the opponent-model driver, fast mode: an iteration's root moves searched
//! *beside* our own α-β pass of the same iteration instead of after it.
//!
//! With OM or PrOM over every root move (Donkers 2003 Alg. 3.8 / 6.5 at the root, no root
//! risk control of §5.4.1, no hedge, one line) and opponent types that search to a fixed
//! depth or node budget, a root move's value does not depend on our α-β pass: the pass supplies the reported α-β value (the prediction surplus), the
//! move order and a warm table, and in the plain parallel root ([`super::parallel`]) the
//! bound α. Measured at depth 13 with the depth-4 model (s=2, one thread, `bench.epd`), the
//! pass is two thirds of an iteration's time and scales only as Lazy SMP does, while the root
//! moves take the other third. So with helpers the iteration is split the other way round:
//!
//! - the main driver runs the pass (it holds the clock) while helper 0 takes root moves in
//!   the previous iteration's order with α-β's best of the previous iteration first (with an
//!   open window; every other move with the best exact value so far as α, as one thread
//!   does) and the other helpers join the pass as Lazy SMP helpers;
//! - when the pass is done the main driver and those helpers take root moves too; α then
//!   rises to α-β's root value if α-β's best is the move searched first (its OM value is at
//!   least its α-β value, the bound the plain parallel root uses);
//! - a helper left without root moves while the pass runs joins it as a Lazy SMP helper.
//!
//! The iteration's result is then the plain root's: the best exact value, α-β's value
//! beside it. The first move searched is α-β's best of the previous iteration instead of
//! this one's (mostly the same move), and α starts lower, so the chosen move can differ from
//! a search with one thread, as fast mode's can anyway (deterministic mode never overlaps).
//! Which move goes first matters beyond the time: a root move's reductions depend on its
//! place in the order, and with the previous iteration's best by OM value first the
//! overlapped root scored 27.5 % at fixed depth 9 and 30 % at 5+0.05 against the plain root
//! (`matches/2026-11-26-threads-overlap/`).
//! Time to depth 13 with two threads over one (s=2, depth-4 model, ten alternating rounds):
//! 0.625× against 0.66× with the root moves after the pass.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use shakmaty::Move;

use super::Driver;
use super::parallel::{Shared, run_gang};
use super::root::{RootMoveValue, RootPass};
use crate::eval::Evaluator;
use crate::score::{INFINITE, Score};

impl<'a, E: Evaluator + ?Sized> Driver<'a, E> {
    /// Whether the iteration at `depth` searches its root moves beside our α-β pass: fast
    /// mode with helpers, a model whose types all search to a fixed depth or node budget,
    /// every root move a candidate (no root margin, no hedge, no engine-valued type, one
    /// line) and an order from a previous iteration. A type that searches to our remaining
    /// depth probes the subtrees our pass has just searched and finds them in the table
    /// after the pass, not beside it (the default `self` model took 0.80× instead of 0.75×
    /// of one thread's time to depth 12 when overlapped).
    pub(super) fn overlap_ready(&self, depth: i32) -> bool {
        depth >= 2
            && !self.settings.deterministic
            && !self.helpers.is_empty()
            && self.pass_stop.is_some()
            && self.has_model()
            && self
                .specs
                .iter()
                .all(|s| s.probability <= 0.0 || s.depth.is_some() || s.nodes.is_some())
            && self.settings.hedged().is_none()
            && self.settings.root_margin.is_none()
            && self.engine_valued_type().is_none()
            && self.multipv <= 1
    }

    /// Our α-β pass over `moves` to `pass.depth` (aspiration window around `guess`) and the
    /// root moves' values beside it (see the module's text): α-β's root value and every move's
    /// value in the order of `moves`. `None` if the search stopped or a type failed.
    pub(super) fn overlapped(
        &mut self,
        moves: &[Move],
        guess: Option<Score>,
        pass: &RootPass,
    ) -> Option<(Score, Vec<RootMoveValue>)> {
        let started = Instant::now();
        let depth = pass.depth;
        let pass_stop = self.pass_stop?;
        let race = self.pass_race;
        if let Some(r) = race {
            r.reset();
        }
        pass_stop.store(false, Ordering::SeqCst);
        let pass_over = AtomicBool::new(false);
        let mut helpers = std::mem::take(&mut self.helpers);
        for h in &mut helpers {
            h.own.root_depth = depth;
        }
        let shared = Shared::new(moves.to_vec(), -INFINITE, false, 1);
        let ab = run_gang(
            self.pool,
            self,
            &mut helpers,
            |main| {
                let ab = main.main_pass(moves, depth, guess);
                pass_over.store(true, Ordering::SeqCst);
                pass_stop.store(true, Ordering::SeqCst);
                let ab = ab?;
                if main.own.root_pv().first() == moves.first() {
                    shared.raise_alpha(ab);
                }
                main.work(&shared, pass).then_some(ab)
            },
            |id, h| {
                if id == 0 {
                    if h.work(&shared, pass) && !pass_over.load(Ordering::SeqCst) {
                        h.lazy_pass(moves, depth, race, pass_stop);
                    }
                } else {
                    h.lazy_pass(moves, depth + (id % 2) as i32, race, pass_stop);
                    h.work(&shared, pass);
                }
            },
        );
        let out = ab.zip(shared.into_results());
        self.take_back(helpers, started, out)
    }
}
