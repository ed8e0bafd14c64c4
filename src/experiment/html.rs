//! Small HTML building blocks for `report.html` (the KQKR report of Donkers 2003 §5.4.3,
//! see [`super::report`]): escaping, table cells and tables, folded blocks, the style
//! sheet, and the cells of a test against the base case s = 0 with the significant ones
//! marked (class `sig`, plus `up`/`down` for the direction). Every text goes through
//! [`escape`].

use std::fmt::Write as _;

use super::summary::{f1, f2};

/// A difference is marked significant below this p-value.
pub const SIGNIFICANT: f64 = 0.05;

/// The page's style sheet (no external fonts or files).
pub const STYLE: &str = "
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 1400px; padding: 1em 2em;
  color: #1a1a1a; line-height: 1.4; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #ddd; margin-top: 1.8em; }
.lead { color: #555; } .note { color: #555; font-size: 0.92em; max-width: 70em; }
.glance { background: #f4f7fb; border-left: 4px solid #3b6ea8; padding: 0.6em 1.2em; }
.pair { display: grid; grid-template-columns: minmax(560px, 1fr) auto; gap: 1.5em;
  align-items: start; } .pair > div { overflow-x: auto; } .pair .note { max-width: 38em; }
.figs { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 1em; }
figure { margin: 0; } figure svg { width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.9em; color: #555; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 0.9em; }
th, td { border: 1px solid #d6d6d6; padding: 0.25em 0.55em; text-align: right; }
th { background: #f0f0f0; } td:first-child, th:first-child { text-align: left; }
td { white-space: nowrap; } tr:nth-child(even) td { background: #fafafa; }
table td.thesis, th.thesis, .thesis { background: #f3efe6; color: #6b5a2e; font-style: italic; }
table td.sig { background: #ffe08a; font-weight: bold; }
td.sig.up::after { content: ' ▲'; color: #2f7d32; }
td.sig.down::after { content: ' ▼'; color: #b3261e; }
.key { display: inline-block; padding: 0 0.4em; background: #ffe08a; font-weight: bold; }
details { margin: 0.5em 0; } summary { cursor: pointer; color: #3b6ea8; }
footer { margin-top: 3em; border-top: 2px solid #ddd; font-size: 0.9em; }
footer td, footer th { text-align: left; font-family: ui-monospace, monospace; }
@media (max-width: 1000px) { .pair { grid-template-columns: 1fr; } }
";

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A table cell: escaped text, optional classes.
pub fn td(text: &str, class: &str) -> String {
    if class.is_empty() {
        format!("<td>{}</td>", escape(text))
    } else {
        format!("<td class=\"{class}\">{}</td>", escape(text))
    }
}

/// A table with a header row; `rows` are whole `<td>` sequences. Headers starting with
/// `thesis` get the thesis' colour.
pub fn table(head: &[&str], rows: &[String]) -> String {
    let mut t = String::from("<table><thead><tr>");
    for h in head {
        let class = if h.starts_with("thesis") {
            " class=\"thesis\""
        } else {
            ""
        };
        let _ = write!(t, "<th{class}>{}</th>", escape(h));
    }
    t.push_str("</tr></thead><tbody>\n");
    for r in rows {
        let _ = writeln!(t, "<tr>{r}</tr>");
    }
    t.push_str("</tbody></table>\n");
    t
}

/// Wraps `html` in a folded `<details>` block when `fold`.
pub fn folded(fold: bool, summary: &str, html: &str) -> String {
    if fold {
        format!(
            "<details><summary>{}</summary>\n{html}</details>\n",
            escape(summary)
        )
    } else {
        html.to_string()
    }
}

/// One test against s = 0, for the cells of a table and the list at the top.
pub struct Test {
    /// The difference (this depth − s = 0).
    pub diff: f64,
    /// Half-width of its 95 % interval, if known.
    pub interval: Option<f64>,
    /// The t statistic.
    pub t: f64,
    /// Degrees of freedom.
    pub df: f64,
    /// Two-sided p-value.
    pub p: f64,
}

impl Test {
    /// p below [`SIGNIFICANT`].
    pub fn significant(&self) -> bool {
        self.p < SIGNIFICANT
    }

    /// The cells Δ (with its interval if known), t, df, p; marked when significant.
    pub fn cells(&self) -> String {
        let class = match (self.significant(), self.diff > 0.0) {
            (false, _) => "",
            (true, true) => "sig up",
            (true, false) => "sig down",
        };
        let diff = match self.interval {
            Some(ci) => format!(
                "{:+.1} [{:+.1}, {:+.1}]",
                self.diff,
                self.diff - ci,
                self.diff + ci
            ),
            None => format!("{:+.1}", self.diff),
        };
        let p = if self.p < 0.001 {
            "< 0.001".to_string()
        } else {
            format!("{:.3}", self.p)
        };
        let tag = if self.significant() {
            format!(" title=\"p = {:.4} &lt; {SIGNIFICANT}\"", self.p)
        } else {
            String::new()
        };
        let mark = |text: &str| {
            if class.is_empty() {
                td(text, "")
            } else {
                format!("<td class=\"{class}\"{tag}>{}</td>", escape(text))
            }
        };
        format!(
            "{}{}{}{}",
            mark(&diff),
            td(&f2(self.t), ""),
            td(&f1(self.df), ""),
            mark(&p)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(escape("Browne–BELLE 1"), "Browne–BELLE 1");
    }

    #[test]
    fn only_a_significant_test_is_marked() {
        let t = |p: f64| Test {
            diff: 3.0,
            interval: Some(1.0),
            t: 2.5,
            df: 9.0,
            p,
        };
        let sig = t(0.01).cells();
        assert!(
            sig.contains("class=\"sig up\"") && sig.contains("0.010"),
            "{sig}"
        );
        assert!(sig.contains("+3.0 [+2.0, +4.0]"), "{sig}");
        let ns = t(0.2).cells();
        assert!(!ns.contains("sig") && ns.contains("0.200"), "{ns}");
    }
}
