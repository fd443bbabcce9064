//! Mutation audit of the R1CS circuits (see `zkbench_core::audit`).
//!
//! From a satisfying assignment `z` (constant 1, public inputs, witness),
//! each variable `z_i` is changed in turn by `δ` (to a random element, and to
//! `z_i + 1`). Only the constraints in which `z_i` occurs can change, so each
//! mutation re-evaluates just those: with `a_j = A_j·z` (likewise `b_j`,
//! `c_j`), the mutated constraint holds iff
//! `(a_j + A_ji·δ)(b_j + B_ji·δ) = c_j + C_ji·δ`. The audit is exact (no
//! sampling of constraints) and costs the number of non-zero matrix entries.

use ark_ff::{UniformRand, Zero};
use ark_relations::r1cs::ConstraintMatrices;
use rand::RngCore;
use zkbench_core::{AuditReport, Survivor};
use zkbench_hash::Fr;

use crate::api::{is_satisfied, Circuit};
use crate::statement::Witness;
use crate::Groth16Error;

/// Where each variable occurs: `(constraint, coefficient in A, in B, in C)`.
fn occurrences(m: &ConstraintMatrices<Fr>) -> Vec<Vec<(usize, Fr, Fr, Fr)>> {
    let n = m.num_instance_variables + m.num_witness_variables;
    let mut occ: Vec<Vec<(usize, Fr, Fr, Fr)>> = vec![Vec::new(); n];
    for (which, mat) in [&m.a, &m.b, &m.c].into_iter().enumerate() {
        for (j, row) in mat.iter().enumerate() {
            for &(coeff, i) in row {
                let list = &mut occ[i];
                let entry = match list.last_mut() {
                    Some(e) if e.0 == j => e,
                    _ => {
                        list.push((j, Fr::zero(), Fr::zero(), Fr::zero()));
                        list.last_mut().expect("just pushed")
                    }
                };
                match which {
                    0 => entry.1 += coeff,
                    1 => entry.2 += coeff,
                    _ => entry.3 += coeff,
                }
            }
        }
    }
    // A variable may occur in A, B and C of one constraint in any order of
    // the passes above: merge entries of the same constraint.
    for list in &mut occ {
        list.sort_by_key(|e| e.0);
        list.dedup_by(|later, earlier| {
            if later.0 == earlier.0 {
                earlier.1 += later.1;
                earlier.2 += later.2;
                earlier.3 += later.3;
                true
            } else {
                false
            }
        });
    }
    occ
}

/// Runs the mutation audit of `circuit` from `witness`.
pub fn mutation_audit(
    circuit: &Circuit,
    witness: &Witness,
    rng: &mut dyn RngCore,
) -> Result<AuditReport, Groth16Error> {
    let m = circuit.matrices()?;
    let assignment = circuit.witness(witness)?;
    let z = &assignment.full;
    if !is_satisfied(&m, z) {
        return Err(Groth16Error::Witness(
            "the audit needs a satisfying witness; this one is not".into(),
        ));
    }
    let eval = |row: &[(Fr, usize)]| row.iter().map(|(c, i)| *c * z[*i]).sum::<Fr>();
    let (a, b, c): (Vec<Fr>, Vec<Fr>, Vec<Fr>) = (
        m.a.iter().map(|r| eval(r)).collect(),
        m.b.iter().map(|r| eval(r)).collect(),
        m.c.iter().map(|r| eval(r)).collect(),
    );
    let occ = occurrences(&m);
    let cfg = circuit.config();
    let mut report = AuditReport {
        system: "groth16".into(),
        circuit: format!(
            "{} {} alpha {} arity {} leaves {}",
            cfg.circuit,
            cfg.family.name(),
            cfg.resolved_alpha()?,
            cfg.arity,
            cfg.leaves
        ),
        targets: m.num_witness_variables,
        public_inputs: m.num_instance_variables - 1,
        ..Default::default()
    };
    let label = |i: usize| {
        let kind = if i < m.num_instance_variables {
            format!("public input #{}", i - 1)
        } else {
            format!("witness #{}", i - m.num_instance_variables)
        };
        match occ[i].first() {
            Some((j, ..)) => format!("{kind} (first in constraint {j})"),
            None => kind,
        }
    };
    // Variable 0 is the constant 1: not a witness.
    for i in 1..z.len() {
        if occ[i].is_empty() {
            report.unconstrained.push(label(i));
        }
        let random = Fr::rand(rng) - z[i];
        for (name, delta) in [("random", random), ("plus-one", Fr::from(1u64))] {
            if delta.is_zero() {
                continue;
            }
            report.mutations += 1;
            let killed = occ[i].iter().any(|&(j, ca, cb, cc)| {
                (a[j] + ca * delta) * (b[j] + cb * delta) != c[j] + cc * delta
            });
            if killed {
                report.killed += 1;
            } else {
                report.survivors.push(Survivor {
                    location: label(i),
                    mutation: name.into(),
                    justification: None,
                });
            }
        }
    }
    Ok(report)
}
