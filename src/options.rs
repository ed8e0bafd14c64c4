//! Engine options as data: a table of rows (name, type, range, default, documentation, and
//! the function that applies a value), from which both protocols' announcements (UCI
//! `option` lines, xboard `feature option=`), `setoption` validation, the settings'
//! defaults and the options table of `docs/options.md` all come. This module knows nothing
//! of what the options mean: it is generic over the settings type `S` that a table fills
//! and over `A`, what the owner must do after a change. The engine's own table is
//! [`crate::engine::option_table`].
//!
//! Setting an option parses and checks the value once; a bad value is rejected with a
//! clear message and nothing changes. Old names that a table still accepts for one release
//! ([`Alias`]) are applied with a note that says what replaced them.

/// The type of an engine option, with its default and range.
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A boolean.
    Check {
        /// Default value.
        default: bool,
    },
    /// One of a list of strings.
    Combo {
        /// Default value.
        default: &'static str,
        /// The allowed values.
        vars: &'static [&'static str],
    },
    /// A free string (a file, a directory, or a small value grammar).
    Str {
        /// Default value (empty: none).
        default: &'static str,
    },
    /// An action without value.
    Button,
}

/// An option as both protocols announce it and the documentation describes it.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The option's name (case-insensitive when set).
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionKind,
    /// One paragraph for the options table (Markdown).
    pub doc: &'static str,
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A spin's value, within its range.
    Int(i64),
    /// A check's value.
    Bool(bool),
    /// A combo's value (as declared) or a string's (trimmed; `<empty>` is empty).
    Text(String),
    /// A button was pressed.
    Press,
}

impl Value {
    /// The integer of a spin (0 for other values; rows only see their own kind).
    pub fn int(&self) -> i64 {
        match self {
            Value::Int(v) => *v,
            _ => 0,
        }
    }

    /// The boolean of a check (false for other values).
    pub fn on(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    /// The text of a combo or string ("" for other values).
    pub fn text(&self) -> &str {
        match self {
            Value::Text(t) => t,
            _ => "",
        }
    }
}

/// Reads `true`/`false` as the protocols write them, and `on`/`off`, `1`/`0`.
///
/// # Errors
/// Anything else, named in the message.
pub fn parse_switch(what: &str, value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        _ => Err(format!("{what}: '{}' is not on or off", value.trim())),
    }
}

/// Reads a whole number in `min..=max`.
///
/// # Errors
/// Not a number, or outside the range; the message names `what`.
pub fn parse_int(what: &str, value: &str, min: i64, max: i64) -> Result<i64, String> {
    let v: i64 = value
        .trim()
        .parse()
        .map_err(|_| format!("{what}: '{}' is not a whole number", value.trim()))?;
    if v < min || v > max {
        return Err(format!("{what}: {v} is outside {min}..{max}"));
    }
    Ok(v)
}

impl OptionSpec {
    /// Checks a raw value (what `setoption` or `option NAME=VALUE` carried) against the
    /// option's type and range.
    ///
    /// # Errors
    /// A message naming the option and what is wrong with the value.
    pub fn check(&self, raw: Option<&str>) -> Result<Value, String> {
        let raw = raw.map(str::trim).unwrap_or("");
        let what = format!("option {}", self.name);
        match self.kind {
            OptionKind::Spin { min, max, .. } => parse_int(&what, raw, min, max).map(Value::Int),
            OptionKind::Check { .. } => parse_switch(&what, raw).map(Value::Bool),
            OptionKind::Combo { vars, .. } => vars
                .iter()
                .find(|v| v.eq_ignore_ascii_case(raw))
                .map(|v| Value::Text((*v).to_string()))
                .ok_or_else(|| format!("{what}: '{raw}' is not one of {}", vars.join(", "))),
            OptionKind::Str { .. } => Ok(Value::Text(if raw == "<empty>" {
                String::new()
            } else {
                raw.to_string()
            })),
            OptionKind::Button => Ok(Value::Press),
        }
    }

    /// The declared default as a value (`None` for a button).
    pub fn default_value(&self) -> Option<Value> {
        match self.kind {
            OptionKind::Spin { default, .. } => Some(Value::Int(default)),
            OptionKind::Check { default } => Some(Value::Bool(default)),
            OptionKind::Combo { default, .. } | OptionKind::Str { default } => {
                Some(Value::Text(default.to_string()))
            }
            OptionKind::Button => None,
        }
    }

