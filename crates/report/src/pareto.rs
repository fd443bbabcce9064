//! Prove time against verify gas against proof size: which configurations
//! no other one beats on all three (the Pareto front, minimising each), the
//! verify gas a proof configuration gets from the `evm` records, and the
//! chart of the front in the report.
//!
//! Gas comes from an `evm` record of the same statement verified by the
//! verifier of the proof's system ([`verified_system`]); for a Groth16
//! system from any `evm` record of the same circuit, since a Groth16
//! verifier's gas depends only on its number of public inputs (Groth,
//! *On the Size of Pairing-based Non-interactive Arguments*, EUROCRYPT 2016:
//! three pairings and one ℓ-term multi-scalar multiplication), and the
//! circuit fixes ℓ.

use plotters::prelude::*;
use zkbench_results::{
    case::{Case, CaseKind, Circuit},
    Record, Status,
};

use crate::{
    charts::{format_axis, legend_entry, report_mesh},
    format::{esc, fmt_bytes, fmt_count},
    report::BROWSER_PREFIX,
};

/// The proof system whose proofs an `evm` case's verifier (`case.system`)
/// checks: `zkbench` → `groth16`, `zkbench-halo2` → `halo2-kzg-keccak`,
/// `gnark` → `gnark-groth16`; `None` for a second verifier of the same
/// proofs (`snarkjs`) or an unknown one.
pub fn verified_system(verifier: &str) -> Option<&'static str> {
    match verifier {
        "zkbench" => Some("groth16"),
        "zkbench-halo2" => Some("halo2-kzg-keccak"),
        "gnark" => Some("gnark-groth16"),
        _ => None,
    }
}

/// Whether zkbench has an EVM verifier for `system`'s proofs (the systems
/// [`verified_system`] names); the others' gas cannot be measured.
pub fn has_evm_verifier(system: &str) -> bool {
    ["zkbench", "zkbench-halo2", "gnark"]
        .iter()
        .any(|v| verified_system(v) == Some(system))
}

/// Whether `system` is a Groth16 prover (its verifier's gas depends on the
/// number of public inputs only).
pub fn is_groth16(system: &str) -> bool {
    system.contains("groth16")
}

/// The verify gas of a proof configuration, and the `evm` case it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Gas {
    /// Transaction gas of `verifyProof` (`gas_tx`: 21,000 + calldata + execution),
    /// or the execution gas (`gas_verify`) where the record has no `gas_tx`.
    pub gas: f64,
    /// The `evm` record's case id.
    pub from: String,
    /// Whether that record is of the same statement (else: the same circuit,
    /// a Groth16 verifier with the same public inputs).
    pub same_statement: bool,
}

fn same_statement(a: &Case, b: &Case) -> bool {
    (a.hash_label(), a.arity, a.leaves, a.depth, a.circuit)
        == (b.hash_label(), b.arity, b.leaves, b.depth, b.circuit)
}

/// The verify gas of `case` (a proof case) from the `evm` records in `recs`.
pub fn verify_gas(recs: &[&Record], case: &Case) -> Option<Gas> {
    let evm = recs.iter().filter(|r| {
        r.case.kind == CaseKind::Evm
            && r.status == Status::Ok
            && verified_system(&r.case.system) == Some(case.system.as_str())
    });
    let gas = |r: &Record| {
        r.metrics
            .get("gas_tx")
            .or_else(|| r.metrics.get("gas_verify"))
            .copied()
    };
    let mut fallback = None;
    for r in evm {
        let Some(g) = gas(r) else { continue };
        if same_statement(&r.case, case) {
            return Some(Gas {
                gas: g,
                from: r.case_id.clone(),
                same_statement: true,
            });
        }
        let same_inputs = r.case.circuit == case.circuit
            && (case.circuit != Some(Circuit::BatchRoot) || r.case.depth == case.depth);
        if is_groth16(&case.system) && same_inputs && fallback.is_none() {
            fallback = Some(Gas {
                gas: g,
                from: r.case_id.clone(),
                same_statement: false,
            });
        }
    }
    fallback
}

/// Marks the points that no other point beats: another point is at most
/// as large in every coordinate and smaller in one (all coordinates are
/// minimised). Points with a non-finite coordinate are never on the front.
pub fn front<const N: usize>(points: &[[f64; N]]) -> Vec<bool> {
    let dominates = |a: &[f64; N], b: &[f64; N]| {
        a.iter().zip(b).all(|(x, y)| x <= y) && a.iter().zip(b).any(|(x, y)| x < y)
    };
    points
        .iter()
        .map(|p| p.iter().all(|x| x.is_finite()) && !points.iter().any(|q| dominates(q, p)))
        .collect()
}

/// A configuration on the chart: label, prove time (s), verify gas, proof bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// Configuration label.
    pub label: String,
    /// Prove time, seconds.
    pub prove_s: f64,
    /// Verify gas.
    pub gas: f64,
    /// Proof size, bytes.
    pub proof_bytes: f64,
}

