//! The exact-table file format, its checksum and atomic writing. Tables are produced by the
//! retrograde solver (Thompson's method, Donkers 2003 §5.4 / Appendix B) and cached on disk.
//!
//! Layout (all integers little-endian), header of [`HEADER_LEN`] bytes, then the payload:
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `NOSCETB\0` |
//! | 8 | 4 | format version ([`FILE_VERSION`]) |
//! | 12 | 4 | header length (72) |
//! | 16 | 16 | material key, ASCII, NUL padded (`KQvKR`) |
//! | 32 | 4 | number of pieces |
//! | 36 | 4 | reserved, 0 |
//! | 40 | 8 | index slots per side to move (`462 * 64^(pieces-2)`, with pawns `32 * 64^(pieces-1)`) |
//! | 48 | 8 | payload length in bytes (4 × slots) |
//! | 56 | 4 | largest DTM (plies) |
//! | 60 | 4 | largest DTC (plies) |
//! | 64 | 8 | checksum: 64-bit FNV-1a over bytes 0..64 followed by the payload |
//!
//! Payload: DTM codes with White to move, DTM with Black to move, DTC with White to move,
//! DTC with Black to move; one byte per index slot (see [`crate::tb::table`] for the codes).
//! Files are written to a uniquely named temporary file in the same directory and renamed into
//! place, so concurrent writers (threads or processes) never leave a partial file.

use std::{
    fs,
    io::Write,
    path::{Path, PathBuf},
    time::{SystemTime, UNIX_EPOCH},
};

use shakmaty::Color;

use crate::tb::{
    error::TbError,
    index::Layout,
    material::Material,
    params::{FILE_EXTENSION, FILE_MAGIC, FILE_VERSION},
    table::Table,
};

/// Length of the file header in bytes.
pub const HEADER_LEN: usize = 72;
/// Where the checksum starts: the header fields before it are bytes `0..CHECKSUM_AT`.
const CHECKSUM_AT: usize = 64;

/// 64-bit FNV-1a hash state (offset basis and prime from the FNV specification).
#[derive(Debug, Clone, Copy)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Feeds bytes into the hash.
    pub fn update(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.0 = h;
    }

    /// The hash value.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// File name of a material's table (`KQvKR.ntb`).
pub fn file_name(material: &Material) -> String {
    format!("{material}.{FILE_EXTENSION}")
}

/// Path of a material's table in `dir`.
pub fn table_path(dir: &Path, material: &Material) -> PathBuf {
    dir.join(file_name(material))
}

/// Serialises a table (header and payload).
pub fn encode(table: &Table) -> Vec<u8> {
    let slots = table.layout().size;
    let mut out = Vec::with_capacity(HEADER_LEN + 4 * slots);
    out.extend_from_slice(&header(table));
    out.extend_from_slice(&[0u8; 8]); // checksum, filled below
    for color in [Color::White, Color::Black] {
        out.extend_from_slice(table.dtm_codes(color));
    }
    for color in [Color::White, Color::Black] {
        out.extend_from_slice(table.dtc_codes(color));
    }
    let sum = checksum(&out);
    out[CHECKSUM_AT..HEADER_LEN].copy_from_slice(&sum.to_le_bytes());
    out
}

