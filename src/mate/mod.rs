//! The mate prover: proof-number search for "the side to move forces checkmate".
//!
//! The root's side to move is the *attacker*; positions with the attacker to move are OR
//! nodes, those with the defender to move AND nodes (Winands 2004, §4.2.1, Figure 4.1).
//! A node is *proven* when the defender is checkmated, *disproven* on stalemate, when the
//! attacker lacks mating material, under the 50-move rule, on a repetition of a position of
//! the current path (2-fold, see [`rules`]) and when a move limit ("mate in N") runs out.
//!
//! Five algorithms share one interface ([`Algorithm`], [`prove`]; `nosce solve --algo
//! pn|pn2|pds|pds-pn|dfpn`, see [`cli`]):
//! - [`pn`] (`pn`): best-first PN search (Winands §4.2.1, pseudo code Appendix B.1) on a
//!   tree in memory ([`tree`]), with the mobility initialisation of §4.2.1/§4.3.1;
//! - [`pn2`] (`pn2`): PN² (Winands §4.2.2, Appendix B.2), a second PN search at each
//!   most-proving node of the first tree, bounded by the logistic growth function
//!   (4.1)/(4.2);
//! - [`pds`] (`pds`): Nagai's proof-number and disproof-number search (Winands §4.2.3 and
//!   §5.1.2, Appendix B.3), depth-first with multiple iterative deepening: thresholds on
//!   both numbers at every node, raised one at a time, and a transposition table;
//! - [`pdspn`] (`pds-pn`): PDS-PN (Winands ch. 5, §5.1.4, Figure 5.3), PDS at the first
//!   level and, at a first-level leaf not in the table, a PN search bounded by the growth
//!   function as in PN²; not limited by the memory for nodes (§5.2.4);
//! - [`dfpn`] (`dfpn`): Nagai's depth-first proof-number search (2002), the depth-first
//!   form of PN with two thresholds, with the 1+ε child threshold of Pawlewicz and Lew.
//!
//! The depth-first searches (PDS, PDS-PN, df-pn) share a transposition table ([`table`]),
//! sized by [`ProofLimits::hash_mb`], and the handling of the graph-history interaction
//! ([`dfs`]): a disproof that rests on a repetition of a position above the node is never
//! stored as if it held on every path.
//!
//! Driver ([`prove`]): by default the algorithm first runs move-limited, "mate in n" for
//! n = 1, 2, ... (a move limit disproves every line still unmated after n attacker moves),
//! so the first proof is the shortest mate; without a move limit the best-first searches
//! readily follow long forcing lines and return long mates (or none) in positions with a
//! short one. After an unbounded proof of length L (deepening off, or past its cap) comes
//! the *shortest-mate step*: "mate in L−1", repeated while it finds shorter mates. A
//! disproof of mate in L−1 makes L the proven shortest length; a search cut off by the
//! budget leaves it open.
//!
//! Nodes are counted as Stockfish counts them: every move made on the board, including
//! those made again when a best-first search walks down to its most-proving node.

pub mod cli;
pub mod dfpn;
pub mod dfs;
pub mod pds;
pub mod pdspn;
pub mod pn;
pub mod pn2;
pub mod rules;
pub mod table;
pub mod tree;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use shakmaty::Move;

use crate::position::Position;

/// Which proof-number algorithm to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Best-first PN search (Winands §4.2.1).
    Pn,
    /// Two-level PN² search (Winands §4.2.2).
    Pn2,
    /// Proof-number and disproof-number search, PDS (Nagai 1998; Winands §4.2.3, §5.1.2).
    Pds,
    /// Two-level PDS-PN search: PDS, then PN at the leaves (Winands ch. 5).
    PdsPn,
    /// Depth-first proof-number search (Nagai 2002) with a transposition table.
    Dfpn,
}

impl Algorithm {
    /// All algorithms, in the order of the documentation.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Pn,
        Algorithm::Pn2,
        Algorithm::Pds,
        Algorithm::PdsPn,
        Algorithm::Dfpn,
    ];

    /// Parses `pn`, `pn2`, `pds`, `pds-pn` (or `pdspn`) or `dfpn` (or `df-pn`).
    pub fn parse(text: &str) -> Option<Algorithm> {
        match text.to_ascii_lowercase().as_str() {
            "pn" => Some(Algorithm::Pn),
            "pn2" => Some(Algorithm::Pn2),
            "pds" => Some(Algorithm::Pds),
            "pds-pn" | "pdspn" => Some(Algorithm::PdsPn),
            "dfpn" | "df-pn" => Some(Algorithm::Dfpn),
            _ => None,
        }
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Pn => "pn",
            Algorithm::Pn2 => "pn2",
            Algorithm::Pds => "pds",
            Algorithm::PdsPn => "pds-pn",
            Algorithm::Dfpn => "dfpn",
        }
    }
}

