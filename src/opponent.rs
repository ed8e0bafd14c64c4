//! The opponent model: opponent *types* with probabilities, parsed and validated once.
//!
//! An opponent type (Donkers 2003 §6.1) is an evaluation function plus the search limits
//! its owner plays with (depth or nodes) and whether it sees endgame tables. OM search uses
//! one type (§2.3); PrOM search a mixture with probabilities Pr(ω_i) (§6.2), type 0 being
//! our own evaluation by convention (§6.1.3). The spec grammar, as in the README:
//!
//! ```text
//! spec  := type ("," type)*
//! type  := evaluator ":" probability (":" limit)*
//! limit := "depth=" N | "nodes=" N | "tb=" ("on"|"off")
//! ```
//!
//! e.g. `self:0.5,material:0.3:depth=4,self:0.2:tb=off`. Evaluators: `self` (the full
//! evaluation), `material`, and `notb` (short for `self` with `tb=off`). A single type may
//! omit the probability (`material:depth=3` or just `material`). Probabilities must be ≥ 0
//! and sum to 1 (±1e-6).

use std::fmt;
use std::str::FromStr;

/// The evaluators an opponent type can use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EvalKind {
    /// Our full evaluation ([`crate::eval::FullEval`]).
    Full,
    /// Material only ([`crate::eval::MaterialEval`]).
    Material,
}

impl EvalKind {
    /// The name used in specs.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Full => "self",
            EvalKind::Material => "material",
        }
    }
}

/// One opponent type.
#[derive(Clone, Debug, PartialEq)]
pub struct OpponentType {
    /// Its evaluation.
    pub eval: EvalKind,
    /// Its probability Pr(ω).
    pub probability: f64,
    /// Fixed search depth of the opponent (plies), if known.
    pub depth: Option<u32>,
    /// Fixed node budget of the opponent, if known.
    pub nodes: Option<u64>,
    /// Whether the opponent uses endgame tables.
    pub tablebases: bool,
}

/// A validated set of opponent types.
#[derive(Clone, Debug, PartialEq)]
pub struct OpponentModel {
    /// The types; probabilities sum to 1.
    pub types: Vec<OpponentType>,
}

impl Default for OpponentModel {
    /// One type: our own evaluation with tables, same depth as ours.
    fn default() -> Self {
        OpponentModel {
            types: vec![OpponentType {
                eval: EvalKind::Full,
                probability: 1.0,
                depth: None,
                nodes: None,
                tablebases: true,
            }],
        }
    }
}

fn parse_type(text: &str, single: bool) -> Result<OpponentType, String> {
    let mut parts = text.split(':').map(str::trim);
    let name = parts.next().unwrap_or("");
    let (eval, mut tablebases) = match name {
        "self" | "full" => (EvalKind::Full, true),
        "notb" => (EvalKind::Full, false),
        "material" => (EvalKind::Material, true),
        "" => return Err("empty opponent type".into()),
        other => {
            return Err(format!(
                "unknown evaluator '{other}' (known: self, material, notb)"
            ));
        }
    };
    let mut probability = None;
    let mut depth = None;
    let mut nodes = None;
    for p in parts {
        if let Some(v) = p.strip_prefix("depth=") {
            let d: u32 = v
                .parse()
                .map_err(|_| format!("'{p}': depth must be a whole number"))?;
            if !(1..=64).contains(&d) {
                return Err(format!("'{p}': depth must be 1..64"));
            }
            depth = Some(d);
        } else if let Some(v) = p.strip_prefix("nodes=") {
            let n: u64 = v
                .parse()
                .map_err(|_| format!("'{p}': nodes must be a whole number"))?;
            if n == 0 {
                return Err(format!("'{p}': nodes must be positive"));
            }
            nodes = Some(n);
        } else if let Some(v) = p.strip_prefix("tb=") {
            tablebases = match v {
                "on" | "true" | "1" => true,
                "off" | "false" | "0" => false,
                _ => return Err(format!("'{p}': tb takes on or off")),
            };
        } else if probability.is_none() && !p.contains('=') {
            let x: f64 = p
                .parse()
                .map_err(|_| format!("'{p}' is not a probability"))?;
            if !x.is_finite() || !(0.0..=1.0).contains(&x) {
                return Err(format!("probability {p} is outside 0..1"));
            }
            probability = Some(x);
        } else {
            return Err(format!(
                "'{p}': expected a probability, depth=N, nodes=N or tb=on|off"
            ));
        }
    }
    let probability = match probability {
        Some(p) => p,
        None if single => 1.0,
        None => return Err(format!("type '{text}' needs a probability")),
    };
    Ok(OpponentType {
        eval,
        probability,
        depth,
        nodes,
        tablebases,
    })
}

impl FromStr for OpponentModel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let items: Vec<&str> = s.split(',').map(str::trim).collect();
        if items.iter().all(|i| i.is_empty()) {
            return Err("empty opponent model".into());
        }
        let single = items.len() == 1;
        let types = items
            .iter()
            .map(|t| parse_type(t, single))
            .collect::<Result<Vec<_>, _>>()?;
        let sum: f64 = types.iter().map(|t| t.probability).sum();
        if (sum - 1.0).abs() > 1e-6 {
            return Err(format!("probabilities sum to {sum}, not 1"));
        }
        Ok(OpponentModel { types })
    }
}

impl fmt::Display for OpponentModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.types.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{}:{}", t.eval.name(), t.probability)?;
            if let Some(d) = t.depth {
                write!(f, ":depth={d}")?;
            }
            if let Some(n) = t.nodes {
                write!(f, ":nodes={n}")?;
            }
            if !t.tablebases {
                write!(f, ":tb=off")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_example() {
        let m: OpponentModel = "self:0.5,material:0.3:depth=4,self:0.2:tb=off"
            .parse()
            .unwrap();
        assert_eq!(m.types.len(), 3);
        assert_eq!(m.types[1].eval, EvalKind::Material);
        assert_eq!(m.types[1].depth, Some(4));
        assert!(!m.types[2].tablebases);
        let again: OpponentModel = m.to_string().parse().unwrap();
        assert_eq!(again, m);
        let n: OpponentModel = "self:0.5,material:0.3,notb:0.2".parse().unwrap();
        assert!(!n.types[2].tablebases);
        let one: OpponentModel = "material:depth=3".parse().unwrap();
        assert_eq!(one.types[0].probability, 1.0);
    }

    #[test]
    fn rejects_nonsense_with_a_reason() {
        for bad in [
            "",
            "self:0.5",
            "self:0.5,material:0.6",
            "magic:1",
            "self:-0.5,material:1.5",
            "self:1:depth=0",
            "self:1:depth=x",
            "self:1:nodes=0",
            "self:1:tb=maybe",
            "self:1:colour=red",
            "self:nan",
            "self:0.5,,material:0.5",
        ] {
            let e = bad.parse::<OpponentModel>();
            assert!(e.is_err(), "accepted '{bad}'");
            assert!(!e.unwrap_err().is_empty());
        }
    }
}
