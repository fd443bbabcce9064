//! Errors of the Groth16 backend.

use ark_relations::r1cs::SynthesisError;
use zkbench_hash::HashError;

/// What went wrong in setup, proving, verification or artifact handling.
#[derive(Debug, thiserror::Error)]
pub enum Groth16Error {
    /// The hash library rejected the parameters.
    #[error(transparent)]
    Hash(#[from] HashError),
    /// The family has a native implementation but no R1CS gadget (yet).
    #[error("no R1CS gadget for {family} (alpha {alpha}) at arity {arity}: {reason}")]
    NoGadget {
        /// Family name.
        family: String,
        /// S-box exponent.
        alpha: u64,
        /// Requested arity.
        arity: usize,
        /// Why.
        reason: String,
    },
    /// Invalid configuration (arity, leaves, depth ...).
    #[error("invalid configuration: {0}")]
    Config(String),
    /// The witness does not fit the statement (wrong number of siblings, index
    /// out of range ...).
    #[error("invalid witness: {0}")]
    Witness(String),
    /// Constraint synthesis or proving failed.
    #[error("constraint system error: {0}")]
    Synthesis(#[from] SynthesisError),
    /// A key, proof or input could not be decoded.
    #[error("cannot decode {what}: {reason}")]
    Decode {
        /// What was being read.
        what: String,
        /// Why it failed.
        reason: String,
    },
    /// A powers-of-tau file could not be used.
    #[error(transparent)]
    Ptau(#[from] crate::ptau::PtauError),
    /// File system error.
    #[error("{path}: {source}")]
    Io {
        /// The file concerned.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
}

impl From<zkbench_statement::StatementError> for Groth16Error {
    fn from(e: zkbench_statement::StatementError) -> Self {
        use zkbench_statement::StatementError as S;
        match e {
            S::Hash(h) => Groth16Error::Hash(h),
            S::Config(m) => Groth16Error::Config(m),
            S::Witness(m) => Groth16Error::Witness(m),
        }
    }
}

impl Groth16Error {
    pub(crate) fn decode(what: impl Into<String>, reason: impl ToString) -> Self {
        Groth16Error::Decode {
            what: what.into(),
            reason: reason.to_string(),
        }
    }

    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        Groth16Error::Io {
            path: path.display().to_string(),
            source,
        }
    }
}
