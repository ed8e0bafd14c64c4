//! Which evaluation the engine plays with: the network compiled into the binary (the
//! default, [`crate::nnue::embedded`]), another of `EvalFile` ([`crate::nnue`], issue 17), or
//! the hand-crafted one ([`crate::eval::FullEval`], `EvalFile` `hce`), loaded, named for messages, and
//! handed to the search and to `self` opponent types (Donkers 2003 §6.1.3: type 0 is our own
//! evaluation, whichever it is).

use std::sync::Arc;

use super::Engine;
use crate::eval::Evaluator;
use crate::eval::NnueEval;
use crate::nnue::Network;
use crate::nnue::embedded::{self, EvalChoice};

impl Engine {
    /// Loads what the `EvalFile` value `file` names ([`EvalChoice`]): the embedded net (the
    /// default, or an empty value), the hand-crafted evaluation (`hce`), or a net file. The
    /// tables are cleared: their scores were another evaluator's.
    ///
    /// # Errors
    /// The file cannot be read or is not a valid network (the evaluator in use is kept).
    pub(super) fn load_net(&mut self, file: &str) -> Result<String, String> {
        self.net = match EvalChoice::parse(file) {
            EvalChoice::HandCrafted => None,
            EvalChoice::Embedded => Some(Arc::new(NnueEval::new(embedded::network()?))),
            EvalChoice::File(f) => Some(Arc::new(NnueEval::new(Network::load(
                std::path::Path::new(&f),
            )?))),
        };
        self.tt.clear();
        for (_, t) in &self.om_tts {
            t.clear();
        }
        Ok(format!("evaluation: {}", self.evaluation_name()))
    }

    /// What we evaluate with, for messages: the network's id and width, or hand-crafted.
    pub fn evaluation_name(&self) -> String {
        match &self.net {
            Some(n) => {
                let net = n.network().expect("an NnueEval has a network");
                let embedded = if net.file_name() == embedded::FILE_NAME {
                    ", embedded"
                } else {
                    ""
                };
                format!(
                    "network {} ({} hidden units, {}{embedded})",
                    net.id(),
                    net.hidden(),
                    crate::nnue::simd::kernel().name()
                )
            }
            None => "the hand-crafted evaluation".to_string(),
        }
    }

    /// Our own evaluator: the network in use (embedded or `EvalFile`'s), else the
    /// hand-crafted one (`EvalFile` `hce`); what `self` opponent types use.
    pub(crate) fn own_eval(&self) -> Arc<dyn Evaluator> {
        match &self.net {
            Some(n) => n.clone(),
            None => self.eval.clone(),
        }
    }
}
