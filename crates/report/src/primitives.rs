//! The report's primitives section (suites `primitives`, `pcs`): where the time of a prover
//! goes, part by part.
//!
//! * MSM: nanoseconds per point against size (log-log), one line per
//!   implementation and the cost model of scalar (ark-ff) arithmetic, per group and thread
//!   count, and a table of the ratios zkbench / arkworks and zkbench /
//!   gnark-crypto;
//! * FFT: time against size (log-log);
//! * polynomial commitments: commit throughput (coefficients per second),
//!   open and verify time and proof size against size, per scheme, and the
//!   memory ceiling (the first size recorded as out of memory);
//! * Groth16: a stacked bar per proof case of the prover's parts
//!   (`metrics.phase_<name>_s`), witness generation beside them.
//!
//! [`html`] and [`markdown`] return nothing when the records have none of
//! these, so other suites' reports are unchanged.

use std::collections::BTreeMap;

use plotters::prelude::*;

use zkbench_results::{
    case::{format_leaves, CaseKind},
    results::{Record, Status},
};

use crate::{
    charts::{color, loglog, Line},
    format::fmt_seconds,
    table::{Cell, Table},
};

/// The Groth16 prover parts in stacking order, with their labels.
pub const PHASES: [(&str, &str); 7] = [
    ("h", "H polynomial (FFTs)"),
    ("msm_a", "MSM A (G1)"),
    ("msm_b_g1", "MSM B (G1)"),
    ("msm_b_g2", "MSM B (G2)"),
    ("msm_c", "MSM C (G1)"),
    ("msm_h", "MSM H (G1)"),
    ("rest", "rest"),
];

fn ok<'a>(recs: &[&'a Record], kind: CaseKind) -> Vec<&'a Record> {
    recs.iter()
        .copied()
        .filter(|r| r.case.kind == kind && r.status == Status::Ok && r.case.size.is_some())
        .collect()
}

fn log2(n: u64) -> f64 {
    (n as f64).log2()
}

/// Stable colour per implementation, so a system keeps its colour across charts.
fn system_color(system: &str) -> usize {
    match system {
        "zkbench" => 0,
        "arkworks" => 1,
        "halo2curves" | "halo2-axiom" => 2,
        "gnark-crypto" => 3,
        "plonky3" => 4,
        _ => 5,
    }
}

fn scheme_color(scheme: &str) -> usize {
    match scheme {
        "kzg-bn254" => 0,
        "ipa-pasta" => 2,
        "fri-babybear" => 4,
        "fri-goldilocks" => 6,
        _ => 8,
    }
}

/// (group, threads) → system → size → ns per point, from `msm` records.
type MsmTable = BTreeMap<(String, usize), BTreeMap<String, BTreeMap<u64, f64>>>;

fn msm_table(recs: &[&Record]) -> (MsmTable, BTreeMap<(String, usize, u64), f64>) {
    let mut t: MsmTable = BTreeMap::new();
    let mut model = BTreeMap::new();
    for r in ok(recs, CaseKind::Msm) {
        let (Some(n), Some(m)) = (r.case.size, r.median()) else {
            continue;
        };
        let key = (r.case.hash.to_string(), r.threads);
        t.entry(key)
            .or_default()
            .entry(r.case.system.clone())
            .or_default()
            .insert(n, m * 1e9 / n as f64);
        if let Some(&v) = r.metrics.get("model_ns_per_point") {
            model.insert((r.case.hash.to_string(), r.threads, n), v);
        }
    }
    (t, model)
}

fn msm_charts(recs: &[&Record]) -> Vec<String> {
    let (t, model) = msm_table(recs);
    let mut out = Vec::new();
    for ((group, threads), systems) in &t {
        let mut lines: Vec<Line> = systems
            .iter()
            .map(|(s, v)| {
                (
                    s.clone(),
                    system_color(s),
                    v.iter().map(|(&n, &ns)| (log2(n), ns)).collect(),
                )
            })
            .collect();
        let m: Vec<(f64, f64)> = model
            .iter()
            .filter(|((g, th, _), _)| g == group && th == threads)
            .map(|((_, _, n), &v)| (log2(*n), v))
            .collect();
        if !m.is_empty() {
            lines.push(("cost model (scalar ark-ff)".into(), 9, m));
        }
        out.extend(loglog(
            &format!("MSM {group}, {threads} thread(s): time per point"),
            "points (log scale)",
            "ns per point (log scale)",
            &lines,
            false,
        ));
    }
    out
}

