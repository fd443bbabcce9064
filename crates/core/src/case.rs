//! One benchmark case (the schema lives in `zkbench-results`, re-exported
//! here) and its link to the statements: [`CaseStatement::statement_config`]
//! and the conversions between the schema's [`Circuit`] and the statement
//! crate's [`CircuitKind`].

pub use zkbench_results::case::*;
use zkbench_statement::{CircuitKind, StatementConfig};

/// The statement crate's circuit kind of a schema [`Circuit`].
pub fn circuit_kind(c: Circuit) -> CircuitKind {
    match c {
        Circuit::Spend => CircuitKind::Spend,
        Circuit::Membership => CircuitKind::Membership,
        Circuit::BatchRoot => CircuitKind::BatchRoot,
    }
}

/// The schema [`Circuit`] of a statement crate's circuit kind.
pub fn schema_circuit(k: CircuitKind) -> Circuit {
    match k {
        CircuitKind::Spend => Circuit::Spend,
        CircuitKind::Membership => Circuit::Membership,
        CircuitKind::BatchRoot => Circuit::BatchRoot,
    }
}

/// The statement a proof [`Case`] proves (kept here, not in the schema crate,
/// so that the schema does not depend on the statements and their curves).
pub trait CaseStatement {
    /// The statement a proof case proves: hash family and exponent, arity,
    /// leaves (batch root: `arity^depth`), circuit (default: spend).
    fn statement_config(&self) -> Result<StatementConfig, String>;
}

impl CaseStatement for Case {
    fn statement_config(&self) -> Result<StatementConfig, String> {
        let family = self.hash.parse().map_err(|e| format!("{e}"))?;
        let arity = self.arity.ok_or("proof case without arity")?;
        let circuit = circuit_kind(self.circuit.unwrap_or(Circuit::Spend));
        let leaves = if circuit == CircuitKind::BatchRoot {
            let d = self.depth.ok_or("batch-root case without depth")?;
            (arity as u64).checked_pow(d).ok_or("batch too large")?
        } else {
            self.leaves.ok_or("spend/membership case without leaves")?
        };
        Ok(StatementConfig {
            family,
            alpha: self.alpha,
            arity,
            leaves,
            circuit,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circuits_convert_both_ways_with_the_same_names() {
        for c in Circuit::ALL {
            assert_eq!(schema_circuit(circuit_kind(c)), c);
            assert_eq!(circuit_kind(c).name(), c.name());
        }
        assert_eq!(CircuitKind::ALL.len(), Circuit::ALL.len());
    }
}
