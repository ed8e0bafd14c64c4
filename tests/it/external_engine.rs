//! `nosce::external` against real processes: the scripted fake engine `tests/fake_uci.py`
//! (one test per fault: crash, hang, late or no answer to `stop`, illegal move, garbage, no
//! handshake) and nosce itself as a real engine. Needs `python3` with python-chess; a missing
//! prerequisite FAILS the tests (pip install chess).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nosce::external::{
    CecpEngine, EngineCommand, ErrorKind, GoLimit, ManagedEngine, Protocol, UciEngine,
};
use nosce::position::{Position, uci};

const PYTHON: &str = "python3";
const START: Duration = Duration::from_secs(10);

/// Panics with instructions unless `python3` can import python-chess.
fn require_python_chess() {
    static CHECK: OnceLock<Result<(), String>> = OnceLock::new();
    let check = CHECK.get_or_init(|| {
        match std::process::Command::new(PYTHON)
            .args(["-c", "import chess"])
            .output()
        {
            Ok(o) if o.status.success() => Ok(()),
            Ok(o) => Err(format!(
                "'{PYTHON} -c \"import chess\"' failed: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            )),
            Err(e) => Err(format!("cannot run {PYTHON}: {e}")),
        }
    });
    if let Err(e) = check {
        panic!(
            "prerequisite missing for the external engine tests: {e} (install python3 and `pip install chess`)"
        );
    }
}

/// The fake engine in `mode` (with its arguments).
fn fake(mode: &[&str]) -> EngineCommand {
    require_python_chess();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_uci.py");
    EngineCommand {
        program: PYTHON.into(),
        args: std::iter::once(script)
            .chain(mode.iter().copied())
            .map(String::from)
            .collect(),
    }
}

fn start(mode: &[&str]) -> UciEngine {
    UciEngine::start(&fake(mode), &[], START).unwrap_or_else(|e| panic!("{e}"))
}

/// The start position after `moves`.
fn after(moves: &[&str]) -> Position {
    let mut pos = Position::default();
    for m in moves {
        pos.play_uci(m).unwrap();
    }
    pos
}

/// What the fake engine plays in `pos`: the first legal move in sorted UCI order.
fn first_move(pos: &Position) -> String {
    let mut moves: Vec<String> = pos.legal_moves().into_iter().map(uci).collect();
    moves.sort();
    moves.swap_remove(0)
}

fn never() -> AtomicBool {
    AtomicBool::new(false)
}

fn soon(ms: u64) -> Instant {
    Instant::now() + Duration::from_millis(ms)
}

#[test]
fn engines_can_move_to_another_thread() {
    fn send<T: Send>() {}
    send::<UciEngine>();
    send::<ManagedEngine>();
}

#[test]
fn a_good_engine_answers_with_its_move_and_search_info() {
    let mut e = start(&["ok"]);
    assert_eq!(e.name(), "fake-ok");
    assert!(e.is_alive());
    let pos = after(&["e2e4", "e7e5", "g1f3"]);
    let a = e
        .best_move(&pos, GoLimit::Depth(3), soon(5000), &never())
        .unwrap();
    assert_eq!(uci(a.mv), first_move(&pos));
    assert_eq!((a.depth, a.nodes, a.score_cp), (1, 1, Some(0)));
    e.new_game(START).unwrap();
    let a = e
        .best_move(&pos, GoLimit::Nodes(10), soon(5000), &never())
        .unwrap();
    assert_eq!(uci(a.mv), first_move(&pos));
    // A mated side has nothing to ask about.
    let mate = after(&["f2f3", "e7e5", "g2g4", "d8h4"]);
    let err = e
        .best_move(&mate, GoLimit::Depth(1), soon(5000), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::NoLegalMove);
    assert!(e.is_alive());
}

#[test]
fn crash_is_exited_and_later_calls_fail_without_panicking() {
    let mut e = start(&["crash"]);
    let pos = Position::default();
    let err = e
        .best_move(&pos, GoLimit::Depth(1), soon(5000), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Exited, "{err}");
    assert!(err.to_string().contains("fake-crash"), "{err}");
    assert!(!e.is_alive());
    // Writes to the dead process: an error, not a broken pipe panic.
    let err = e
        .best_move(&pos, GoLimit::Depth(1), soon(5000), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Exited);
    assert_eq!(e.new_game(START).unwrap_err().kind, ErrorKind::Exited);
}

#[test]
fn writing_to_an_engine_that_already_exited_is_exited() {
    let mut e = start(&["exit-when-ready"]);
    std::thread::sleep(Duration::from_millis(300));
    // The first write finds the pipe closed (broken pipe), or the reader saw the end.
    assert_eq!(e.new_game(START).unwrap_err().kind, ErrorKind::Exited);
    let err = e.best_move(
        &Position::default(),
        GoLimit::Depth(1),
        soon(5000),
        &never(),
    );
    assert_eq!(err.unwrap_err().kind, ErrorKind::Exited);
    assert!(!e.is_alive());
}

#[test]
fn crash_is_counted_and_the_engine_restarted() {
    let mut m = ManagedEngine::new(fake(&["crash-after", "1"]), Vec::new(), 2);
    let (a, b) = (after(&["e2e4"]), after(&["d2d4"]));
    assert_eq!(
        uci(m
            .query(&a, GoLimit::Depth(1), false, soon(5000), &never())
            .unwrap()),
        first_move(&a)
    );
    let err = m
        .query(&b, GoLimit::Depth(1), false, soon(5000), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Exited);
    assert_eq!(m.restarts(), 1);
    assert!(!m.is_running() && !m.is_disabled());
    // A fresh process answers its first `go`.
    let mv = m
        .query(&b, GoLimit::Depth(1), false, soon(5000), &never())
        .unwrap();
    assert_eq!(uci(mv), first_move(&b));
    assert_eq!(m.restarts(), 1);
    assert!(m.is_running());
}

#[test]
fn hang_times_out_within_the_deadline_then_counts_as_unresponsive() {
    let mut e = start(&["hang"]);
    let pos = Position::default();
    let t = Instant::now();
    let deadline = t + Duration::from_millis(300);
    let err = e
        .best_move(&pos, GoLimit::Depth(1), deadline, &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Timeout);
    assert!(
        Instant::now() <= deadline + Duration::from_millis(200),
        "{:?}",
        t.elapsed()
    );
    assert!(e.is_alive());
    // It never answers the `stop`: the next call gives up one second after it.
    let t = Instant::now();
    let err = e
        .best_move(&pos, GoLimit::Depth(1), soon(5000), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unresponsive);
    assert!(
        t.elapsed() < Duration::from_millis(1300),
        "{:?}",
        t.elapsed()
    );
    assert!(!e.is_alive());
}

/// Starts `m`'s engine with time to spare (python's start takes seconds on a busy machine),
/// so that the short deadlines of a test measure the query, not the start: a query in a
/// position without legal moves starts the process and sends nothing.
fn warm_up(m: &mut ManagedEngine) {
    let mated = after(&["f2f3", "e7e5", "g2g4", "d8h4"]);
    let err = m
        .query(&mated, GoLimit::Depth(1), false, soon(20_000), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::NoLegalMove);
    assert!(m.is_running(), "the engine did not start");
}

#[test]
fn hung_engine_is_killed_and_counted_by_the_manager() {
    let mut m = ManagedEngine::new(fake(&["hang"]), Vec::new(), 1);
    warm_up(&mut m);
    let pos = Position::default();
    let err = m
        .query(&pos, GoLimit::Depth(1), false, soon(300), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Timeout);
    assert_eq!(m.restarts(), 0, "a deadline of ours is no fault");
    assert!(m.is_running());
    let err = m
        .query(&pos, GoLimit::Depth(1), false, soon(5000), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unresponsive);
    assert_eq!(m.restarts(), 1);
    assert!(!m.is_running());
}

#[test]
fn stop_flag_returns_quickly_and_the_next_query_resyncs() {
    let mut e = start(&["slow", "600"]);
    let stop = AtomicBool::new(false);
    let pos = after(&["e2e4"]);
    let t = Instant::now();
    let err = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        e.best_move(&pos, GoLimit::Depth(1), soon(5000), &stop)
            .unwrap_err()
    });
    assert_eq!(err.kind, ErrorKind::Stopped);
    assert!(
        t.elapsed() < Duration::from_millis(300),
        "{:?}",
        t.elapsed()
    );
    // Still stopped: nothing is sent, the answer comes at once.
    let t = Instant::now();
    let err = e
        .best_move(&pos, GoLimit::Depth(1), soon(5000), &stop)
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Stopped);
    assert!(t.elapsed() < Duration::from_millis(50));
    // The late `bestmove` (for 1.e4) is drained, not taken for the answer here.
    stop.store(false, Ordering::Relaxed);
    let other = after(&["d2d4", "d7d5"]);
    let a = e
        .best_move(&other, GoLimit::Depth(1), soon(5000), &stop)
        .unwrap();
    assert_eq!(uci(a.mv), first_move(&other));
}

