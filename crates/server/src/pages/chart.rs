//! The device page's chart: each case's median per run against the time the
//! run was received, as SVG. The y axis is logarithmic (a class's cases span
//! microseconds to seconds) with decade ticks in time units; the x axis is
//! UTC time; the legend sits right of the plot, off the data.

use std::{collections::BTreeMap, fmt::Write as _, time::SystemTime};

use zkbench_report::format::fmt_seconds;

use crate::{db::Point, leaderboard::esc};

/// Most series (case · phase) drawn; the page says when there are more.
pub const MAX_SERIES: usize = crate::db::SERIES;

/// The series' colours (Tableau 10).
const COLOURS: [&str; MAX_SERIES] = [
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
];

// Geometry, px: plot area left/top/size, legend column, total width.
const LEFT: f64 = 78.0;
const TOP: f64 = 12.0;
const PW: f64 = 560.0;
const PH: f64 = 260.0;
const LEGEND_X: f64 = LEFT + PW + 24.0;
const WIDTH: f64 = LEGEND_X + 300.0;
const BOTTOM: f64 = 52.0;

/// Seconds since the epoch of an RFC 3339 time (`None` if unreadable).
fn epoch_s(t: &str) -> Option<f64> {
    humantime::parse_rfc3339_weak(t.trim_end_matches('Z'))
        .or_else(|_| humantime::parse_rfc3339(t))
        .ok()?
        .duration_since(SystemTime::UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs_f64())
}

/// `YYYY-MM-DD HH:MM` of epoch seconds `s`.
fn label_time(s: f64) -> String {
    let t = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs_f64(s.max(0.0));
    let text = humantime::format_rfc3339_seconds(t).to_string();
    text.get(..16).unwrap_or(&text).replace('T', " ")
}

/// A series: its label and its (time, median) points in time order, with
/// each point's submission id.
type Series<'a> = (String, Vec<(f64, f64, &'a str)>);

