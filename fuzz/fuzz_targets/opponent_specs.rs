//! The opponent-type grammar (`OM_OpponentTypes`), `UCI_Opponent`, and the KQKR sweep's
//! side limits, node spreads and model specs: parsed or refused with a message.
#![no_main]

use std::str::FromStr;

use libfuzzer_sys::fuzz_target;
use nosce::experiment::budget::{NodeSpread, SideLimit};
use nosce::experiment::config::ModelConfig;
use nosce::opponent::OpponentModel;
use nosce::opponent_id::OpponentId;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let _ = OpponentModel::from_str(&s);
    let _ = OpponentId::from_str(&s);
    let _ = ModelConfig::from_str(&s);
    let _ = SideLimit::from_str(&s);
    let _ = NodeSpread::from_str(&s);
});
