//! Writing a file so that a reader (or a run resumed after a crash) sees either the old
//! contents or the new, never a torn mixture: the bytes go to `PATH.tmp`, are synced to disk
//! and renamed over `PATH`. Used by `nosce datagen`'s progress file and `nosce train`'s nets
//! and checkpoint.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through `path.tmp`: written, synced, renamed over `path`.
///
/// # Errors
/// An I/O error, naming the file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| format!("cannot write '{}': {e}", path.display()))
}
