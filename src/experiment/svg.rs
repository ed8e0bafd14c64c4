//! A tiny SVG line plot, enough for the figures of Donkers 2003 §5.4.3 (Figs. 5.10–5.14):
//! several series of (x, y) points with optional error bars (or a shaded band for a pooled
//! mean over many faint per-position lines), linear axes with "nice" ticks, a title, axis
//! labels and a legend to the right of the data, never over it. No dependencies; the
//! output is a self-contained SVG file any browser shows, also inline in `report.html`.
//!
//! Why not the `plotters` crate: placing a legend and tick labels needs text widths, which
//! plotters measures with a font backend (`ttf`: font-kit with fontconfig and FreeType on
//! Linux, or a font file bundled with the build); either would make the lab depend on
//! system libraries or ship a font for one estimate that a fixed width per character does
//! well enough here, and the figures' exact shapes (bands, error bars, pooled views) are
//! checked by tests against this writer's output.

use std::fmt::Write as _;

use super::html::escape;

/// One series.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// Legend label.
    pub label: String,
    /// Points (x, y, half-height of the error bar).
    pub points: Vec<(f64, f64, f64)>,
    /// Dashed line.
    pub dashed: bool,
    /// Faint: a thin, pale line without markers or error bars (one of many positions).
    pub faint: bool,
    /// The error bars drawn as a shaded band, the line dark and thick (a pooled mean).
    pub band: bool,
}

/// A plot.
#[derive(Clone, Debug, Default)]
pub struct Plot {
    /// Title.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// The series.
    pub series: Vec<Series>,
}

/// Width of the plot part; the legend column follows it.
const PLOT_W: f64 = 640.0;
const LEGEND_W: f64 = 210.0;
const W: f64 = PLOT_W + LEGEND_W;
const H: f64 = 420.0;
/// Legend labels are cut to this many characters.
const LEGEND_CHARS: usize = 28;
/// Colour of a banded (pooled) series.
const BAND_COLOUR: &str = "#111111";
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 60.0;
const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
];

/// Tick positions covering `lo..=hi` at a 1-2-5 step.
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    let span = (hi - lo).abs().max(1e-9);
    let raw = span / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).floor() * step;
    let mut out = Vec::new();
    let mut t = first;
    while out.len() < 100 {
        out.push(t);
        if t >= hi - 1e-9 {
            break;
        }
        t += step;
    }
    out
}

fn label(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.2}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

