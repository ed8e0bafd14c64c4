//! Who the opponent is: the UCI `UCI_Opponent` option and xboard's `name`, `rating` and
//! `computer` commands, parsed into one [`OpponentId`].
//!
//! The UCI specification (April 2006) defines the option value as
//!
//! ```text
//! <title> <elo> <computer|human> <name>
//! ```
//!
//! with `title` one of `GM IM FM WGM WIM none`, `elo` a number or `none`, and a name that
//! may contain spaces: `GM 2800 human Gary Kasparov`, `none none computer Shredder`.
//!
//! Parsing is lenient where a GUI is likely to be sloppy and strict where the value would
//! be nonsense:
//!
//! * fields may be separated by any run of whitespace, and leading/trailing whitespace is
//!   ignored; the title, `none`, and the kind word are case-insensitive (`gm`, `None`,
//!   `Computer`);
//! * the kind may also be `none` (or `unknown`), giving [`Kind::Unknown`]; this is outside
//!   the specification but is what [`Display`](fmt::Display) writes for an unknown kind, so
//!   every [`OpponentId`] round-trips;
//! * the name may be **empty** (`none none computer`): the GUI knows something about the
//!   opponent but not who it is. Such an opponent has no [`profile_key`](OpponentId::profile_key);
//! * the name is kept as given (trimmed, inner spacing preserved); the profile key folds
//!   case and whitespace so that `Gary  Kasparov` and `gary kasparov` are the same opponent;
//! * rejected, each with a message: fewer than three fields, an unknown title (`CM`, `Dr`),
//!   an Elo that is neither a whole number nor `none`, an Elo above [`MAX_ELO`], and a kind
//!   word other than `computer`, `human`, `none` or `unknown`.
//!
//! xboard sends the same facts piecemeal: [`OpponentId::from_xboard_name`] for `name <text>`,
//! then [`OpponentId::with_rating`] for the second number of `rating <ours> <theirs>` and
//! [`OpponentId::with_computer`] for `computer`.

use std::fmt;
use std::str::FromStr;

/// The highest Elo accepted; anything above is taken to be a typo or garbage.
pub const MAX_ELO: u32 = 4000;

/// A FIDE title, as the UCI specification lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Title {
    /// Grandmaster.
    GM,
    /// International Master.
    IM,
    /// FIDE Master.
    FM,
    /// Woman Grandmaster.
    WGM,
    /// Woman International Master.
    WIM,
}

impl Title {
    /// Every title, in the order of the specification.
    pub const ALL: [Title; 5] = [Title::GM, Title::IM, Title::FM, Title::WGM, Title::WIM];

    /// The abbreviation, upper case (`"GM"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Title::GM => "GM",
            Title::IM => "IM",
            Title::FM => "FM",
            Title::WGM => "WGM",
            Title::WIM => "WIM",
        }
    }
}

impl fmt::Display for Title {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Title {
    type Err = String;

    /// Case-insensitive: `gm`, `Gm` and `GM` are all [`Title::GM`]. `none` is not a title
    /// (an absent title is `Option::None` in [`OpponentId`]).
    fn from_str(s: &str) -> Result<Self, String> {
        Title::ALL
            .into_iter()
            .find(|t| t.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown title '{s}' (known: GM, IM, FM, WGM, WIM or none)"))
    }
}

/// Whether the opponent is a program or a person.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Kind {
    /// A chess program.
    Computer,
    /// A person.
    Human,
    /// Not known (xboard before `computer`, or a GUI that says `none`).
    #[default]
    Unknown,
}

impl Kind {
    /// The word used in the option value: `computer`, `human`, or `none` for unknown.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Computer => "computer",
            Kind::Human => "human",
            Kind::Unknown => "none",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Kind {
    type Err = String;

    /// Case-insensitive `computer`, `human`, and `none` or `unknown` for [`Kind::Unknown`].
    fn from_str(s: &str) -> Result<Self, String> {
        let lower = s.to_ascii_lowercase();
        match lower.as_str() {
            "computer" => Ok(Kind::Computer),
            "human" => Ok(Kind::Human),
            "none" | "unknown" => Ok(Kind::Unknown),
            _ => Err(format!(
                "unknown opponent kind '{s}' (expected computer or human)"
            )),
        }
    }
}

/// What the GUI told us about the opponent.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct OpponentId {
    /// FIDE title, if any.
    pub title: Option<Title>,
    /// Rating, if known; at most [`MAX_ELO`].
    pub elo: Option<u32>,
    /// Program, person, or unknown.
    pub kind: Kind,
    /// The name as given, trimmed; may be empty and may contain spaces.
    pub name: String,
}

impl OpponentId {
    /// From xboard's `name <text>`: only the name is known. The text is trimmed.
    pub fn from_xboard_name(name: &str) -> Self {
        OpponentId {
            name: name.trim().to_string(),
            ..OpponentId::default()
        }
    }

