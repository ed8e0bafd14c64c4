//! Mutation fuzzing of every parser that takes outside input, in process: UCI and xboard
//! lines, xboard's `level`, FEN and UCI moves, the opponent-type grammar (`engine` type
//! included), `UCI_Opponent`, engine command lines and options, `setoption` values, the
//! KQKR sweep's command line, limits and models, material strings, PGN for `kqkr analyze`,
//! the exact-table file reader and the opponent profile store. Inputs are valid examples
//! mutated at random (bytes dropped, replaced, duplicated, inserted; tokens from a
//! dictionary of troublemakers: huge, negative and non-numbers, separators, non-ASCII;
//! truncation). Each parser must return (`Ok` or `Err`) without panicking; the table reader
//! and the profile store must also *reject* every damaged file.
//!
//! Runs for `NOSCE_FUZZ_SECS` seconds in all (default 20) from seed `NOSCE_FUZZ_SEED`
//! (default: the clock, printed), and prints the number of inputs per target. (No
//! coverage-guided fuzzer runs on the stable toolchain; this is the property-based
//! fallback the reliability issue names.)

use crate::seeded;
use crate::tb_common;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;
use std::time::{Duration, Instant};

use nosce::engine::settings::Settings;
use nosce::experiment::config::{ModelConfig, PerturbKnowledge};
use nosce::experiment::{args, budget, pgn};
use nosce::opponent::OpponentModel;
use nosce::opponent_id::OpponentId;
use nosce::position::Position;
use nosce::profile::{Profile, ProfileStore};
use nosce::tb::{ExactTables, Material, file};
use nosce::uci::UciCommand;
use nosce::xboard::command::{Command as XbCommand, parse_level};
use seeded::Rng;

/// Tokens that break parsers.
const DICTIONARY: &[&str] = &[
    "-1",
    "0",
    "-0",
    "18446744073709551616",
    "99999999999999999999999",
    "1e9",
    "NaN",
    "inf",
    "0x10",
    "1.5",
    "",
    " ",
    "  ",
    "\t",
    ":",
    "::",
    ",",
    ";",
    "=",
    "==",
    "/",
    "-",
    "moves",
    "fen",
    "startpos",
    "name",
    "value",
    "depth=",
    "nodes=",
    "é",
    "\u{0}",
    "\u{FFFD}",
    "🂡",
    "\r",
    "\"",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "*",
];

/// `seed` mutated 1–4 times.
fn mutate(rng: &mut Rng, seed: &str) -> String {
    let mut s: Vec<char> = seed.chars().collect();
    for _ in 0..1 + rng.index(4) {
        let at = rng.index(s.len() + 1);
        match rng.index(7) {
            0 if !s.is_empty() => {
                let end = (at + 1 + rng.index(6)).min(s.len());
                s.drain(at.min(s.len())..end);
            }
            1 if at < s.len() => {
                s[at] = char::from(b' ' + rng.index(95) as u8);
            }
            2 => {
                let tok = DICTIONARY[rng.index(DICTIONARY.len())];
                s.splice(at..at, tok.chars());
            }
            3 if !s.is_empty() => {
                // Replace a whitespace-separated token by a dictionary token.
                let text: String = s.iter().collect();
                let mut toks: Vec<&str> = text.split(' ').collect();
                let i = rng.index(toks.len());
                toks[i] = DICTIONARY[rng.index(DICTIONARY.len())];
                s = toks.join(" ").chars().collect();
            }
            4 => s.truncate(at),
            5 if !s.is_empty() => {
                let a = rng.index(s.len());
                let b = (a + 1 + rng.index(8)).min(s.len());
                let piece: Vec<char> = s[a..b].to_vec();
                s.splice(at.min(s.len())..at.min(s.len()), piece);
            }
            _ => s.insert(at.min(s.len()), char::from(b'0' + rng.index(10) as u8)),
        }
    }
    s.into_iter().collect()
}

/// Calls `f(input)`; a panic fails the test and names the target and the input.
fn no_panic<T>(target: &str, input: &str, f: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(_) => panic!("{target} panicked on input {input:?}"),
    }
}

/// One text target: its name, valid examples, and the parser run on a mutated example.
struct Target {
    name: &'static str,
    seeds: &'static [&'static str],
    run: fn(&str),
}

fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "uci line",
            seeds: &[
                "position startpos moves e2e4 e7e5",
                "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 moves c7c5",
                "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 20",
                "go depth 5 searchmoves e2e4 d2d4",
                "setoption name Hash value 64",
                "setoption name OM_OpponentTypes value self:0.5:depth=3,material:0.5",
                "setoption name UCI_Opponent value GM 2700 computer Stockfish 15",
                "isready",
            ],
            run: |s| {
                let _ = UciCommand::from_str(s);
            },
        },
        Target {
            name: "xboard line",
            seeds: &[
                "level 40 5 0",
                "level 0 2:30 1.5",
                "setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "usermove e7e8q",
                "time 3000",
                "option OM_Mode=auto",
                "memory 256",
                "ping 12",
                "name Deep Thought",
                "rating 2700 2100",
            ],
            run: |s| {
                let _ = XbCommand::from_str(s);
                let words: Vec<&str> = s.split_whitespace().collect();
                let _ = parse_level(&words);
            },
        },
        Target {
            name: "fen and move",
            seeds: &[
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1",
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 e1g1",
                "8/P7/8/8/8/8/8/k6K w - - 0 1 a7a8q",
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3 e5f6",
            ],
            run: |s| {
                // The FEN is the first six fields; what follows, a move to try.
                let fields: Vec<&str> = s.split(' ').collect();
                let (fen, mv) = if fields.len() > 6 {
                    (fields[..6].join(" "), fields[6..].join(" "))
                } else {
                    (s.to_string(), "e2e4".to_string())
                };
                if let Ok(mut p) = Position::from_fen(&fen) {
                    let _ = p.legal_moves();
                    let _ = p.parse_uci(&mv);
                    let _ = p.play_uci(&mv);
                }
            },
        },
        Target {
            name: "opponent types",
            seeds: &[
                "self:1",
                "self:0.4,notb:0.3:depth=6,material:0.3:depth=4",
                "engine:1:nodes=5000",
                "engine:0.5:movetime=20,self:0.5:depth=2",
                "material:1:depth=2",
            ],
            run: |s| {
                let _ = OpponentModel::from_str(s);
            },
        },
        Target {
            name: "UCI_Opponent",
            seeds: &[
                "GM 2800 computer Stockfish 15",
                "none none human Some Player",
                "IM 2450 human Jane Doe",
                "WGM none computer x",
            ],
            run: |s| {
                let _ = OpponentId::from_str(s);
            },
        },
        Target {
            name: "engine command and options",
            seeds: &[
                "/usr/games/stockfish",
                "\"/path with space/engine\" --uci",
                "Threads=1;Hash=16",
                "Skill Level=3;UCI_LimitStrength=true",
            ],
            run: |s| {
                let _ = nosce::external::EngineCommand::from_str(s);
                let _ = nosce::external::parse_engine_options(s);
            },
        },
        Target {
            name: "setoption",
            seeds: &[
                "Hash=64",
                "Threads=2",
                "OM_Mode=prom",
                "OM_OpponentTypes=self:0.5,material:0.5:depth=2",
                "OM_Search=root=margin",
                "SyzygyPath=/nonexistent",
                "Move Overhead=30",
                "OM_LearningGamma=20",
                "OM_Ties=maybe",
                "UCI_Opponent=GM 2700 computer X",
                "OM_Search=ties=off, root=margin margin=80 bound=25",
                "OM_Learning=bayes ps=50 gamma=10",
                "OM_OpponentEngine=xboard:/usr/games/phalanx -l- | Hash=16;Threads=1",
                "OM_Profiles=off",
            ],
            run: |s| {
                let mut o = Settings::default();
                let (name, value) = match s.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (s, None),
                };
                let _ = o.set(name, value);
            },
        },
        Target {
            name: "kqkr command line",
            seeds: &[
                "--games 4 --depths 0..3 --jobs 2 --seed 7",
                "--model self:1:depth=4 --model-perturb game --opp-nodes 2000 --opp-nodes-spread 0.5",
                "--shard 1/4 --kr-depth 5 --kq-depth 11 --out /tmp/x",
                "merge a b --out c",
                "analyze games.pgn --spec-depth 2",
            ],
            run: |s| {
                let argv: Vec<String> = s.split(' ').map(str::to_string).collect();
                let _ = args::parse(&argv);
                let _ = args::parse_depths(s);
            },
        },
        Target {
            name: "kqkr limits and models",
            seeds: &[
                "nodes=2000",
                "depth=11",
                "0.5",
                "self:1:depth=3",
                "game",
                "other",
            ],
            run: |s| {
                let _ = budget::SideLimit::from_str(s);
                let _ = budget::NodeSpread::from_str(s);
                let _ = ModelConfig::from_str(s);
                let _ = PerturbKnowledge::from_str(s);
            },
        },
        Target {
            name: "material",
            seeds: &["KQvKR", "KRvK", "KQK", "kqvkr", "KBNvK"],
            run: |s| {
                let _ = Material::from_str(s);
            },
        },
        Target {
            name: "pgn",
            seeds: &[
                "[Event \"x\"]\n[FEN \"K3r3/8/5k2/Q7/8/8/8/8 w - - 0 1\"]\n\n1. Kb7 Re7+ 2. Kc6 Re6+ 3. Kd7 {comment} Re7+ (3... Re4) 1/2-1/2\n",
                "[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 2. Nf3 $1 Nc6 ; rest\n3. Bb5 a6 *\n\n[Event \"y\"]\n1. d4 1-0\n",
            ],
            run: |s| {
                let _ = pgn::parse_pgn(s);
            },
        },
    ]
}

