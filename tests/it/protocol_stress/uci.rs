//! The UCI half of the stress driver: a GUI that checks every line (see `super`).

use super::*;

/// What the GUI expects of a UCI engine, checked on every line.
struct UciGui {
    /// The position the engine holds (as the GUI set it).
    pos: Chess,
    /// The positions of the searches started and not yet answered, oldest first.
    searches: VecDeque<Chess>,
    ready_pending: usize,
    inputs: u64,
    bestmoves: u64,
    pvs: u64,
}

impl UciGui {
    fn check(&mut self, e: &mut Engine, lines: Vec<String>) {
        for line in lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first().copied() {
                Some("bestmove") => {
                    let Some(pos) = self.searches.pop_front() else {
                        e.fail(&format!("'{line}' without a search"));
                    };
                    self.bestmoves += 1;
                    let mv = words.get(1).copied().unwrap_or("");
                    if pos.legal_moves().is_empty() {
                        e.check(
                            mv == "0000" || mv == "(none)",
                            &format!("'{line}' where there is no legal move"),
                        );
                        continue;
                    }
                    let Some(after) = play_line(&pos, &[mv]) else {
                        e.fail(&format!("'{line}': illegal in {}", fen_of(&pos)));
                    };
                    if words.get(2) == Some(&"ponder") {
                        let p = words.get(3).copied().unwrap_or("");
                        let ok = play_line(&after, &[p]).is_some();
                        e.check(ok, &format!("'{line}': illegal ponder move"));
                    }
                }
                Some("readyok") => {
                    e.check(self.ready_pending > 0, "readyok without isready");
                    self.ready_pending -= 1;
                }
                Some("info") if words.get(1) != Some(&"string") => {
                    if let Some(i) = words.iter().position(|w| *w == "pv") {
                        let Some(pos) = self.searches.front() else {
                            e.fail(&format!("'{line}' while no search runs"));
                        };
                        let ok = play_line(pos, &words[i + 1..]).is_some();
                        e.check(ok, &format!("'{line}': not a legal line"));
                        self.pvs += 1;
                    }
                }
                _ => {}
            }
        }
        let err = e.stderr();
        e.check(!err.contains("panicked"), "the engine panicked");
    }

    /// One random input.
    fn step(&mut self, e: &mut Engine, rng: &mut Rng) {
        self.inputs += 1;
        match rng.below(100) {
            0..=14 => {
                // A valid position: from the start or from a FEN, with moves.
                let (base, head) = if rng.chance(50) {
                    (Chess::default(), "position startpos".to_string())
                } else {
                    let (_, p) = random_line(rng, &Chess::default(), 60);
                    let f = fen_of(&p);
                    (p, format!("position fen {f}"))
                };
                let (moves, p) = random_line(rng, &base, 12);
                let cmd = if moves.is_empty() && rng.chance(50) {
                    head
                } else {
                    format!("{head} moves {}", moves.join(" "))
                };
                e.send(&cmd);
                self.pos = p;
            }
            15..=21 => {
                // An invalid position: an illegal move, a damaged FEN, a missing keyword.
                let (moves, p) = random_line(rng, &Chess::default(), 8);
                let cmd = match rng.below(4) {
                    0 => {
                        let bad = rng.pick(&["e2e5", "a1a1", "e7e5x", "zz", "e1g1", "0000"]);
                        if let Some(q) = play_gui_line(&p, &[bad]) {
                            // Legal after all (castling, a null move): the position changes.
                            self.pos = q;
                        }
                        format!("position startpos moves {} {bad}", moves.join(" "))
                    }
                    1 => {
                        let f = damage(rng, &fen_of(&p));
                        // UCI separates tokens by any whitespace: the FEN is its tokens.
                        let tokens: Vec<&str> = f.split_whitespace().collect();
                        if let Some(q) = parse_fen(&tokens.join(" ")) {
                            // Still a FEN the GUI accepts: so must the engine.
                            self.pos = q;
                        }
                        format!("position fen {f}")
                    }
                    2 => rng
                        .pick(&[
                            "position",
                            "position foo",
                            "position fen",
                            "position moves e2e4",
                        ])
                        .to_string(),
                    _ => {
                        if moves.is_empty() {
                            // `position startpos` after all.
                            self.pos = Chess::default();
                        }
                        format!("position startpos {}", moves.join(" "))
                    }
                };
                e.send(&cmd);
            }
            22..=37 => {
                let go = match rng.below(7) {
                    0 => format!("go depth {}", 1 + rng.below(7)),
                    1 => format!("go nodes {}", 1 + rng.below(30_000)),
                    2 => format!("go movetime {}", rng.below(60)),
                    3 => format!(
                        "go wtime {} btime {} winc {} binc {}",
                        rng.below(3000),
                        rng.below(3000),
                        rng.below(100),
                        rng.below(100)
                    ),
                    4 => format!(
                        "go wtime {} btime {} movestogo {}",
                        rng.below(2000),
                        rng.below(2000),
                        rng.below(40)
                    ),
                    5 => {
                        let legal = self.pos.legal_moves();
                        let some: Vec<String> = legal
                            .iter()
                            .take(1 + rng.below(3) as usize)
                            .map(|m| UciMove::from_standard(*m).to_string())
                            .collect();
                        format!(
                            "go depth {} searchmoves {}",
                            1 + rng.below(5),
                            some.join(" ")
                        )
                    }
                    _ => format!("go depth {} multipv {}", 1 + rng.below(4), rng.below(3)),
                };
                e.send(&go);
                self.searches.push_back(self.pos.clone());
            }
            38..=42 => {
                // Searches that only `stop` (or a ponderhit with a clock) ends, and
                // malformed ones, which the engine treats as it can.
                let go = rng.pick(&[
                    "go infinite",
                    "go ponder wtime 500 btime 500",
                    "go",
                    "go depth -3",
                    "go wtime abc",
                    "go depth 18446744073709551616",
                    "go mate 2",
                    "go searchmoves e2e5",
                    "go nodes 0",
                    "go frobnicate 7",
                ]);
                e.send(go);
                self.searches.push_back(self.pos.clone());
            }
            43..=52 => e.send("stop"),
            53..=56 => e.send("ponderhit"),
            57..=66 => {
                e.send("isready");
                self.ready_pending += 1;
            }
            67..=72 => {
                let opt = match rng.below(6) {
                    0 => format!("setoption name Hash value {}", 1 + rng.below(64)),
                    1 => format!("setoption name Threads value {}", 1 + rng.below(2)),
                    2 => format!("setoption name MultiPV value {}", 1 + rng.below(3)),
                    3 => "setoption name Clear Hash".into(),
                    4 => format!("setoption name Move Overhead value {}", rng.below(100)),
                    _ => format!("setoption name UCI_ShowWDL value {}", rng.chance(50)),
                };
                e.send(&opt);
            }
            73..=78 => {
                let bad = rng.pick(&[
                    "setoption name Hash value -1",
                    "setoption name Hash value abc",
                    "setoption name Hash value 99999999999999999999",
                    "setoption name Threads value 0",
                    "setoption name NoSuchOption value 3",
                    "setoption name Hash",
                    "setoption",
                    "setoption name",
                    "setoption name OM_Mode value sometimes",
                    "setoption name OM_OpponentTypes value self:-1",
                    "setoption name SyzygyPath value /nonexistent/dir",
                ]);
                e.send(bad);
            }
            79..=81 => {
                // nosce starts the new game from the initial position (a GUI sends
                // `position` next anyway).
                e.send("ucinewgame");
                self.pos = Chess::default();
            }
            82..=84 => e.send(rng.pick(&["debug on", "debug off", "uci", "register later"])),
            _ => e.send_raw(&junk(rng)),
        }
    }
}

