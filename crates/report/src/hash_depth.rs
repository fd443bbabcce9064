//! The report's hash-grid section (suite `hash-grid`): batch-root circuits (a full binary tree of `2^d`
//! leaves) against the depth `d`, per hash and proof system, zkbench and snarkjs side
//! by side, as in the hash benchmark of Guo et al. (docs/papers.md): figure 4 (five hashes in Groth16), figure 5
//! (MiMC across Groth16, PLONK and fflonk; 5(b): memory relative to Groth16 at depth 0).
//!
//! * charts: prove and setup time against depth, one chart per proof-system family
//!   (R1CS: zkbench `groth16` and `snarkjs-groth16`; PLONKish: `halo2-kzg`,
//!   `snarkjs-plonk`, `snarkjs-fflonk`), colour = hash, marker and line = system;
//!   MiMC across every system (figure 5(a));
//! * tables: the fastest hash per system and depth; MiMC per system and depth with
//!   peak memory relative to snarkjs Groth16 at depth 0 (figure 5(b));
//! * the paper's claims, each checked against this run's records, depth by depth
//!   ([`claims`]).
//!
//! [`html`] and [`markdown`] return nothing unless the records hold batch-root cases of
//! at least two depths, so other suites' reports are unchanged.

use std::collections::{BTreeMap, BTreeSet};

use plotters::prelude::*;

use zkbench_results::{
    case::{CaseKind, Circuit},
    results::{Record, Status},
};

use crate::{
    charts::{draw_line, log_bounds, report_mesh, whole_tick},
    format::{esc, fmt_seconds},
    table::{Cell, Table},
};

/// The paper's hashes, in its order, with their colour index.
pub const HASHES: [&str; 5] = ["mimc-sponge", "gmimc", "poseidon", "poseidon2", "neptune"];

/// The R1CS family's systems (zkbench first).
pub const R1CS: [&str; 2] = ["groth16", "snarkjs-groth16"];

/// The PLONKish family's systems (zkbench first).
pub const PLONKISH: [&str; 3] = ["halo2-kzg", "snarkjs-plonk", "snarkjs-fflonk"];

/// `(system, hash, depth) → value` of one phase (median seconds) or of peak RSS.
type Grid = BTreeMap<(String, String, u32), f64>;

fn batch_root<'a>(recs: &[&'a Record]) -> Vec<&'a Record> {
    recs.iter()
        .copied()
        .filter(|r| {
            r.case.kind == CaseKind::Proof
                && r.case.circuit == Some(Circuit::BatchRoot)
                && r.case.depth.is_some()
                && r.status == Status::Ok
        })
        .collect()
}

/// Median seconds of `phase` per (system, hash, depth).
fn grid(recs: &[&Record], phase: &str) -> Grid {
    batch_root(recs)
        .into_iter()
        .filter(|r| r.phase == phase)
        .filter_map(|r| {
            Some((
                (
                    r.case.system.clone(),
                    r.case.hash.to_string(),
                    r.case.depth?,
                ),
                r.median()?,
            ))
        })
        .collect()
}

/// Peak RSS (bytes) of the `prove` phase per (system, hash, depth).
fn rss_grid(recs: &[&Record]) -> Grid {
    batch_root(recs)
        .into_iter()
        .filter(|r| r.phase == "prove")
        .filter_map(|r| {
            Some((
                (
                    r.case.system.clone(),
                    r.case.hash.to_string(),
                    r.case.depth?,
                ),
                r.peak_rss_bytes? as f64,
            ))
        })
        .collect()
}

fn depths(g: &Grid) -> BTreeSet<u32> {
    g.keys().map(|k| k.2).collect()
}

fn get(g: &Grid, system: &str, hash: &str, d: u32) -> Option<f64> {
    g.get(&(system.to_string(), hash.to_string(), d)).copied()
}

