//! Errors of the halo2 backend.

use std::path::PathBuf;

/// An error of the halo2 backend.
#[derive(Debug, thiserror::Error)]
pub enum Halo2Error {
    /// A configuration that cannot be built (arity, leaves, family, layout).
    #[error("configuration: {0}")]
    Config(String),
    /// A witness that does not fit the circuit.
    #[error("witness: {0}")]
    Witness(String),
    /// An error of the hash library.
    #[error(transparent)]
    Hash(#[from] zkbench_hash::HashError),
    /// An error reported by halo2 (synthesis, keygen, proving).
    #[error("halo2: {0}")]
    Plonk(String),
    /// A file that could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A file whose content could not be decoded.
    #[error("{path}: {reason}")]
    Decode {
        /// The file.
        path: String,
        /// What was wrong.
        reason: String,
    },
}

impl From<zkbench_statement::StatementError> for Halo2Error {
    fn from(e: zkbench_statement::StatementError) -> Self {
        use zkbench_statement::StatementError as S;
        match e {
            S::Hash(h) => Halo2Error::Hash(h),
            S::Config(m) => Halo2Error::Config(m),
            S::Witness(m) => Halo2Error::Witness(m),
        }
    }
}

impl Halo2Error {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    /// A decoding error on `path`.
    pub fn decode(path: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Decode {
            path: path.into(),
            reason: reason.into(),
        }
    }
}

impl From<halo2_axiom::plonk::Error> for Halo2Error {
    fn from(e: halo2_axiom::plonk::Error) -> Self {
        Self::Plonk(format!("{e:?}"))
    }
}
