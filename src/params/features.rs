//! The search refinements of issue 41, each behind a switch.
//!
//! Each refinement is written, tested for correctness and kept in `main` switched off; its
//! SPRT plays the same binary with the switch on against it with the switch off (the tuning
//! option `SearchFeatures`), and a refinement that passes becomes on by default
//! ([`SearchFeatures::KEPT`]; `matches/2026-11-28-search41/PLAN.md`). The refinements are the
//! ones modern engines measured in their own tests: continuation and capture histories,
//! history-based reductions, the improving flag, singular extensions, correction history, a
//! soft time limit that follows the best move's share of the nodes, static-exchange pruning
//! of quiet moves that leave a piece to be lost, pruning of quiet moves with a bad
//! continuation history, ProbCut, a null-move reduction that grows with depth and with the
//! evaluation's margin over β, a time allocation spread over more moves, and quiet moves
//! ordered by a butterfly history kept by the gravity rule, and the correction applied to the
//! quiescence search's stand-pat score too, and a table score that bounds the position on
//! the far side of its static evaluation used in the evaluation's place when pruning, and
//! double singular extensions off the principal variation, and late-move reductions for quiet
//! moves in check and quiet checks (Ethereal's and
//! Stockfish's searches describe each; none of their code is used). Their numeric settings
//! live in [`FeatureParams`], beside the switches (the time allocation's in
//! [`crate::params::TimeParams`]).

/// Which trial refinements the α-β search uses. The default is [`SearchFeatures::KEPT`],
/// the refinements whose SPRT kept them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchFeatures {
    /// Continuation history (the quiet move's success after the moves one and two plies
    /// back) in the quiet moves' ordering score.
    pub cont_history: bool,
    /// Capture history (piece, target, captured piece) in the captures' ordering score.
    pub capture_history: bool,
    /// Late-move reductions lowered or raised by the move's continuation history.
    pub history_lmr: bool,
    /// The improving flag (the static evaluation above its value two plies earlier) in the
    /// reverse futility margin, the late-move pruning count and the reductions.
    pub improving: bool,
    /// Singular extensions with their multi-cut and negative extension.
    pub singular: bool,
    /// Correction history: the static evaluation corrected by what searches found below
    /// positions of the same pawn structure.
    pub correction: bool,
    /// Time management: the soft limit also scales with the share of the root's nodes the
    /// best move took ([`crate::params::TimeParams::node_share_base`]).
    pub node_time: bool,
    /// SEE pruning of quiet moves: near the leaves, a quiet move whose static exchange on its
    /// target square loses more than a depth-scaled margin is not searched (checks excepted).
    pub see_quiets: bool,
    /// History pruning: near the leaves of non-PV nodes, a quiet move whose continuation
    /// history is below a depth-scaled threshold is not searched (checks excepted).
    pub history_pruning: bool,
    /// ProbCut: a capture whose reduced search stays above a raised β ends the node.
    pub probcut: bool,
    /// Null move: the reduction grows with the remaining depth and with the static
    /// evaluation's margin over β, instead of Heinz's R of 2 or 3.
    pub null_depth_r: bool,
    /// Time management: the remaining time is spread over more moves
    /// ([`crate::params::TimeParams::flat_horizon_moves`] instead of `horizon_moves`), so
    /// that less of it goes into the opening and more is left for the endgame.
    pub time_flat: bool,
    /// Staged move picking: the table's move, when legal, is searched before the node's moves
    /// are generated and scored, so a node it refutes generates none; the rest are scored
    /// after its search, by histories that search has moved.
    pub staged: bool,
    /// Quiet moves ordered by a butterfly history (side, from, to) kept by the gravity rule,
    /// bonus for the move that reached β and malus for the quiet moves tried before it,
    /// plus the continuation history, instead of the relative history heuristic.
    pub quiet_history: bool,
    /// With `corrhist`: the quiescence search's stand-pat score corrected too, so that it
    /// agrees with the static evaluation the main search prunes by.
    pub correction_qsearch: bool,
    /// The table's score, where its bound says the position is worth more (a lower bound
    /// above the static evaluation) or less (an upper bound below it), stands in for the
    /// static evaluation in reverse futility, null move and futility pruning; the improving
    /// flag and the correction history keep the static evaluation.
    pub tt_eval: bool,
    /// With `singular`: a table move whose singular search falls far below the singular
    /// bound, at a node off the principal variation, is extended two plies instead of one,
    /// at most [`FeatureParams::double_ext_max`] times along a line.
    pub double_ext: bool,
    /// Late-move reductions also for quiet moves made in check (a king move one ply more,
    /// [`FeatureParams::lmr_king_evasion`]) and for quiet moves that give check, as
    /// Ethereal's quiet late-move reductions exclude neither (kept by its SPRT, candidate 18,
    /// so on by default).
    pub lmr_checks: bool,
    /// Late-move pruning also for quiet moves made in check, as Ethereal's quiet-move
    /// pruning does (futility stays off in check, where the search has no static
    /// evaluation). Quiet checks stay unpruned: pruning them too, as Ethereal does, made a
    /// depth-10 search find KQK's mate in 3 as a mate in 4 (`tests/it/search_features.rs`).
    pub prune_checks: bool,
    /// No null move where the table holds an upper bound below β (the search that stored it
    /// failed low, so the null move's search would likely fail too), as Ethereal's and
    /// Stockfish's null-move conditions require.
    pub null_tt_guard: bool,
    /// One ply more for one of a node's first [`FeatureParams::history_ext_quiets`] quiet
    /// moves when its continuation histories after the last move and after our move before
    /// it are both at least [`FeatureParams::history_ext_min`], as Ethereal's extensions do
    /// (the switch keeps the continuation history itself where no other switch does).
    pub history_ext: bool,
}

