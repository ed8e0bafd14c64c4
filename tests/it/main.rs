//! The integration tests in one test binary. Each module below used to be a test binary of
//! its own, and every test binary is linked with the release profile's fat LTO (about 15 s
//! apiece, 58 of them: most of the suite's build time); one binary is linked once. They drive
//! the real `nosce` binary as a GUI would (`common`), the library through its public API,
//! python-chess and the shipped tables.
//!
//! Run one module with `cargo test --release --test it perft::` (a name filter); the
//! modules that need the lab (`--features lab`, on by default) are compiled only with it.

// Shared helpers.
mod common;
mod prereq;
mod seeded;
mod tb_common;

// The engine: board, search, tables, protocols.
mod bench_signature;
mod chess960;
mod clock_use;
mod command_line_options;
mod contempt;
mod external_engine;
mod foresight;
mod go_mate;
mod import_cycles;
mod kqkr_conversion;
mod layers;
mod mate_fifty_moves;
mod mate_prover;
mod memory_rss;
mod multi_cut;
mod nnue_play;
mod nnue_search;
mod om_budget;
mod om_chess;
mod om_hedge;
mod om_opponents;
mod om_policy;
mod om_threads;
mod paired_pgn;
mod perft;
mod profile_store;
mod protocol_stress;
mod python_client;
mod search;
mod search_features;
mod sprt_replay;
mod sprt_state;
mod strength;
mod surprises;
mod tb_browne_belle;
mod tb_file_format;
mod tb_gaviota;
mod tb_materials;
mod tb_syzygy_compare;
mod tb_syzygy_damage;
mod tb_syzygy_wrapper;
mod thread_pool;
mod uci_fifty_move;
mod uci_last_pv;
mod uci_mates;
mod uci_protocol;
mod uci_tablebases;
mod uci_timing;
mod xboard_client;
mod xboard_protocol;

// The lab: experiments, tournaments, trees, datagen, the trainer, generations.
#[cfg(feature = "lab")]
mod datagen;
#[cfg(feature = "lab")]
mod fuzz_parsers;
#[cfg(feature = "lab")]
mod generation;
#[cfg(feature = "lab")]
mod kqkr_adjudication;
#[cfg(feature = "lab")]
mod kqkr_cli;
#[cfg(feature = "lab")]
mod kqkr_report;
#[cfg(feature = "lab")]
mod kqkr_sweep;
#[cfg(feature = "lab")]
mod kqkr_uci_model;
#[cfg(feature = "lab")]
mod memory_limits;
#[cfg(feature = "lab")]
mod nnue_train;
#[cfg(feature = "lab")]
mod om_auto_gate;
#[cfg(feature = "lab")]
mod pgn_data;
#[cfg(feature = "lab")]
mod tb_search_eval;
#[cfg(feature = "lab")]
mod tournament;
#[cfg(feature = "lab")]
mod trees_cli;
#[cfg(feature = "lab")]
mod trees_equivalence;
#[cfg(feature = "lab")]
mod trees_formulas;
#[cfg(feature = "lab")]
mod trees_generator;
