//! Soundness audits: mutation tests of circuits.
//!
//! From a valid witness, every witness variable (R1CS) or assigned advice
//! cell (PLONKish) is changed in turn, to a random field element and to its
//! value plus one, and so is every public input; the circuit must then be
//! unsatisfied. A mutation that leaves the circuit satisfied *survives*: it
//! is either an under-constrained value (a soundness bug: a proof would
//! verify for a changed witness) or a value that is free by design, listed
//! with its justification next to the gadget that makes it.

use serde::{Deserialize, Serialize};

/// One mutation that left the circuit satisfied.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Survivor {
    /// Where: the variable or cell (`witness #17 (first in constraint 3)`,
    /// `advice column 4, row 12`).
    pub location: String,
    /// Which change: `random` or `plus-one`.
    pub mutation: String,
    /// Why this value may be free, when it is a documented exception; `None`
    /// for an unexplained survivor (a bug).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub justification: Option<String>,
}

/// The outcome of a mutation audit of one circuit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditReport {
    /// Proof system (`groth16`, `halo2-kzg`).
    pub system: String,
    /// The circuit (statement configuration in words).
    pub circuit: String,
    /// Witness variables or advice cells mutated.
    pub targets: usize,
    /// Public inputs mutated.
    pub public_inputs: usize,
    /// Mutations tried.
    pub mutations: usize,
    /// Mutations that made the circuit unsatisfied.
    pub killed: usize,
    /// Mutations that did not.
    pub survivors: Vec<Survivor>,
    /// Variables (or cells) that appear in no constraint at all.
    pub unconstrained: Vec<String>,
}

impl AuditReport {
    /// Survivors without a documented justification.
    pub fn unexplained(&self) -> impl Iterator<Item = &Survivor> {
        self.survivors.iter().filter(|s| s.justification.is_none())
    }

    /// Whether every mutation was killed or is a documented exception, and
    /// no variable is unconstrained.
    pub fn is_sound(&self) -> bool {
        self.unexplained().next().is_none() && self.unconstrained.is_empty()
    }

    /// Killed mutations as a percentage of all mutations.
    pub fn killed_percent(&self) -> f64 {
        if self.mutations == 0 {
            100.0
        } else {
            100.0 * self.killed as f64 / self.mutations as f64
        }
    }
}