/// The words of `SearchFeatures`, each naming one switch.
pub const WORDS: [&str; 21] = [
    "conthist",
    "caphist",
    "histlmr",
    "improving",
    "singular",
    "corrhist",
    "nodetime",
    "seequiet",
    "histprune",
    "probcut",
    "nullr",
    "tmflat",
    "staged",
    "quiethist",
    "corrqs",
    "tteval",
    "doubleext",
    "lmrcheck",
    "prunecheck",
    "nullguard",
    "histext",
];

impl Default for SearchFeatures {
    fn default() -> SearchFeatures {
        SearchFeatures::KEPT
    }
}

impl SearchFeatures {
    /// Every refinement switched off: the search before issue 41.
    pub const NONE: SearchFeatures = SearchFeatures {
        cont_history: false,
        capture_history: false,
        history_lmr: false,
        improving: false,
        singular: false,
        correction: false,
        node_time: false,
        see_quiets: false,
        history_pruning: false,
        probcut: false,
        null_depth_r: false,
        time_flat: false,
        staged: false,
        quiet_history: false,
        correction_qsearch: false,
        tt_eval: false,
        double_ext: false,
        lmr_checks: false,
        prune_checks: false,
        null_tt_guard: false,
        history_ext: false,
    };

    /// The refinements kept by their SPRTs (`matches/2026-11-28-search41/PLAN.md`), the
    /// engine's default: capture history (candidate 2, +15.7 ± 10.7 Elo, H1 at 2,196 games),
    /// the clock spread over 40 moves (candidate 12, +16.5 ± 11.1 Elo, H1 at 2,022 games),
    /// reductions by continuation history (candidate 3, +8.7 ± 6.9 Elo, H1 at 5,074 games),
    /// the improving flag (candidate 4, +12.6 ± 9.1 Elo, H1 at 2,820 games), singular
    /// extensions (candidate 5, +48.7 ± 19.9 Elo, H1 at 574 games) and quiet moves ordered by
    /// the gravity butterfly and continuation histories (candidate 14, +17.6 ± 11.1 Elo, H1 at
    /// 1,700 games), and late-move reductions in check and for quiet checks (candidate 18,
    /// +36.6 ± 17.0 Elo, H1 at 734 games).
    pub const KEPT: SearchFeatures = SearchFeatures {
        capture_history: true,
        history_lmr: true,
        improving: true,
        singular: true,
        time_flat: true,
        quiet_history: true,
        lmr_checks: true,
        ..SearchFeatures::NONE
    };

    /// Every refinement switched on.
    pub const ALL: SearchFeatures = SearchFeatures {
        cont_history: true,
        capture_history: true,
        history_lmr: true,
        improving: true,
        singular: true,
        correction: true,
        node_time: true,
        see_quiets: true,
        history_pruning: true,
        probcut: true,
        null_depth_r: true,
        time_flat: true,
        staged: true,
        quiet_history: true,
        correction_qsearch: true,
        tt_eval: true,
        double_ext: true,
        lmr_checks: true,
        prune_checks: true,
        null_tt_guard: true,
        history_ext: true,
    };