    /// Sets the rating (xboard's `rating <ours> <theirs>`: pass the second number). An Elo
    /// above [`MAX_ELO`] is treated as unknown, so the result always round-trips.
    pub fn with_rating(self, elo: Option<u32>) -> Self {
        OpponentId {
            elo: elo.filter(|&e| e <= MAX_ELO),
            ..self
        }
    }

    /// Sets the kind: `true` for a computer (xboard's `computer` command), `false` for a
    /// human. A caller that does not know should not call this.
    pub fn with_computer(self, computer: bool) -> Self {
        OpponentId {
            kind: if computer {
                Kind::Computer
            } else {
                Kind::Human
            },
            ..self
        }
    }

    /// A stable key naming this opponent in the profile store: the name trimmed, with every
    /// run of whitespace made one space, and lower-cased (Unicode lower case, so `ÉRIC` and
    /// `éric` agree). `None` when the name is empty: an anonymous opponent has no profile.
    /// Title, Elo and kind are not part of the key — they change, the opponent does not.
    pub fn profile_key(&self) -> Option<String> {
        let key = self
            .name
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        (!key.is_empty()).then_some(key)
    }
}

fn parse_elo(s: &str) -> Result<Option<u32>, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("Elo '{s}' is neither a whole number nor none"));
    }
    match s.parse::<u32>() {
        Ok(e) if e <= MAX_ELO => Ok(Some(e)),
        _ => Err(format!("Elo {s} is outside 0..={MAX_ELO}")),
    }
}

/// Splits off the first whitespace-separated field: `(field, rest)`, `rest` starting at
/// the whitespace after the field (or empty).
fn next_field(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    s.split_at(end)
}

impl FromStr for OpponentId {
    type Err = String;

    /// Parses the `UCI_Opponent` value; see the [module documentation](self) for what is
    /// accepted.
    fn from_str(s: &str) -> Result<Self, String> {
        const FORM: &str = "expected '<title> <elo> <computer|human> <name>'";
        let (title, rest) = next_field(s);
        let (elo, rest) = next_field(rest);
        let (kind, rest) = next_field(rest);
        if title.is_empty() || elo.is_empty() || kind.is_empty() {
            let given = [title, elo, kind].iter().filter(|f| !f.is_empty()).count();
            return Err(format!(
                "only {given} of 3 fields in '{}': {FORM}",
                s.trim()
            ));
        }
        let title = if title.eq_ignore_ascii_case("none") {
            None
        } else {
            Some(title.parse::<Title>()?)
        };
        Ok(OpponentId {
            title,
            elo: parse_elo(elo)?,
            kind: kind.parse()?,
            name: rest.trim().to_string(),
        })
    }
}

