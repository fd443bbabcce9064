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
    let evaluated = Evaluated::new(&m, z);
    let mut report = empty_report(circuit, &m)?;
    // Variable 0 is the constant 1: not a witness.
    for i in 1..z.len() {
        evaluated.audit_variable(i, rng, &mut report);
    }
    Ok(report)
}

/// The report of `circuit` (constraint system `m`) before any mutation:
/// the system, the circuit's name and its numbers of variables.
fn empty_report(
    circuit: &Circuit,
    m: &ConstraintMatrices<Fr>,
) -> Result<AuditReport, Groth16Error> {
    let cfg = circuit.config();
    Ok(AuditReport {
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
    })
}

/// A constraint system evaluated at a satisfying assignment `z`: what each
/// mutation of one variable is checked against.
struct Evaluated<'a> {
    /// The assignment.
    z: &'a [Fr],
    /// `A_j·z` of each constraint `j`.
    a: Vec<Fr>,
    /// `B_j·z` of each constraint `j`.
    b: Vec<Fr>,
    /// `C_j·z` of each constraint `j`.
    c: Vec<Fr>,
    /// Where each variable occurs ([`occurrences`]).
    occ: Vec<Vec<(usize, Fr, Fr, Fr)>>,
    /// The number of instance variables (the constant 1 and the public inputs).
    num_instance: usize,
}

impl<'a> Evaluated<'a> {
    /// Evaluates the constraints of `m` at `z`.
    fn new(m: &ConstraintMatrices<Fr>, z: &'a [Fr]) -> Self {
        let eval = |row: &[(Fr, usize)]| row.iter().map(|(c, i)| *c * z[*i]).sum::<Fr>();
        Self {
            z,
            a: m.a.iter().map(|r| eval(r)).collect(),
            b: m.b.iter().map(|r| eval(r)).collect(),
            c: m.c.iter().map(|r| eval(r)).collect(),
            occ: occurrences(m),
            num_instance: m.num_instance_variables,
        }
    }

    /// Variable `i` as the report names it: public input or witness, its
    /// index, and the first constraint it occurs in (if any).
    fn label(&self, i: usize) -> String {
        let kind = if i < self.num_instance {
            format!("public input #{}", i - 1)
        } else {
            format!("witness #{}", i - self.num_instance)
        };
        match self.occ[i].first() {
            Some((j, ..)) => format!("{kind} (first in constraint {j})"),
            None => kind,
        }
    }

    /// Whether changing variable `i` by `delta` breaks some constraint.
    fn killed(&self, i: usize, delta: Fr) -> bool {
        let (a, b, c) = (&self.a, &self.b, &self.c);
        self.occ[i]
            .iter()
            .any(|&(j, ca, cb, cc)| (a[j] + ca * delta) * (b[j] + cb * delta) != c[j] + cc * delta)
    }

    /// Audits variable `i` into `report`: notes it if it is unconstrained,
    /// then mutates it to a random element (one draw from `rng`, always
    /// made) and by +1, counting each mutation killed or recording its
    /// survivor (a zero change is skipped).
    fn audit_variable(&self, i: usize, rng: &mut dyn RngCore, report: &mut AuditReport) {
        if self.occ[i].is_empty() {
            report.unconstrained.push(self.label(i));
        }
        let random = Fr::rand(rng) - self.z[i];
        for (name, delta) in [("random", random), ("plus-one", Fr::from(1u64))] {
            if delta.is_zero() {
                continue;
            }
            report.mutations += 1;
            if self.killed(i, delta) {
                report.killed += 1;
            } else {
                report.survivors.push(Survivor {
                    location: self.label(i),
                    mutation: name.into(),
                    justification: None,
                });
            }
        }
    }
}