impl Plot {
    /// Renders the plot as an SVG document.
    pub fn render(&self) -> String {
        let pts = || {
            self.series
                .iter()
                .flat_map(|s| s.points.iter())
                .filter(|p| p.0.is_finite() && p.1.is_finite())
        };
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(x, y, e) in pts() {
            let e = if e.is_finite() { e } else { 0.0 };
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y - e);
            y1 = y1.max(y + e);
        }
        if x0 > x1 {
            (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
        }
        if (x1 - x0).abs() < 1e-9 {
            x0 -= 1.0;
            x1 += 1.0;
        }
        if (y1 - y0).abs() < 1e-9 {
            y0 -= 1.0;
            y1 += 1.0;
        }
        let xt = nice_ticks(x0, x1, 8);
        let yt = nice_ticks(y0, y1, 6);
        let (x0, x1) = (xt[0].min(x0), xt[xt.len() - 1].max(x1));
        let (y0, y1) = (yt[0].min(y0), yt[yt.len() - 1].max(y1));
        let pw = PLOT_W - LEFT - RIGHT;
        let ph = H - TOP - BOTTOM;
        let sx = |x: f64| LEFT + (x - x0) / (x1 - x0) * pw;
        let sy = |y: f64| TOP + ph - (y - y0) / (y1 - y0) * ph;
        let height = H.max(TOP + 24.0 + 16.0 * self.series.len() as f64);
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" viewBox="0 0 {W} {height}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(s, r#"<rect width="{W}" height="{height}" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#,
            PLOT_W / 2.0,
            escape(&self.title)
        );
        // Grid and ticks.
        for &t in &yt {
            let y = sy(t);
            let _ = writeln!(
                s,
                r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                PLOT_W - RIGHT,
                LEFT - 6.0,
                y + 4.0,
                label(t)
            );
        }
        for &t in &xt {
            let x = sx(t);
            let _ = writeln!(
                s,
                r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}" stroke="#eee"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
                TOP + ph,
                TOP + ph + 18.0,
                label(t)
            );
        }
        let _ = writeln!(
            s,
            r#"<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="black"/>"#
        );
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            LEFT + pw / 2.0,
            H - 18.0,
            escape(&self.x_label)
        );
        let _ = writeln!(
            s,
            r#"<text x="18" y="{:.1}" text-anchor="middle" transform="rotate(-90 18 {:.1})">{}</text>"#,
            TOP + ph / 2.0,
            TOP + ph / 2.0,
            escape(&self.y_label)
        );
        let finite = |ser: &Series| -> Vec<(f64, f64, f64)> {
            ser.points
                .iter()
                .copied()
                .filter(|p| p.0.is_finite() && p.1.is_finite())
                .collect()
        };
        let colour = |i: usize| {
            if self.series[i].band {
                BAND_COLOUR
            } else {
                let nth = self.series[..i].iter().filter(|x| !x.band).count();
                COLOURS[nth % COLOURS.len()]
            }
        };
        // Bands first, then the faint lines, then the rest on top.
        for (i, ser) in self.series.iter().enumerate().filter(|(_, x)| x.band) {
            let pts = finite(ser);
            let e = |p: &(f64, f64, f64)| if p.2.is_finite() { p.2 } else { 0.0 };
            let upper = pts
                .iter()
                .map(|p| format!("{:.1},{:.1}", sx(p.0), sy(p.1 + e(p))));
            let lower = pts
                .iter()
                .rev()
                .map(|p| format!("{:.1},{:.1}", sx(p.0), sy(p.1 - e(p))));
            let outline: Vec<String> = upper.chain(lower).collect();
            if pts.len() > 1 {
                let _ = writeln!(
                    s,
                    r#"<polygon points="{}" fill="{}" fill-opacity="0.15" stroke="none"/>"#,
                    outline.join(" "),
                    colour(i)
                );
            }
        }
        let order = (0..self.series.len())
            .filter(|&i| self.series[i].faint)
            .chain((0..self.series.len()).filter(|&i| !self.series[i].faint));
        for i in order {
            let ser = &self.series[i];
            let c = colour(i);
            let pts = finite(ser);
            let dash = if ser.dashed {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            };
            let (width, opacity) = match (ser.faint, ser.band) {
                (true, _) => (1.0, 0.35),
                (false, true) => (3.0, 1.0),
                (false, false) => (2.0, 1.0),
            };
            let path: Vec<String> = pts
                .iter()
                .map(|&(x, y, _)| format!("{:.1},{:.1}", sx(x), sy(y)))
                .collect();
            if !path.is_empty() {
                let _ = writeln!(
                    s,
                    r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="{width}" stroke-opacity="{opacity}"{dash}/>"#,
                    path.join(" ")
                );
            }
            if ser.faint {
                continue;
            }
            for &(x, y, e) in &pts {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{c}"/>"#,
                    sx(x),
                    sy(y)
                );
                if e.is_finite() && e > 0.0 && !ser.band {
                    let _ = writeln!(
                        s,
                        r#"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="{c}"/><line x1="{3:.1}" y1="{1:.1}" x2="{4:.1}" y2="{1:.1}" stroke="{c}"/><line x1="{3:.1}" y1="{2:.1}" x2="{4:.1}" y2="{2:.1}" stroke="{c}"/>"#,
                        sx(x),
                        sy(y - e),
                        sy(y + e),
                        sx(x) - 4.0,
                        sx(x) + 4.0
                    );
                }
            }
        }
        // The legend, in the column right of the plot.
        for (i, ser) in self.series.iter().enumerate() {
            let ly = TOP + 8.0 + 16.0 * i as f64;
            let lx = PLOT_W;
            let dash = if ser.dashed {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            };
            let (width, opacity) = if ser.faint { (1.5, 0.5) } else { (2.5, 1.0) };
            let mut text: String = ser.label.chars().take(LEGEND_CHARS).collect();
            if ser.label.chars().count() > LEGEND_CHARS {
                text.push('…');
            }
            let _ = writeln!(
                s,
                r#"<line x1="{lx}" y1="{ly}" x2="{:.1}" y2="{ly}" stroke="{}" stroke-width="{width}" stroke-opacity="{opacity}"{dash}/><text x="{:.1}" y="{:.1}"><title>{}</title>{}</text>"#,
                lx + 24.0,
                colour(i),
                lx + 30.0,
                ly + 4.0,
                escape(&ser.label),
                escape(&text)
            );
        }
        s.push_str("</svg>\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            nice_ticks(0.0, 11.0, 8),
            vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0]
        );
        let t = nice_ticks(36.2, 42.9, 6);
        assert!(t[0] <= 36.2 && *t.last().unwrap() >= 42.9);
    }

    #[test]
    fn renders_a_well_formed_document() {
        let p = Plot {
            title: "a < b".into(),
            x_label: "s".into(),
            y_label: "moves".into(),
            series: vec![Series {
                label: "pos 1".into(),
                points: vec![(0.0, 37.4, 1.0), (1.0, 40.0, 2.0), (2.0, f64::NAN, 0.0)],
                ..Series::default()
            }],
        };
        let svg = p.render();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("a &lt; b") && svg.contains("<polyline"));
        assert_eq!(svg.matches("<circle").count(), 2);
    }

    #[test]
    fn a_pooled_band_faint_lines_and_the_legend_outside_the_data() {
        let faint = |label: &str, y: f64| Series {
            label: label.into(),
            points: vec![(0.0, y, 0.0), (1.0, y + 1.0, 0.0)],
            faint: true,
            ..Series::default()
        };
        let p = Plot {
            title: "t".into(),
            x_label: "s".into(),
            y_label: "y".into(),
            series: vec![
                Series {
                    label: "mean".into(),
                    points: vec![(0.0, 10.0, 2.0), (1.0, 11.0, 2.0)],
                    band: true,
                    ..Series::default()
                },
                faint("#1 dup", 8.0),
                faint("#2 dup", 12.0),
            ],
        };
        let svg = p.render();
        assert_eq!(svg.matches("<polygon").count(), 1, "one band");
        assert_eq!(
            svg.matches("<circle").count(),
            2,
            "markers on the mean only"
        );
        assert_eq!(
            svg.matches(r#"stroke-opacity="0.35""#).count(),
            2,
            "two faint lines"
        );
        // Every legend entry starts right of the plot area.
        let legend_x: Vec<f64> = svg
            .lines()
            .filter(|l| l.contains("<title>"))
            .map(|l| l.split('"').nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(legend_x.len(), 3);
        assert!(
            legend_x.iter().all(|&x| x >= PLOT_W - RIGHT),
            "{legend_x:?}"
        );
    }
}
