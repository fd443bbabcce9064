//! How provers and MSMs scale with threads: a table of the ratio to the peer
//! and the work overhead at every thread count, and a speedup chart per case
//! (every system on it, the ideal line drawn). Read from the records of cases
//! run at explicit thread counts (`zkbench run scaling`, or any suite with
//! `--threads`): phase `prove` of proof cases, `msm` of MSM cases, and the H
//! polynomial of Groth16 proofs (`metrics.phase_h_s`).
//!
//! *Work overhead* is the CPU time of one operation (all threads,
//! `metrics.cpu_s_per_op`) at N threads over the same at one thread: 1.00
//! means the parallel decomposition added no work; what it adds shows even
//! on a machine with fewer cores than threads.

use std::collections::BTreeMap;

use plotters::prelude::*;

use crate::{
    charts::{draw_line, legend_entry, report_mesh},
    format::fmt_seconds,
    report::BROWSER_PREFIX,
    table::{Align, Cell, Table},
};
use zkbench_results::{stats::median, CaseKind, Record, ResultsFile, Status};

/// One measured point of a series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Thread count of the case.
    pub threads: usize,
    /// Median wall time of one operation (seconds).
    pub wall_s: f64,
    /// Median CPU time of one operation, all threads (seconds).
    pub cpu_s: Option<f64>,
}

/// One system's points on one case.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// What is measured, without system and threads (e.g. "membership proof,
    /// poseidon2-gnark, arity 2, 2^32 leaves").
    pub case: String,
    /// The system (`groth16`, `gnark-groth16`, `zkbench`, ...).
    pub system: String,
    /// Points by thread count.
    pub points: BTreeMap<usize, Point>,
}

impl Series {
    /// Speedup at `t` threads over the series' smallest thread count, scaled
    /// to that count (so that a series starting at one thread reads as
    /// "times faster than one thread").
    pub fn speedup(&self, t: usize) -> Option<f64> {
        let (&t0, p0) = self.points.iter().next()?;
        let p = self.points.get(&t)?;
        Some(p0.wall_s / p.wall_s * t0 as f64)
    }

    /// CPU time at `t` threads over CPU time at the smallest count.
    pub fn work_overhead(&self, t: usize) -> Option<f64> {
        let c0 = self.points.values().next()?.cpu_s?;
        let c = self.points.get(&t)?.cpu_s?;
        (c0 > 0.0).then(|| c / c0)
    }
}

/// The case a record measures, without system and threads.
fn case_label(r: &Record) -> Option<String> {
    let c = &r.case;
    match c.kind {
        CaseKind::Proof => {
            let circuit = c.circuit.map(|x| x.to_string()).unwrap_or_default();
            let alpha = c.alpha.map(|a| format!(" α={a}")).unwrap_or_default();
            let arity = c.arity.map(|a| format!(", arity {a}")).unwrap_or_default();
            let leaves = c
                .leaves
                .map(|l| format!(", 2^{} leaves", l.trailing_zeros()))
                .unwrap_or_default();
            Some(format!("{circuit} proof, {}{alpha}{arity}{leaves}", c.hash))
        }
        CaseKind::Msm | CaseKind::Fft => {
            let size = c.size?;
            let what = if c.kind == CaseKind::Msm {
                "MSM"
            } else {
                "FFT"
            };
            Some(format!(
                "{what} {}, 2^{} points",
                c.hash,
                size.trailing_zeros()
            ))
        }
        _ => None,
    }
}

