//! [`ProofConfig`]: the one parser from a proof configuration as text (the
//! CLI's flags, the browser's JSON form) to a checked statement of a system.

use zkbench_core::case::parse_leaves;
use zkbench_hash::{HashError, HashFamily};
use zkbench_statement::{CircuitKind, StatementConfig, StatementError};

use crate::{SystemId, UnknownSystem};

/// What is wrong with a proof configuration; each message says what was
/// given and what is accepted.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The system is not one of zkbench's provers.
    #[error(transparent)]
    System(#[from] UnknownSystem),
    /// Unknown hash family, or an exponent the family does not have.
    #[error(transparent)]
    Hash(#[from] HashError),
    /// A leaf count that is neither a decimal nor `2^K`.
    #[error("{0}")]
    Leaves(String),
    /// Unknown circuit, or a tree shape out of range (arity, leaves, batch size).
    #[error(transparent)]
    Statement(#[from] StatementError),
}

/// A proof configuration: which of zkbench's provers, and the statement it
/// proves (hash family and exponent, arity, leaves, circuit), checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofConfig {
    /// The proof system.
    pub system: SystemId,
    /// The statement: hash family, exponent, tree shape and circuit.
    pub statement: StatementConfig,
}

impl ProofConfig {
    /// Parses and checks a configuration given as text: `system` (see
    /// [`SystemId`]), `hash` (a hash family name or alias), `alpha` (`None`:
    /// the family's default exponent), `arity` (2..=16), `leaves` (decimal or
    /// `2^K`; the batch size for `batch-root`) and `circuit` (`spend`,
    /// `membership`, `batch-root`).
    pub fn parse(
        system: &str,
        hash: &str,
        alpha: Option<u64>,
        arity: usize,
        leaves: &str,
        circuit: &str,
    ) -> Result<Self, ConfigError> {
        Ok(ProofConfig {
            system: system.parse()?,
            statement: parse_statement(hash, alpha, arity, leaves, circuit)?,
        })
    }

    /// Runs `job` with this configuration's prover (see [`SystemId::dispatch`]).
    pub fn dispatch<W: crate::WithSystem>(&self, job: W) -> W::Output {
        self.system.dispatch(job)
    }
}

/// The statement part of [`ProofConfig::parse`]: parses the hash family,
/// leaf count and circuit and checks the exponent and the tree shape.
pub fn parse_statement(
    hash: &str,
    alpha: Option<u64>,
    arity: usize,
    leaves: &str,
    circuit: &str,
) -> Result<StatementConfig, ConfigError> {
    let family: HashFamily = hash.parse()?;
    let circuit: CircuitKind = circuit.parse()?;
    let leaves = parse_leaves(leaves).map_err(ConfigError::Leaves)?;
    let cfg = StatementConfig {
        family,
        alpha,
        arity,
        leaves,
        circuit,
    };
    cfg.resolved_alpha()?;
    cfg.shape()?;
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Text<'a> = (&'a str, &'a str, Option<u64>, usize, &'a str, &'a str);

    fn parse(text: Text<'_>) -> Result<ProofConfig, String> {
        let (system, hash, alpha, arity, leaves, circuit) = text;
        ProofConfig::parse(system, hash, alpha, arity, leaves, circuit).map_err(|e| e.to_string())
    }

    #[test]
    fn good_configurations_parse() {
        let c = parse(("groth16", "poseidon2", Some(7), 4, "2^36", "spend")).unwrap();
        assert_eq!(c.system, SystemId::Groth16);
        assert_eq!(c.statement.family, HashFamily::Poseidon2);
        assert_eq!(c.statement.alpha, Some(7));
        assert_eq!(c.statement.arity, 4);
        assert_eq!(c.statement.leaves, 1 << 36);
        assert_eq!(c.statement.circuit, CircuitKind::Spend);

        let c = parse(("halo2-kzg-keccak", "griffin", None, 2, "16", "batch-root")).unwrap();
        assert_eq!(c.system, SystemId::Halo2KzgKeccak);
        assert_eq!(c.statement.leaves, 16);
        assert_eq!(c.statement.circuit, CircuitKind::BatchRoot);
        // aliases of the hash and the circuit
        let c = parse(("halo2-kzg", "mimc", None, 2, "1024", "note-spend")).unwrap();
        assert_eq!(c.statement.family, HashFamily::MimcSponge);
        assert_eq!(c.statement.circuit, CircuitKind::Spend);
    }

    #[test]
    fn bad_configurations_say_what_was_wrong_and_what_is_accepted() {
        let cases: [(_, &[&str]); 7] = [
            (
                parse(("plonk", "poseidon", None, 2, "16", "spend")),
                &[
                    "unknown proof system \"plonk\"",
                    "groth16, halo2-kzg, halo2-kzg-keccak",
                ],
            ),
            (
                parse(("groth16", "sha3", None, 2, "16", "spend")),
                &["unknown hash family \"sha3\"", "poseidon"],
            ),
            (
                parse(("groth16", "poseidon", None, 2, "16", "teleport")),
                &[
                    "unknown circuit \"teleport\"",
                    "spend, membership, batch-root",
                ],
            ),
            (
                parse(("groth16", "poseidon", None, 2, "3^4", "spend")),
                &["invalid leaf count \"3^4\"", "2^K"],
            ),
            (
                parse(("groth16", "poseidon", None, 1, "16", "spend")),
                &["arity 1 not in 2..=16"],
            ),
            (
                parse(("groth16", "poseidon", Some(9), 2, "16", "spend")),
                &["alpha = 9", "supported alphas"],
            ),
            (
                parse(("groth16", "poseidon", None, 16, "2^40", "batch-root")),
                &["too large"],
            ),
        ];
        for (got, wanted) in cases {
            let e = got.unwrap_err();
            for w in wanted {
                assert!(e.contains(w), "{e:?} should contain {w:?}");
            }
        }
    }
}
