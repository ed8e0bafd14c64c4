//! The opponent-model part of the engine core: turns the options into the setup of one
//! search — the types of `OM_OpponentTypes` with their evaluators, tables and limits (OM and
//! PrOM, Donkers 2003 §3 and §6.1), the external engine behind `engine` types, the bound of
//! bounded-sum pruning (Alg. 3.10), and for `OM_Mode=auto` the fit's candidate family, the
//! fit of this game and the opponent's profile ([`crate::search::om::auto`]).

use std::sync::Arc;

use parking_lot::Mutex;

use super::Engine;
use super::settings::{Settings, shares_own_table};
use crate::eval::Evaluator;
use crate::eval::NnueEval;
use crate::external::{GoLimit, ManagedEngine};
use crate::nnue::Network;
use crate::opponent::{DEFAULT_ENGINE_NODES, EvalKind, OpponentType};
use crate::opponent_id::OpponentId;
use crate::profile::ProfileStore;
use crate::search::om::OmMode;
use crate::search::om::auto_setup::{AutoSetup, ProfileLink};
use crate::search::om::config::{OmConfig, TypeSetup};
use crate::search::om::engine_probe::EngineProbe;
use crate::search::om::fit::{FitParams, FitState};
use crate::search::om::settings::{BoundedSum, RootSafety};
use crate::tt::TranspositionTable;

/// The candidate bases every fit of `OM_Mode=auto` starts from: our evaluation at depths
/// 1–4 and material at depth 2 (the user adds more through `OM_OpponentTypes`).
pub const FIT_FAMILY: &[&str] = &[
    "self:depth=1",
    "self:depth=2",
    "self:depth=3",
    "self:depth=4",
    "material:depth=2",
];

/// How often the external opponent engine may be restarted after faults in one game.
const ENGINE_RESTARTS: u32 = 3;

impl Engine {
    /// The opponent-model setup for the next search (`None` for plain α-β), and warnings
    /// for the user (an `engine` type without an engine leaves the model).
    pub(super) fn model_setup(&mut self) -> (Option<OmConfig>, Vec<String>) {
        let o = &self.options;
        let mut warnings = Vec::new();
        if o.om.mode == OmMode::Off || o.om.spec_depth == 0 {
            return (None, warnings);
        }
        if o.om.mode == OmMode::Auto {
            return self.auto_setup();
        }
        let mut types = o.om.types.types.clone();
        let no_engine = o.om.engine.is_none() && types.iter().any(|t| t.eval == EvalKind::Engine);
        let no_net = self.net.is_none()
            && types
                .iter()
                .any(|t| t.eval == EvalKind::Nnue && t.net.is_none());
        // Types whose own net file cannot be loaded leave the model, with the reason.
        let mut bad_files: Vec<String> = Vec::new();
        for t in &types {
            if let Some(f) = &t.net
                && !bad_files.contains(f)
                && let Err(e) = self.type_net(f)
            {
                warnings.push(format!(
                    "om: the type {} cannot load its net ({e}); it leaves the model",
                    t.spec()
                ));
                bad_files.push(f.clone());
            }
        }
        if !bad_files.is_empty() {
            types.retain(|t| t.net.as_ref().is_none_or(|f| !bad_files.contains(f)));
            let sum: f64 = types.iter().map(|t| t.probability).sum();
            if sum <= 1e-12 {
                return (None, warnings);
            }
            for t in &mut types {
                t.probability /= sum;
            }
        }
        if no_engine || no_net {
            if no_engine {
                warnings.push(
                    "om: the engine opponent type needs OM_OpponentEngine; it leaves the model"
                        .into(),
                );
            }
            if no_net {
                warnings.push(
                    "om: the nnue opponent type needs a network (EvalFile); it leaves the model"
                        .into(),
                );
            }
            types.retain(|t| {
                !(t.eval == EvalKind::Engine && no_engine
                    || t.eval == EvalKind::Nnue && t.net.is_none() && no_net)
            });
            let sum: f64 = types.iter().map(|t| t.probability).sum();
            if sum <= 1e-12 {
                return (None, warnings);
            }
            for t in &mut types {
                t.probability /= sum;
            }
        }
        let mut setups = Vec::with_capacity(types.len());
        // Per type: does it search exactly like us (evaluator, tables, depth)?
        let mut like_us = Vec::with_capacity(types.len());
        let (depth, nodes) = (
            self.options.om.opponent_depth,
            self.options.om.opponent_nodes,
        );
        for mut t in types {
            // The types' own limits, else the options' (0: none).
            t.depth = t.depth.or((depth > 0).then_some(depth));
            t.nodes = t.nodes.or((nodes > 0).then_some(nodes));
            let (setup, same) = self.type_setup(&t, self.options.om.replay, &mut warnings);
            setups.push(setup);
            like_us.push(same);
        }
        let o = &self.options;
        let bound = bounded_sum_bound(o, &setups, &like_us);
        let setup = Some(OmConfig {
            mode: o.om.mode,
            spec_depth: o.om.spec_depth as usize,
            ties: o.om.ties,
            root_margin: (o.om.root_safety == RootSafety::Margin).then_some(o.om.root_margin),
            bound,
            hedge: None,
            auto: None,
            learning: o.om.learning,
            learning_params: o.om.learning_params,
            types: setups,
            deterministic: o.om.deterministic,
            policy_value: o.om.policy_value,
        });
        (setup, warnings)
    }