#[test]
fn uci_random_interleavings_keep_the_invariants() {
    let seed = seed();
    println!("uci stress: seed {seed} (NOSCE_STRESS_SEED to replay)");
    let mut rng = Rng::new(seed);
    let (mut e, _) = Engine::start_uci();
    e.set_label(&format!("(replay: NOSCE_STRESS_SEED={seed})"));
    let mut gui = UciGui {
        pos: Chess::default(),
        searches: VecDeque::new(),
        ready_pending: 0,
        inputs: 0,
        bestmoves: 0,
        pvs: 0,
    };
    let end = Instant::now() + run_length();
    while Instant::now() < end {
        gui.step(&mut e, &mut rng);
        // Sometimes send the next input at once, sometimes let the engine work.
        let lines = if rng.chance(70) {
            e.poll()
        } else {
            e.collect_for(Duration::from_millis(rng.below(30)))
        };
        gui.check(&mut e, lines);
    }
    // Wind down: end every search, then every answer must arrive.
    e.send("stop");
    e.send("isready");
    gui.ready_pending += 1;
    let deadline = Instant::now() + Duration::from_secs(30);
    while (gui.ready_pending > 0 || !gui.searches.is_empty()) && Instant::now() < deadline {
        let lines = e.collect_for(Duration::from_millis(50));
        gui.check(&mut e, lines);
        if !gui.searches.is_empty() {
            e.send("stop");
        }
    }
    let (pending, open) = (gui.ready_pending, gui.searches.len());
    e.check(
        pending == 0 && open == 0,
        &format!("unanswered at the end: {pending} isready, {open} go"),
    );
    e.send("quit");
    e.expect_exit(QUICK);
    println!(
        "uci stress: {} inputs, {} bestmoves checked, {} pv lines checked, 0 failures",
        gui.inputs, gui.bestmoves, gui.pvs
    );
}