fn fft_chart(recs: &[&Record]) -> Option<String> {
    let mut lines: BTreeMap<(String, usize), Vec<(f64, f64)>> = BTreeMap::new();
    for r in ok(recs, CaseKind::Fft) {
        if let (Some(n), Some(m)) = (r.case.size, r.median()) {
            lines
                .entry((r.case.system.clone(), r.threads))
                .or_default()
                .push((log2(n), m));
        }
    }
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|((s, t), v)| {
            (
                format!("{s}, {t} thread(s)"),
                system_color(&s) + 10 * (t > 1) as usize,
                v,
            )
        })
        .collect();
    loglog(
        "FFT over BN254 Fr: time vs size",
        "coefficients (log scale)",
        "time (s, log scale)",
        &lines,
        true,
    )
}

/// Lines per scheme of one commitment phase; `f` maps a record to its y value.
fn pcs_lines(
    recs: &[&Record],
    kind: CaseKind,
    f: impl Fn(&Record, u64) -> Option<f64>,
) -> Vec<Line> {
    let mut lines: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in ok(recs, kind) {
        let n = r.case.size.expect("filtered");
        if let Some(y) = f(r, n) {
            lines
                .entry(format!("{} ({})", r.case.hash, r.case.system))
                .or_default()
                .push((log2(n), y));
        }
    }
    lines
        .into_iter()
        .map(|(name, v)| {
            let c = scheme_color(name.split(' ').next().unwrap_or(""));
            (name, c, v)
        })
        .collect()
}

fn pcs_charts(recs: &[&Record]) -> Vec<String> {
    let mut out = Vec::new();
    out.extend(loglog(
        "Commit throughput vs polynomial size",
        "coefficients (log scale)",
        "coefficients per second (log scale)",
        &pcs_lines(recs, CaseKind::PcsCommit, |r, n| {
            Some(n as f64 / r.median()?)
        }),
        false,
    ));
    out.extend(loglog(
        "Open time vs polynomial size",
        "coefficients (log scale)",
        "open time (s, log scale)",
        &pcs_lines(recs, CaseKind::PcsOpen, |r, _| r.median()),
        true,
    ));
    out.extend(loglog(
        "Verify time vs polynomial size",
        "coefficients (log scale)",
        "verify time (s, log scale)",
        &pcs_lines(recs, CaseKind::PcsVerify, |r, _| r.median()),
        true,
    ));
    out.extend(loglog(
        "Proof size vs polynomial size",
        "coefficients (log scale)",
        "proof bytes (log scale)",
        &pcs_lines(recs, CaseKind::PcsOpen, |r, _| {
            r.metrics.get("proof_bytes").copied()
        }),
        false,
    ));
    out
}

/// One Groth16 prove case's breakdown: label, witness median, parts, prove median.
struct Breakdown {
    label: String,
    witness_s: Option<f64>,
    parts: Vec<(&'static str, f64)>,
    prove_s: f64,
}

fn breakdowns(recs: &[&Record]) -> Vec<Breakdown> {
    let mut out: Vec<Breakdown> = recs
        .iter()
        .filter(|r| r.case.kind == CaseKind::Proof && r.phase == "prove" && r.status == Status::Ok)
        .filter_map(|r| {
            let parts: Vec<(&'static str, f64)> = PHASES
                .iter()
                .filter_map(|(k, _)| Some((*k, *r.metrics.get(&format!("phase_{k}_s"))?)))
                .collect();
            if parts.is_empty() {
                return None;
            }
            let witness_s = recs
                .iter()
                .find(|w| w.case_id == r.case_id && w.phase == "witness")
                .and_then(|w| w.median());
            Some(Breakdown {
                label: r.case_id.clone(),
                witness_s,
                parts,
                prove_s: r.median()?,
            })
        })
        .collect();
    out.sort_by(|a, b| a.prove_s.total_cmp(&b.prove_s));
    out
}

fn phase_chart(rows: &[Breakdown]) -> Option<String> {
    if rows.is_empty() {
        return None;
    }
    let xmax = rows
        .iter()
        .map(|b| {
            b.witness_s.unwrap_or(0.0) + b.parts.iter().map(|p| p.1).sum::<f64>().max(b.prove_s)
        })
        .fold(0.0, f64::max);
    let h = 90 + 34 * rows.len() as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, h.max(220))).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let (plot, legend) = root.split_horizontally(880);
        let mut chart = phase_axes(&plot, rows, xmax)?;
        for (i, b) in rows.iter().enumerate() {
            draw_breakdown(&mut chart, i, b)?;
        }
        draw_phase_legend(&legend)?;
        root.present().ok()?;
    }
    Some(svg)
}

