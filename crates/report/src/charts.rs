//! Every chart of the report: SVG strings drawn with `plotters` (line charts
//! with markers, horizontal bar charts, log-log size charts), and the log-axis
//! helpers they share.

use plotters::{
    chart::MeshStyle,
    coord::{ranged1d::ValueFormatter, Shift},
    prelude::*,
};

use crate::format::{fmt_count, fmt_seconds, fmt_si};

/// Named lines of a chart: (legend, points (x, y)).
pub type Series = Vec<(String, Vec<(f64, f64)>)>;

/// Draws a line chart with markers into an SVG string (legend beside the plot).
pub fn line_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &Series,
    log_y: bool,
) -> Option<String> {
    let [xmin, xmax, ymin, ymax] = line_chart_bounds(series)?;
    let mut svg = String::new();
    {
        // The legend goes beside the plot (right), never over the data.
        let legend_w = 300u32;
        let whole = SVGBackend::with_string(&mut svg, (680 + legend_w, 420)).into_drawing_area();
        whole.fill(&WHITE).ok()?;
        let (root, legend) = whole.split_horizontally(680);
        for (i, (name, _)) in series.iter().enumerate() {
            legend_entry(&legend, i, name, Palette99::pick(i).to_rgba(), true)?;
        }
        let mut b = ChartBuilder::on(&root);
        b.caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(84);
        // A log axis only helps across a wide range; with a narrow one it shows too few ticks.
        if log_y && ymax / ymin > 20.0 {
            let chart = b
                .build_cartesian_2d(xmin..xmax, (ymin * 0.7..ymax * 1.5).log_scale())
                .ok()?;
            line_chart_body(chart, x_label, y_label, series)?;
        } else {
            let chart = b.build_cartesian_2d(xmin..xmax, 0.0..ymax * 1.1).ok()?;
            line_chart_body(chart, x_label, y_label, series)?;
        }
        whole.present().ok()?;
    }
    Some(svg)
}

/// `[xmin, xmax, ymin, ymax]` of a line chart over the positive points of `series`, the x
/// range padded (by 0.3 each side, or 1 when all points share one x); `None` when there is
/// nothing to draw: no positive point, or no series of more than one point.
fn line_chart_bounds(series: &Series) -> Option<[f64; 4]> {
    let pts: Vec<(f64, f64)> = series
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .filter(|p| p.1 > 0.0)
        .collect();
    // A chart of lone dots answers nothing: the per-system bar charts show single configurations.
    if pts.is_empty() || !series.iter().any(|(_, v)| v.len() > 1) {
        return None;
    }
    let (xmin, xmax) = pts
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (ymin, ymax) = pts
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let (xmin, xmax) = if xmin == xmax {
        (xmin - 1.0, xmax + 1.0)
    } else {
        (xmin - 0.3, xmax + 0.3)
    };
    Some([xmin, xmax, ymin, ymax])
}

/// Draws a line chart's mesh (whole-number x ticks, y ticks formatted by [`format_axis`]) and
/// then each of `series` as a line with markers in its palette colour, on a linear or a log y
/// axis alike.
fn line_chart_body<DB, X, Y>(
    mut chart: ChartContext<'_, DB, Cartesian2d<X, Y>>,
    x_label: &str,
    y_label: &str,
    series: &Series,
) -> Option<()>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    report_mesh(
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .x_label_formatter(&|x| whole_tick(*x, "", false))
            .y_label_formatter(&|y| format_axis(*y, y_label))
            .x_labels(12)
            .y_labels(8),
        14,
        15,
    )
    .draw()
    .ok()?;
    for (i, (_, data)) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        draw_line(&mut chart, data, color.stroke_width(2), Some(color))?;
    }
    Some(())
}

/// The report's mesh style on `mesh`: tick labels of `label_px`, axis
/// descriptions of `desc_px`, no minor grid lines and light grey major ones
/// (every chart but the prover-parts bars).
pub fn report_mesh<'m, 'a, 'b, X, Y, XT, YT, DB>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
    label_px: u32,
    desc_px: u32,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB>
where
    X: Ranged<ValueType = XT> + ValueFormatter<XT>,
    Y: Ranged<ValueType = YT> + ValueFormatter<YT>,
    DB: DrawingBackend,
{
    mesh.label_style(("sans-serif", label_px))
        .axis_desc_style(("sans-serif", desc_px))
        .light_line_style(TRANSPARENT)
        .bold_line_style(RGBColor(225, 225, 225))
}

/// Draws `points`, sorted by x, as a line in `line`, with a dot of radius 3
/// in `dots` on each point when given.
pub fn draw_line<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    points: &[(f64, f64)],
    line: ShapeStyle,
    dots: Option<RGBAColor>,
) -> Option<()>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let mut data = points.to_vec();
    data.sort_by(|a, b| a.0.total_cmp(&b.0));
    chart
        .draw_series(LineSeries::new(data.clone(), line))
        .ok()?;
    if let Some(c) = dots {
        chart
            .draw_series(data.iter().map(|&p| Circle::new(p, 3, c.filled())))
            .ok()?;
    }
    Some(())
}