/// Every series with at least two thread counts in `files`.
pub fn series(files: &[ResultsFile]) -> Vec<Series> {
    let mut by: BTreeMap<(String, String), BTreeMap<usize, Point>> = BTreeMap::new();
    let mut put = |case: String, system: String, p: Point| {
        by.entry((case, system)).or_default().insert(p.threads, p);
    };
    for r in files.iter().flat_map(|f| &f.records) {
        let t = r.case.threads;
        let wanted = matches!(
            (r.case.kind, r.phase.as_str()),
            (CaseKind::Proof, "prove") | (CaseKind::Msm, "msm") | (CaseKind::Fft, "fft")
        );
        if t == 0 || r.status != Status::Ok || !wanted {
            continue;
        }
        let (Some(case), Some(wall_s)) = (case_label(r), median(&r.samples_s)) else {
            continue;
        };
        // a page's records (`zkbench run browser --threads ...`) are their own series
        let system = if r.case_id.starts_with(BROWSER_PREFIX) {
            format!("{}{IN_BROWSER}", r.case.system)
        } else {
            r.case.system.clone()
        };
        let cpu_s = r
            .metrics
            .get("cpu_s_per_op")
            .copied()
            .or_else(|| median(&r.cpu_s));
        put(
            case.clone(),
            system.clone(),
            Point {
                threads: t,
                wall_s,
                cpu_s,
            },
        );
        if let Some(&h) = r.metrics.get("phase_h_s") {
            let case = format!("H polynomial of the {case}");
            put(
                case,
                system,
                Point {
                    threads: t,
                    wall_s: h,
                    cpu_s: None,
                },
            );
        }
    }
    by.into_iter()
        .filter(|(_, p)| p.len() >= 2)
        .map(|((case, system), points)| Series {
            case,
            system,
            points,
        })
        .collect()
}

/// What a series of a browser page's records is called: its system, then this.
pub const IN_BROWSER: &str = " (browser)";

/// The peer a series is compared with, and how the comparison is named:
/// gnark's Groth16 on the same statement (for Halo2, gnark's Groth16 of the
/// membership statement in the same run, as the perf suite pairs them), and
/// gnark-crypto's MSM of the same group and size, arkworks' FFT of the same
/// size; a browser series is compared with the same system and case run
/// natively ("native").
pub fn peer<'a>(s: &Series, all: &'a [Series]) -> Option<(&'a Series, String)> {
    if let Some(native) = s.system.strip_suffix(IN_BROWSER) {
        return all
            .iter()
            .find(|p| p.system == native && p.case == s.case)
            .map(|p| (p, "native".to_string()));
    }
    if s.system.starts_with("gnark") || s.case.starts_with("H polynomial") {
        return None;
    }
    let named = |sys: &str, same_case: bool| {
        all.iter()
            .find(|p| p.system == sys && (!same_case || p.case == s.case))
    };
    if s.case.starts_with("MSM") {
        return named("gnark-crypto", true).map(|p| (p, "gnark-crypto".to_string()));
    }
    if s.case.starts_with("FFT") {
        // arkworks' (ark-poly) FFT is the one ark-groth16's prover runs
        if !is_ours(&s.system) {
            return None;
        }
        return named("arkworks", true).map(|p| (p, "arkworks".to_string()));
    }
    if let Some(p) = named("gnark-groth16", true) {
        return Some((p, "gnark-groth16".into()));
    }
    named("gnark-groth16", false).map(|p| {
        let what = p.case.split(',').next().unwrap_or(&p.case);
        (p, format!("gnark-groth16 ({what})"))
    })
}

/// The thread counts of all series, in order.
fn all_threads(all: &[Series]) -> Vec<usize> {
    let mut t: Vec<usize> = all.iter().flat_map(|s| s.points.keys().copied()).collect();
    t.sort_unstable();
    t.dedup();
    t
}

/// The rows of the table: case, system, what, and one cell per thread count.
fn rows(all: &[Series]) -> Vec<[String; 3]> {
    let mut out = Vec::new();
    for s in all {
        out.push([s.case.clone(), s.system.clone(), "time".into()]);
        if let Some((_, name)) = peer(s, all) {
            out.push([String::new(), String::new(), format!("/ {name}")]);
        }
        if s.points.values().any(|p| p.cpu_s.is_some()) {
            out.push([String::new(), String::new(), "work overhead".into()]);
        }
    }
    out
}

