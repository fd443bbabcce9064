//! Mutation audit of the Halo2 circuits (see `zkbench_core::audit`).
//!
//! Every advice cell the circuit assigns is changed in turn (to a random
//! element, and to its value plus one) and halo2's `MockProver` must then
//! reject the assignment; the same for every public input. Cells are changed
//! at assignment time through [`assign_advice`], the one function through
//! which the chip and the circuits assign advice: it adds the audit's `δ` to
//! the targeted `(column, row)` when an audit is running on this thread, and
//! does nothing otherwise (one thread-local read per cell).

use std::cell::RefCell;

use ark_ff::UniformRand;
use halo2_axiom::halo2curves::ff::Field;
use halo2_axiom::{
    circuit::{AssignedCell, Region, Value},
    halo2curves::bn256::Fr,
    plonk::{Advice, Column},
};
use rand::RngCore;
use zkbench_core::{AuditReport, Survivor};

use crate::api::Halo2Circuit;
use crate::params::fr_from_ark;
use crate::statement::{PublicInputs, Witness};
use crate::Halo2Error;

#[derive(Default)]
struct Tamper {
    /// Record every assigned `(advice column, row)` here.
    record: Option<Vec<(usize, usize)>>,
    /// Add `delta` to the cell at `(advice column, row)`.
    target: Option<((usize, usize), Fr)>,
}

thread_local! {
    static TAMPER: RefCell<Option<Tamper>> = const { RefCell::new(None) };
}

/// `region.assign_advice(column, row, value)`, with the audit's mutation
/// applied when one is set on this thread.
pub fn assign_advice<'v>(
    region: &mut Region<'_, Fr>,
    column: Column<Advice>,
    row: usize,
    value: Value<Fr>,
) -> AssignedCell<&'v halo2_axiom::plonk::Assigned<Fr>, Fr> {
    let value = TAMPER.with(|t| match t.borrow_mut().as_mut() {
        None => value,
        Some(t) => {
            let at = (column.index(), row);
            if let Some(r) = t.record.as_mut() {
                r.push(at);
            }
            match t.target {
                Some((cell, delta)) if cell == at => value.map(|v| v + delta),
                _ => value,
            }
        }
    });
    region.assign_advice(column, row, value)
}

/// Clears the thread's tamper state when dropped (also on unwinding).
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        TAMPER.with(|t| *t.borrow_mut() = None);
    }
}

fn set(t: Tamper) -> Guard {
    TAMPER.with(|c| *c.borrow_mut() = Some(t));
    Guard
}

/// Runs the mutation audit of `circuit` from `witness`.
pub fn mutation_audit(
    circuit: &Halo2Circuit,
    witness: &Witness,
    rng: &mut dyn RngCore,
) -> Result<AuditReport, Halo2Error> {
    let public = circuit.public_inputs(witness)?;
    let cells = recorded_cells(circuit, witness, &public)?;
    let mut report = empty_report(circuit, cells.len(), public.0.len())?;
    mutate_cells(circuit, witness, &public, &cells, rng, &mut report);
    mutate_public_inputs(circuit, witness, &public, rng, &mut report);
    Ok(report)
}

/// Every `(advice column, row)` the circuit assigns on the honest run of
/// `witness` (which must pass), sorted and without duplicates.
fn recorded_cells(
    circuit: &Halo2Circuit,
    witness: &Witness,
    public: &PublicInputs,
) -> Result<Vec<(usize, usize)>, Halo2Error> {
    let _g = set(Tamper {
        record: Some(vec![]),
        target: None,
    });
    circuit.mock_check(witness, public)?;
    let mut cells = TAMPER.with(|t| {
        t.borrow_mut()
            .as_mut()
            .and_then(|t| t.record.take())
            .unwrap_or_default()
    });
    cells.sort_unstable();
    cells.dedup();
    Ok(cells)
}

/// The report of `circuit`'s audit before any mutation: its name and the
/// numbers of target cells and public inputs.
fn empty_report(
    circuit: &Halo2Circuit,
    targets: usize,
    public_inputs: usize,
) -> Result<AuditReport, Halo2Error> {
    let cfg = &circuit.config().statement;
    Ok(AuditReport {
        system: "halo2-kzg".into(),
        circuit: format!(
            "{} {} alpha {} arity {} leaves {} (p = {})",
            cfg.circuit,
            cfg.family.name(),
            cfg.resolved_alpha()?,
            cfg.arity,
            cfg.leaves,
            circuit.config().layout.partial_per_row
        ),
        targets,
        public_inputs,
        ..Default::default()
    })
}

/// Changes every cell of `cells` in turn (by a random element drawn from
/// `rng`, then by one) and records in `report` whether the `MockProver`
/// rejects the assignment.
fn mutate_cells(
    circuit: &Halo2Circuit,
    witness: &Witness,
    public: &PublicInputs,
    cells: &[(usize, usize)],
    rng: &mut dyn RngCore,
    report: &mut AuditReport,
) {
    for &(col, row) in cells {
        let random = fr_from_ark(&zkbench_hash::Fr::rand(rng));
        for (name, delta) in [("random", random), ("plus-one", Fr::ONE)] {
            report.mutations += 1;
            let _g = set(Tamper {
                record: None,
                target: Some(((col, row), delta)),
            });
            if circuit.mock_check(witness, public).is_err() {
                report.killed += 1;
            } else {
                report.survivors.push(Survivor {
                    location: format!("advice column {col}, row {row}"),
                    mutation: name.into(),
                    justification: None,
                });
            }
        }
    }
}

/// Changes every public input in turn (by a random element drawn from
/// `rng`, then by one) and records in `report` whether the `MockProver`
/// rejects the honest assignment against it.
fn mutate_public_inputs(
    circuit: &Halo2Circuit,
    witness: &Witness,
    public: &PublicInputs,
    rng: &mut dyn RngCore,
    report: &mut AuditReport,
) {
    for i in 0..public.0.len() {
        for (name, delta) in [
            ("random", zkbench_hash::Fr::rand(rng)),
            ("plus-one", zkbench_hash::Fr::from(1u64)),
        ] {
            report.mutations += 1;
            let mut bad = public.clone();
            bad.0[i] += delta;
            if circuit.mock_check(witness, &bad).is_err() {
                report.killed += 1;
            } else {
                report.survivors.push(Survivor {
                    location: format!("public input #{i}"),
                    mutation: name.into(),
                    justification: None,
                });
            }
        }
    }
}