/// Entry `i` of a legend beside a plot: a short line in `color`, with a dot
/// on it when `dot` (a line chart's markers), and `name`.
pub fn legend_entry(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    i: usize,
    name: &str,
    color: RGBAColor,
    dot: bool,
) -> Option<()> {
    let y = 50 + 20 * i as i32;
    area.draw(&PathElement::new(
        vec![(4, y), (26, y)],
        color.stroke_width(3),
    ))
    .ok()?;
    if dot {
        area.draw(&Circle::new((15, y), 3, color.filled())).ok()?;
    }
    area.draw(&Text::new(
        name.to_string(),
        (32, y - 7),
        ("sans-serif", 13),
    ))
    .ok()
}

/// The label of an x tick at a whole number, after `prefix` (`2^` on a log2
/// axis); none between whole numbers, nor below zero when `non_negative`.
pub fn whole_tick(x: f64, prefix: &str, non_negative: bool) -> String {
    if (x - x.round()).abs() < 1e-6 && (!non_negative || x.round() >= 0.0) {
        format!("{prefix}{}", x.round() as i64)
    } else {
        String::new()
    }
}

/// A y-axis tick label: seconds when `label` says `(s)`, whole MiB, else a count.
pub fn format_axis(y: f64, label: &str) -> String {
    if label.contains("(s)") {
        fmt_seconds(y)
    } else if label.contains("MiB") {
        format!("{y:.0}")
    } else {
        fmt_count(y)
    }
}

/// Horizontal bar chart (log x) of one value per label.
pub fn bar_chart(title: &str, x_label: &str, bars: &[(String, f64)]) -> Option<String> {
    let bars: Vec<&(String, f64)> = bars.iter().filter(|b| b.1 > 0.0).collect();
    if bars.is_empty() {
        return None;
    }
    let (lo, hi) = bars
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let n = bars.len();
    let height = (90 + 26 * n) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (980, height)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(300)
            .build_cartesian_2d((lo * 0.5..hi * 2.0).log_scale(), -0.5..(n as f64 - 0.5))
            .ok()?;
        let names: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
        report_mesh(
            chart
                .configure_mesh()
                .x_desc(x_label)
                .y_labels(n)
                .y_label_formatter(&|y| {
                    let i = y.round();
                    if (y - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
                        names[i as usize].clone()
                    } else {
                        String::new()
                    }
                })
                .x_label_formatter(&|x| {
                    if x_label.contains(", s") {
                        fmt_seconds(*x)
                    } else {
                        fmt_count(*x)
                    }
                })
                .disable_y_mesh(),
            13,
            15,
        )
        .draw()
        .ok()?;
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                let y = i as f64;
                Rectangle::new(
                    [(lo * 0.5, y - 0.35), (b.1, y + 0.35)],
                    Palette99::pick(i % 9).filled(),
                )
            }))
            .ok()?;
        root.present().ok()?;
    }
    Some(svg)
}

/// One line of a chart: name, colour index, points (x, y).
pub type Line = (String, usize, Vec<(f64, f64)>);

/// Colour `i` of the report's palette.
pub fn color(i: usize) -> RGBAColor {
    Palette99::pick(i).to_rgba()
}

/// Whether a log-axis tick at `v` is labelled: 1, 2 and 5 times a power of ten only, so that
/// the labels of a decade's upper ticks (6, 7, 8, 9 × 10^k, a few pixels apart) do not run into
/// each other.
pub fn log_tick_labelled(v: f64) -> bool {
    if !(v > 0.0 && v.is_finite()) {
        return false;
    }
    let m = v / 10f64.powf(v.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .any(|k| (m - k).abs() < 1e-6 * k)
}

/// The y ticks of a log axis over `[lo, hi]`: every `m·10^k` (m = 1..9) in a
/// range of up to two decades, so that a short one (300 ns to 3 µs, say)
/// still has ticks between its powers of ten; only `m` = 1, 2, 5 over a wider
/// range (nine grid lines a decade would crowd it). [`log_tick_labelled`]
/// picks the labels.
pub fn log_key_points(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return Vec::new();
    }
    let digits: &[u32] = if hi / lo > 100.0 {
        &[1, 2, 5]
    } else {
        &[1, 2, 3, 4, 5, 6, 7, 8, 9]
    };
    let mut out = Vec::new();
    let mut decade = 10f64.powf(lo.log10().floor());
    while decade <= hi {
        for &m in digits {
            let v = m as f64 * decade;
            if v >= lo && v <= hi {
                out.push(v);
            }
        }
        decade *= 10.0;
    }
    out
}