/// The cells of `s` for one row kind at every thread count.
fn cells(s: &Series, all: &[Series], what: &str, threads: &[usize]) -> Vec<String> {
    threads
        .iter()
        .map(|&t| {
            let v = match what {
                "time" => s.points.get(&t).map(|p| fmt_seconds(p.wall_s)),
                "work overhead" => s.work_overhead(t).map(|w| format!("{w:.2}")),
                _ => peer(s, all).and_then(|(p, _)| {
                    let a = s.points.get(&t)?.wall_s;
                    let b = p.points.get(&t)?.wall_s;
                    Some(format!("{:.2}x", a / b))
                }),
            };
            v.unwrap_or_else(|| "–".into())
        })
        .collect()
}

/// The scaling table (`None` without series): for every case and system
/// its time, its ratio to the peer and its work overhead at every thread
/// count.
fn table(all: &[Series]) -> Option<Table> {
    if all.is_empty() {
        return None;
    }
    let threads = all_threads(all);
    let mut t = Table::new("Scaling with threads")
        .about(
            "Time of one operation (median, wall), its ratio to the peer at the same thread count \
             (below 1x: zkbench is faster), and work overhead (CPU time at N threads / CPU time at \
             the smallest count; 1.00: no added work).",
        )
        .columns(&["case", "system", ""], &[]);
    for n in &threads {
        t = t.column(format!("{n} thr"), Align::Right);
    }
    let mut current: Option<&Series> = None;
    for row in rows(all) {
        if !row[1].is_empty() {
            current = all.iter().find(|s| s.case == row[0] && s.system == row[1]);
        }
        let Some(s) = current else { continue };
        let numbers = cells(s, all, &row[2], &threads);
        t.row(row.into_iter().chain(numbers).map(Cell::new).collect());
    }
    Some(t)
}

/// The scaling table as Markdown (`None` without series).
pub fn markdown(files: &[ResultsFile]) -> Option<String> {
    table(&series(files)).map(|t| t.markdown())
}

/// The same table as HTML (user strings escaped), then the speedup charts.
pub fn html(files: &[ResultsFile]) -> Option<String> {
    let all = series(files);
    let mut out = table(&all)?.html();
    out.push('\n');
    for svg in charts_of(&all) {
        out += &svg;
        out.push('\n');
    }
    Some(out)
}

/// One speedup chart per case: every system's speedup over one thread
/// against the thread count (log scale), the ideal line drawn, the legend
/// beside the plot; the title leads with zkbench's ratio to the peer at the
/// largest common thread count.
pub fn charts(files: &[ResultsFile]) -> Vec<String> {
    charts_of(&series(files))
}

/// [`charts`] of series already read.
fn charts_of(all: &[Series]) -> Vec<String> {
    let mut cases: Vec<&str> = all.iter().map(|s| s.case.as_str()).collect();
    cases.dedup();
    cases
        .into_iter()
        .filter_map(|case| {
            let on: Vec<&Series> = all.iter().filter(|s| s.case == case).collect();
            chart(&title(case, &on, all), &on)
        })
        .collect()
}

/// zkbench's own systems: its MSM (`zkbench`) and its proof systems (all
/// but the peers, whose names start with the project they come from).
fn is_ours(system: &str) -> bool {
    const PEERS: [&str; 5] = ["gnark", "snarkjs", "arkworks", "halo2curves", "rapidsnark"];
    !PEERS.iter().any(|p| system.starts_with(p))
}

/// "case: <system> 0.42x <peer> at 16 threads" for zkbench's series where
/// it has a peer.
fn title(case: &str, on: &[&Series], all: &[Series]) -> String {
    for s in on.iter().filter(|s| is_ours(&s.system)) {
        if let Some((p, name)) = peer(s, all) {
            let common = s.points.keys().filter(|t| p.points.contains_key(t)).max();
            if let Some(&t) = common {
                let r = s.points[&t].wall_s / p.points[&t].wall_s;
                return format!("{case}: {} {r:.2}x {name} at {t} threads", s.system);
            }
        }
    }
    case.to_string()
}