    /// The setup of `OM_Mode=auto`: the fit's candidate bases ([`FIT_FAMILY`], plus every
    /// type of `OM_OpponentTypes` with a depth limit, and engine types when
    /// `OM_OpponentEngine` is set) as the types, the fit of this game, the margin ceiling.
    fn auto_setup(&mut self) -> (Option<OmConfig>, Vec<String>) {
        let mut warnings = Vec::new();
        let mut family: Vec<OpponentType> = FIT_FAMILY
            .iter()
            .filter_map(|s| s.parse::<crate::opponent::OpponentModel>().ok())
            .flat_map(|m| m.types)
            .collect();
        for t in &self.options.om.types.types {
            let usable = match t.eval {
                EvalKind::Engine => self.options.om.engine.is_some(),
                _ => t.depth.is_some(),
            };
            if usable && !family.iter().any(|f| f.spec() == t.spec()) {
                family.push(t.clone());
            } else if t.eval == EvalKind::Engine && !usable {
                warnings.push("om: the engine opponent type needs OM_OpponentEngine".into());
            }
        }
        family.truncate(crate::search::om::MAX_TYPES.max(FIT_FAMILY.len() + 4));
        let names: Vec<String> = family.iter().map(OpponentType::spec).collect();
        let mut types = Vec::with_capacity(family.len());
        for t in &family {
            // The fit's bases search to a depth (a node limit is not one of its candidates).
            let base = OpponentType {
                nodes: None,
                probability: 1.0 / family.len() as f64,
                ..t.clone()
            };
            // Never our own table: fitting must leave α-β's search as it would have been
            // (a closed resources gate makes `auto` exactly `OM_Mode=off`).
            let (mut setup, like_us) = self.type_setup(&base, false, &mut warnings);
            if like_us {
                setup.tt = self.type_table(
                    base.eval,
                    base.net.as_deref(),
                    setup.tablebases,
                    false,
                    &mut warnings,
                );
            }
            types.push(setup);
        }
        let o = &self.options;
        let defaults = FitParams::default();
        let setup = OmConfig {
            ties: o.om.ties,
            deterministic: o.om.deterministic,
            auto: Some(AutoSetup {
                names,
                margin_ceiling: o.om.root_margin,
                contempt_ceiling: o.om.contempt_ceiling,
                fit: Arc::clone(&self.fit),
                params: FitParams {
                    min_time_odds: o.om.min_time_odds.unwrap_or(defaults.min_time_odds),
                    ..defaults
                },
                profile: self.profile_link(),
            }),
            ..OmConfig::new(OmMode::Om, 2, types)
        };
        (Some(setup), warnings)
    }