/// The first [`CHECKSUM_AT`] bytes of `table`'s file (everything before the checksum).
fn header(table: &Table) -> Vec<u8> {
    let material = table.material();
    let layout = table.layout();
    let slots = layout.size;
    let (max_dtm, max_dtc) = table.max_distances();
    let mut out = Vec::with_capacity(CHECKSUM_AT);
    out.extend_from_slice(&FILE_MAGIC);
    out.extend_from_slice(&FILE_VERSION.to_le_bytes());
    out.extend_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    let mut key = [0u8; 16];
    for (dst, src) in key.iter_mut().zip(material.to_string().bytes()) {
        *dst = src;
    }
    out.extend_from_slice(&key);
    out.extend_from_slice(&(layout.n as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(slots as u64).to_le_bytes());
    out.extend_from_slice(&((4 * slots) as u64).to_le_bytes());
    out.extend_from_slice(&u32::from(max_dtm).to_le_bytes());
    out.extend_from_slice(&u32::from(max_dtc).to_le_bytes());
    debug_assert_eq!(out.len(), CHECKSUM_AT);
    out
}

/// Checksum of an encoded file: FNV-1a over header bytes 0..64 and the payload.
fn checksum(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::default();
    h.update(&bytes[..CHECKSUM_AT.min(bytes.len())]);
    if bytes.len() > HEADER_LEN {
        h.update(&bytes[HEADER_LEN..]);
    }
    h.finish()
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Parses and verifies an encoded table of `expected` material.
pub fn decode(bytes: &[u8], expected: &Material) -> Result<Table, TbError> {
    let bad = |why: String| Err(TbError::Corrupt(format!("{expected}: {why}")));
    if bytes.len() < HEADER_LEN {
        return bad(format!("truncated header ({} bytes)", bytes.len()));
    }
    if bytes[..8] != FILE_MAGIC {
        return bad("wrong magic (not a nosce table)".into());
    }
    let version = u32_at(bytes, 8);
    if version != FILE_VERSION {
        return bad(format!("format version {version}, expected {FILE_VERSION}"));
    }
    if u32_at(bytes, 12) as usize != HEADER_LEN {
        return bad("unexpected header length".into());
    }
    let key: Vec<u8> = bytes[16..32]
        .iter()
        .copied()
        .take_while(|&b| b != 0)
        .collect();
    if key != expected.to_string().as_bytes() {
        return bad(format!("material key {:?}", String::from_utf8_lossy(&key)));
    }
    let layout = Layout::new(expected);
    if u32_at(bytes, 32) as usize != layout.n {
        return bad("piece count does not match the material".into());
    }
    let slots = u64_at(bytes, 40);
    let payload = u64_at(bytes, 48);
    if slots != layout.size as u64 || payload != 4 * slots {
        return bad(format!(
            "size fields {slots}/{payload} do not match {}",
            layout.size
        ));
    }
    if bytes.len() as u64 != HEADER_LEN as u64 + payload {
        return bad(format!(
            "file has {} bytes, expected {} (truncated or padded)",
            bytes.len(),
            HEADER_LEN as u64 + payload
        ));
    }
    let stored = u64_at(bytes, CHECKSUM_AT);
    let actual = checksum(bytes);
    if stored != actual {
        return bad(format!(
            "checksum mismatch (stored {stored:016x}, computed {actual:016x})"
        ));
    }
    let s = layout.size;
    let part = |k: usize| bytes[HEADER_LEN + k * s..HEADER_LEN + (k + 1) * s].to_vec();
    let table = Table::from_parts(*expected, [part(0), part(1)], [part(2), part(3)])
        .ok_or_else(|| TbError::Corrupt(format!("{expected}: inconsistent table")))?;
    // Every header byte is what we would write for this table: no slack (the key's padding,
    // the reserved word, the longest distances) that a damaged file could hide in.
    if bytes[..CHECKSUM_AT] != header(&table)[..] {
        return bad(
            "header does not match the table (padding, reserved or distance fields)".into(),
        );
    }
    Ok(table)
}

/// Reads and verifies `dir/<material>.ntb`. `Ok(None)` if the file does not exist.
pub fn load(dir: &Path, material: &Material) -> Result<Option<Table>, TbError> {
    let path = table_path(dir, material);
    match fs::read(&path) {
        Ok(bytes) => decode(&bytes, material).map(Some).map_err(|e| match e {
            TbError::Corrupt(msg) => TbError::Corrupt(format!("{}: {msg}", path.display())),
            other => other,
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(TbError::Io(format!("reading {}: {e}", path.display()))),
    }
}

/// A temporary-file name unique to this process, thread and moment.
fn temp_name(material: &Material) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let thread = format!("{:?}", std::thread::current().id());
    let thread: String = thread.chars().filter(char::is_ascii_digit).collect();
    format!(".{material}.{}.{thread}.{nanos}.tmp", std::process::id())
}

/// Writes a table atomically into `dir` (created if missing); returns the final path.
pub fn store(dir: &Path, table: &Table) -> Result<PathBuf, TbError> {
    let io = |what: &str, path: &Path, e: std::io::Error| {
        TbError::Io(format!("{what} {}: {e}", path.display()))
    };
    fs::create_dir_all(dir).map_err(|e| io("creating", dir, e))?;
    let material = table.material();
    let target = table_path(dir, &material);
    let temp = dir.join(temp_name(&material));
    let bytes = encode(table);
    let written = fs::File::create(&temp)
        .and_then(|mut file| {
            file.write_all(&bytes)?;
            file.sync_all()
        })
        .map_err(|e| io("writing", &temp, e));
    if let Err(e) = written {
        let _ = fs::remove_file(&temp);
        return Err(e);
    }
    if let Err(e) = fs::rename(&temp, &target) {
        let _ = fs::remove_file(&temp);
        // Another writer may hold the target (e.g. on Windows); a valid file there is fine.
        if matches!(load(dir, &material), Ok(Some(_))) {
            return Ok(target);
        }
        return Err(io("renaming into", &target, e));
    }
    Ok(target)
}