/// The chart of [`phase_chart`]: linear seconds across, one row per case.
type BarChart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Builds the breakdown chart on `plot` and draws its axes, the rows labelled by case.
fn phase_axes<'a, 'b>(
    plot: &'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>,
    rows: &[Breakdown],
    xmax: f64,
) -> Option<BarChart<'a, 'b>> {
    let n = rows.len();
    let labels: Vec<String> = rows.iter().map(|b| b.label.clone()).collect();
    let mut chart = ChartBuilder::on(plot)
        .caption(
            "Groth16 prove time by part (median per part)",
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(44)
        .y_label_area_size(330)
        .build_cartesian_2d(0.0..xmax * 1.05, 0.0..n as f64)
        .ok()?;
    chart
        .configure_mesh()
        .x_desc("seconds: witness generation (grey), then the prover's parts")
        .y_labels(n * 2 + 1)
        .y_label_formatter(&|y| {
            let i = (y - 0.5).round();
            if (y - 0.5 - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
                labels[i as usize].clone()
            } else {
                String::new()
            }
        })
        .x_label_formatter(&|x| fmt_seconds(*x))
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 13))
        .light_line_style(TRANSPARENT)
        .bold_line_style(RGBColor(230, 230, 230))
        .draw()
        .ok()?;
    Some(chart)
}

/// Draws row `i`: the witness bar, the prover's parts stacked after it, and a tick at
/// the measured prove median.
fn draw_breakdown(chart: &mut BarChart<'_, '_>, i: usize, b: &Breakdown) -> Option<()> {
    let y0 = i as f64 + 0.18;
    let y1 = i as f64 + 0.82;
    let mut x = 0.0;
    if let Some(w) = b.witness_s {
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(x, y0), (x + w, y1)],
                RGBColor(200, 200, 200).filled(),
            )))
            .ok()?;
        x += w;
    }
    for (k, (name, s)) in b.parts.iter().enumerate() {
        let c = PHASES.iter().position(|p| p.0 == *name).unwrap_or(k);
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(x, y0), (x + s, y1)],
                color(c).filled(),
            )))
            .ok()?;
        x += s;
    }
    // the measured prove median, as a tick after the witness
    let p = b.witness_s.unwrap_or(0.0) + b.prove_s;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(p, y0 - 0.1), (p, y1 + 0.1)],
            BLACK.stroke_width(2),
        )))
        .ok()?;
    Some(())
}