    /// The setup of one opponent type with its own limits and `replay`, and whether it
    /// searches exactly like us: then it shares our table ([`shares_own_table`]); other
    /// (evaluator, tables, replay) combinations get a table of their own, and an `engine`
    /// type gets the external engine and needs no table.
    fn type_setup(
        &mut self,
        t: &OpponentType,
        replay: bool,
        warnings: &mut Vec<String>,
    ) -> (TypeSetup, bool) {
        if t.eval == EvalKind::Engine {
            let setup = TypeSetup {
                eval: self.eval.clone(),
                tt: Arc::clone(&self.tt),
                probability: t.probability,
                depth: None,
                nodes: None,
                tablebases: false,
                replay,
                engine: self.engine_probe(t),
            };
            return (setup, false);
        }
        let tb = t.tablebases && self.options.om.opponent_tablebases;
        let eval: Arc<dyn Evaluator> = match t.eval {
            EvalKind::Material => self.material.clone(),
            EvalKind::Hce => self.eval.clone(),
            EvalKind::Nnue => match (&t.net, &self.net) {
                (Some(f), _) => match self.type_net(f) {
                    Ok(n) => n,
                    Err(_) => self.eval.clone(), // not reached: such types leave the model
                },
                (None, Some(n)) => n.clone(),
                (None, None) => self.eval.clone(), // not reached: such types leave the model
            },
            EvalKind::Full | EvalKind::Engine => self.own_eval(),
        };
        let like_us = shares_own_table(t.eval, tb, replay);
        let tt = if like_us {
            Arc::clone(&self.tt)
        } else {
            self.type_table(t.eval, t.net.as_deref(), tb, replay, warnings)
        };
        let setup = TypeSetup {
            eval,
            tt,
            probability: t.probability,
            depth: t.depth,
            nodes: t.nodes,
            tablebases: tb,
            replay,
            engine: None,
        };
        (setup, like_us)
    }

    /// Where the current opponent's fit is kept (`OM_Profiles`), if the
    /// opponent has a name.
    fn profile_link(&self) -> Option<ProfileLink> {
        let o = &self.options;
        let id = o.opponent.as_ref()?;
        let key = id.profile_key()?;
        if !o.om.profiles {
            return None;
        }
        let dir = if o.om.profile_dir.trim().is_empty() {
            self.default_profile_dir.clone()?
        } else {
            std::path::PathBuf::from(o.om.profile_dir.trim())
        };
        Some(ProfileLink {
            store: ProfileStore::new(dir),
            writer: Arc::clone(&self.profile_writer),
            key,
            display_name: id.name.clone(),
            elo: id.elo,
            computer: id.kind == crate::opponent_id::Kind::Computer,
        })
    }

    /// Who the opponent is, from xboard's `name`, `rating` and `computer` (UCI sends
    /// `UCI_Opponent`): the fit starts again from that opponent's profile.
    pub fn set_opponent(&mut self, id: OpponentId) {
        self.change_opponent(Some(id), false);
    }

    /// Another opponent (or, with `moved`, another profile directory) starts the fit again
    /// from its profile. A GUI may send the same `UCI_Opponent` before every game or move:
    /// that is no change.
    pub(super) fn change_opponent(&mut self, id: Option<OpponentId>, moved: bool) {
        if moved || self.options.opponent != id {
            self.options.opponent = id;
            *self.fit.lock() = FitState::default();
        }
    }

    /// The opponent named so far, if any.
    pub fn opponent(&self) -> Option<&OpponentId> {
        self.options.opponent.as_ref()
    }

    /// The process behind `engine` types (`OM_OpponentEngine`), created on first use and
    /// kept until the option changes; `None` without the option.
    pub(super) fn external_engine(&mut self) -> Option<Arc<Mutex<ManagedEngine>>> {
        let o = &self.options;
        let cmd = o.om.engine.clone()?;
        Some(
            self.external
                .get_or_insert_with(|| {
                    Arc::new(Mutex::new(
                        ManagedEngine::new(cmd, o.om.engine_options.clone(), ENGINE_RESTARTS)
                            .with_protocol(o.om.engine_protocol),
                    ))
                })
                .clone(),
        )
    }