    /// The default as the documentation writes it.
    pub fn default_text(&self) -> String {
        match self.default_value() {
            Some(Value::Int(v)) => v.to_string(),
            Some(Value::Bool(b)) => b.to_string(),
            Some(Value::Text(t)) if t.is_empty() => "empty".into(),
            Some(Value::Text(t)) => format!("`{t}`"),
            _ => "(button)".into(),
        }
    }
}

/// One option: its declaration and how a checked value is applied to the settings `S`,
/// answering what the owner must do next (`A`).
pub struct Row<S: 'static, A: 'static> {
    /// The declaration.
    pub spec: OptionSpec,
    /// Applies a value that [`OptionSpec::check`] accepted; a value that a grammar refuses
    /// is an error and must leave `S` unchanged.
    pub apply: fn(&mut S, &Value) -> Result<A, String>,
}

/// A name accepted for one release after the option was folded into another.
pub struct Alias<S: 'static, A: 'static> {
    /// The old name.
    pub old: &'static str,
    /// What replaced it, for the note (e.g. "OM_Search's key ties=").
    pub replaced_by: &'static str,
    /// Applies the old option's raw value with the old meaning.
    pub apply: fn(&mut S, &str) -> Result<A, String>,
}

/// The options of a settings type `S`: rows in the order they are announced, and aliases.
pub struct OptionTable<S: 'static, A: 'static> {
    /// The options.
    pub rows: &'static [Row<S, A>],
    /// Tuning options: accepted by `setoption` and documented, never announced to a GUI
    /// (A/B tests and parameter tuning set them; a player never needs them).
    pub hidden: &'static [Row<S, A>],
    /// Old names still accepted.
    pub aliases: &'static [Alias<S, A>],
    /// The blank the rows fill (zeros and empties; not the defaults).
    pub blank: fn() -> S,
}

impl<S: Clone, A> OptionTable<S, A> {
    /// The declarations, in order.
    pub fn specs(&self) -> impl Iterator<Item = &OptionSpec> {
        self.rows.iter().map(|r| &r.spec)
    }

    /// The settings with every option at its declared default: the only place defaults are
    /// written is the table.
    ///
    /// # Panics
    /// If a declared default is refused by its own row (a programming error, caught by the
    /// unit tests of every table).
    pub fn defaults(&self) -> S {
        let mut s = (self.blank)();
        for row in self.rows.iter().chain(self.hidden) {
            if let Some(v) = row.spec.default_value()
                && let Err(e) = (row.apply)(&mut s, &v)
            {
                panic!("the default of {} is refused: {e}", row.spec.name);
            }
        }
        s
    }

    /// Sets option `name` (case-insensitive) to `raw`. Answers what to do next and, for an
    /// old name, a note that says what replaced it.
    ///
    /// # Errors
    /// Unknown option or bad value; `settings` is unchanged then.
    pub fn set(
        &self,
        settings: &mut S,
        name: &str,
        raw: Option<&str>,
    ) -> Result<(A, Option<String>), String> {
        let name = name.trim();
        let mut work = settings.clone();
        let result = if let Some(row) = self
            .rows
            .iter()
            .chain(self.hidden)
            .find(|r| r.spec.name.eq_ignore_ascii_case(name))
        {
            let value = row.spec.check(raw)?;
            (row.apply)(&mut work, &value).map(|a| (a, None))
        } else if let Some(alias) = self
            .aliases
            .iter()
            .find(|a| a.old.eq_ignore_ascii_case(name))
        {
            let raw = raw.map(str::trim).unwrap_or("");
            let raw = if raw == "<empty>" { "" } else { raw };
            (alias.apply)(&mut work, raw).map(|a| {
                let note = format!(
                    "{} is now {}; the old name is accepted until the next release",
                    alias.old, alias.replaced_by
                );
                (a, Some(note))
            })
        } else {
            Err(format!("unknown option '{name}'"))
        };
        if result.is_ok() {
            *settings = work;
        }
        result
    }

