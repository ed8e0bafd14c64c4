//! What `OM_Mode=auto` adds to an OM set-up ([`super::config::OmConfig::auto`]): the
//! candidate bases' names, the user's ceilings on the root margin and the contempt, the
//! game's fit and its tunables, and the link to the opponent's stored profile. The search
//! that uses them is [`super::auto`] (Donkers 2003 ch. 4 and §5.4.1: risk from measured
//! prediction accuracy); kept apart so that the set-up does not depend on that search.

use std::sync::Arc;

use parking_lot::Mutex;

use super::fit::{FitParams, FitState};
use crate::profile::{ProfileStore, ProfileWriter};

/// What `OM_Mode=auto` adds to a [`super::config::OmConfig`] whose types are the candidate bases.
#[derive(Clone)]
pub struct AutoSetup {
    /// The bases' names in the type grammar, aligned with the setup's types.
    pub names: Vec<String>,
    /// The user's ceiling on the root margin (`OM_Search` `margin`), centipawns.
    pub margin_ceiling: i32,
    /// The user's ceiling on the contempt derived from the opponent's drift
    /// (`OM_Search` `contempt`, [`super::draw_value`]), centipawns; 0 for none.
    pub contempt_ceiling: i32,
    /// The fit of this game.
    pub fit: Arc<Mutex<FitState>>,
    /// Its tunables.
    pub params: FitParams,
    /// Where the opponent's fit is kept between games, if anywhere.
    pub profile: Option<ProfileLink>,
}

/// The opponent's profile: the store, the opponent's key and name, and its rating.
#[derive(Clone, Debug)]
pub struct ProfileLink {
    /// The profile directory.
    pub store: ProfileStore,
    /// The engine's background writer (a save never waits for the disk).
    pub writer: Arc<ProfileWriter>,
    /// The opponent's key ([`crate::opponent_id::OpponentId::profile_key`]).
    pub key: String,
    /// The opponent's name as the GUI gave it.
    pub display_name: String,
    /// The opponent's rating, if the GUI gave one: the prior of a fit without a profile.
    pub elo: Option<u32>,
    /// True if the GUI says the opponent is a program.
    pub computer: bool,
}