/// Limits of one proof attempt.
#[derive(Clone, Debug)]
pub struct ProofLimits {
    /// Moves made on the board, in all (the main search and the shortest-mate step).
    pub nodes: u64,
    /// Most nodes kept in memory by PN and PN² (the first level of PN² included); for
    /// PDS-PN the N of (5.4), which bounds its second-level trees together with the entries
    /// of its table.
    pub tree_nodes: usize,
    /// Size of the transposition table of PDS, PDS-PN and df-pn in MiB.
    pub hash_mb: usize,
    /// Only mates in at most this many attacker moves count ("mate in N").
    pub max_moves: Option<u32>,
    /// Run the shortest-mate step after an unbounded proof.
    pub shortest: bool,
    /// Search "mate in 1", "mate in 2", ... before the unbounded search (see [`prove`]).
    pub deepen: bool,
    /// Consider only checking moves of the attacker (incomplete: a disproof then only says
    /// that no mate by checks exists, and is reported as [`Outcome::Unknown`]).
    pub checks_only: bool,
    /// Ends the search from outside (`stop`, the clock): it then reports what it has.
    pub interrupt: Interrupt,
}

/// What ends a proof from outside: a flag another thread raises, and a deadline. Checked
/// every [`Interrupt::EVERY`] moves, so a search answers within a millisecond or so.
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    /// Raised by another thread to stop the search.
    pub flag: Option<Arc<AtomicBool>>,
    /// The search stops when this moment has passed.
    pub deadline: Option<Instant>,
}

impl Interrupt {
    /// Moves made between two looks at the flag and the clock.
    pub const EVERY: u64 = 1024;

    /// True when the flag is raised or the deadline has passed.
    pub fn raised(&self) -> bool {
        self.flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The move budget of one search: the node limit, and the interrupt looked at every
/// [`Interrupt::EVERY`] moves. Once the interrupt is seen the budget counts as spent.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    limit: u64,
    next_look: u64,
    interrupt: Interrupt,
}

impl Budget {
    /// The budget of `limits`.
    pub(crate) fn new(limits: &ProofLimits) -> Budget {
        Budget {
            limit: limits.nodes,
            next_look: 0,
            interrupt: limits.interrupt.clone(),
        }
    }

    /// True while `nodes` moves leave room for more.
    #[inline]
    pub(crate) fn left(&mut self, nodes: u64) -> bool {
        if nodes >= self.limit {
            return false;
        }
        if nodes >= self.next_look {
            self.next_look = nodes + Interrupt::EVERY;
            if self.interrupt.raised() {
                self.limit = nodes;
                return false;
            }
        }
        true
    }
}

impl Default for ProofLimits {
    fn default() -> Self {
        ProofLimits {
            nodes: 1_000_000,
            tree_nodes: 4_000_000,
            hash_mb: 64,
            max_moves: None,
            shortest: true,
            deepen: true,
            checks_only: false,
            interrupt: Interrupt::default(),
        }
    }
}

/// What a proof attempt established about the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The attacker mates in `mate_in_moves` moves (at most; see [`ProofResult::shortest`]);
    /// `pv` is a line of the proof ending in checkmate (empty in the rare case that the
    /// transposition table of PDS, PDS-PN or df-pn lost an entry of the proof).
    Proven {
        /// Attacker moves to mate along the proof.
        mate_in_moves: u32,
        /// The principal line of the proof, in the attacker's and defender's moves.
        pv: Vec<Move>,
    },
    /// No forced mate (within the move limit, if one was set).
    Disproven,
    /// The budget ran out first, or the position cannot be searched.
    Unknown,
}

/// The result of [`prove`].
#[derive(Clone, Debug)]
pub struct ProofResult {
    /// Proven, disproven or unknown.
    pub outcome: Outcome,
    /// True when no shorter mate exists (a mate in one fewer move was disproven).
    pub shortest: bool,
    /// Moves made on the board.
    pub nodes: u64,
    /// The most memory the prover held at once for its tree or table, in bytes: the nodes
    /// of its tree(s) in memory (PN, PN², PDS-PN's second level), the entries of its table
    /// in use (PDS, PDS-PN, df-pn) — the quantity Winands bounds in §4.2.1 and §5.2.4.
    pub memory: usize,
}

impl ProofResult {
    /// The result of one search (no shortest-mate claim): proven with (plies, line),
    /// else disproven, else unknown.
    pub(crate) fn of_search(
        proof: Option<(u32, Vec<Move>)>,
        disproven: bool,
        nodes: u64,
        memory: usize,
    ) -> Self {
        let outcome = match proof {
            Some((plies, pv)) => Outcome::Proven {
                mate_in_moves: moves_of_plies(plies),
                pv,
            },
            None if disproven => Outcome::Disproven,
            None => Outcome::Unknown,
        };
        ProofResult {
            outcome,
            shortest: false,
            nodes,
            memory,
        }
    }
}

