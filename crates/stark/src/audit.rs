//! Mutation audit of the AIR (see `zkbench_core::audit`): every cell of a
//! valid trace is changed in turn (to a random element and to its value plus
//! one) and the AIR's constraints, checked row by row by Plonky3's
//! `check_all_constraints`, must then fail; the same for every public value.
//! The AIR constrains every cell it does not use to zero, so no survivor is
//! expected.

use p3_air::check_all_constraints;
use p3_field::{PrimeCharacteristicRing, PrimeField32};
use rand::{Rng, RngCore};
use zkbench_core::{AuditReport, Survivor};

use crate::air::NoteAir;
use crate::native::Val;
use crate::prover::Prepared;

/// Whether the trace and public values satisfy every constraint.
pub fn satisfied(air: &NoteAir, trace: &p3_matrix::dense::RowMajorMatrix<Val>, pv: &[Val]) -> bool {
    check_all_constraints(air, trace, pv, Some(1))
        .failures
        .is_empty()
}

/// The two changes of `v`: a random element (not `v`) and `v + 1`.
fn mutations(v: Val, rng: &mut dyn RngCore) -> [(&'static str, Val); 2] {
    let mut r = v;
    while r == v {
        r = Val::from_u32(rng.gen_range(0..Val::ORDER_U32));
    }
    [("random", r), ("plus-one", v + Val::ONE)]
}

/// Where cell `(row, col)` is, in words.
fn cell_name(air: &NoteAir, row: usize, col: usize) -> String {
    let hash_cols = air.layout().hash_cols;
    let what = if col < hash_cols {
        format!("Poseidon2 column {col}")
    } else {
        format!("statement column {}", col - hash_cols)
    };
    format!("row {row}, {what}")
}

/// Runs the audit of `air` from the valid `prepared` trace.
pub fn mutation_audit(
    air: &NoteAir,
    prepared: &Prepared,
    system: &str,
    circuit: String,
    rng: &mut dyn RngCore,
) -> Result<AuditReport, String> {
    if !satisfied(air, &prepared.trace, &prepared.public_values) {
        return Err("the audit needs a valid trace; this one fails the AIR".into());
    }
    let mut report = AuditReport {
        system: system.to_string(),
        circuit,
        targets: prepared.trace.values.len(),
        public_inputs: prepared.public_values.len(),
        ..AuditReport::default()
    };
    let mut trace = prepared.trace.clone();
    let width = air.layout().width;
    for i in 0..trace.values.len() {
        let v = trace.values[i];
        for (kind, m) in mutations(v, rng) {
            trace.values[i] = m;
            record(
                &mut report,
                satisfied(air, &trace, &prepared.public_values),
                || cell_name(air, i / width, i % width),
                kind,
            );
        }
        trace.values[i] = v;
    }
    let mut pv = prepared.public_values.clone();
    for i in 0..pv.len() {
        let v = pv[i];
        for (kind, m) in mutations(v, rng) {
            pv[i] = m;
            record(
                &mut report,
                satisfied(air, &prepared.trace, &pv),
                || format!("public value {i}"),
                kind,
            );
        }
        pv[i] = v;
    }
    Ok(report)
}

fn record(report: &mut AuditReport, survived: bool, location: impl Fn() -> String, kind: &str) {
    report.mutations += 1;
    if survived {
        report.survivors.push(Survivor {
            location: location(),
            mutation: kind.to_string(),
            justification: None,
        });
    } else {
        report.killed += 1;
    }
}