/// The chart: verify gas (x) against prove time (y, log), marker area by
/// proof size; points on the front filled and in the legend.
pub fn chart(title: &str, points: &[Point]) -> Option<String> {
    if points.len() < 2 {
        return None;
    }
    let on = front(
        &points
            .iter()
            .map(|p| [p.prove_s, p.gas, p.proof_bytes])
            .collect::<Vec<_>>(),
    );
    let (gmin, gmax) = min_max(points.iter().map(|p| p.gas));
    let (tmin, tmax) = min_max(points.iter().map(|p| p.prove_s));
    let (bmin, bmax) = min_max(points.iter().map(|p| p.proof_bytes));
    let radius = |b: f64| 4 + ((b / bmin).ln() / (bmax / bmin).ln().max(1e-9) * 8.0) as i32;
    let mut svg = String::new();
    {
        let whole = SVGBackend::with_string(&mut svg, (1120, 440)).into_drawing_area();
        whole.fill(&WHITE).ok()?;
        let (root, legend) = whole.split_horizontally(660);
        let pad = ((gmax - gmin) * 0.1).max(1000.0);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(84)
            .build_cartesian_2d(
                (gmin - pad)..(gmax + pad),
                (tmin * 0.7..tmax * 1.5).log_scale(),
            )
            .ok()?;
        report_mesh(
            chart
                .configure_mesh()
                .x_desc("verify gas (transaction)")
                .y_desc("prove time (s)")
                .x_label_formatter(&|x| fmt_count(*x))
                .y_label_formatter(&|y| format_axis(*y, "prove time (s)")),
            13,
            14,
        )
        .draw()
        .ok()?;
        for (i, (p, &f)) in points.iter().zip(&on).enumerate() {
            let c = Palette99::pick(i).to_rgba();
            let style = if f { c.filled() } else { c.stroke_width(2) };
            chart
                .draw_series(std::iter::once(Circle::new(
                    (p.gas, p.prove_s),
                    radius(p.proof_bytes),
                    style,
                )))
                .ok()?;
            let mark = if f { "● front" } else { "○" };
            let name = format!("{mark} {} · {}", p.label, fmt_bytes(p.proof_bytes));
            legend_entry(&legend, i, &name, c, true)?;
        }
        whole.present().ok()?;
    }
    Some(svg)
}

fn min_max(v: impl Iterator<Item = f64>) -> (f64, f64) {
    v.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)))
}

/// The measured points of `recs`: native `prove` records with a proof size
/// and a verify gas ([`verify_gas`]).
pub fn measured_points(recs: &[&Record]) -> Vec<Point> {
    recs.iter()
        .filter(|r| {
            r.case.kind == CaseKind::Proof
                && r.phase == "prove"
                && r.status == Status::Ok
                && !r.case_id.starts_with(BROWSER_PREFIX)
        })
        .filter_map(|r| {
            Some(Point {
                label: format!("{} · {} threads", r.case_id.rsplit_once('/')?.0, r.threads),
                prove_s: r.median()?,
                gas: verify_gas(recs, &r.case)?.gas,
                proof_bytes: *r.metrics.get("proof_bytes")?,
            })
        })
        .collect()
}

/// The report's Pareto section: the chart of [`measured_points`] when
/// there are two or more, else nothing.
pub fn html(recs: &[&Record]) -> String {
    let points = measured_points(recs);
    match chart("Prove time vs verify gas vs proof size (marker area: proof size)", &points) {
        Some(svg) => format!(
            "<h2>Pareto front</h2><p class=note>{}</p><div class=charts><figure>{svg}</figure></div>",
            esc("Filled markers: configurations no other one beats on prove time, verify gas and proof size at once. Gas of a Groth16 proof is read from an evm record of the same circuit (its gas depends on the public inputs only). zkbench recommend ranks these within a budget.")
        ),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_keeps_the_undominated() {
        let pts = [
            [1.0, 5.0, 3.0],
            [2.0, 4.0, 3.0],
            [2.0, 5.0, 3.0],
            [1.0, 5.0, 3.0],
            [f64::NAN, 0.0, 0.0],
        ];
        assert_eq!(front(&pts), vec![true, true, false, true, false]);
    }

    #[test]
    fn groth16_gas_from_the_same_circuit() {
        let spend = |system: &str, kind: CaseKind, hash: &str| Case {
            arity: Some(4),
            leaves: Some(1 << 36),
            circuit: Some(Circuit::Spend),
            ..Case::new(kind, system, hash)
        };
        let mut e = Record::new(
            &spend("zkbench", CaseKind::Evm, "poseidon2"),
            "verify",
            1,
            &Default::default(),
        );
        e.metrics.insert("gas_tx".into(), 230_000.0);
        let mut p = Record::new(
            &spend("groth16", CaseKind::Proof, "griffin"),
            "prove",
            2,
            &Default::default(),
        );
        p.set_samples(vec![0.02], vec![0.04]);
        p.metrics.insert("proof_bytes".into(), 128.0);
        let recs = [&e, &p];
        let g = verify_gas(&recs, &p.case).unwrap();
        assert_eq!((g.gas, g.same_statement), (230_000.0, false));
        let same = verify_gas(&recs, &spend("groth16", CaseKind::Proof, "poseidon2")).unwrap();
        assert!(same.same_statement);
        assert!(verify_gas(&recs, &spend("halo2-kzg", CaseKind::Proof, "poseidon2")).is_none());
        assert_eq!(measured_points(&recs).len(), 1);
        assert!(html(&recs).is_empty(), "one point makes no front chart");
        let mut q = p.clone();
        q.case.hash = "poseidon".into();
        q.case_id = q.case.id();
        q.set_samples(vec![0.03], vec![0.06]);
        assert!(html(&[&e, &p, &q]).contains("<svg"));
    }
}
