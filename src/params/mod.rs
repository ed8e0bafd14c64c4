//! Tunables in one place: search margins and reductions ([`SearchParams`]), time
//! allocation ([`TimeParams`]), the limited strength of `UCI_Elo` ([`STRENGTH_ANCHORS`]) and,
//! in [`om`], the opponent-model driver's (the fit of `OM_Mode=auto`, the draw value, the
//! engine policy's caps). The experiment runner records them with its results.

pub mod features;
pub mod om;

pub use features::{FeatureParams, SearchFeatures};

/// Search tunables (Winands 2004 §2.6 for the null-move settings; the rest are the usual
/// modern PVS refinements, tuned by hand).
#[derive(Clone, Debug)]
pub struct SearchParams {
    /// Half-width of the first aspiration window (centipawns).
    pub aspiration_window: i32,
    /// From this depth on, iterations use aspiration windows.
    pub aspiration_min_depth: i32,
    /// Our own root's window opens fully once its widening step exceeds this (cp).
    pub aspiration_open_root: i32,
    /// An opponent-model probe's window opens to its bounds once its widening step exceeds
    /// this (cp).
    pub aspiration_open_probe: i32,
    /// Null-move pruning at all (off only for measurements, the tuning option `NullMove`).
    pub null_move: bool,
    /// Null move: reduction at shallow depth (Heinz's adaptive R).
    pub null_r_low: i32,
    /// Null move: reduction at large depth.
    pub null_r_high: i32,
    /// Null move: depth above which `null_r_high` applies when few pieces remain.
    pub null_depth_few_pieces: i32,
    /// Null move: depth above which `null_r_high` applies with many pieces (≥ 3 each).
    pub null_depth_many_pieces: i32,
    /// Null move: one ply more reduction when the static evaluation is this far above β
    /// (cp; without `nullr`).
    pub null_eval_margin: i32,
    /// Reverse futility pruning: margin per ply of remaining depth.
    pub rfp_margin: i32,
    /// Reverse futility pruning: deepest remaining depth where it applies.
    pub rfp_max_depth: i32,
    /// Futility pruning of quiet moves: base margin.
    pub futility_base: i32,
    /// Futility pruning of quiet moves: margin per ply.
    pub futility_per_ply: i32,
    /// Futility pruning: deepest remaining depth where it applies.
    pub futility_max_depth: i32,
    /// Late-move pruning: quiet moves tried at depth d before the rest is skipped is
    /// `lmp_base + d * d` (non-PV nodes only).
    pub lmp_base: i32,
    /// Late-move pruning: deepest depth where it applies.
    pub lmp_max_depth: i32,
    /// LMR: base of the log-log reduction formula (× 100).
    pub lmr_base: i32,
    /// LMR: divisor of the log-log reduction formula (× 100).
    pub lmr_divisor: i32,
    /// LMR: least remaining depth at which quiet moves are reduced.
    pub lmr_min_depth: i32,
    /// Internal iterative reduction: least remaining depth at which a PV or expected CUT
    /// node without a table move is searched a ply shallower.
    pub iir_min_depth: i32,
    /// Extensions (of checking moves, and singular extensions): applied while the ply is
    /// below this many times the iteration's depth, so that a line of checks cannot extend
    /// without end.
    pub extension_plies: i32,
    /// Quiescence delta pruning margin.
    pub delta_margin: i32,
    /// SEE threshold per ply for pruning captures at shallow depth.
    pub see_capture_margin: i32,
    /// Deepest remaining depth at which losing captures are pruned by SEE.
    pub see_capture_max_depth: i32,
    /// Size (MB) of each private table of a helper in the OM driver's parallel root
    /// (deterministic mode: our own and every type's; fast mode: replay types').
    pub om_private_table_mb: usize,
    /// The share (%) of what is left of a node or time budget that one replay probe of the
    /// OM driver may use; a replay that does not fit aborts the OM root and the rest of the
    /// budget goes to plain α-β iterations (graceful degradation, `search::om::root`).
    pub om_replay_share_pct: u64,
    /// Multi-cut (Winands 2004 ch. 6): off by default, set by the tuning option `MultiCut`.
    pub multi_cut: MultiCut,
    /// The refinements on trial (issue 41), set by the tuning option `SearchFeatures`.
    pub features: SearchFeatures,
    /// Their numbers.
    pub feature_params: FeatureParams,
}

/// Multi-cut pruning (Björnsson and Marsland; Winands 2004 §6.4, Figure 6.3): before an
/// expected CUT node (MC-C) — and with `at_all` also an expected ALL node (MC-A) — is
/// searched to full depth, its first `m` moves are searched `r` plies shallower (besides
/// the ply itself) with the node's null window; if `c` of them reach β the node returns β.
/// Winands' best setting in LOA (§6.5.1, Figure 6.4) is (C, M, R) = (2, 10, 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MultiCut {
    /// Prune at expected CUT nodes (MC-C).
    pub at_cut: bool,
    /// Prune at expected ALL nodes too (MC-A).
    pub at_all: bool,
    /// C: reduced searches that must reach β.
    pub c: u32,
    /// M: moves tried at reduced depth.
    pub m: u32,
    /// R: the extra reduction.
    pub r: i32,
    /// Least remaining depth at which a node is tried (Figure 6.3: `depth > 2`).
    pub min_depth: i32,
}

