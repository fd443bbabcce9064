//! Errors of zkbench-evm.

use std::path::PathBuf;

/// Everything that can go wrong generating, compiling, deploying or calling a verifier.
#[derive(Debug, thiserror::Error)]
pub enum EvmError {
    /// A verifying key the template cannot express (e.g. no public input).
    #[error("unsupported verifying key: {0}")]
    UnsupportedKey(String),
    /// Node.js, npm or a script's packages are missing (run `scripts/setup.sh`).
    #[error("{what} is not available: {why} (install Node.js and run scripts/setup.sh)")]
    ToolMissing {
        /// The missing tool or package.
        what: String,
        /// Why it counts as missing.
        why: String,
    },
    /// A Node.js helper script ran but failed.
    #[error("{script} failed: {message}")]
    Script {
        /// The script.
        script: String,
        /// Its stderr (trimmed) or exit status.
        message: String,
    },
    /// solc reported compile errors.
    #[error("solc: {0}")]
    Compile(String),
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// Malformed JSON or hex in an artifact or in a tool's output.
    #[error("cannot decode {what}: {why}")]
    Decode {
        /// What was being decoded.
        what: String,
        /// The reason.
        why: String,
    },
    /// The embedded EVM rejected a transaction (not a revert: a validation error).
    #[error("EVM: {0}")]
    Evm(String),
    /// Contract creation did not succeed (reverted, halted, or over a size limit).
    #[error("deployment failed: {0}")]
    Deploy(String),
    /// An error from the Groth16 backend (reading a proof directory).
    #[error(transparent)]
    Groth16(#[from] zkbench_groth16::Groth16Error),
    /// An error of the Halo2 backend (artifacts, keys).
    #[error(transparent)]
    Halo2(#[from] zkbench_halo2::Halo2Error),
}

impl EvmError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn decode(what: impl Into<String>, why: impl std::fmt::Display) -> Self {
        Self::Decode {
            what: what.into(),
            why: why.to_string(),
        }
    }
}
