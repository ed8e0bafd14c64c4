//! The search threads that outlive a move: a pool of `Threads` OS threads, made when the
//! engine starts and remade only when `Threads` changes, on which every `go` runs its main
//! search and every helper it starts (the plain search's Lazy SMP helpers and the
//! opponent-model driver's participants, Donkers 2003 Alg. 3.8 searched root move by root
//! move), with one slot of ordering tables per thread — killers, history and counter moves
//! of our own α-β and of each opponent type's probe worker — kept from one move to the next
//! (aged by [`OrderingTables::new_search`] when a search takes them) and cleared by
//! `ucinewgame`, as model engines keep their thread data.
//!
//! The threads are a `rayon-core` pool: its scopes let a job borrow the search's state (the
//! evaluator, the tables, the stop flag) for exactly the search's lifetime, which a pool of
//! our own could only do with `unsafe`. Searches without a pool (experiments, probes,
//! `bench`, tests) start scoped threads of their own and fresh tables, as before; [`team`]
//! hides the difference.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex};

use super::ordering::OrderingTables;

/// The stack of every search thread: the recursion goes `MAX_PLY` deep with a position and
/// a move list in each frame.
pub const THREAD_STACK: usize = 64 * 1024 * 1024;

/// The address space a search thread needs beyond its stack: the arena its allocator
/// reserves at its first allocation (64 MB with glibc on 64-bit systems) and its worker —
/// principal-variation table, ordering tables, histories, accumulators, a few megabytes —
/// with room to spare for the main search beside it.
const WORKER_HEADROOM: usize = (64 + 16) * 1024 * 1024;

/// True if `n` more search threads fit: their stacks and [`WORKER_HEADROOM`] each can be
/// reserved now (and are given back at once). Without it, a thread that starts in the last
/// of the address space would have its stack but no room for its worker (or for the
/// thread pool's own bookkeeping), and a failed allocation aborts the process; a refused
/// reservation is an error we can report.
fn room_for_threads(n: usize) -> bool {
    // One block a thread, all held at once: what the threads will take, and no single
    // reservation larger than one thread's (a system that overcommits memory refuses one
    // huge reservation it would grant in pieces).
    let mut held: Vec<Vec<u8>> = Vec::new();
    if held.try_reserve_exact(n).is_err() {
        return false;
    }
    for _ in 0..n {
        let mut block: Vec<u8> = Vec::new();
        if block
            .try_reserve_exact(THREAD_STACK + WORKER_HEADROOM)
            .is_err()
        {
            return false;
        }
        held.push(block);
    }
    true
}

/// The ordering tables one thread keeps between moves.
#[derive(Default)]
pub struct ThreadTables {
    /// Our own α-β worker's (the plain search's, or the OM driver's own).
    pub own: OrderingTables,
    /// Each opponent type's probe worker's, in the model's order (OM only).
    pub types: Vec<OrderingTables>,
}

impl ThreadTables {
    /// Takes our own tables for a search, aged; an empty set is left in their place.
    pub fn take_own(&mut self) -> OrderingTables {
        aged(self.own.take())
    }

    /// Takes type `i`'s tables for a search (of `n` types: a model with another number of
    /// types starts afresh), aged.
    pub fn take_type(&mut self, i: usize, n: usize) -> OrderingTables {
        if self.types.len() != n {
            self.types = (0..n).map(|_| OrderingTables::empty()).collect();
        }
        aged(self.types[i].take())
    }
}

/// `t` aged for a new search, or a fresh set where `t` is empty (never given back: a search
/// that failed).
fn aged(mut t: OrderingTables) -> OrderingTables {
    if t.is_empty() {
        return OrderingTables::default();
    }
    t.new_search();
    t
}

/// The engine's search threads and their ordering tables.
pub struct SearchPool {
    threads: rayon_core::ThreadPool,
    slots: Vec<Mutex<ThreadTables>>,
}

impl SearchPool {
    /// A pool of `threads` threads (at least one), each with a stack of [`THREAD_STACK`].
    ///
    /// # Errors
    /// The memory for the threads' stacks and tables could not be reserved first (no thread
    /// is started then), or the operating system refused the threads (their message).
    pub fn new(threads: usize) -> Result<Self, String> {
        let threads = threads.max(1);
        if !room_for_threads(threads) {
            return Err(format!(
                "not enough memory for {threads} threads' stacks and tables"
            ));
        }
        let pool = rayon_core::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(THREAD_STACK)
            .thread_name(|i| format!("search-{i}"))
            .build()
            .map_err(|e| e.to_string())?;
        Ok(SearchPool {
            threads: pool,
            slots: (0..threads)
                .map(|_| Mutex::new(ThreadTables::default()))
                .collect(),
        })
    }

    /// How many threads the pool has.
    pub fn threads(&self) -> usize {
        self.slots.len()
    }

    /// The ordering tables of thread `i` (the main search is 0); `None` past the pool.
    pub fn slot(&self, i: usize) -> Option<&Mutex<ThreadTables>> {
        self.slots.get(i)
    }

    /// Forgets every thread's ordering tables (a new game).
    pub fn clear(&self) {
        for s in &self.slots {
            *s.lock() = ThreadTables::default();
        }
    }

