//! The random-tree laboratory: opponent-model search algorithms on random game trees, as in
//! Donkers' thesis *Nosce Hostem* (2003), §5.2 and §7.2, and Carmel & Markovitch's M*.
//!
//! It owns the MT19937 generator and the exact tree construction of the thesis' experiments
//! (`mt19937`, `random`; thesis §5.2.1), well-ordered trees and the
//! best-case formulas 3.1/3.9/3.10 (`ordered`), and one function per algorithm:
//! α-β (Alg 3.1, `alphabeta`); plain, enhanced and restricted-speculation OM search (Algs
//! 3.2–3.6, `om`); β-pruning OM search (Algs 3.7/3.8, with a transposition table, `om_beta`,
//! `tt`); bounded-sum pruning (Algs 3.9/3.10, `bounded`); PrOM search (Algs 6.1–6.3, `prom`)
//! and its β-pruning versions (Algs 6.4/6.5, `prom_beta`); M* with nested models (`mstar`).
//! The unpruned algorithms stay as references: every pruned one must return the same root value
//! and move on thousands of trees (see `tests/`). `report` and `cli` produce the text tables of
//! Figs 5.3–5.7 / 7.1–7.5 and a per-seed CSV for `nosce trees` ([`run_cli`]).

pub mod cli;
pub mod minimax;
pub mod mstar;
pub mod mt19937;
pub mod om_beta;
pub mod om_bounded;
pub mod om_plain;
pub mod ordered;
pub mod prom_beta;
pub mod prom_plain;
pub mod random;
pub mod report;
pub mod trans_table;
pub mod tree;

pub use cli::run_cli;
pub use minimax::{alpha_beta_search, alpha_beta_tt_search, minimax};
pub use mstar::{m_star, m_star_1pass};
pub use om_beta::{
    om_search_beta_1p, om_search_beta_pb, om_search_beta_pb_tt, om_search_beta_pb_tt_pvs,
};
pub use om_bounded::{om_search_bounded_1p, om_search_bounded_pb};
pub use om_plain::{
    om_search_1p, om_search_enh_1p, om_search_enh_pb, om_search_pb, om_search_rs_pb,
};
pub use ordered::WellOrderedTree;
pub use prom_beta::{prom_search_beta_1p, prom_search_beta_pb};
pub use prom_plain::{PromDepths, TreeModel, prom_search_1p, prom_search_enh, prom_search_pb};
pub use random::{BoundedTree, Quantized, RandomTree};
pub use trans_table::TransTable;
pub use tree::{EvalCount, GameTree, INF, MAX_EVALS, MAX_WIDTH, PromResult, TreeError, TreeResult};