impl fmt::Display for OpponentId {
    /// The `UCI_Opponent` form; `none` stands for an absent title or Elo and an unknown kind.
    /// An empty name gives just the three fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.title {
            Some(t) => write!(f, "{t} ")?,
            None => write!(f, "none ")?,
        }
        match self.elo {
            Some(e) => write!(f, "{e} ")?,
            None => write!(f, "none ")?,
        }
        write!(f, "{}", self.kind)?;
        if !self.name.is_empty() {
            write!(f, " {}", self.name)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> OpponentId {
        s.parse().unwrap_or_else(|e| panic!("'{s}' rejected: {e}"))
    }

    #[test]
    fn parses_the_specification_examples() {
        assert_eq!(
            id("GM 2800 human Gary Kasparov"),
            OpponentId {
                title: Some(Title::GM),
                elo: Some(2800),
                kind: Kind::Human,
                name: "Gary Kasparov".into(),
            }
        );
        assert_eq!(
            id("none none computer Shredder"),
            OpponentId {
                title: None,
                elo: None,
                kind: Kind::Computer,
                name: "Shredder".into(),
            }
        );
    }

    #[test]
    fn accepts_sloppy_but_meaningful_values() {
        let k = id("  gm   2800\thuman   Gary  Kasparov  ");
        assert_eq!(k.title, Some(Title::GM));
        assert_eq!(k.elo, Some(2800));
        assert_eq!(k.kind, Kind::Human);
        assert_eq!(k.name, "Gary  Kasparov", "inner spacing kept");
        assert_eq!(k.profile_key().as_deref(), Some("gary kasparov"));

        assert_eq!(id("NONE None COMPUTER Stockfish 17").name, "Stockfish 17");
        assert_eq!(id("wim 0 Human x").elo, Some(0));
        assert_eq!(id("Wgm 4000 human y").elo, Some(MAX_ELO));
        assert_eq!(id("none none none Someone").kind, Kind::Unknown);
        assert_eq!(id("none none unknown Someone").kind, Kind::Unknown);
        for t in ["gm", "IM", "fm", "wGM", "wim"] {
            assert!(id(&format!("{t} 2300 human N")).title.is_some(), "{t}");
        }
        // No name: allowed, but no profile.
        let anon = id("none none computer");
        assert_eq!(anon.name, "");
        assert_eq!(anon.profile_key(), None);
        assert_eq!(id("IM 2400 human   ").profile_key(), None);
    }

    #[test]
    fn rejects_nonsense_with_a_reason() {
        for bad in [
            "",
            "   ",
            "GM",
            "GM 2800",
            "CM 2200 human Someone",
            "Dr none human Who",
            "GM abc human Gary",
            "GM -5 human Gary",
            "GM +5 human Gary",
            "GM 2800.5 human Gary",
            "GM 4001 human Gary",
            "GM 99999999999999999999 human Gary",
            "GM 2800 alien Gary",
            "GM 2800 Gary Kasparov",
            "2800 human Gary Kasparov",
        ] {
            match bad.parse::<OpponentId>() {
                Ok(v) => panic!("accepted '{bad}' as {v:?}"),
                Err(e) => assert!(!e.is_empty(), "empty message for '{bad}'"),
            }
        }
        let e = "GM 2800".parse::<OpponentId>().unwrap_err();
        assert!(e.contains("2 of 3"), "{e}");
    }

    #[test]
    fn display_round_trips() {
        for s in [
            "GM 2800 human Gary Kasparov",
            "none none computer Shredder",
            "none none computer",
            "WIM 2350 none Ana  Maria",
            "IM none human Ĳsbrand Ösel",
        ] {
            let v = id(s);
            assert_eq!(v.to_string(), s, "canonical form written back");
            assert_eq!(id(&v.to_string()), v);
        }
        assert_eq!(
            id("gm 2800 HUMAN  Gary Kasparov ").to_string(),
            "GM 2800 human Gary Kasparov"
        );
        let built = OpponentId::from_xboard_name("  Crafty 25.2 ")
            .with_rating(Some(2650))
            .with_computer(true);
        assert_eq!(built.to_string(), "none 2650 computer Crafty 25.2");
        assert_eq!(id(&built.to_string()), built);
    }

    #[test]
    fn xboard_pieces_build_an_id() {
        let x = OpponentId::from_xboard_name("GNU Chess");
        assert_eq!(x.kind, Kind::Unknown);
        assert_eq!(x.elo, None);
        assert_eq!(x.profile_key().as_deref(), Some("gnu chess"));
        assert_eq!(
            x.clone().with_rating(Some(5000)).elo,
            None,
            "absurd rating dropped"
        );
        assert_eq!(x.clone().with_rating(Some(1800)).elo, Some(1800));
        assert_eq!(x.clone().with_computer(false).kind, Kind::Human);
        assert_eq!(OpponentId::from_xboard_name("").profile_key(), None);
        assert_eq!(
            OpponentId::from_xboard_name("ÉRIC Dupont").profile_key(),
            OpponentId::from_xboard_name("éric  dupont").profile_key()
        );
    }

    #[test]
    fn titles_parse_case_insensitively_and_display_upper_case() {
        for t in Title::ALL {
            assert_eq!(t.to_string().to_lowercase().parse::<Title>(), Ok(t));
        }
        assert!("none".parse::<Title>().is_err());
        assert!("".parse::<Title>().is_err());
    }
}