/// The hash with the smallest value for `system` at depth `d` (of those measured).
fn fastest(g: &Grid, system: &str, d: u32) -> Option<(&'static str, f64)> {
    HASHES
        .iter()
        .filter_map(|h| get(g, system, h, d).map(|v| (*h, v)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

/// The system with the smallest value for `hash` at depth `d`, among `systems`
/// (`None` unless all of them were measured there).
fn order_of(g: &Grid, systems: &[&str], hash: &str, d: u32) -> Option<Vec<(String, f64)>> {
    let mut v: Vec<(String, f64)> = systems
        .iter()
        .map(|s| get(g, s, hash, d).map(|x| (s.to_string(), x)))
        .collect::<Option<_>>()?;
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    Some(v)
}

/// The colour of a hash, or (for charts of one hash) of a system: strong colours, since
/// snarkjs's lines are drawn lighter.
fn hash_color(key: &str) -> RGBAColor {
    let rgb = match key {
        "groth16" => RGBColor(110, 40, 160),
        "snarkjs-groth16" => RGBColor(0, 100, 200),
        "halo2-kzg" => RGBColor(0, 130, 70),
        "snarkjs-plonk" => RGBColor(220, 110, 0),
        "snarkjs-fflonk" => RGBColor(200, 0, 60),
        _ => {
            let i = HASHES.iter().position(|h| *h == key).unwrap_or(5);
            return Palette99::pick(i).to_rgba();
        }
    };
    rgb.to_rgba()
}

fn system_style(system: &str) -> (&'static str, f64) {
    // (marker, line opacity): zkbench's systems solid circles, snarkjs's lighter lines
    // with triangles (Groth16, PLONK) or squares (fflonk)
    match system {
        "snarkjs-groth16" | "snarkjs-plonk" => ("triangle", 0.55),
        "snarkjs-fflonk" => ("square", 0.55),
        _ => ("circle", 1.0),
    }
}

/// One line: legend label, colour key (hash or system), system (marker), points (depth, value).
type Line = (String, String, String, Vec<(f64, f64)>);

/// The lines of `systems` × `hashes`; coloured by hash, or by system when `by_system`.
fn lines(g: &Grid, systems: &[&str], hashes: &[&str], by_system: bool) -> Vec<Line> {
    let mut out = Vec::new();
    for s in systems {
        for h in hashes {
            let pts: Vec<(f64, f64)> = g
                .iter()
                .filter(|(k, _)| k.0 == *s && k.1 == *h)
                .map(|(k, v)| (k.2 as f64, *v))
                .collect();
            if !pts.is_empty() {
                let key = if by_system { s } else { h };
                out.push((format!("{s} · {h}"), key.to_string(), s.to_string(), pts));
            }
        }
    }
    out
}

/// Time (log y) against depth, legend beside the plot.
fn depth_chart(title: &str, y_label: &str, lines: &[Line]) -> Option<String> {
    let [_, xmax, ymin, ymax] = log_bounds(lines.iter().map(|l| l.3.as_slice()))?;
    let mut svg = String::new();
    {
        let legend_w = 260u32;
        let height = 440.max(60 + 20 * lines.len() as u32);
        let root = SVGBackend::with_string(&mut svg, (660 + legend_w, height)).into_drawing_area();
        root.fill(&WHITE).ok()?;
        let (plot, legend) = root.split_horizontally(660);
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(84)
            .build_cartesian_2d(-0.3..xmax + 0.3, (ymin * 0.6..ymax * 1.6).log_scale())
            .ok()?;
        report_mesh(
            chart
                .configure_mesh()
                .x_desc("Merkle tree depth d (2^d leaves, 2^d − 1 hashes)")
                .y_desc(y_label)
                .x_label_formatter(&|x| whole_tick(*x, "", true))
                .y_label_formatter(&|y| fmt_seconds(*y))
                .x_labels(10)
                .y_labels(10),
            13,
            14,
        )
        .draw()
        .ok()?;
        for (_, hash, system, data) in lines {
            let mut data: Vec<(f64, f64)> = data.iter().copied().filter(|p| p.1 > 0.0).collect();
            data.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (marker, alpha) = system_style(system);
            let c = hash_color(hash);
            draw_line(&mut chart, &data, c.mix(alpha).stroke_width(2), None)?;
            draw_markers(&mut chart, &data, marker, c)?;
        }
        for (i, (name, hash, system, _)) in lines.iter().enumerate() {
            let y = 40 + 20 * i as i32;
            let (marker, alpha) = system_style(system);
            let c = hash_color(hash);
            legend
                .draw(&PathElement::new(
                    vec![(6, y), (30, y)],
                    c.mix(alpha).stroke_width(3),
                ))
                .ok()?;
            legend_marker(&legend, (18, y), marker, c)?;
            legend
                .draw(&Text::new(name.clone(), (36, y - 7), ("sans-serif", 13)))
                .ok()?;
        }
        root.present().ok()?;
    }
    Some(svg)
}

type Chart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<
        plotters::coord::types::RangedCoordf64,
        plotters::coord::combinators::LogCoord<f64>,
    >,
>;

fn draw_markers(
    chart: &mut Chart<'_, '_>,
    data: &[(f64, f64)],
    marker: &str,
    c: RGBAColor,
) -> Option<()> {
    match marker {
        "triangle" => chart
            .draw_series(
                data.iter()
                    .map(|&p| TriangleMarker::new(p, 5, c.stroke_width(2))),
            )
            .ok()
            .map(|_| ()),
        "square" => chart
            .draw_series(data.iter().map(|&p| {
                EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], c.stroke_width(2))
            }))
            .ok()
            .map(|_| ()),
        _ => chart
            .draw_series(data.iter().map(|&p| Circle::new(p, 4, c.filled())))
            .ok()
            .map(|_| ()),
    }
}

fn legend_marker(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    at: (i32, i32),
    marker: &str,
    c: RGBAColor,
) -> Option<()> {
    match marker {
        "triangle" => area
            .draw(&TriangleMarker::new(at, 5, c.stroke_width(2)))
            .ok(),
        "square" => area
            .draw(&Rectangle::new(
                [(at.0 - 4, at.1 - 4), (at.0 + 4, at.1 + 4)],
                c.stroke_width(2),
            ))
            .ok(),
        _ => area.draw(&Circle::new(at, 4, c.filled())).ok(),
    }
}

/// Whether the records hold a hash grid (batch-root cases of two depths or more).
fn applies(recs: &[&Record]) -> bool {
    depths(&grid(recs, "prove")).len() >= 2
}

fn fmt_depths(ds: &[u32]) -> String {
    ds.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One of the paper's claims checked depth by depth: `(claim, agreeing depths,
/// differing depths with what this run found instead)`.
pub struct Claim {
    /// The paper's statement, with its figure.
    pub claim: String,
    /// Depths where this run agrees.
    pub agree: Vec<u32>,
    /// Depths where it does not, with what this run measured.
    pub differ: Vec<(u32, String)>,
}

impl Claim {
    fn line(&self) -> String {
        let mut s = format!("- {} — ", self.claim);
        if self.agree.is_empty() && self.differ.is_empty() {
            return s + "not measured in this run.";
        }
        if self.differ.is_empty() {
            s += &format!(
                "**agrees** at every depth measured ({}).",
                fmt_depths(&self.agree)
            );
        } else if self.agree.is_empty() {
            s += "**differs** at every depth measured: ";
        } else {
            s += &format!(
                "agrees at depth {}; **differs** at ",
                fmt_depths(&self.agree)
            );
        }
        if !self.differ.is_empty() {
            let d: Vec<String> = self
                .differ
                .iter()
                .map(|(d, why)| format!("d={d} ({why})"))
                .collect();
            s += &d.join("; ");
            s.push('.');
        }
        s
    }
}

/// "The fastest hash of `system` is one of `winners`", per depth.
fn fastest_claim(g: &Grid, claim: &str, system: &str, winners: &[&str]) -> Claim {
    let mut c = Claim {
        claim: claim.to_string(),
        agree: vec![],
        differ: vec![],
    };
    for d in depths(g).into_iter().filter(|&d| d > 0) {
        // only depths where every hash of the paper was measured decide the question
        if HASHES.iter().any(|h| get(g, system, h, d).is_none()) {
            continue;
        }
        if let Some((h, v)) = fastest(g, system, d) {
            if winners.contains(&h) {
                c.agree.push(d);
            } else {
                c.differ
                    .push((d, format!("fastest: {h}, {}", fmt_seconds(v))));
            }
        }
    }
    c
}

/// "Among `systems` on MiMC, `first` has the smallest (`smallest`) or largest value", per depth.
fn order_claim(
    g: &Grid,
    claim: &str,
    systems: &[&str],
    first: &str,
    smallest: bool,
    fmt: impl Fn(f64) -> String,
) -> Claim {
    let mut c = Claim {
        claim: claim.to_string(),
        agree: vec![],
        differ: vec![],
    };
    for d in depths(g).into_iter().filter(|&d| d > 0) {
        let Some(order) = order_of(g, systems, "mimc-sponge", d) else {
            continue;
        };
        let top = if smallest {
            &order[0]
        } else {
            &order[order.len() - 1]
        };
        if top.0 == first {
            c.agree.push(d);
        } else {
            let all: Vec<String> = order
                .iter()
                .map(|(s, v)| format!("{s} {}", fmt(*v)))
                .collect();
            c.differ.push((d, all.join(" < ")));
        }
    }
    c
}

fn fmt_mib(b: f64) -> String {
    format!("{:.0} MiB", b / 1048576.0)
}

/// The paper's statements about figures 4 and 5, checked against this run.
pub fn claims(recs: &[&Record]) -> Vec<Claim> {
    let setup = grid(recs, "setup");
    let prove = grid(recs, "prove");
    let rss = rss_grid(recs);
    let mut all = fig4_claims(&setup, &prove);
    all.extend(fig5_claims(&setup, &prove, &rss));
    all
}

/// Figure 4's statements: Poseidon or Poseidon2 is the fastest hash in
/// Groth16 (snarkjs setup and prove, zkbench prove).
fn fig4_claims(setup: &Grid, prove: &Grid) -> Vec<Claim> {
    let p = ["poseidon", "poseidon2"];
    vec![
        fastest_claim(
            prove,
            "Fig. 4(a): in snarkjs Groth16, Poseidon or Poseidon2 proves fastest",
            "snarkjs-groth16",
            &p,
        ),
        fastest_claim(
            setup,
            "Fig. 4(a): in snarkjs Groth16, Poseidon or Poseidon2 sets up fastest",
            "snarkjs-groth16",
            &p,
        ),
        fastest_claim(prove, "The same for zkbench Groth16 (prove)", "groth16", &p),
    ]
}

/// Figure 5's statements: how snarkjs Groth16, PLONK and fflonk rank on MiMC
/// in setup time, prove time and prover memory.
fn fig5_claims(setup: &Grid, prove: &Grid, rss: &Grid) -> Vec<Claim> {
    let snark3 = ["snarkjs-groth16", "snarkjs-plonk", "snarkjs-fflonk"];
    vec![
        order_claim(
            setup,
            "Fig. 5(a): on MiMC, snarkjs Groth16's setup is the slowest of the three",
            &snark3,
            "snarkjs-groth16",
            false,
            fmt_seconds,
        ),
        order_claim(
            setup,
            "Fig. 5(a): on MiMC, snarkjs PLONK's setup is the fastest of the three",
            &snark3,
            "snarkjs-plonk",
            true,
            fmt_seconds,
        ),
        order_claim(
            prove,
            "Fig. 5(a): on MiMC, snarkjs Groth16 proves fastest",
            &snark3,
            "snarkjs-groth16",
            true,
            fmt_seconds,
        ),
        order_claim(
            rss,
            "Fig. 5(b): on MiMC, fflonk's prover needs the most memory",
            &snark3,
            "snarkjs-fflonk",
            false,
            fmt_mib,
        ),
        order_claim(
            rss,
            "Fig. 5(b): on MiMC, Groth16's prover needs the least memory",
            &snark3,
            "snarkjs-groth16",
            true,
            fmt_mib,
        ),
    ]
}

/// The systems of the R1CS and PLONKish families that `keep` (zkbench's first).
fn systems_where(keep: impl Fn(&str) -> bool) -> Vec<&'static str> {
    R1CS.iter()
        .chain(PLONKISH.iter())
        .copied()
        .filter(|s| keep(s))
        .collect()
}

/// The fastest hash per system and depth of `g` (`None` without a system in it).
fn fastest_table(g: &Grid, title: &str) -> Option<Table> {
    let systems = systems_where(|s| g.keys().any(|k| k.0 == s));
    if systems.is_empty() {
        return None;
    }
    let mut t = Table::new(title)
        .columns(&[], &["depth"])
        .columns(&systems, &[]);
    for d in depths(g) {
        let mut cells = vec![Cell::from(d.to_string())];
        for s in &systems {
            let measured = HASHES.iter().filter(|h| get(g, s, h, d).is_some()).count();
            cells.push(match fastest(g, s, d) {
                Some((h, v)) => format!("{h} {} ({measured}/5)", fmt_seconds(v)).into(),
                None => "-".into(),
            });
        }
        t.row(cells);
    }
    Some(t)
}

/// MiMC per system and depth: setup, prove, memory relative to snarkjs
/// Groth16 at depth 0 (`None` without MiMC records).
fn mimc_table(recs: &[&Record]) -> Option<Table> {
    let setup = grid(recs, "setup");
    let prove = grid(recs, "prove");
    let rss = rss_grid(recs);
    let systems = systems_where(|s| prove.keys().any(|k| k.0 == s && k.1 == "mimc-sponge"));
    if systems.is_empty() {
        return None;
    }
    // the paper's unit is Groth16 at depth 0; where that cell failed, the smallest depth measured
    let base = depths(&rss)
        .into_iter()
        .find_map(|d| get(&rss, "snarkjs-groth16", "mimc-sponge", d).map(|v| (d, v)));
    let mut t = Table::new(format!(
        "MiMC across proof systems (figure 5): setup / prove time, prover peak memory relative to snarkjs Groth16 at depth {}",
        base.map(|b| b.0.to_string()).unwrap_or_else(|| "- (not measured)".into())
    ))
    .columns(&[], &["depth"]);
    for s in &systems {
        t = t.columns(
            &[],
            &[
                &format!("{s} setup"),
                &format!("{s} prove"),
                &format!("{s} memory"),
            ],
        );
    }
    let ds: BTreeSet<u32> = depths(&prove).union(&depths(&setup)).copied().collect();
    for d in ds {
        let mut cells = vec![Cell::from(d.to_string())];
        for s in &systems {
            let t = |g: &Grid| {
                get(g, s, "mimc-sponge", d)
                    .map(fmt_seconds)
                    .unwrap_or_else(|| "-".into())
            };
            let m = match (get(&rss, s, "mimc-sponge", d), base) {
                (Some(m), Some((_, b))) if b > 0.0 => format!("{:.2}×", m / b),
                _ => "-".into(),
            };
            cells.extend([t(&setup).into(), t(&prove).into(), m.into()]);
        }
        t.row(cells);
    }
    Some(t)
}

/// The section's tables: the fastest hash per system and depth (prove, setup), MiMC across
/// proof systems.
fn tables(recs: &[&Record]) -> Vec<Table> {
    [
        fastest_table(
            &grid(recs, "prove"),
            "Fastest hash per system and depth: prove (median; measured hashes of 5)",
        ),
        fastest_table(
            &grid(recs, "setup"),
            "Fastest hash per system and depth: setup",
        ),
        mimc_table(recs),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Under the claims: what counts, and where the paper ran.
const CLAIMS_NOTE: &str = "A depth counts only where every system (or every hash) of the claim was measured; depth 0 (a single leaf that is the root, no hash) does not count. The paper ran on a MacBook Pro M1; absolute times differ, the claims are about order.";

/// The Markdown tables and claims (empty unless the records hold a hash grid).
pub fn markdown(recs: &[&Record]) -> String {
    if !applies(recs) {
        return String::new();
    }
    let mut out = String::from("### Hash grid: what the paper (Guo et al.) says, and this run\n\n");
    for c in claims(recs) {
        out += &c.line();
        out.push('\n');
    }
    out += &format!("\n{CLAIMS_NOTE}\n\n");
    out + &tables(recs).iter().map(Table::markdown).collect::<String>()
}

/// The HTML section: charts, then the tables and claims of [`markdown`].
pub fn html(recs: &[&Record]) -> String {
    if !applies(recs) {
        return String::new();
    }
    let setup = grid(recs, "setup");
    let prove = grid(recs, "prove");
    let mut charts: Vec<String> = Vec::new();
    for (phase, g) in [("prove", &prove), ("setup", &setup)] {
        charts.extend(depth_chart(
            &format!("R1CS (Groth16): {phase} time vs depth"),
            &format!("{phase} time (s, log scale)"),
            &lines(g, &R1CS, &HASHES, false),
        ));
        charts.extend(depth_chart(
            &format!("PLONKish (Halo2-KZG, PLONK, fflonk): {phase} time vs depth"),
            &format!("{phase} time (s, log scale)"),
            &lines(g, &PLONKISH, &HASHES, false),
        ));
    }
    let all: Vec<&str> = R1CS.iter().chain(PLONKISH.iter()).copied().collect();
    for (phase, g) in [("setup", &setup), ("prove", &prove)] {
        charts.extend(depth_chart(
            &format!("MiMC across proof systems (fig. 5a): {phase} time"),
            &format!("{phase} time (s, log scale)"),
            &lines(g, &all, &["mimc-sponge"], true),
        ));
    }
    let mut h = String::from("<h2>Hash grid: hash × proof system × Merkle depth</h2><p class=meta>Batch-root circuits: a full binary tree of 2<sup>d</sup> leaves (2<sup>d</sup> − 1 hashes), public root and leaves. Colour: hash (MiMC charts: system); filled circles and solid lines: zkbench; triangles (Groth16, PLONK) and squares (fflonk), lighter lines: snarkjs.</p><div class=charts>");
    for c in &charts {
        h += &format!("<figure>{c}</figure>");
    }
    h += "</div><ul class=claims>";
    for c in claims(recs) {
        let line = c.line();
        let item = line.strip_prefix("- ").unwrap_or(&line);
        h += &format!("<li>{}</li>", bold(&esc(item)));
    }
    h += &format!("</ul><p class=meta>{}</p>", esc(CLAIMS_NOTE));
    h + &tables(recs)
        .iter()
        .map(Table::html_subsection)
        .collect::<String>()
}

/// `**x**` → `<b>x</b>` (the claims' verdicts).
fn bold(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in s.split("**").enumerate() {
        if i % 2 == 1 {
            out += &format!("<b>{part}</b>");
        } else {
            out += part;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use zkbench_results::{case::Case, env::Environment};

    fn rec(system: &str, hash: &str, depth: u32, phase: &str, s: f64, rss: u64) -> Record {
        let case = Case {
            arity: Some(2),
            depth: Some(depth),
            circuit: Some(Circuit::BatchRoot),
            ..Case::new(CaseKind::Proof, system, hash)
        };
        let mut r = Record::new(&case, phase, 1, &Environment::default());
        r.samples_s = vec![s];
        r.summary = zkbench_results::stats::Summary::of(&r.samples_s);
        r.peak_rss_bytes = Some(rss);
        r
    }

    #[test]
    fn claims_are_checked_depth_by_depth() {
        let mut v = Vec::new();
        for d in 0..3u32 {
            let k = f64::from(d + 1);
            for (i, h) in HASHES.iter().enumerate() {
                // depth 1: poseidon2 fastest; depths 0 (no hash, ignored) and 2: mimc fastest
                let fast = if d == 1 {
                    *h == "poseidon2"
                } else {
                    *h == "mimc-sponge"
                };
                let t = if fast { 0.1 } else { 1.0 + i as f64 } * k;
                v.push(rec("snarkjs-groth16", h, d, "prove", t, 100));
            }
            v.push(rec(
                "snarkjs-plonk",
                "mimc-sponge",
                d,
                "prove",
                5.0 * k,
                300,
            ));
            v.push(rec(
                "snarkjs-fflonk",
                "mimc-sponge",
                d,
                "prove",
                9.0 * k,
                200,
            ));
        }
        let recs: Vec<&Record> = v.iter().collect();
        let c = claims(&recs);
        assert_eq!(c[0].agree, vec![1]);
        assert_eq!(c[0].differ.len(), 1);
        assert!(c[0].differ[0].1.contains("mimc-sponge"), "{}", c[0].line());
        // Groth16 proves MiMC fastest at depths 1 and 2
        assert_eq!(c[5].agree, vec![1, 2]);
        // memory: PLONK (300) is the largest, not fflonk (200)
        assert_eq!(c[6].agree, Vec::<u32>::new());
        assert_eq!(c[6].differ.len(), 2);
        assert!(c[6].line().contains("**differs**"));
        // no setup records: the setup claims say so
        assert!(c[1].line().ends_with("not measured in this run."));
        let md = markdown(&recs);
        assert!(md.contains("| 1 | poseidon2 200.0 ms (5/5) |"), "{md}");
        let h = html(&recs);
        assert!(h.contains("<svg") && h.contains("<b>differs</b>"), "{h}");
    }

    #[test]
    fn nothing_without_a_grid() {
        let v = [rec("groth16", "poseidon", 3, "prove", 1.0, 1)];
        let recs: Vec<&Record> = v.iter().collect();
        assert!(markdown(&recs).is_empty() && html(&recs).is_empty());
    }
}
