//! # nosce — a chess engine that models its opponent
//!
//! *Nosce hostem*: know your enemy. A bitboard engine (board and move generation from
//! `shakmaty`) whose α-β search — iterative-deepening PVS with null move and quiescence — is
//! also the probe of an opponent-model root driver (OM and PrOM search, Donkers 2003).
//!
//! Module map: [`position`] (board + keys + history), [`eval`] (the `Evaluator` trait and
//! the built-in evaluators), [`search`] (the α-β probe, the iterative-deepening driver and,
//! in `search::om`, the opponent-model driver), [`trees`] (the random-tree lab),
//! [`tt`], [`limits`], [`time`], [`params`] (all tunables), [`engine`] (the core shared by
//! the protocols), [`uci`] and [`xboard`] (the UCI and CECP front-ends), [`report`], [`bench`](mod@bench) and [`perft`],
//! [`external`] (other UCI engines over pipes), and [`experiment`] (the KQKR sweep of
//! Donkers 2003 §5.4, `nosce kqkr`), and [`tournament`] (the seven Bao tournaments of
//! Donkers, van den Herik and Uiterwijk in chess, `nosce tournament`).
//! Self-play training data comes from [`datagen`]; [`nnue`] holds the network format, its
//! reference evaluation and the trainer (`nosce train`).
//! Mates are proved by [`mate`] (PN, PN² and df-pn, `nosce solve`).
//! Who the opponent is comes from [`opponent_id`] (`UCI_Opponent`, xboard `name`), and what
//! was learned about it between games is kept by [`profile`].

#![warn(missing_docs)]
// `unsafe` only where a module allows it: the AVX2 kernel of NNUE inference
// (`nnue::simd::avx2`), with a SAFETY argument per block.
#![deny(unsafe_code)]

pub mod atomic_file;
pub mod bench;
#[cfg(feature = "lab")]
pub mod datagen;
pub mod engine;
pub mod eval;
#[cfg(feature = "lab")]
pub mod experiment;
pub mod external;
#[cfg(feature = "lab")]
pub mod generation;
#[cfg(feature = "lab")]
pub mod lab_args;
pub mod learning;
pub mod limits;
pub mod mate;
pub mod nnue;
pub mod opponent;
pub mod opponent_id;
pub mod options;
pub mod params;
pub mod perft;
pub mod position;
pub mod profile;
#[cfg(test)]
mod random_games;
pub mod report;
pub mod rng;
pub mod score;
pub mod search;
pub mod strength;
pub mod tb;
pub mod time;
#[cfg(feature = "lab")]
pub mod tournament;
#[cfg(feature = "lab")]
pub mod train;
#[cfg(feature = "lab")]
pub mod trees;
pub mod tt;
pub mod uci;
pub mod xboard;
pub mod zobrist;

/// The engine's name and version, as sent in `id name` and `myname`.
pub const NAME_VERSION: &str = concat!("nosce ", env!("CARGO_PKG_VERSION"));