impl Default for MultiCut {
    fn default() -> Self {
        MultiCut {
            at_cut: false,
            at_all: false,
            c: 2,
            m: 10,
            r: 2,
            min_depth: 3,
        }
    }
}

impl MultiCut {
    /// True if a non-PV node of this kind (`cut`: expected CUT, else expected ALL) is tried.
    pub fn applies(&self, cut: bool, depth: i32) -> bool {
        depth >= self.min_depth && if cut { self.at_cut } else { self.at_all }
    }

    /// Parses the `MultiCut` option: `off`, `cut` (MC-C), `all` (MC-C and MC-A) or `all-only`
    /// (MC-A without MC-C, for Winands's Table 6.1), then
    /// optionally `c=N m=N r=N` (the rest keep their defaults).
    ///
    /// # Errors
    /// An unknown word or key, or a value out of range (1 ≤ c ≤ m ≤ 64, 0 ≤ r ≤ 8).
    pub fn parse(text: &str) -> Result<MultiCut, String> {
        let mut out = MultiCut::default();
        let mut words = text.split_whitespace();
        match words.next().map(str::to_ascii_lowercase).as_deref() {
            None | Some("off") => {}
            Some("cut") => out.at_cut = true,
            Some("all") => (out.at_cut, out.at_all) = (true, true),
            Some("all-only") => out.at_all = true,
            Some(w) => {
                return Err(format!("MultiCut: '{w}' is not off, cut, all or all-only"));
            }
        }
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("MultiCut: '{word}' is not key=value"))?;
            let n: i64 = value
                .parse()
                .map_err(|_| format!("MultiCut: '{value}' is not a number"))?;
            match key.to_ascii_lowercase().as_str() {
                "c" => out.c = n.clamp(0, 1000) as u32,
                "m" => out.m = n.clamp(0, 1000) as u32,
                "r" if (0..=8).contains(&n) => out.r = n as i32,
                "r" => return Err(format!("MultiCut: r={n} is outside 0..8")),
                k => return Err(format!("MultiCut: unknown key '{k}' (c, m, r)")),
            }
        }
        if out.c == 0 || out.c > out.m || out.m > 64 {
            return Err(format!(
                "MultiCut: need 1 <= c <= m <= 64 (c={}, m={})",
                out.c, out.m
            ));
        }
        Ok(out)
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            aspiration_window: 25,
            aspiration_min_depth: 5,
            aspiration_open_root: 1500,
            aspiration_open_probe: 1000,
            null_move: true,
            null_r_low: 2,
            null_r_high: 3,
            null_depth_few_pieces: 6,
            null_depth_many_pieces: 8,
            null_eval_margin: 200,
            rfp_margin: 80,
            rfp_max_depth: 7,
            futility_base: 100,
            futility_per_ply: 90,
            futility_max_depth: 6,
            lmp_base: 3,
            lmp_max_depth: 7,
            lmr_base: 75,
            lmr_divisor: 225,
            lmr_min_depth: 3,
            iir_min_depth: 4,
            extension_plies: 2,
            delta_margin: 200,
            see_capture_margin: 90,
            see_capture_max_depth: 6,
            om_private_table_mb: 4,
            om_replay_share_pct: 50,
            multi_cut: MultiCut::default(),
            features: SearchFeatures::default(),
            feature_params: FeatureParams::default(),
        }
    }
}

/// Time allocation tunables.
#[derive(Clone, Debug)]
pub struct TimeParams {
    /// Moves the remaining time is spread over in sudden death.
    pub horizon_moves: f64,
    /// Share of the increment added to each move's budget.
    pub inc_fraction: f64,
    /// Hard limit as a multiple of the soft limit.
    pub hard_factor: f64,
    /// Never plan to use more than this share of the remaining time on one move.
    pub max_fraction: f64,
    /// The most of a move's planned time (the soft limit) that the opponent model's
    /// external engine probes may take; past it an `engine` type predicts our own α-β
    /// reply wherever its engine has not answered yet (see `search::om::engine_probe`).
    /// Match 10 measured why: unbounded, the calls cost 3 plies at 5+0.05.
    pub engine_time_share: f64,
    /// With `SearchFeatures=nodetime`: the soft limit's factor is
    /// `(node_share_base − share) · node_share_scale`, `share` the best move's part of the
    /// root's nodes so far (a best move that took most of the effort is settled).
    pub node_share_base: f64,
    /// See [`Self::node_share_base`].
    pub node_share_scale: f64,
    /// With `SearchFeatures=nodetime`: the node-share factor is kept within these bounds.
    pub node_share_clamp: (f64, f64),
    /// The soft limit's factor after the best move stayed the same for 0, 1, 2, 3 and 4 or
    /// more iterations in a row: a changing best move buys time, a settled one gives some
    /// back ([`Self::stability_factor`]).
    pub stability_factors: [f64; 5],
    /// With `SearchFeatures=tmflat`: the moves the remaining time is spread over in sudden
    /// death, in place of [`Self::horizon_moves`]. Match E measured why (issue 41, item 2):
    /// at 10+0.1 nosce spent 0.52 s a move in its first ten moves against Toga II's 0.35
    /// and its clock fell under 1 s in 698 of 800 games, Toga II's in none (Ethereal's
    /// plan for a settled best move comes to about time / 56 + 0.45 · inc).
    pub flat_horizon_moves: f64,
}