fn chart(title: &str, on: &[&Series]) -> Option<String> {
    let max_t = on.iter().flat_map(|s| s.points.keys()).copied().max()? as f64;
    let top = on
        .iter()
        .flat_map(|s| s.points.keys().filter_map(|&t| s.speedup(t)))
        .fold(max_t, f64::max);
    let mut svg = String::new();
    {
        let whole = SVGBackend::with_string(&mut svg, (980, 440)).into_drawing_area();
        whole.fill(&WHITE).ok()?;
        let (root, legend) = whole.split_horizontally(680);
        let mut c = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(64)
            .build_cartesian_2d(
                (0.9..max_t * 1.15)
                    .log_scale()
                    .with_key_points(powers_of_two(max_t)),
                (0.8..top * 1.25)
                    .log_scale()
                    .with_key_points(powers_of_two(top)),
            )
            .ok()?;
        report_mesh(
            c.configure_mesh()
                .x_desc("threads (cores)")
                .y_desc("speedup over 1 thread (×)")
                .x_label_formatter(&|x| format!("{}", x.round()))
                .y_label_formatter(&|y| format!("{y:.0}")),
            14,
            14,
        )
        .draw()
        .ok()?;
        let ideal = RGBColor(150, 150, 150);
        c.draw_series(DashedLineSeries::new(
            vec![(1.0, 1.0), (max_t, max_t)],
            6,
            4,
            ideal.stroke_width(2),
        ))
        .ok()?;
        legend_entry(
            &legend,
            0,
            "ideal (speedup = threads)",
            ideal.to_rgba(),
            false,
        )?;
        for (i, s) in on.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let pts: Vec<(f64, f64)> = s
                .points
                .keys()
                .filter_map(|&t| Some((t as f64, s.speedup(t)?)))
                .collect();
            draw_line(&mut c, &pts, color.stroke_width(2), Some(color))?;
            legend_entry(&legend, i + 1, &s.system, color, false)?;
        }
        whole.present().ok()?;
    }
    Some(svg)
}