/// One proof-number algorithm: proves or disproves "the side to move mates".
pub trait Prover {
    /// Searches `pos` (the attacker to move) within `limits` (the move limit and budget);
    /// no shortest-mate step.
    fn prove(&mut self, pos: &Position, limits: &ProofLimits) -> ProofResult;
}

/// The prover of an algorithm.
pub fn prover(algo: Algorithm) -> Box<dyn Prover> {
    match algo {
        Algorithm::Pn => Box::new(pn::PnProver),
        Algorithm::Pn2 => Box::new(pn2::Pn2Prover),
        Algorithm::Pds => Box::<pds::PdsProver>::default(),
        Algorithm::PdsPn => Box::<pdspn::PdsPnProver>::default(),
        Algorithm::Dfpn => Box::<dfpn::DfpnProver>::default(),
    }
}

/// Longest mate that the deepening driver looks for move by move before it falls back to
/// an unbounded search.
pub const DEEPEN_MAX: u32 = 32;

/// Proves mate for the side to move with `algo`.
///
/// With `limits.deepen` the algorithm first runs as "mate in n" for n = 1, 2, ... up to
/// [`DEEPEN_MAX`] or the move limit: the first n that is proven is the shortest mate (n − 1
/// was disproven). Beyond that, or without `deepen`, one search runs (unbounded, or to the
/// move limit when that exceeds [`DEEPEN_MAX`]), followed by
/// the shortest-mate step (if `limits.shortest`): "mate in L − 1" after a proof of length
/// L, repeated while shorter mates are found, all within what is left of the node budget.
pub fn prove(pos: &Position, algo: Algorithm, limits: &ProofLimits) -> ProofResult {
    prove_reporting(pos, algo, limits, &mut |_, _| {})
}

/// [`prove`], telling `on_step(n, nodes)` each time a search has disproven a mate in `n`
/// moves (`nodes`: moves made so far), for progress reports.
pub fn prove_reporting(
    pos: &Position,
    algo: Algorithm,
    limits: &ProofLimits,
    on_step: &mut dyn FnMut(u32, u64),
) -> ProofResult {
    let mut p = prover(algo);
    let mut nodes = 0u64;
    // The most any of the searches held (a kept table grows from one to the next).
    let mut memory = 0usize;
    let rest = |nodes: u64, max_moves: Option<u32>| ProofLimits {
        nodes: limits.nodes.saturating_sub(nodes),
        max_moves,
        ..limits.clone()
    };
    let unknown = |nodes, memory| ProofResult {
        outcome: Outcome::Unknown,
        shortest: false,
        nodes,
        memory,
    };
    if limits.deepen {
        let cap = limits.max_moves.map_or(DEEPEN_MAX, |m| m.min(DEEPEN_MAX));
        for n in 1..=cap {
            let r = p.prove(pos, &rest(nodes, Some(n)));
            nodes += r.nodes;
            memory = memory.max(r.memory);
            match r.outcome {
                Outcome::Proven { .. } => {
                    return ProofResult {
                        shortest: !limits.checks_only,
                        nodes,
                        memory,
                        ..r
                    };
                }
                Outcome::Disproven if nodes < limits.nodes && !limits.interrupt.raised() => {
                    on_step(n, nodes);
                }
                _ => return unknown(nodes, memory),
            }
        }
        if limits.max_moves.is_some_and(|m| m <= DEEPEN_MAX) {
            // Every mate in 1 ... N disproven.
            return ProofResult {
                outcome: Outcome::Disproven,
                shortest: false,
                nodes,
                memory,
            };
        }
    }
    let first = p.prove(pos, &rest(nodes, limits.max_moves));
    nodes += first.nodes;
    memory = memory.max(first.memory);
    if let (Outcome::Disproven, Some(n)) = (&first.outcome, limits.max_moves) {
        on_step(n, nodes);
    }
    let Outcome::Proven {
        mut mate_in_moves,
        mut pv,
    } = first.outcome
    else {
        return ProofResult {
            nodes,
            memory,
            ..first
        };
    };
    let mut shortest = mate_in_moves == 1;
    while limits.shortest && !shortest && nodes < limits.nodes && !limits.interrupt.raised() {
        let r = p.prove(pos, &rest(nodes, Some(mate_in_moves - 1)));
        nodes += r.nodes;
        memory = memory.max(r.memory);
        match r.outcome {
            Outcome::Proven {
                mate_in_moves: m,
                pv: line,
            } if m < mate_in_moves => {
                mate_in_moves = m;
                pv = line;
                shortest = m == 1;
            }
            Outcome::Disproven if !limits.checks_only => {
                on_step(mate_in_moves - 1, nodes);
                shortest = true;
            }
            _ => break,
        }
    }
    ProofResult {
        outcome: Outcome::Proven { mate_in_moves, pv },
        shortest,
        nodes,
        memory,
    }
}

/// Attacker moves in a line of `plies` half-moves that ends with the attacker's mate.
pub(crate) fn moves_of_plies(plies: u32) -> u32 {
    plies.div_ceil(2)
}