fn budget() -> Duration {
    seeded::run_length("NOSCE_FUZZ_SECS", 20)
}

fn seed() -> u64 {
    seeded::seed("NOSCE_FUZZ_SEED")
}

#[test]
fn text_parsers_never_panic() {
    let seed = seed();
    println!("fuzz: seed {seed} (NOSCE_FUZZ_SEED to replay)");
    let mut rng = Rng::new(seed);
    let targets = targets();
    // Two thirds of the time for the text parsers, the rest for the files below.
    let share = budget() * 2 / 3 / targets.len() as u32;
    // Panics are caught and reported with their input; keep the default hook quiet.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut report = Vec::new();
    for t in &targets {
        let end = Instant::now() + share;
        let mut n = 0u64;
        while Instant::now() < end {
            for _ in 0..64 {
                let base = t.seeds[rng.index(t.seeds.len())];
                let input = mutate(&mut rng, base);
                let outcome = catch_unwind(AssertUnwindSafe(|| (t.run)(&input)));
                if outcome.is_err() {
                    std::panic::set_hook(hook);
                    panic!("{} panicked on input {input:?}", t.name);
                }
                n += 1;
            }
        }
        report.push(format!("{}: {n}", t.name));
    }
    std::panic::set_hook(hook);
    println!("fuzz: inputs per target: {}", report.join(", "));
}

/// Damaged bytes: some flipped, some cut off, some added.
fn damage_bytes(rng: &mut Rng, good: &[u8]) -> Vec<u8> {
    let mut b = good.to_vec();
    match rng.index(4) {
        0 => {
            for _ in 0..1 + rng.index(3) {
                let i = rng.index(b.len());
                b[i] ^= 1 << rng.index(8);
            }
        }
        1 => b.truncate(rng.index(b.len())),
        2 => b.extend((0..1 + rng.index(16)).map(|_| rng.index(256) as u8)),
        _ => {
            let i = rng.index(b.len());
            b[i] = b[i].wrapping_add(1 + rng.index(255) as u8);
        }
    }
    b
}

#[test]
fn damaged_table_files_and_profiles_are_rejected() {
    let seed = seed() ^ 0x7AB1E;
    let mut rng = Rng::new(seed);
    let per_file = budget() / 6;

    // An exact table: every damaged copy must be refused, never trusted.
    let dir = tb_common::temp_dir("fuzz");
    let m: Material = "KRvK".parse().expect("material");
    let table = ExactTables::new(&dir).table(&m).expect("generate KRvK");
    let good = file::encode(&table);
    assert!(file::decode(&good, &m).is_ok(), "the good file decodes");
    let end = Instant::now() + per_file;
    let mut tables = 0u64;
    while Instant::now() < end {
        let bad = damage_bytes(&mut rng, &good);
        if bad == good {
            continue;
        }
        let decoded = no_panic("table reader", &format!("{} bytes", bad.len()), || {
            file::decode(&bad, &m)
        });
        assert!(
            decoded.is_err(),
            "a damaged table was accepted (seed {seed})"
        );
        tables += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);

    // An opponent profile: damaged files are reported, not trusted.
    let pdir = tb_common::temp_dir("fuzz-profiles");
    let store = ProfileStore::new(&pdir);
    let profile = Profile::new("fuzz-opponent", "Fuzz Opponent");
    store.save(&profile).expect("save a profile");
    let path = store.path("fuzz-opponent");
    let good = std::fs::read(&path).expect("read the profile");
    let end = Instant::now() + per_file;
    let mut profiles = 0u64;
    while Instant::now() < end {
        let bad = damage_bytes(&mut rng, &good);
        if bad == good {
            continue;
        }
        std::fs::write(&path, &bad).expect("write");
        let loaded = no_panic("profile store", &format!("{} bytes", bad.len()), || {
            store.load("fuzz-opponent")
        });
        // Whitespace the format ignores may leave the profile intact; anything else must
        // be reported.
        if let Ok(Some(p)) = &loaded {
            assert_eq!(
                p, &profile,
                "a damaged profile was read as another (seed {seed})"
            );
        }
        profiles += 1;
    }
    let _ = std::fs::remove_dir_all(&pdir);
    println!("fuzz: {tables} damaged tables and {profiles} damaged profiles rejected");
}