impl Default for TimeParams {
    fn default() -> Self {
        TimeParams {
            horizon_moves: 25.0,
            inc_fraction: 0.75,
            hard_factor: 3.0,
            max_fraction: 0.35,
            engine_time_share: 0.25,
            node_share_base: 1.5,
            node_share_scale: 1.35,
            node_share_clamp: (0.5, 2.0),
            stability_factors: [1.6, 1.2, 1.0, 0.85, 0.7],
            flat_horizon_moves: 40.0,
        }
    }
}

impl TimeParams {
    /// The soft limit's factor after the best move stayed the same for `stable` iterations
    /// in a row ([`Self::stability_factors`]). Both root drivers (plain and opponent-model)
    /// use it, so that they spend a move's time alike.
    pub fn stability_factor(&self, stable: u32) -> f64 {
        self.stability_factors[(stable as usize).min(self.stability_factors.len() - 1)]
    }

    /// With `SearchFeatures=nodetime`: the soft limit's factor when the best move took
    /// `share` (0..=1) of the root's nodes ([`Self::node_share_base`]).
    pub fn node_share_factor(&self, share: f64) -> f64 {
        let (lo, hi) = self.node_share_clamp;
        ((self.node_share_base - share) * self.node_share_scale).clamp(lo, hi)
    }

    /// The allocation the trial switches select: the defaults, with the horizon of
    /// [`Self::flat_horizon_moves`] under `tmflat`.
    pub fn for_features(features: &SearchFeatures) -> TimeParams {
        let mut t = TimeParams::default();
        if features.time_flat {
            t.horizon_moves = t.flat_horizon_moves;
        }
        t
    }
}

/// `UCI_LimitStrength`: from this `UCI_Elo` up nothing is limited. Full-strength nosce
/// measured about here on Stockfish 15.1's `UCI_Elo` scale at the calibration's 10+0.1
/// (55 % against 2200 over 20 games in the pilot, 24 % against 2600 over 100 in the
/// calibration; 28 % and 26 % against 2600 and 2800 with the net, 2026-12-04, and 19 % against
/// 2600 with a6d773e's search, 2026-12-05; docs/options.md);
/// at 5+0.05 it measured lower (59.6-63.0 % against 2050 over 640 games, matches 4 and 7).
pub const FULL_STRENGTH_ELO: i64 = 2300;

/// `UCI_LimitStrength`: (rating, node budget per move, evaluation noise amplitude in
/// centipawns), rising; ratings between them are interpolated ([`crate::strength`]).
/// The calibration in `docs/options.md` says how they were set and how they measured (100 games each at
/// 1400, 1800 and 2200: 52.0 %, 49.5 %, 40.0 % against Stockfish at the same rating).
pub const STRENGTH_ANCHORS: [(i64, u64, i32); 5] = [
    (1000, 120, 180),
    (1400, 1_000, 110),
    (1800, 8_000, 60),
    (2000, 40_000, 30),
    (FULL_STRENGTH_ELO, 400_000, 10),
];

#[cfg(test)]
mod tests {
    use super::TimeParams;

    #[test]
    fn a_settled_best_move_gives_time_back_and_the_node_share_is_bounded() {
        let t = TimeParams::default();
        let f: Vec<f64> = (0..8).map(|s| t.stability_factor(s)).collect();
        assert!(f.windows(2).all(|w| w[0] >= w[1]), "{f:?}");
        assert_eq!(f[0], 1.6);
        assert_eq!(f[7], f[4], "from four iterations on the factor stays");
        // (1.5 − share) · 1.35, within 0.5..2.
        assert!((t.node_share_factor(0.5) - 1.35).abs() < 1e-12);
        assert_eq!(t.node_share_factor(1.0), 0.675);
        assert_eq!(t.node_share_factor(0.0), 2.0);
        assert_eq!(t.node_share_factor(1.5), 0.5);
    }
}