    /// The engine probe of an `engine` type: the shared process (started on first use) and
    /// the type's limit (its own, else `OM_Search`'s `nodes`/`depth`, else
    /// [`DEFAULT_ENGINE_NODES`] nodes). `None` without `OM_OpponentEngine`.
    fn engine_probe(&mut self, t: &OpponentType) -> Option<EngineProbe> {
        let engine = self.external_engine()?;
        let o = &self.options;
        let limit = match (t.movetime, t.nodes, t.depth) {
            (Some(ms), _, _) => GoLimit::MoveTime(ms),
            (_, Some(n), _) => GoLimit::Nodes(n),
            (_, _, Some(d)) => GoLimit::Depth(d),
            _ if o.om.opponent_nodes > 0 => GoLimit::Nodes(o.om.opponent_nodes),
            _ if o.om.opponent_depth > 0 => GoLimit::Depth(o.om.opponent_depth),
            _ => GoLimit::Nodes(DEFAULT_ENGINE_NODES),
        };
        Some(EngineProbe {
            engine,
            limit,
            policy: t.policy,
        })
    }

    /// The net of an `nnue` type with `file=PATH`, loaded once per path.
    fn type_net(&mut self, file: &str) -> Result<Arc<NnueEval>, String> {
        if let Some((_, n)) = self.type_nets.iter().find(|(f, _)| f == file) {
            return Ok(Arc::clone(n));
        }
        let net = Network::load(std::path::Path::new(file))?;
        let n = Arc::new(NnueEval::new(net));
        self.type_nets.push((file.to_string(), Arc::clone(&n)));
        Ok(n)
    }

    /// The table of opponent types with (evaluator, net file, tables, replay), shared by all of them
    /// and kept until `Hash` changes: half our `Hash`, or 1 MB (with a warning) if that
    /// cannot be allocated.
    fn type_table(
        &mut self,
        eval: EvalKind,
        net: Option<&str>,
        tb: bool,
        replay: bool,
        warnings: &mut Vec<String>,
    ) -> Arc<TranspositionTable> {
        let key = (eval, net.map(String::from), tb, replay);
        if let Some((_, t)) = self.om_tts.iter().find(|(k, _)| *k == key) {
            return Arc::clone(t);
        }
        let mb = (self.options.hash_mb / 2).max(1);
        // Replay tables are "cleared" before every probe: strict tables make that O(1).
        let t = match TranspositionTable::try_new_kind(mb, replay) {
            Some(t) => t,
            None => {
                // Kept (and so reported) once until the next `Hash` or new model.
                warnings.push(format!(
                    "error: cannot allocate {mb} MB for an opponent type's table; it gets 1 MB"
                ));
                if replay {
                    TranspositionTable::new_strict(1)
                } else {
                    TranspositionTable::new(1)
                }
            }
        };
        let t = Arc::new(t);
        self.om_tts.push((key, Arc::clone(&t)));
        t
    }
}

/// The bound B of bounded-sum pruning (Alg. 3.10) for the OM type — the most probable one —
/// or `None` for β-pruning alone. Bounded-sum pruning needs the type to search to our depth
/// (§3.2.4), so a type with its own depth or node limit never gets one.
fn bounded_sum_bound(o: &Settings, types: &[TypeSetup], like_us: &[bool]) -> Option<i32> {
    let om = crate::search::om::om_type_of(types.iter().map(|t| t.probability));
    let t = types.get(om)?;
    let our_depth = t.depth.is_none() && t.nodes.is_none() && !t.replay;
    match o.om.bounded_sum {
        BoundedSum::Off => None,
        BoundedSum::On => our_depth.then_some(o.om.bound),
        BoundedSum::Auto => (our_depth && like_us[om]).then_some(0),
    }
}