/// The series to draw: the cases with the most points (ties by name), at
/// most [`MAX_SERIES`]; medians that are not positive cannot be drawn on a
/// log axis and are left out. Returns them and the number of series in all.
fn series(points: &[Point]) -> (Vec<Series<'_>>, usize) {
    let mut by: BTreeMap<String, Vec<(f64, f64, &str)>> = BTreeMap::new();
    for p in points {
        let (Some(t), true) = (
            epoch_s(&p.received_at),
            p.median > 0.0 && p.median.is_finite(),
        ) else {
            continue;
        };
        by.entry(format!("{} · {}", p.case_id, p.phase))
            .or_default()
            .push((t, p.median, p.id.as_str()));
    }
    let total = by.len();
    let mut all: Vec<Series<'_>> = by.into_iter().collect();
    all.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    all.truncate(MAX_SERIES);
    for s in &mut all {
        s.1.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    (all, total)
}

/// Draws the chart of `points` into `h` (a note instead when none can be
/// drawn); `cases` drawable cases in all (the database reads the charted
/// ones' points only), at least those in `points`.
pub fn runs_over_time(h: &mut String, points: &[Point], cases: usize) {
    let (series, total) = series(points);
    let total = total.max(cases);
    if series.is_empty() {
        h.push_str("<p>No measured runs of this class match these filters.</p>");
        return;
    }
    let scale = Scale::fit(&series);
    open_svg(h, series.len());
    axes(h, scale.d0, scale.d1, scale.t0, scale.t1, &|t| scale.x(t));
    for (i, (label, ps)) in series.iter().enumerate() {
        draw_series(h, &scale, i, label, ps);
    }
    if total > series.len() {
        let _ = write!(
            h,
            "<text x=\"{LEGEND_X}\" y=\"{:.1}\" fill=\"#777\">and {} more cases: filter to see them</text>",
            TOP + 20.0 * series.len() as f64 + 14.0,
            total - series.len()
        );
    }
    h.push_str("</svg>");
}

/// The plot's scales: times `t0..=t1` (epoch seconds) across, decades
/// `d0..d1` (of seconds, at least one) up.
struct Scale {
    t0: f64,
    t1: f64,
    d0: i32,
    d1: i32,
}

impl Scale {
    /// The scales that hold every point of `series` (not empty).
    fn fit(series: &[Series<'_>]) -> Self {
        let pts = series.iter().flat_map(|s| s.1.iter());
        let (mut t0, mut t1, mut lo, mut hi) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(t, m, _) in pts {
            (t0, t1) = (t0.min(t), t1.max(t));
            (lo, hi) = (lo.min(m.log10()), hi.max(m.log10()));
        }
        let (d0, mut d1) = (lo.floor() as i32, hi.ceil() as i32);
        if d1 <= d0 {
            d1 = d0 + 1;
        }
        Self { t0, t1, d0, d1 }
    }

    /// The x of time `t` (mid-plot when all points share one time).
    fn x(&self, t: f64) -> f64 {
        let span = (self.t1 - self.t0).max(1.0);
        if self.t1 > self.t0 {
            LEFT + (t - self.t0) / span * PW
        } else {
            LEFT + PW / 2.0
        }
    }

    /// The y of median `m` seconds (log scale).
    fn y(&self, m: f64) -> f64 {
        TOP + PH - (m.log10() - self.d0 as f64) / (self.d1 - self.d0) as f64 * PH
    }
}

/// Opens the SVG, tall enough for the plot and a legend of `n` series, and
/// draws the plot's frame.
fn open_svg(h: &mut String, n: usize) {
    let legend_h = TOP + 20.0 * n as f64 + 24.0;
    let height = (TOP + PH + BOTTOM).max(legend_h);
    let _ = write!(
        h,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" role=\"img\" \
         aria-label=\"median time per run against the time received, one line per case\" \
         style=\"font:12px system-ui,sans-serif\">\
         <rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{PW}\" height=\"{PH}\" fill=\"none\" stroke=\"#999\"/>"
    );
}

/// Series `i` (`label`, points `ps`): its line, a point per run with the
/// run in its title, and its legend entry.
fn draw_series(h: &mut String, scale: &Scale, i: usize, label: &str, ps: &[(f64, f64, &str)]) {
    let c = COLOURS[i % COLOURS.len()];
    let line: Vec<String> = ps
        .iter()
        .map(|&(t, m, _)| format!("{:.1},{:.1}", scale.x(t), scale.y(m)))
        .collect();
    let _ = write!(
        h,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1.5\"/>",
        line.join(" ")
    );
    for &(t, m, id) in ps {
        let _ = write!(
            h,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{c}\"><title>{}: {} at {} UTC ({})</title></circle>",
            scale.x(t),
            scale.y(m),
            esc(label),
            fmt_seconds(m),
            label_time(t),
            esc(&id[..id.len().min(10)])
        );
    }
    legend(h, i, c, label);
}

/// The axes' ticks, labels and titles (with units).
fn axes(h: &mut String, d0: i32, d1: i32, t0: f64, t1: f64, x: &dyn Fn(f64) -> f64) {
    for k in d0..=d1 {
        let yy = TOP + PH - (k - d0) as f64 / (d1 - d0) as f64 * PH;
        let _ = write!(
            h,
            "<line x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#e4e4e4\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT + PW,
            LEFT - 6.0,
            yy + 4.0,
            fmt_seconds(10f64.powi(k))
        );
    }
    let ticks: Vec<f64> = if t1 > t0 {
        (0..=3).map(|i| t0 + (t1 - t0) * i as f64 / 3.0).collect()
    } else {
        vec![t0]
    };
    for (i, t) in ticks.iter().enumerate() {
        let anchor = match (i, ticks.len()) {
            (_, 1) => "middle",
            (0, _) => "start",
            (i, n) if i + 1 == n => "end",
            _ => "middle",
        };
        let _ = write!(
            h,
            "<line x1=\"{0:.1}\" x2=\"{0:.1}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#999\"/>\
             <text x=\"{0:.1}\" y=\"{3}\" text-anchor=\"{anchor}\">{4}</text>",
            x(*t),
            TOP + PH,
            TOP + PH + 5.0,
            TOP + PH + 18.0,
            label_time(*t)
        );
    }
    let _ = write!(
        h,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">time received (UTC)</text>\
         <text transform=\"translate(14 {:.1}) rotate(-90)\" text-anchor=\"middle\">median time per run (log scale)</text>",
        LEFT + PW / 2.0,
        TOP + PH + 40.0,
        TOP + PH / 2.0
    );
}

/// Legend entry `i`: a swatch and the (shortened) label, the full one as its title.
fn legend(h: &mut String, i: usize, colour: &str, label: &str) {
    let ly = TOP + 20.0 * i as f64;
    let short: String = if label.chars().count() > 44 {
        label.chars().take(43).collect::<String>() + "…"
    } else {
        label.to_string()
    };
    let _ = write!(
        h,
        "<rect x=\"{LEGEND_X}\" y=\"{:.1}\" width=\"12\" height=\"12\" fill=\"{colour}\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\"><title>{}</title>{}</text>",
        ly,
        LEGEND_X + 18.0,
        ly + 10.0,
        esc(label),
        esc(&short)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(case: &str, at: &str, median: f64) -> Point {
        Point {
            case_id: case.into(),
            phase: "prove".into(),
            id: "ab".repeat(32),
            received_at: at.into(),
            median,
        }
    }

    #[test]
    fn draws_axes_legend_and_escapes() {
        let pts = vec![
            p("<b>x</b>", "2026-11-27T07:00:00.000000Z", 0.002),
            p("<b>x</b>", "2026-11-27T08:00:00.000000Z", 0.003),
            p("y", "2026-11-27T07:30:00.000000Z", 1.5),
            p("zero", "2026-11-27T07:30:00.000000Z", 0.0),
        ];
        let mut h = String::new();
        runs_over_time(&mut h, &pts, 0);
        assert!(h.contains("time received (UTC)") && h.contains("median time per run (log scale)"));
        assert!(h.contains("2026-11-27 07:00") && h.contains("2026-11-27 08:00"));
        assert!(
            h.contains("1.0 ms") && h.contains("10.00 s"),
            "decade ticks with units"
        );
        assert!(h.contains("&lt;b&gt;x&lt;/b&gt; · prove") && !h.contains("<b>x"));
        assert_eq!(
            h.matches("<polyline").count(),
            2,
            "the zero median is not drawn"
        );
        // legend right of the plot
        assert!(h.contains(&format!("<rect x=\"{LEGEND_X}\"")));
        let mut none = String::new();
        runs_over_time(&mut none, &[], 0);
        let mut more = String::new();
        runs_over_time(&mut more, &pts, 12);
        assert!(more.contains("and 10 more cases"), "{more}");
        assert!(none.contains("No measured runs"));
    }
}