/// `[xmin, xmax, ymin, ymax]` of the points with a positive, finite y (those a log axis can
/// show); `None` when there are none.
pub fn log_bounds<'a>(lines: impl Iterator<Item = &'a [(f64, f64)]>) -> Option<[f64; 4]> {
    lines
        .flatten()
        .filter(|p| p.1 > 0.0 && p.1.is_finite())
        .fold(None, |b: Option<[f64; 4]>, p| {
            let [a, c, d, e] = b.unwrap_or([p.0, p.0, p.1, p.1]);
            Some([a.min(p.0), c.max(p.0), d.min(p.1), e.max(p.1)])
        })
}

/// A log-log line chart (x: log2 of the size) with the legend beside the plot.
pub fn loglog(
    title: &str,
    x_label: &str,
    y_label: &str,
    lines: &[Line],
    seconds: bool,
) -> Option<String> {
    let [xmin, xmax, ymin, ymax] = log_bounds(lines.iter().map(|l| l.2.as_slice()))?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 430)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let (plot, legend) = root.split_horizontally(640);
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, ("sans-serif", 18))
            .margin(10)
            .x_label_area_size(46)
            .y_label_area_size(80)
            .build_cartesian_2d(
                (xmin - 0.4)..(xmax + 0.4),
                (ymin * 0.6..ymax * 1.6)
                    .log_scale()
                    .with_key_points(log_key_points(ymin * 0.6, ymax * 1.6)),
            )
            .ok()?;
        loglog_mesh(&mut chart, x_label, y_label, seconds)?;
        loglog_lines(&mut chart, lines)?;
        loglog_legend(&legend, lines)?;
        root.present().ok()?;
    }
    Some(svg)
}

/// Draws a log-log chart's mesh: `2^k` x ticks at whole k, and y labels on the 1-2-5 ticks
/// only (see [`log_tick_labelled`]), in seconds when `seconds`, else with an SI prefix.
fn loglog_mesh<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    x_label: &str,
    y_label: &str,
    seconds: bool,
) -> Option<()>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    report_mesh(
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .x_label_formatter(&|x| whole_tick(*x, "2^", true))
            .y_label_formatter(&|y| {
                // label 1-2-5 ticks only (see `log_tick_labelled`)
                if !log_tick_labelled(*y) {
                    String::new()
                } else if seconds {
                    fmt_seconds(*y)
                } else {
                    fmt_si(*y)
                }
            })
            .x_labels(16)
            .y_labels(10),
        13,
        14,
    )
    .draw()
    .ok()
}

/// Draws the positive points of each of `lines`: a cost model as a plain grey line, any other
/// line in its colour with markers.
fn loglog_lines<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    lines: &[Line],
) -> Option<()>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    for (name, c, data) in lines {
        let data: Vec<(f64, f64)> = data.iter().copied().filter(|p| p.1 > 0.0).collect();
        let style = color(*c);
        if name.starts_with("cost model") {
            draw_line(chart, &data, RGBColor(90, 90, 90).stroke_width(2), None)?;
        } else {
            draw_line(chart, &data, style.stroke_width(2), Some(style))?;
        }
    }
    Some(())
}

/// Places the legend of a log-log chart in `legend` (the area beside the plot): a short line
/// in each line's colour (grey for a cost model) and its name, one entry per row.
fn loglog_legend(legend: &DrawingArea<SVGBackend<'_>, Shift>, lines: &[Line]) -> Option<()> {
    for (i, (name, c, _)) in lines.iter().enumerate() {
        let y = 40 + 22 * i as i32;
        let stroke = if name.starts_with("cost model") {
            RGBColor(90, 90, 90).stroke_width(3)
        } else {
            color(*c).stroke_width(3)
        };
        legend
            .draw(&PathElement::new(vec![(6, y), (30, y)], stroke))
            .ok()?;
        legend
            .draw(&Text::new(name.clone(), (36, y - 7), ("sans-serif", 13)))
            .ok()?;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_key_points_every_digit_under_two_decades_one_two_five_over() {
        assert_eq!(
            log_key_points(293.0, 3707.0),
            vec![300.0, 400.0, 500.0, 600.0, 700.0, 800.0, 900.0, 1000.0, 2000.0, 3000.0]
        );
        assert_eq!(
            log_key_points(3.0, 3000.0),
            vec![5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0]
        );
        assert_eq!(log_key_points(1.0, 1.0), Vec::<f64>::new());
        assert_eq!(log_key_points(0.0, 10.0), Vec::<f64>::new());
    }

    #[test]
    fn log_ticks_label_one_two_five() {
        for (v, want) in [
            (1.0, true),
            (2.0, true),
            (5.0, true),
            (3.0, false),
            (9.0, false),
            (10.0, true),
            (200_000.0, true),
            (300_000.0, false),
            (0.005, true),
            (0.007, false),
            (1e6, true),
            (0.0, false),
            (f64::NAN, false),
        ] {
            assert_eq!(log_tick_labelled(v), want, "{v}");
        }
    }
}