#[test]
fn late_answer_to_stop_is_drained_not_mistaken() {
    let mut m = ManagedEngine::new(fake(&["stop-late"]), Vec::new(), 0);
    warm_up(&mut m);
    let (a, b) = (after(&["e2e4"]), after(&["g1f3"]));
    let err = m
        .query(&a, GoLimit::Depth(1), false, soon(300), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Timeout);
    // The next query drains the move for `a` (300 ms after our stop) and then waits for
    // its own, which this engine only gives when stopped.
    let err = m
        .query(&b, GoLimit::Depth(1), false, soon(1000), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Timeout);
    assert_eq!(m.restarts(), 0);
    assert!(m.is_running() && m.cache_len() == 0);
}

#[test]
fn illegal_move_is_reported() {
    let mut e = start(&["illegal"]);
    let err = e
        .best_move(
            &Position::default(),
            GoLimit::Depth(1),
            soon(5000),
            &never(),
        )
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::IllegalMove("a1a1".into()));
    let mut m = ManagedEngine::new(fake(&["illegal"]), Vec::new(), 3);
    let err = m.query(
        &Position::default(),
        GoLimit::Depth(1),
        false,
        soon(5000),
        &never(),
    );
    assert_eq!(err.unwrap_err().kind, ErrorKind::IllegalMove("a1a1".into()));
    assert_eq!(m.restarts(), 1);
}