/// 1, 2, 4, … up to `max` (the thread counts a scaling suite runs at).
fn powers_of_two(max: f64) -> Vec<f64> {
    std::iter::successors(Some(1.0), |x| Some(x * 2.0))
        .take_while(|&x| x <= max * 1.01)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkbench_results::{Case, Environment};

    fn record(system: &str, kind: CaseKind, threads: usize, wall: f64, cpu: f64) -> Record {
        let mut case = match kind {
            CaseKind::Msm => Case::primitive(kind, system, "bn254-g1", 1 << 16, threads),
            CaseKind::Fft => Case::primitive(kind, system, "bn254-fr", 1 << 13, threads),
            _ => Case {
                kind,
                ..crate::fixtures::membership_case(system, "poseidon2-gnark")
            },
        };
        case.threads = threads;
        let phase = match kind {
            CaseKind::Msm => "msm",
            CaseKind::Fft => "fft",
            _ => "prove",
        };
        let mut r = Record::new(&case, phase, threads, &Environment::default());
        r.set_samples(vec![wall; 3], vec![cpu; 3]);
        r
    }

    fn file(records: Vec<Record>) -> ResultsFile {
        let mut f = ResultsFile::new("scaling", "quick", Environment::default());
        f.records = records;
        f
    }

    #[test]
    fn ratios_and_work_overhead() {
        let f = file(vec![
            record("groth16", CaseKind::Proof, 1, 0.100, 0.100),
            record("groth16", CaseKind::Proof, 16, 0.010, 0.120),
            record("gnark-groth16", CaseKind::Proof, 1, 0.300, 0.300),
            record("gnark-groth16", CaseKind::Proof, 16, 0.040, 0.600),
            record("zkbench", CaseKind::Msm, 1, 0.2, 0.2),
            // one thread count only: no series
            record("arkworks", CaseKind::Msm, 1, 0.4, 0.4),
        ]);
        let all = series(std::slice::from_ref(&f));
        assert_eq!(all.len(), 2, "{all:?}");
        let g = &all.iter().find(|s| s.system == "groth16").unwrap();
        assert_eq!(g.speedup(16), Some(10.0));
        assert!((g.work_overhead(16).unwrap() - 1.2).abs() < 1e-9);
        let md = markdown(std::slice::from_ref(&f)).unwrap();
        assert!(md.contains("| 0.33x | 0.25x |"), "{md}");
        assert!(md.contains("| work overhead | 1.00 | 1.20 |"), "{md}");
        let charts = charts(&[f]);
        assert_eq!(charts.len(), 1);
        assert!(charts[0].contains("0.25x gnark-groth16 at 16 threads"));
        assert!(charts[0].contains("ideal"));
    }

    /// An FFT's peer is arkworks' FFT of the same size, never a proof.
    #[test]
    fn fft_series_compare_with_arkworks() {
        let f = file(vec![
            record("zkbench", CaseKind::Fft, 1, 0.004, 0.004),
            record("zkbench", CaseKind::Fft, 2, 0.002, 0.004),
            record("arkworks", CaseKind::Fft, 1, 0.008, 0.008),
            record("arkworks", CaseKind::Fft, 2, 0.005, 0.010),
            record("gnark-groth16", CaseKind::Proof, 1, 0.300, 0.300),
            record("gnark-groth16", CaseKind::Proof, 2, 0.200, 0.300),
        ]);
        let all = series(std::slice::from_ref(&f));
        let z = all.iter().find(|s| s.system == "zkbench").unwrap();
        assert_eq!(z.case, "FFT bn254-fr, 2^13 points");
        let (p, name) = peer(z, &all).unwrap();
        assert_eq!((p.system.as_str(), name.as_str()), ("arkworks", "arkworks"));
        let a = all.iter().find(|s| s.system == "arkworks").unwrap();
        assert!(peer(a, &all).is_none());
        let md = markdown(&[f]).unwrap();
        assert!(md.contains("| / arkworks | 0.50x | 0.40x |"), "{md}");
    }

    /// A page's records are their own series ("groth16 (browser)"), compared with the same
    /// system run natively, beside the native series of the same case.
    #[test]
    fn browser_series_compare_with_native() {
        let browser = |threads, wall, cpu| {
            let mut r = record("groth16", CaseKind::Proof, threads, wall, cpu);
            r.case_id = format!("{BROWSER_PREFIX}{}", r.case_id);
            r
        };
        let f = file(vec![
            record("groth16", CaseKind::Proof, 1, 0.100, 0.100),
            record("groth16", CaseKind::Proof, 16, 0.050, 0.105),
            browser(1, 0.200, 0.200),
            browser(16, 0.150, 0.300),
        ]);
        let all = series(std::slice::from_ref(&f));
        assert_eq!(all.len(), 2, "{all:?}");
        let b = all
            .iter()
            .find(|s| s.system == "groth16 (browser)")
            .unwrap();
        assert!((b.work_overhead(16).unwrap() - 1.5).abs() < 1e-9);
        let (p, name) = peer(b, &all).unwrap();
        assert_eq!((p.system.as_str(), name.as_str()), ("groth16", "native"));
        let md = markdown(std::slice::from_ref(&f)).unwrap();
        assert!(md.contains("| / native | 2.00x | 3.00x |"), "{md}");
        assert!(md.contains("| work overhead | 1.00 | 1.50 |"), "{md}");
    }

    #[test]
    fn no_scaling_records_no_table() {
        let f = file(vec![record("groth16", CaseKind::Proof, 2, 0.1, 0.2)]);
        assert!(markdown(&[f]).is_none());
    }
}