    fn switch(&mut self, word: &str) -> Option<&mut bool> {
        Some(match word {
            "conthist" => &mut self.cont_history,
            "caphist" => &mut self.capture_history,
            "histlmr" => &mut self.history_lmr,
            "improving" => &mut self.improving,
            "singular" => &mut self.singular,
            "corrhist" => &mut self.correction,
            "nodetime" => &mut self.node_time,
            "seequiet" => &mut self.see_quiets,
            "histprune" => &mut self.history_pruning,
            "probcut" => &mut self.probcut,
            "nullr" => &mut self.null_depth_r,
            "tmflat" => &mut self.time_flat,
            "staged" => &mut self.staged,
            "quiethist" => &mut self.quiet_history,
            "corrqs" => &mut self.correction_qsearch,
            "tteval" => &mut self.tt_eval,
            "doubleext" => &mut self.double_ext,
            "lmrcheck" => &mut self.lmr_checks,
            "prunecheck" => &mut self.prune_checks,
            "nullguard" => &mut self.null_tt_guard,
            "histext" => &mut self.history_ext,
            _ => return None,
        })
    }

    /// True if the search needs the continuation and capture tables.
    pub fn needs_histories(&self) -> bool {
        self.keeps_cont_history() || self.capture_history || self.correction
    }

    /// True if a switch reads the continuation history, so that the search keeps it.
    pub fn keeps_cont_history(&self) -> bool {
        self.cont_history
            || self.history_lmr
            || self.history_pruning
            || self.quiet_history
            || self.history_ext
    }

    /// Parses the option's value: words separated by spaces or commas, each of `none` (all
    /// off), `kept` ([`SearchFeatures::KEPT`]), `all`, or one of `conthist caphist histlmr
    /// improving singular corrhist nodetime seequiet histprune probcut nullr tmflat staged
    /// quiethist corrqs tteval doubleext lmrcheck prunecheck nullguard histext`
    /// (switches that one on). The words name exactly the switches that are on: `tmflat` alone is
    /// `tmflat` without the kept ones, `kept tmflat` adds it to them.
    ///
    /// # Errors
    /// An unknown word, with the list of known ones.
    pub fn parse(text: &str) -> Result<SearchFeatures, String> {
        let mut out = SearchFeatures::NONE;
        for word in text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
        {
            match word.to_ascii_lowercase().as_str() {
                "none" | "off" => out = SearchFeatures::NONE,
                "kept" => out = SearchFeatures::KEPT,
                "all" => out = SearchFeatures::ALL,
                w => match out.switch(w) {
                    Some(s) => *s = true,
                    None => {
                        return Err(format!(
                            "SearchFeatures: '{word}' is not none, kept, all or one of {}",
                            WORDS.join(", ")
                        ));
                    }
                },
            }
        }
        Ok(out)
    }

    /// The value [`Self::parse`] reads back: the words of the switches that are on, or
    /// `none`.
    pub fn to_words(&self) -> String {
        let mut copy = *self;
        let on: Vec<&str> = WORDS
            .iter()
            .copied()
            .filter(|w| copy.switch(w).is_some_and(|s| *s))
            .collect();
        if on.is_empty() {
            "none".into()
        } else {
            on.join(" ")
        }
    }
}

