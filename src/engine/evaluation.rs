//! Which evaluation the engine plays with: the hand-crafted one ([`crate::eval::FullEval`])
//! or the network of `EvalFile` ([`crate::nnue`], issue 17), loaded, named for messages, and
//! handed to the search and to `self` opponent types (Donkers 2003 §6.1.3: type 0 is our own
//! evaluation, whichever it is).

use std::sync::Arc;

use super::Engine;
use crate::eval::Evaluator;
use crate::nnue::{Network, NnueEval};

impl Engine {
    /// Loads the network in `file` to play with (an empty name: the hand-crafted evaluation
    /// again). The tables are cleared: their scores were another evaluator's.
    ///
    /// # Errors
    /// The file cannot be read or is not a valid network (the evaluator in use is kept).
    pub(super) fn load_net(&mut self, file: &str) -> Result<String, String> {
        if file.trim().is_empty() {
            self.net = None;
        } else {
            let net = Network::load(std::path::Path::new(file.trim()))?;
            self.net = Some(Arc::new(NnueEval::new(net)));
        }
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
                format!(
                    "network {} ({} hidden units, {})",
                    net.id(),
                    net.hidden(),
                    crate::nnue::simd::kernel().name()
                )
            }
            None => "the hand-crafted evaluation".to_string(),
        }
    }

    /// Our own evaluator: the network of `EvalFile` if one is loaded, else the hand-crafted
    /// one (what `self` opponent types use).
    pub(crate) fn own_eval(&self) -> Arc<dyn Evaluator> {
        match &self.net {
            Some(n) => n.clone(),
            None => self.eval.clone(),
        }
    }
}
