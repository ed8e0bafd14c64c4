//! The default network, compiled into the binary (issue 17, item 3): the net nosce plays
//! with unless `EvalFile` names another file or `hce` (the hand-crafted evaluation). The
//! file lives in `nets/` with its provenance in `nets/README.md`; its name is the trainer's
//! `nosce-<id>.nnue`, and a test checks that the id in the name is the id of the bytes.
//!
//! `EvalFile` values ([`EvalChoice::parse`]): the embedded net's file name (the default) or an
//! empty value select the embedded net without touching the disk; `hce` (any case) selects
//! the hand-crafted evaluation; anything else is a file to load.

use super::Network;

/// The embedded net's file name (the trainer's `nosce-<id>.nnue`), `EvalFile`'s default.
pub const FILE_NAME: &str = "nosce-cd3b08a9bfd6.nnue";

/// The embedded net's bytes.
const BYTES: &[u8] = include_bytes!("../../nets/nosce-cd3b08a9bfd6.nnue");

/// The `EvalFile` value that selects the hand-crafted evaluation.
pub const HCE: &str = "hce";

/// The embedded net.
///
/// # Errors
/// The compiled-in bytes are not a valid net (a build defect: a test loads them).
pub fn network() -> Result<Network, String> {
    Network::from_bytes(BYTES).map_err(|e| format!("the embedded net {FILE_NAME}: {e}"))
}

/// What an `EvalFile` value asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalChoice {
    /// The net compiled into the binary.
    Embedded,
    /// The hand-crafted evaluation.
    HandCrafted,
    /// A net file to load.
    File(String),
}

impl EvalChoice {
    /// Reads an `EvalFile` value (already trimmed of the protocol's `<empty>`).
    pub fn parse(value: &str) -> EvalChoice {
        let v = value.trim();
        if v.is_empty() || v == FILE_NAME {
            EvalChoice::Embedded
        } else if v.eq_ignore_ascii_case(HCE) {
            EvalChoice::HandCrafted
        } else {
            EvalChoice::File(v.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_net_loads_and_its_name_is_its_id() {
        let net = network().expect("the embedded net loads");
        assert_eq!(
            net.file_name(),
            FILE_NAME,
            "nets/ file renamed without its id"
        );
        assert_eq!(net.hidden(), super::super::DEFAULT_HIDDEN);
    }

    #[test]
    fn evalfile_values() {
        assert_eq!(EvalChoice::parse(""), EvalChoice::Embedded);
        assert_eq!(EvalChoice::parse(FILE_NAME), EvalChoice::Embedded);
        assert_eq!(EvalChoice::parse(" HCE "), EvalChoice::HandCrafted);
        assert_eq!(
            EvalChoice::parse("nets/other.nnue"),
            EvalChoice::File("nets/other.nnue".to_string())
        );
        // A path that merely ends in the embedded name is a file.
        assert_eq!(
            EvalChoice::parse(&format!("dir/{FILE_NAME}")),
            EvalChoice::File(format!("dir/{FILE_NAME}"))
        );
    }
}