    /// The options table of the documentation, one row per option (Markdown).
    pub fn markdown(&self) -> String {
        let mut out = Self::markdown_rows(self.rows);
        if !self.hidden.is_empty() {
            out.push_str("\nTuning options (not announced to GUIs; `setoption` accepts them, and so does `nosce -o NAME=VALUE` on the command line):\n\n");
            out.push_str(&Self::markdown_rows(self.hidden));
        }
        if !self.aliases.is_empty() {
            out.push_str(
                "\nOld names accepted until the next release (with an `info string`):\n\n",
            );
            for a in self.aliases {
                out.push_str(&format!("- `{}` → {}\n", a.old, a.replaced_by));
            }
        }
        out
    }

    /// A Markdown table of `rows`.
    fn markdown_rows(rows: &[Row<S, A>]) -> String {
        let mut out =
            String::from("| option | type | default | what it does |\n|---|---|---|---|\n");
        for spec in rows.iter().map(|r| &r.spec) {
            let kind = match spec.kind {
                OptionKind::Spin { min, max, .. } => format!("spin {min}–{max}"),
                OptionKind::Check { .. } => "check".into(),
                OptionKind::Combo { vars, .. } => format!("combo: {}", vars.join(", ")),
                OptionKind::Str { .. } => "string".into(),
                OptionKind::Button => "button".into(),
            };
            out.push_str(&format!(
                "| `{}` | {kind} | {} | {} |\n",
                spec.name,
                spec.default_text().replace('|', "\\|"),
                spec.doc.replace('|', "\\|")
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Toy {
        n: i64,
        flag: bool,
        name: String,
    }

    static TOY: OptionTable<Toy, u8> = OptionTable {
        rows: &[
            Row {
                spec: OptionSpec {
                    name: "N",
                    kind: OptionKind::Spin {
                        default: 3,
                        min: 1,
                        max: 9,
                    },
                    doc: "a number",
                },
                apply: |s, v| {
                    s.n = v.int();
                    Ok(1)
                },
            },
            Row {
                spec: OptionSpec {
                    name: "Name",
                    kind: OptionKind::Str { default: "x" },
                    doc: "a name; `bad` is refused",
                },
                apply: |s, v| {
                    if v.text() == "bad" {
                        s.n = 0; // a refused value must not leak a partial change
                        return Err("bad name".into());
                    }
                    s.name = v.text().to_string();
                    Ok(2)
                },
            },
        ],
        hidden: &[],
        aliases: &[Alias {
            old: "Flag",
            replaced_by: "nothing",
            apply: |s, raw| {
                s.flag = parse_switch("Flag", raw)?;
                Ok(3)
            },
        }],
        blank: Toy::default,
    };

    #[test]
    fn defaults_come_from_the_rows() {
        let t = TOY.defaults();
        assert_eq!((t.n, t.flag, t.name.as_str()), (3, false, "x"));
    }

    #[test]
    fn bad_values_change_nothing_and_aliases_say_so() {
        let mut t = TOY.defaults();
        assert!(TOY.set(&mut t, "n", Some("10")).is_err());
        assert!(TOY.set(&mut t, "n", Some("two")).is_err());
        assert!(TOY.set(&mut t, "name", Some("bad")).is_err());
        assert!(TOY.set(&mut t, "nope", Some("1")).is_err());
        assert_eq!((t.n, t.name.as_str()), (3, "x"));
        assert_eq!(TOY.set(&mut t, " n ", Some(" 7 ")), Ok((1, None)));
        assert_eq!(TOY.set(&mut t, "name", Some("<empty>")), Ok((2, None)));
        assert_eq!((t.n, t.name.as_str()), (7, ""));
        let (a, note) = TOY.set(&mut t, "flag", Some("true")).unwrap();
        assert_eq!(a, 3);
        assert!(note.unwrap().starts_with("Flag is now nothing"));
        assert!(t.flag);
    }

    #[test]
    fn the_markdown_table_has_a_row_per_option() {
        let md = TOY.markdown();
        assert!(md.contains("| `N` | spin 1–9 | 3 | a number |"));
        assert!(md.contains("| `Name` | string | `x` |"));
        assert!(md.contains("- `Flag` → nothing"));
    }
}
