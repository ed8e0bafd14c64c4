//! What the hedged root of `OM_Mode=auto` (Donkers 2003 §6.2, Alg. 6.3 over our own search
//! and one fitted type; `src/search/om/hedge.rs`) costs in nodes against plain α-β at the same
//! depth, on the positions of `bench.epd`. Node counts at a fixed depth do not depend on the
//! machine or its load, so two versions of the driver can be compared on a busy machine.
//!
//! ```sh
//! cargo run --release --example hedge_nodes -- [DEPTH] [POSITIONS] [WEIGHT] [MARGIN] [BREADTH]
//! ```
//! (defaults 9, 24, 0.5, 30, every root move). The fitted type is our own evaluation at depth 4, the
//! candidate `OM_Mode=auto` starts programs with.

use std::sync::Arc;

use nosce::eval::{Evaluator, FullEval};
use nosce::limits::Limits;
use nosce::position::{Position, uci};
use nosce::report::{OmReport, Reporter, SearchInfo};
use nosce::search::om::OmMode;
use nosce::search::om::config::{OmConfig, TypeSetup};
use nosce::search::om::hedge::Hedge;
use nosce::search::om::model::search_model;
use nosce::search::{SearchConfig, SearchContext, SearchControl, root_moves, search};
use nosce::tt::TranspositionTable;

/// Keeps the last OM iteration's report (where the nodes went).
#[derive(Default)]
struct Last(std::sync::Mutex<Option<OmReport>>);

impl Reporter for Last {
    fn info(&self, _: &SearchInfo) {}
    fn message(&self, _: &str) {}
    fn bestmove(&self, _: Option<shakmaty::Move>, _: Option<shakmaty::Move>) {}
    fn om_iteration(&self, report: &OmReport) {
        *self.0.lock().unwrap() = Some(report.clone());
    }
}

/// Argument `i` (its default if absent); anything that does not parse or lies outside
/// `ok` ends the program with a message.
fn arg<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    i: usize,
    name: &str,
    default: T,
    ok: std::ops::RangeInclusive<T>,
) -> T {
    let Some(text) = std::env::args().nth(i) else {
        return default;
    };
    match text.parse::<T>() {
        Ok(v) if ok.contains(&v) => v,
        _ => {
            eprintln!(
                "hedge_nodes: {name} must be a number from {} to {}, not '{text}'\n\
                 usage: hedge_nodes [DEPTH] [POSITIONS] [WEIGHT] [MARGIN] [BREADTH]",
                ok.start(),
                ok.end()
            );
            std::process::exit(2);
        }
    }
}

fn main() {
    let depth: u32 = arg(1, "DEPTH", 9, 1..=30);
    let count: usize = arg(2, "POSITIONS", 24, 1..=1000);
    let weight: f64 = arg(3, "WEIGHT", 0.5, 0.0..=1.0);
    let margin: i32 = arg(4, "MARGIN", 30, 0..=10_000);
    let breadth: usize = arg(5, "BREADTH", usize::MAX, 0..=usize::MAX);
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/bench.epd"))
        .expect("bench.epd");
    let (mut ab_total, mut om_total, mut differ) = (0u64, 0u64, 0usize);
    let (mut own_total, mut probes_total) = (0u64, 0u64);
    println!("position  ab-nodes  hedged-nodes  ratio  ab-move  hedged-move  depth");
    for (i, line) in text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(count)
        .enumerate()
    {
        let fen: String = line
            .split_whitespace()
            .take(6)
            .collect::<Vec<_>>()
            .join(" ");
        let pos = Position::from_fen(&fen).expect("a bench position");
        let limits = Limits::depth(depth);
        let allowed = root_moves(&pos, &limits);
        let own = FullEval::default();
        let control = SearchControl::default();
        let config = SearchConfig::default();
        let tt = TranspositionTable::new(16);
        let ctx = SearchContext::silent(&own, &tt, &control, &config);
        let ab = search(&ctx, &pos, &limits, &allowed);
        // A fresh control: the finished α-β search leaves its stop flag set.
        let control = SearchControl::default();
        let tt = TranspositionTable::new(16);
        let last = Last::default();
        let ctx = SearchContext {
            reporter: &last,
            ..SearchContext::silent(&own, &tt, &control, &config)
        };
        let fitted: Arc<dyn Evaluator> = Arc::new(FullEval::default());
        let types = vec![TypeSetup {
            eval: fitted,
            tt: Arc::new(TranspositionTable::new(8)),
            probability: 1.0,
            depth: Some(4),
            nodes: None,
            tablebases: false,
            replay: false,
            engine: None,
        }];
        let setup = OmConfig {
            ties: true,
            hedge: Some(Hedge {
                weight,
                margin,
                breadth,
            }),
            ..OmConfig::new(OmMode::Om, 2, types)
        };
        let om = search_model(&ctx, &setup, &pos, &limits, &allowed);
        let name = |m: Option<shakmaty::Move>| m.map_or_else(|| "-".into(), uci);
        println!(
            "{:>8}  {:>8}  {:>12}  {:>5.2}  {:>7}  {:>11}  {}/{}",
            i + 1,
            ab.nodes,
            om.nodes,
            om.nodes as f64 / ab.nodes.max(1) as f64,
            name(ab.best),
            name(om.best),
            ab.depth,
            om.depth
        );
        if let Some(r) = last.0.lock().unwrap().as_ref() {
            own_total += r.own_nodes;
            probes_total += r.type_nodes.iter().sum::<u64>();
        }
        ab_total += ab.nodes;
        om_total += om.nodes;
        differ += usize::from(ab.best != om.best);
    }
    println!(
        "total: alpha-beta {ab_total} nodes, hedged {om_total} nodes ({:.2}x) at depth {depth}, \
         weight {weight}, margin {margin}, breadth {}; moves differ in {differ} positions",
        om_total as f64 / ab_total.max(1) as f64,
        if breadth == usize::MAX {
            "all".to_string()
        } else {
            breadth.to_string()
        }
    );
    println!(
        "hedged: our own searches {own_total} nodes ({:.2}x alpha-beta), the fitted type's probes {probes_total}",
        own_total as f64 / ab_total.max(1) as f64
    );
}
