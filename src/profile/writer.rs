//! Saving profiles off the clock: a search hands the latest [`Profile`] to a
//! [`ProfileWriter`] and goes on; one background thread writes it ([`ProfileStore::save`]:
//! temporary file, `fsync`, rename). A profile is saved after every scored opponent move,
//! and on a busy disk one `fsync` can take hundreds of milliseconds (p99 0.17 s, max 0.24 s
//! measured during match 10b, whose `auto` lost 21 of 118 games on time at 5+0.05 while the
//! save ran inside the move's time). Only the newest
//! snapshot per file is written (older ones still waiting are skipped), and until it is on
//! disk [`ProfileWriter::latest`] answers loads from memory, so a new game never starts from
//! a file one move behind. Write errors are kept and reported by the next search
//! ([`ProfileWriter::take_errors`]). Dropping the writer writes what is still waiting.
//! Should the thread fail to start, saving falls back to the caller's thread.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use super::{Profile, ProfileStore};

/// What is waiting to be written, per file.
type Waiting = HashMap<PathBuf, (ProfileStore, Profile)>;

/// State shared with the writer thread.
#[derive(Default)]
struct Shared {
    /// Snapshots not yet on disk, newest per file.
    waiting: Mutex<Waiting>,
    /// Messages of failed writes, oldest first.
    errors: Mutex<Vec<String>>,
}

/// A background writer of profiles (see the module docs).
pub struct ProfileWriter {
    shared: Arc<Shared>,
    wake: Mutex<Option<Sender<()>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for ProfileWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProfileWriter")
            .field("waiting", &lock(&self.shared.waiting).len())
            .finish_non_exhaustive()
    }
}

impl Default for ProfileWriter {
    fn default() -> Self {
        Self::new()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes every waiting snapshot, each as it is at the moment of writing.
fn write_waiting(shared: &Shared) {
    loop {
        let next = {
            let waiting = lock(&shared.waiting);
            waiting
                .iter()
                .next()
                .map(|(path, (store, p))| (path.clone(), store.clone(), p.clone()))
        };
        let Some((path, store, profile)) = next else {
            return;
        };
        let result = store.save(&profile);
        {
            // Done with this file unless a newer snapshot arrived meanwhile.
            let mut waiting = lock(&shared.waiting);
            if waiting.get(&path).is_some_and(|(_, p)| *p == profile) {
                waiting.remove(&path);
            }
        }
        if let Err(e) = result {
            lock(&shared.errors).push(e.to_string());
            // Do not spin on a file that cannot be written: the next save retries it.
            lock(&shared.waiting).remove(&path);
        }
    }
}

fn run(shared: &Shared, wake: &Receiver<()>) {
    while wake.recv().is_ok() {
        write_waiting(shared);
    }
    // The engine is going away: what is still waiting is written now.
    write_waiting(shared);
}

impl ProfileWriter {
    /// A writer; its thread starts with the first save.
    pub fn new() -> Self {
        ProfileWriter {
            shared: Arc::new(Shared::default()),
            wake: Mutex::new(None),
            thread: Mutex::new(None),
        }
    }

    /// Queues `profile` for `store` and returns at once (see the module docs).
    pub fn save(&self, store: &ProfileStore, profile: Profile) {
        let path = store.path(&profile.key);
        lock(&self.shared.waiting).insert(path, (store.clone(), profile));
        let mut wake = lock(&self.wake);
        if wake.is_none() {
            let (tx, rx) = channel();
            let shared = Arc::clone(&self.shared);
            match std::thread::Builder::new()
                .name("profile-writer".into())
                .spawn(move || run(&shared, &rx))
            {
                Ok(handle) => {
                    *lock(&self.thread) = Some(handle);
                    *wake = Some(tx);
                }
                Err(e) => {
                    lock(&self.shared.errors).push(format!(
                        "cannot start the profile writer ({e}); saving in place"
                    ));
                    drop(wake);
                    write_waiting(&self.shared);
                    return;
                }
            }
        }
        if let Some(tx) = wake.as_ref()
            && tx.send(()).is_err()
        {
            // The thread is gone (it cannot panic on a write, but be safe): save here.
            drop(wake);
            write_waiting(&self.shared);
        }
    }

    /// The newest snapshot of `key` in `store` that is not on disk yet, if any.
    pub fn latest(&self, store: &ProfileStore, key: &str) -> Option<Profile> {
        lock(&self.shared.waiting)
            .get(&store.path(key))
            .map(|(_, p)| p.clone())
    }

    /// Loads `key` from `store`, preferring a snapshot that is still waiting to be written.
    ///
    /// # Errors
    /// As [`ProfileStore::load`].
    pub fn load(
        &self,
        store: &ProfileStore,
        key: &str,
    ) -> Result<Option<Profile>, super::ProfileError> {
        match self.latest(store, key) {
            Some(p) => Ok(Some(p)),
            None => store.load(key),
        }
    }

    /// Messages of writes that failed since the last call.
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.shared.errors))
    }

    /// Waits until everything queued so far is on disk (or failed).
    pub fn flush(&self) {
        if lock(&self.wake).is_none() {
            write_waiting(&self.shared);
            return;
        }
        while !lock(&self.shared.waiting).is_empty() {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
}

impl Drop for ProfileWriter {
    fn drop(&mut self) {
        drop(lock(&self.wake).take());
        if let Some(h) = lock(&self.thread).take() {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("nosce-writer-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn saves_in_the_background_and_answers_loads_meanwhile() {
        let dir = temp_dir("bg");
        let store = ProfileStore::new(&dir);
        let w = ProfileWriter::new();
        let mut p = Profile::new("gnu chess 6.2.7", "GNU Chess 6.2.7");
        for moves in 1..=50 {
            p.moves = moves;
            w.save(&store, p.clone());
            // Whatever the thread has done so far, a load sees the newest snapshot.
            assert_eq!(
                w.load(&store, &p.key).unwrap().map(|q| q.moves),
                Some(moves)
            );
        }
        w.flush();
        assert!(w.latest(&store, &p.key).is_none());
        assert_eq!(store.load(&p.key).unwrap().map(|q| q.moves), Some(50));
        assert!(w.take_errors().is_empty());
        // Dropping writes what is waiting.
        p.moves = 51;
        w.save(&store, p.clone());
        drop(w);
        assert_eq!(store.load(&p.key).unwrap().map(|q| q.moves), Some(51));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn write_errors_are_kept_for_the_next_search() {
        let dir = temp_dir("err");
        std::fs::create_dir_all(&dir).unwrap();
        // A file where the directory should be: the store cannot create it.
        let blocked = dir.join("not-a-dir");
        std::fs::write(&blocked, b"x").unwrap();
        let store = ProfileStore::new(blocked.join("profiles"));
        let w = ProfileWriter::new();
        w.save(&store, Profile::new("x", "X"));
        w.flush();
        let errors = w.take_errors();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(w.take_errors().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
