//! The text form of a [`Profile`] and the file name of a key: encoding, decoding with
//! checksum and version checks, escaping. The format is described in the [parent
//! module](super); this file owns its details and nothing here touches the file system.

use std::fmt::Write as _;

use super::{CandidateStats, FORMAT_VERSION, Profile};

const MAGIC: &str = "nosce-profile";
const EXTENSION: &str = "profile";
/// Longest file stem before it is cut and hashed.
const NAME_CAP: usize = 48;

/// 64-bit FNV-1a.
pub(super) fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The file name for `key`; see the [parent module](super).
pub(super) fn file_name(key: &str) -> String {
    let mut stem = String::with_capacity(key.len());
    for b in key.bytes() {
        if b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_' {
            stem.push(char::from(b));
        } else {
            let _ = write!(stem, "%{b:02x}");
        }
    }
    if stem.len() > NAME_CAP {
        let mut cut = NAME_CAP;
        // Do not split an escape: back up to the start of a `%xx` that straddles the cut.
        if let Some(p) = stem[cut - 2..cut].find('%') {
            cut = cut - 2 + p;
        }
        stem.truncate(cut);
        let _ = write!(stem, "+{:016x}", fnv1a64(key.as_bytes()));
    }
    const DEVICES: [&str; 4] = ["con", "prn", "aux", "nul"];
    let device = DEVICES.contains(&stem.as_str())
        || (stem.len() == 4
            && (stem.starts_with("com") || stem.starts_with("lpt"))
            && stem.as_bytes()[3].is_ascii_digit());
    if device {
        stem.replace_range(..1, &format!("%{:02x}", stem.as_bytes()[0]));
    }
    format!("{stem}.{EXTENSION}")
}

/// Escapes a text field so that it fits on one line.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_ascii_control() => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Undoes [`escape`].
fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                let code = Some(&hex)
                    .filter(|h| h.len() == 2 && h.bytes().all(|b| b.is_ascii_hexdigit()))
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .filter(u8::is_ascii_control)
                    .ok_or_else(|| format!("bad escape '\\x{hex}'"))?;
                out.push(char::from(code));
            }
            other => return Err(format!("bad escape '\\{}'", other.unwrap_or(' '))),
        }
    }
    Ok(out)
}

/// The first 60 characters of `s`, escaped, for messages.
pub(super) fn shorten(s: &str) -> String {
    let s = escape(s);
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// The file content for `p`.
pub(super) fn encode(p: &Profile) -> String {
    let mut s = format!("{MAGIC} {FORMAT_VERSION}\n");
    let _ = writeln!(s, "key {}", escape(&p.key));
    let _ = writeln!(s, "name {}", escape(&p.display_name));
    let _ = writeln!(s, "games {}", p.games);
    let _ = writeln!(s, "moves {}", p.moves);
    match p.elo {
        Some(e) => {
            let _ = writeln!(s, "elo {e}");
        }
        None => s.push_str("elo none\n"),
    }
    for c in &p.candidates {
        let _ = writeln!(
            s,
            "candidate {} {} {:?} {}",
            c.moves,
            c.predicted,
            c.log_likelihood,
            escape(&c.name)
        );
    }
    let sum = fnv1a64(s.as_bytes());
    let _ = writeln!(s, "checksum {sum:016x}");
    s
}

/// Why [`decode`] failed.
#[derive(Debug, PartialEq)]
pub(super) enum Failure {
    Newer(u64),
    Corrupt(String),
}

impl From<String> for Failure {
    fn from(reason: String) -> Self {
        Failure::Corrupt(reason)
    }
}

/// Parses a number field.
fn number<T: std::str::FromStr>(line: usize, field: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("line {line}: {field} '{}' is not a number", shorten(value)))
}