#[test]
fn garbage_is_a_protocol_error() {
    let mut e = start(&["garbage"]);
    let err = e
        .best_move(
            &Position::default(),
            GoLimit::Depth(1),
            soon(5000),
            &never(),
        )
        .unwrap_err();
    assert!(
        matches!(&err.kind, ErrorKind::Protocol(m) if m.contains("xyz")),
        "{err}"
    );
    assert!(err.to_string().contains("fake-garbage"), "{err}");
}

#[test]
fn no_uciok_is_a_start_error_within_the_timeout() {
    let cmd = fake(&["no-uciok"]);
    let timeout = Duration::from_millis(700);
    let t = Instant::now();
    let err = UciEngine::start(&cmd, &[], timeout).err().expect("started");
    assert!(
        matches!(&err.kind, ErrorKind::Start(m) if m.contains("uciok")),
        "{err}"
    );
    assert!(
        t.elapsed() < timeout + Duration::from_millis(200),
        "{:?}",
        t.elapsed()
    );
    let err = UciEngine::start(&EngineCommand::program("/nonexistent/engine"), &[], timeout)
        .err()
        .expect("started");
    assert!(matches!(err.kind, ErrorKind::Start(_)), "{err}");
    assert!(err.to_string().contains("/nonexistent/engine"), "{err}");
}

#[test]
fn exhausted_restart_budget_disables_until_the_next_game() {
    let mut m = ManagedEngine::new(fake(&["crash"]), Vec::new(), 1);
    let pos = Position::default();
    let ask = |m: &mut ManagedEngine| {
        m.query(&pos, GoLimit::Depth(1), true, soon(5000), &never())
            .unwrap_err()
            .kind
    };
    assert_eq!(ask(&mut m), ErrorKind::Exited);
    assert_eq!(ask(&mut m), ErrorKind::Exited);
    assert_eq!(m.restarts(), 2);
    assert!(m.is_disabled());
    let t = Instant::now();
    assert_eq!(ask(&mut m), ErrorKind::Disabled("exited".into()));
    let err = m
        .query(&pos, GoLimit::Depth(1), true, soon(5000), &never())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "UCI engine 'fake-crash' is disabled until the next game (last fault: exited)"
    );
    assert!(
        t.elapsed() < Duration::from_millis(50),
        "disabled means no process"
    );
    m.new_game();
    assert!(!m.is_disabled() && m.restarts() == 0);
    assert_eq!(ask(&mut m), ErrorKind::Exited);
}