    /// Runs `job` on one of the pool's threads and returns at once; the [`Job`] tells when
    /// it has ended. A panic in `job` ends the job only (as it would end a thread of its
    /// own); the engine's search catches its own and still answers.
    pub fn spawn(&self, job: impl FnOnce() + Send + 'static) -> Job {
        let state = Arc::new(JobState::default());
        let done = Arc::clone(&state);
        self.threads.spawn(move || {
            let _ = catch_unwind(AssertUnwindSafe(job));
            *done.ended.lock() = true;
            done.woken.notify_all();
        });
        Job(state)
    }
}

#[derive(Default)]
struct JobState {
    ended: Mutex<bool>,
    woken: Condvar,
}

/// A job running on the pool ([`SearchPool::spawn`]).
pub struct Job(Arc<JobState>);

impl Job {
    /// True once the job has ended.
    pub fn is_finished(&self) -> bool {
        *self.0.ended.lock()
    }

    /// Waits until the job has ended.
    pub fn join(&self) {
        let mut ended = self.0.ended.lock();
        while !*ended {
            self.0.woken.wait(&mut ended);
        }
    }
}

/// Runs `main` on this thread and `helper(place, item)` for each of `items` (places 1, 2,
/// …) beside it — on `pool`'s threads, or without a pool on scoped threads of their own —
/// and returns `main`'s result once every helper has ended. A
/// helper that panicked passes its panic on here, after the others have ended.
///
/// Without a pool a thread can fail to start (memory, a limit on threads): the helpers from
/// that one on are not run, and `on_fail(started, error)` is told how many were. A thread
/// is not started when the memory for its stack and its tables could not be reserved
/// first, and each is started only after the one before it has made its first allocation,
/// so that the threads that do start never meet a failed allocation.
pub fn team<T: Send, R>(
    pool: Option<&SearchPool>,
    items: impl IntoIterator<Item = T>,
    helper: impl Fn(usize, T) + Sync,
    main: impl FnOnce() -> R,
    on_fail: impl FnOnce(usize, std::io::Error),
) -> R {
    let helper = &helper;
    match pool {
        Some(p) => p.threads.in_place_scope(|s| {
            for (i, item) in items.into_iter().enumerate() {
                s.spawn(move |_| helper(i + 1, item));
            }
            main()
        }),
        None => std::thread::scope(|s| {
            for (i, item) in items.into_iter().enumerate() {
                let spawned = if room_for_threads(1) {
                    let (ready, started) = std::sync::mpsc::channel::<()>();
                    std::thread::Builder::new()
                        .stack_size(THREAD_STACK)
                        .spawn_scoped(s, move || {
                            // A first allocation gives the thread its allocator's arena now,
                            // before the next thread's room is measured.
                            drop(std::hint::black_box(Box::new([0u8; 64])));
                            let _ = ready.send(());
                            helper(i + 1, item)
                        })
                        .map(|_| {
                            let _ = started.recv();
                        })
                } else {
                    Err(std::io::Error::new(
                        std::io::ErrorKind::OutOfMemory,
                        "not enough memory left for its stack and tables",
                    ))
                };
                if let Err(e) = spawned {
                    on_fail(i, e);
                    break;
                }
            }
            main()
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_team_runs_every_helper_once_with_its_place_and_borrows_its_items() {
        let pool = SearchPool::new(3).expect("three threads");
        for p in [Some(&pool), None] {
            let mut items = vec![0usize; 4];
            let calls = AtomicUsize::new(0);
            let r = team(
                p,
                items.iter_mut(),
                |place, item| {
                    *item = place;
                    calls.fetch_add(1, Ordering::SeqCst);
                },
                || 7,
                |_, _| panic!("no thread fails here"),
            );
            assert_eq!(r, 7);
            assert_eq!(calls.load(Ordering::SeqCst), 4);
            assert_eq!(items, vec![1, 2, 3, 4]);
        }
    }

    #[test]
    fn a_spawned_job_ends_and_is_joined_even_when_it_panics() {
        let pool = SearchPool::new(1).expect("one thread");
        let (tx, rx) = std::sync::mpsc::channel();
        let job = pool.spawn(move || tx.send(5).expect("receiver alive"));
        job.join();
        assert!(job.is_finished());
        assert_eq!(rx.recv().ok(), Some(5));
        let failed = pool.spawn(|| panic!("a failing job"));
        failed.join();
        // The pool's thread survived: the next job runs.
        let (tx, rx) = std::sync::mpsc::channel();
        pool.spawn(move || tx.send(6).expect("receiver alive"))
            .join();
        assert_eq!(rx.recv().ok(), Some(6));
    }

    #[test]
    fn tables_taken_from_a_slot_come_back_aged_and_a_clear_forgets_them() {
        let pool = SearchPool::new(1).expect("one thread");
        let slot = pool.slot(0).expect("slot 0");
        assert!(pool.slot(1).is_none());
        let t = slot.lock().take_own();
        assert!(!t.is_empty(), "a taken set is allocated");
        assert!(
            slot.lock().own.is_empty(),
            "the slot is empty while searched"
        );
        slot.lock().own = t;
        assert!(!slot.lock().own.is_empty());
        let types = slot.lock().take_type(1, 2);
        assert!(!types.is_empty());
        assert_eq!(slot.lock().types.len(), 2);
        pool.clear();
        assert!(slot.lock().types.is_empty());
    }
}