/// Parses file content; the inverse of [`encode`].
pub(super) fn decode(text: &str) -> Result<Profile, Failure> {
    if text.is_empty() {
        return Err("the file is empty".to_string().into());
    }
    // The version first: a newer format may also checksum differently.
    let header = text.split('\n').next().unwrap_or("");
    let version = header
        .strip_prefix(MAGIC)
        .and_then(|v| v.strip_prefix(' '))
        .ok_or_else(|| format!("not a nosce profile (first line '{}')", shorten(header)))?;
    let version: u64 = number(1, "version", version)?;
    if version > FORMAT_VERSION {
        return Err(Failure::Newer(version));
    }
    if version < 1 {
        return Err(format!("unknown profile version {version}").into());
    }

    let Some(without_end) = text.strip_suffix('\n') else {
        return Err("truncated (no line end after the last line)"
            .to_string()
            .into());
    };
    let Some((before, last)) = without_end.rsplit_once('\n') else {
        return Err("truncated (no checksum line)".to_string().into());
    };
    let body = &text[..before.len() + 1];
    let stored = last
        .strip_prefix("checksum ")
        .filter(|h| h.len() == 16 && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .ok_or("truncated or edited (the last line is not a checksum)".to_string())?;
    if stored != fnv1a64(body.as_bytes()) {
        return Err("checksum mismatch: the file was truncated or edited"
            .to_string()
            .into());
    }

    let mut lines = body.split_terminator('\n').enumerate().skip(1);
    let mut field = |name: &str| -> Result<(usize, &str), String> {
        let (i, line) = lines
            .next()
            .ok_or_else(|| format!("the '{name}' line is missing"))?;
        line.strip_prefix(name)
            .and_then(|v| v.strip_prefix(' '))
            .map(|v| (i + 1, v))
            .ok_or_else(|| format!("line {}: expected '{name} …'", i + 1))
    };
    let (n, key) = field("key")?;
    let key = unescape(key).map_err(|e| format!("line {n}: {e}"))?;
    let (n, name) = field("name")?;
    let display_name = unescape(name).map_err(|e| format!("line {n}: {e}"))?;
    let (n, games) = field("games")?;
    let games = number(n, "games", games)?;
    let (n, moves) = field("moves")?;
    let moves = number(n, "moves", moves)?;
    let (n, elo) = field("elo")?;
    let elo = match elo {
        "none" => None,
        e => Some(number(n, "elo", e)?),
    };
    let mut candidates = Vec::new();
    for (i, line) in lines {
        let n = i + 1;
        let rest = line
            .strip_prefix("candidate ")
            .ok_or_else(|| format!("line {n}: expected 'candidate …'"))?;
        let mut parts = rest.splitn(4, ' ');
        let mut next = |what: &str| {
            parts
                .next()
                .ok_or_else(|| format!("line {n}: candidate without {what}"))
        };
        let moves = number(n, "moves", next("moves")?)?;
        let predicted = number(n, "predicted", next("predicted")?)?;
        let log_likelihood = number(n, "log-likelihood", next("log-likelihood")?)?;
        let name = unescape(next("name")?).map_err(|e| format!("line {n}: {e}"))?;
        candidates.push(CandidateStats {
            name,
            moves,
            predicted,
            log_likelihood,
        });
    }
    let profile = Profile {
        key,
        display_name,
        games,
        moves,
        candidates,
        elo,
    };
    profile.validate()?;
    Ok(profile)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Profile {
        Profile {
            key: "gary kasparov".into(),
            display_name: "Gary Kasparov".into(),
            games: 2,
            moves: 81,
            candidates: vec![
                CandidateStats {
                    name: "self:depth=3".into(),
                    moves: 81,
                    predicted: 40,
                    log_likelihood: -97.25,
                },
                CandidateStats {
                    name: "material:depth=2".into(),
                    moves: 81,
                    predicted: 22,
                    log_likelihood: -130.5,
                },
            ],
            elo: Some(2800),
        }
    }

    /// A file with a correct checksum around an arbitrary body.
    fn sealed(body: &str) -> String {
        format!("{body}checksum {:016x}\n", fnv1a64(body.as_bytes()))
    }

    fn corrupt(text: &str) -> String {
        match decode(text) {
            Err(Failure::Corrupt(m)) => {
                assert!(!m.is_empty(), "empty message for {text:?}");
                m
            }
            other => panic!("{text:?} gave {other:?}"),
        }
    }

    #[test]
    fn the_documented_example_is_what_encode_writes() {
        let text = encode(&sample());
        assert!(text.starts_with("nosce-profile 1\nkey gary kasparov\nname Gary Kasparov\n"));
        assert!(text.contains("\ncandidate 81 40 -97.25 self:depth=3\n"));
        assert!(
            text.ends_with(
                "\ncandidate 81 22 -130.5 material:depth=2\nchecksum 5759c5f0bbc0f0ea\n"
            )
        );
        assert_eq!(decode(&text), Ok(sample()));
    }

    #[test]
    fn every_value_round_trips_exactly() {
        let odd = "a\\b\nc\rd\te\u{7f}f \u{1}ü漢 \\x41 ";
        let p = Profile {
            key: odd.into(),
            display_name: String::new(),
            games: u32::MAX,
            moves: u64::MAX,
            candidates: [0.0, -0.0, -1e-300, f64::MIN, f64::MAX, -0.1 - 0.2, 5e-324]
                .iter()
                .enumerate()
                .map(|(i, &ll)| CandidateStats {
                    name: if i == 0 {
                        String::new()
                    } else {
                        format!("{odd}{i}")
                    },
                    moves: u64::MAX,
                    predicted: i as u64,
                    log_likelihood: ll,
                })
                .collect(),
            elo: None,
        };
        let text = encode(&p);
        assert_eq!(
            text.lines().count(),
            6 + 7 + 1,
            "one line per field: {text}"
        );
        let back = decode(&text).unwrap();
        assert_eq!(back, p);
        for (a, b) in back.candidates.iter().zip(&p.candidates) {
            assert_eq!(a.log_likelihood.to_bits(), b.log_likelihood.to_bits());
        }
        assert_eq!(decode(&encode(&Profile::default())), Ok(Profile::default()));
    }

    #[test]
    fn every_truncation_and_every_changed_byte_is_detected() {
        let text = encode(&sample());
        for len in 0..text.len() {
            assert!(
                decode(&text[..len]).is_err(),
                "accepted the first {len} bytes"
            );
        }
        let bytes = text.as_bytes();
        for i in 0..bytes.len() {
            for flip in [0x01, 0x20] {
                let mut b = bytes.to_vec();
                b[i] ^= flip;
                let t = String::from_utf8(b).unwrap();
                assert!(decode(&t).is_err(), "accepted byte {i} ^ {flip:#x}: {t:?}");
            }
        }
        assert!(
            decode(&text.replace('\n', "\r\n")).is_err(),
            "CRLF is an edit"
        );
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        let body = encode(&sample());
        let body = &body[..body.rfind("checksum").unwrap()];
        for text in [
            String::new(),
            "\n".into(),
            "hello world\n".into(),
            "nosce-profile\n".into(),
            "nosce-profile x\nkey a\n".into(),
            "nosce-profile 0\n".into(),
            "nosce-profile 1\n".into(),
            body.into(),
            format!("{body}checksum 0000000000000000\n"),
            format!("{body}checksum {:016X}\n", fnv1a64(body.as_bytes())),
            sealed("nosce-profile 1\n"),
            sealed("nosce-profile 1\nkey a\nname a\ngames 1\nmoves 1\n"),
            sealed("nosce-profile 1\nname a\nkey a\ngames 1\nmoves 1\nelo none\n"),
            sealed("nosce-profile 1\nkey a\nname a\ngames -1\nmoves 1\nelo none\n"),
            sealed("nosce-profile 1\nkey a\nname a\ngames 1\nmoves 1\nelo 4001\n"),
            sealed("nosce-profile 1\nkey a\nname a\ngames 1\nmoves 1\nelo none\nextra 1\n"),
            sealed("nosce-profile 1\nkey a\\q\nname a\ngames 1\nmoves 1\nelo none\n"),
            sealed("nosce-profile 1\nkey a\\x4\nname a\ngames 1\nmoves 1\nelo none\n"),
            sealed("nosce-profile 1\nkey a\\x41\nname a\ngames 1\nmoves 1\nelo none\n"),
            sealed("nosce-profile 1\nkey a\nname a\ngames 1\nmoves 1\nelo none\ncandidate 1 0\n"),
            sealed(
                "nosce-profile 1\nkey a\nname a\ngames 1\nmoves 1\nelo none\ncandidate 1 2 -1.0 x\n",
            ),
        ] {
            corrupt(&text);
        }
        for bad in ["NaN", "inf", "-inf", "infinity"] {
            let m = corrupt(&sealed(&format!(
                "nosce-profile 1\nkey a\nname a\ngames 1\nmoves 1\nelo none\ncandidate 1 0 {bad} x\n"
            )));
            assert!(m.contains("not finite"), "{m}");
        }
        assert!(corrupt(&format!("{body}checksum 0000000000000000\n")).contains("checksum"));
        assert_eq!(
            decode("nosce-profile 2\nwhatever\n"),
            Err(Failure::Newer(2))
        );
        assert_eq!(decode("nosce-profile 17"), Err(Failure::Newer(17)));
    }

    #[test]
    fn file_names_stay_inside_and_do_not_collide() {
        let long = "x".repeat(10_000);
        let keys = [
            "",
            ".",
            "..",
            "../x",
            "../../etc/passwd",
            "a/b",
            "a\\b",
            "C:\\x",
            "con",
            "CON",
            "nul",
            "com1",
            "lpt9",
            "com",
            "con.txt",
            "Gary",
            "gary",
            "a b",
            "a%20b",
            "ü",
            "漢字",
            "a+b",
            "-_",
            " x ",
            "x.",
            &long,
            &long[1..],
        ];
        let names: Vec<String> = keys.iter().map(|k| file_name(k)).collect();
        for (k, n) in keys.iter().zip(&names) {
            let stem = n.strip_suffix(".profile").unwrap();
            assert!(
                stem.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_%+".contains(&b)),
                "{k:?} -> {n}"
            );
            assert!(n.len() <= NAME_CAP + 17 + 8, "{n} is too long");
            assert!(
                !["con", "prn", "aux", "nul", "com1", "lpt9"].contains(&stem),
                "{n}"
            );
        }
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        assert_eq!(file_name("gary kasparov"), "gary%20kasparov.profile");
        assert_eq!(file_name("con"), "%63on.profile");
        assert_eq!(file_name(""), ".profile");
    }
}