#[test]
fn cached_answer_does_not_ask_the_engine() {
    let mut m = ManagedEngine::new(fake(&["crash-after", "1"]), Vec::new(), 0);
    let (a, b) = (after(&["e2e4"]), after(&["c2c4"]));
    let limit = GoLimit::Nodes(100);
    let first = m.query(&a, limit, true, soon(5000), &never()).unwrap();
    // The engine would exit at a second `go`: the cache answers.
    assert_eq!(
        m.query(&a, limit, true, soon(5000), &never()).unwrap(),
        first
    );
    assert_eq!((m.cache_len(), m.restarts()), (1, 0));
    let err = m.query(&b, limit, true, soon(5000), &never()).unwrap_err();
    assert_eq!(
        err.kind,
        ErrorKind::Exited,
        "the engine was asked only once before"
    );
    // Even disabled, the cache still answers; a new game forgets it.
    assert!(m.is_disabled());
    assert_eq!(
        m.query(&a, limit, true, soon(5000), &never()).unwrap(),
        first
    );
    m.new_game();
    assert_eq!(m.cache_len(), 0);
}

#[test]
fn nosce_itself_answers_legally_and_deterministically() {
    let cmd = EngineCommand::program(env!("CARGO_BIN_EXE_nosce"));
    let options = vec![
        ("Hash".to_string(), "4".to_string()),
        ("Threads".to_string(), "1".to_string()),
    ];
    let pos = after(&[
        "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6",
    ]);
    let limit = GoLimit::Nodes(2000);
    let mut moves = Vec::new();
    for _ in 0..2 {
        let mut m = ManagedEngine::new(cmd.clone(), options.clone(), 0);
        moves.push(
            m.query(&pos, limit, true, soon(20_000), &never())
                .unwrap_or_else(|e| panic!("{e}")),
        );
        assert!(m.name().starts_with("nosce"), "{}", m.name());
        m.new_game();
        moves.push(
            m.query(&pos, limit, true, soon(20_000), &never())
                .unwrap_or_else(|e| panic!("{e}")),
        );
    }
    assert!(pos.legal_moves().contains(&moves[0]));
    assert!(
        moves.iter().all(|&m| m == moves[0]),
        "{:?}",
        moves.iter().map(|&m| uci(m)).collect::<Vec<_>>()
    );
    let mut e = UciEngine::start(&cmd, &options, START).unwrap_or_else(|e| panic!("{e}"));
    let a = e.best_move(&pos, limit, soon(20_000), &never()).unwrap();
    assert!(a.depth > 0 && a.nodes > 0 && a.score_cp.is_some(), "{a:?}");
}

// --- xboard (CECP v2) engines -------------------------------------------------------------

/// The fake xboard engine in `mode`, managed (restart budget `restarts`) as an xboard engine.
fn fake_xboard(mode: &str, restarts: u32) -> ManagedEngine {
    require_python_chess();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_xboard.py");
    let cmd = EngineCommand {
        program: PYTHON.into(),
        args: vec![script.into(), mode.into()],
    };
    ManagedEngine::new(cmd, Vec::new(), restarts).with_protocol(Protocol::Xboard)
}

#[test]
fn xboard_engine_answers_in_coordinates_and_san_with_the_whole_game() {
    for mode in ["ok", "san"] {
        let mut m = fake_xboard(mode, 0);
        warm_up(&mut m);
        assert_eq!(m.name(), format!("fake-{mode}"));
        // The game line is replayed (`setboard` + `usermove`s), so the answer is the first
        // legal move of the position after the moves.
        for moves in [&[][..], &["e2e4", "e7e5", "g1f3"][..]] {
            let pos = after(moves);
            let mv = m
                .query(&pos, GoLimit::Depth(3), false, soon(5000), &never())
                .unwrap_or_else(|e| panic!("{mode}: {e}"));
            assert_eq!(uci(mv), first_move(&pos), "{mode} after {moves:?}");
        }
    }
}