/// Draws the legend: witness generation, each prover part, the prove-median tick.
fn draw_phase_legend(legend: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> Option<()> {
    let mut entries: Vec<(String, RGBAColor)> = vec![(
        "witness generation + synthesis".into(),
        RGBColor(200, 200, 200).to_rgba(),
    )];
    entries.extend(
        PHASES
            .iter()
            .enumerate()
            .map(|(i, p)| (p.1.to_string(), color(i))),
    );
    entries.push(("| measured prove median".into(), BLACK.to_rgba()));
    for (i, (name, c)) in entries.iter().enumerate() {
        let y = 40 + 22 * i as i32;
        legend
            .draw(&Rectangle::new([(6, y - 6), (24, y + 6)], c.filled()))
            .ok()?;
        legend
            .draw(&Text::new(name.clone(), (30, y - 7), ("sans-serif", 13)))
            .ok()?;
    }
    Some(())
}

/// One row of the MSM ratio table: group, threads, size, ns per point by
/// system, cost model.
type MsmRow = (String, usize, u64, BTreeMap<String, f64>, Option<f64>);

/// Rows of the MSM ratio table.
fn msm_rows(recs: &[&Record]) -> Vec<MsmRow> {
    let (t, model) = msm_table(recs);
    let mut rows = Vec::new();
    for ((group, threads), systems) in &t {
        let sizes: std::collections::BTreeSet<u64> =
            systems.values().flat_map(|v| v.keys().copied()).collect();
        for n in sizes {
            let by: BTreeMap<String, f64> = systems
                .iter()
                .filter_map(|(s, v)| Some((s.clone(), *v.get(&n)?)))
                .collect();
            rows.push((
                group.clone(),
                *threads,
                n,
                by,
                model.get(&(group.clone(), *threads, n)).copied(),
            ));
        }
    }
    rows
}

const MSM_SYSTEMS: [&str; 4] = ["zkbench", "arkworks", "halo2curves", "gnark-crypto"];

fn ratio(by: &BTreeMap<String, f64>, a: &str, b: &str) -> String {
    match (by.get(a), by.get(b)) {
        (Some(x), Some(y)) if *y > 0.0 => format!("{:.2}×", x / y),
        _ => "-".into(),
    }
}

/// The memory ceiling per scheme: largest size measured, first size out of memory.
fn ceilings(recs: &[&Record]) -> BTreeMap<String, (Option<u64>, Option<u64>)> {
    let mut m: BTreeMap<String, (Option<u64>, Option<u64>)> = BTreeMap::new();
    for r in recs.iter().filter(|r| r.case.kind == CaseKind::PcsCommit) {
        let Some(n) = r.case.size else { continue };
        let e = m
            .entry(format!("{} ({})", r.case.hash, r.case.system))
            .or_default();
        match r.status {
            Status::Ok => e.0 = e.0.max(Some(n)),
            Status::OutOfMemory => e.1 = Some(e.1.map_or(n, |x: u64| x.min(n))),
            _ => {}
        }
    }
    m
}

/// The MSM table: ns per point by system, the cost model and the ratios.
fn msm_ns_table(recs: &[&Record]) -> Table {
    let mut t = Table::new("MSM (ns per point, median; ratios below 1× mean zkbench is faster)")
        .columns(&["group"], &["threads", "points"])
        .columns(&[], &MSM_SYSTEMS)
        .columns(
            &[],
            &["cost model", "zkbench / arkworks", "zkbench / gnark-crypto"],
        );
    let ns = |v: Option<f64>| v.map(|v| format!("{v:.0}")).unwrap_or_else(|| "-".into());
    for (g, threads, n, by, model) in &msm_rows(recs) {
        let mut cells = vec![g.clone(), threads.to_string(), format_leaves(*n)];
        cells.extend(MSM_SYSTEMS.iter().map(|s| ns(by.get(*s).copied())));
        cells.push(ns(*model));
        cells.push(ratio(by, "zkbench", "arkworks"));
        cells.push(ratio(by, "zkbench", "gnark-crypto"));
        t.row(cells.into_iter().map(Cell::from).collect());
    }
    t
}

/// The polynomial commitments' memory ceilings.
fn ceiling_table(recs: &[&Record]) -> Table {
    let mut t = Table::new("Polynomial commitments: memory ceiling").columns(
        &["scheme"],
        &["largest size measured", "first size out of memory"],
    );
    let f = |v: &Option<u64>| v.map(format_leaves).unwrap_or_else(|| "-".into());
    for (s, (ok, oom)) in &ceilings(recs) {
        t.row(vec![s.clone().into(), f(ok).into(), f(oom).into()]);
    }
    t
}

/// The Groth16 prove time by part, per proof case.
fn breakdown_table(recs: &[&Record]) -> Table {
    let parts: Vec<&str> = PHASES.iter().map(|p| p.1).collect();
    let mut t = Table::new(
        "Groth16 prove time by part (median of each part; witness generation is its own phase)",
    )
    .columns(&["case"], &["witness", "prove"])
    .columns(&[], &parts)
    .columns(&[], &["sum of parts / prove"]);
    let secs = |v: Option<f64>| v.map(fmt_seconds).unwrap_or_else(|| "-".into());
    for r in &breakdowns(recs) {
        let mut cells = vec![r.label.clone(), secs(r.witness_s), fmt_seconds(r.prove_s)];
        for (k, _) in PHASES {
            cells.push(secs(r.parts.iter().find(|p| p.0 == k).map(|p| p.1)));
        }
        let sum: f64 = r.parts.iter().map(|p| p.1).sum();
        cells.push(format!("{:.1}%", 100.0 * sum / r.prove_s));
        t.row(cells.into_iter().map(Cell::from).collect());
    }
    t
}

/// The section's tables that have rows: MSM ns per point and ratios, PCS
/// ceilings, Groth16 breakdown.
fn tables(recs: &[&Record]) -> Vec<Table> {
    [
        msm_ns_table(recs),
        ceiling_table(recs),
        breakdown_table(recs),
    ]
    .into_iter()
    .filter(|t| !t.is_empty())
    .collect()
}

/// Markdown tables: MSM ns per point and ratios, PCS ceilings, Groth16 breakdown.
pub fn markdown(recs: &[&Record]) -> String {
    tables(recs).iter().map(Table::markdown).collect()
}

/// The HTML section: charts and the Markdown tables' content as HTML tables.
pub fn html(recs: &[&Record]) -> String {
    let mut charts: Vec<String> = Vec::new();
    charts.extend(phase_chart(&breakdowns(recs)));
    charts.extend(msm_charts(recs));
    charts.extend(fft_chart(recs));
    charts.extend(pcs_charts(recs));
    let tables = tables(recs);
    if charts.is_empty() && tables.is_empty() {
        return String::new();
    }
    let mut h = String::from(
        "<h2>Where the time goes: primitives, commitments, prover parts</h2><div class=charts>",
    );
    for c in &charts {
        h += &format!("<figure>{c}</figure>");
    }
    h += "</div>";
    h + &tables
        .iter()
        .map(Table::html_subsection)
        .collect::<String>()
}