/// The numbers of the trial refinements.
#[derive(Clone, Debug)]
pub struct FeatureParams {
    /// History updates: the bonus at depth d is `min(history_bonus_scale · d², history_bonus_max)`.
    pub history_bonus_scale: i32,
    /// History updates: the largest bonus.
    pub history_bonus_max: i32,
    /// Histories saturate towards ± this (the "gravity" update).
    pub history_limit: i32,
    /// Continuation history's weight in the quiet moves' ordering score.
    pub cont_history_weight: i32,
    /// History-based LMR: one ply less reduction per this much continuation history.
    pub history_lmr_divisor: i32,
    /// Singular extensions: least remaining depth.
    pub singular_min_depth: i32,
    /// Singular extensions: the table entry may be at most this much shallower.
    pub singular_tt_depth_margin: i32,
    /// Singular extensions: the singular bound is the table's score less this times depth.
    pub singular_margin_per_ply: i32,
    /// Double extensions: the singular search's score is this far (centipawns) below the
    /// singular bound.
    pub double_ext_margin: i32,
    /// Double extensions: at most this many along one line from the root.
    pub double_ext_max: u8,
    /// With `lmrcheck`: the extra reduction of a late quiet king move out of check.
    pub lmr_king_evasion: i32,
    /// With `histext`: the least continuation history, after each of the two last moves,
    /// of an extended quiet move (Ethereal's 10,000 of the same 16,384 scale).
    pub history_ext_min: i32,
    /// With `histext`: only a node's first this many quiet moves are extended.
    pub history_ext_quiets: usize,
    /// Correction history: entries per side.
    pub correction_size: usize,
    /// Correction history: stored corrections are this many times centipawns.
    pub correction_grain: i32,
    /// Correction history: the largest correction (centipawns).
    pub correction_max: i32,
    /// SEE pruning of quiet moves: greatest remaining depth.
    pub see_quiet_max_depth: i32,
    /// SEE pruning of quiet moves: a quiet move is pruned when its exchange loses more than
    /// this many centipawns per ply of remaining depth.
    pub see_quiet_margin: i32,
    /// History pruning: greatest remaining depth.
    pub history_prune_max_depth: i32,
    /// History pruning: a quiet move is pruned when its continuation history is below minus
    /// this much per ply of remaining depth.
    pub history_prune_margin: i32,
    /// ProbCut: least remaining depth.
    pub probcut_min_depth: i32,
    /// ProbCut: the raised bound is β plus this (centipawns).
    pub probcut_margin: i32,
    /// ProbCut: the verifying search is this many plies shallower than the node's moves.
    pub probcut_reduction: i32,
    /// Null move with `nullr`: the reduction (beside the ply itself) is `null_r_base +
    /// depth / null_r_depth_divisor + min((eval − β) / null_r_eval_divisor,
    /// null_r_eval_max)`.
    pub null_r_base: i32,
    /// See [`Self::null_r_base`].
    pub null_r_depth_divisor: i32,
    /// See [`Self::null_r_base`].
    pub null_r_eval_divisor: i32,
    /// See [`Self::null_r_base`].
    pub null_r_eval_max: i32,
}

impl Default for FeatureParams {
    fn default() -> Self {
        FeatureParams {
            history_bonus_scale: 32,
            history_bonus_max: 1600,
            history_limit: 16384,
            cont_history_weight: 32,
            history_lmr_divisor: 8192,
            singular_min_depth: 8,
            singular_tt_depth_margin: 3,
            singular_margin_per_ply: 2,
            double_ext_margin: 20,
            double_ext_max: 6,
            lmr_king_evasion: 1,
            history_ext_min: 10000,
            history_ext_quiets: 4,
            correction_size: 16384,
            correction_grain: 256,
            correction_max: 128,
            see_quiet_max_depth: 8,
            see_quiet_margin: 64,
            history_prune_max_depth: 3,
            history_prune_margin: 4096,
            probcut_min_depth: 5,
            probcut_margin: 200,
            probcut_reduction: 3,
            null_r_base: 3,
            null_r_depth_divisor: 5,
            null_r_eval_divisor: 200,
            null_r_eval_max: 3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_and_bad_words_are_refused() {
        assert_eq!(SearchFeatures::parse("").unwrap(), SearchFeatures::NONE);
        assert_eq!(SearchFeatures::parse("none").unwrap(), SearchFeatures::NONE);
        assert_eq!(
            SearchFeatures::parse("kept").unwrap(),
            SearchFeatures::default()
        );
        assert_eq!(
            SearchFeatures::default().to_words(),
            "caphist histlmr improving singular tmflat quiethist lmrcheck"
        );
        let k = SearchFeatures::parse("kept,tmflat").unwrap();
        assert!(k.capture_history && k.time_flat && !k.cont_history);
        assert!(!SearchFeatures::parse("tmflat").unwrap().capture_history);
        assert_eq!(SearchFeatures::parse("all").unwrap(), SearchFeatures::ALL);
        let f = SearchFeatures::parse("ContHist, improving").unwrap();
        assert!(f.cont_history && f.improving && !f.singular);
        assert_eq!(f.to_words(), "conthist improving");
        assert_eq!(SearchFeatures::parse(&f.to_words()).unwrap(), f);
        assert_eq!(SearchFeatures::ALL.to_words(), WORDS.join(" "));
        assert_eq!(SearchFeatures::NONE.to_words(), "none");
        let e = SearchFeatures::parse("conthist frobnicate").unwrap_err();
        assert!(e.contains("frobnicate") && e.contains("singular"), "{e}");
    }
}