#[test]
fn xboard_engine_that_rejects_sd_is_asked_with_depth() {
    // Debian's phalanx answers `sd 3` with `Illegal move: sd 3`; the fake in this mode plays
    // `a1a1` unless it was given `depth N`.
    let mut m = fake_xboard("phalanx", 0);
    warm_up(&mut m);
    for moves in [&["d2d4"][..], &["d2d4", "d7d5"][..]] {
        let pos = after(moves);
        let mv = m
            .query(&pos, GoLimit::Depth(3), false, soon(5000), &never())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(uci(mv), first_move(&pos));
    }
    assert_eq!(m.restarts(), 0);
}

#[test]
fn xboard_faults_are_reported_like_uci_ones() {
    let pos = after(&["e2e4"]);
    // Crash: exited, a restart counted, the message names the protocol.
    let mut m = fake_xboard("crash", 1);
    warm_up(&mut m);
    let err = m
        .query(&pos, GoLimit::Depth(2), false, soon(5000), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Exited);
    assert!(
        err.to_string().starts_with("xboard engine 'fake-crash'"),
        "{err}"
    );
    assert_eq!(m.restarts(), 1);
    // An illegal answer is a fault.
    let mut m = fake_xboard("illegal", 1);
    let err = m
        .query(&pos, GoLimit::Depth(2), false, soon(20_000), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::IllegalMove("a1a1".into()));
    // A hang: our deadline is no fault; the next query finds it unresponsive to `?`.
    let mut m = fake_xboard("hang", 1);
    warm_up(&mut m);
    let t = Instant::now();
    let err = m
        .query(&pos, GoLimit::Depth(2), false, soon(300), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Timeout);
    assert!(
        t.elapsed() < Duration::from_millis(600),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(m.restarts(), 0);
    let err = m
        .query(&pos, GoLimit::Depth(2), false, soon(5000), &never())
        .unwrap_err();
    assert_eq!(err.kind, ErrorKind::Unresponsive);
    assert_eq!(m.restarts(), 1);
    // A node limit cannot be said in xboard: refused, and no fault of the engine's.
    let mut m = fake_xboard("ok", 0);
    warm_up(&mut m);
    let err = m
        .query(&pos, GoLimit::Nodes(1000), false, soon(5000), &never())
        .unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Unsupported(_)), "{err}");
    assert_eq!(m.restarts(), 0);
}

#[test]
fn xboard_engines_that_cannot_be_used_do_not_start() {
    for (mode, why) in [("no-setboard", "setboard"), ("no-done", "done=1")] {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_xboard.py");
        require_python_chess();
        let cmd = EngineCommand {
            program: PYTHON.into(),
            args: vec![script.into(), mode.into()],
        };
        let err = CecpEngine::start(&cmd, &[], Duration::from_secs(20))
            .err()
            .expect("started");
        assert!(
            matches!(&err.kind, ErrorKind::Start(m) if m.contains(why)),
            "{mode}: {err}"
        );
    }
}

#[test]
fn nosce_itself_as_an_xboard_engine() {
    let cmd = EngineCommand::program(env!("CARGO_BIN_EXE_nosce"));
    let options = vec![("Hash".to_string(), "4".to_string())];
    let mut e = CecpEngine::start(&cmd, &options, START).unwrap_or_else(|e| panic!("{e}"));
    assert!(e.name().starts_with("nosce"), "{}", e.name());
    let pos = after(&["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4"]);
    let a = e
        .best_move(&pos, GoLimit::Depth(5), soon(20_000), &never())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(pos.legal_moves().contains(&a.mv));
    // Stopped mid-search with `?`: the late move is drained and the next answer is for the
    // next position.
    let stop = AtomicBool::new(false);
    let deep = after(&["d2d4", "g8f6"]);
    let err = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        e.best_move(&deep, GoLimit::Depth(60), soon(20_000), &stop)
            .unwrap_err()
    });
    assert_eq!(err.kind, ErrorKind::Stopped);
    let b = e
        .best_move(&pos, GoLimit::Depth(5), soon(20_000), &never())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(pos.legal_moves().contains(&b.mv), "{}", uci(b.mv));
}
