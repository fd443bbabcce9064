//! Errors of zkbench-pool.

use std::path::PathBuf;

/// Everything that can go wrong running the pool.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// Invalid parameters (depths, number of deposits, denomination ...).
    #[error("invalid pool configuration: {0}")]
    Config(String),
    /// A statement rejected its configuration or witness.
    #[error(transparent)]
    Statement(#[from] zkbench_statement::StatementError),
    /// The Groth16 backend failed (setup, proof).
    #[error(transparent)]
    Groth16(#[from] zkbench_groth16::Groth16Error),
    /// The EVM layer failed (compile, deploy, transaction validation).
    #[error(transparent)]
    Evm(#[from] zkbench_evm::EvmError),
    /// The era/slot tree rejected an operation.
    #[error(transparent)]
    Merkle(#[from] zkbench_merkle::MerkleError),
    /// A transaction that had to succeed did not.
    #[error("{what} failed on chain: {reason}")]
    Transaction {
        /// Which transaction.
        what: String,
        /// The contract's error name (or the halt reason).
        reason: String,
    },
    /// A transaction the node's `eth_call` says will revert: not sent.
    #[error("{what} not sent: the pool would revert with {reason}; no transaction was sent and no gas spent")]
    Refused {
        /// Which transaction.
        what: String,
        /// The contract's error name and what it means.
        reason: String,
    },
    /// A JSON-RPC node did not answer or refused a request.
    #[error("JSON-RPC node {url}: {what}: {reason}")]
    Rpc {
        /// The node.
        url: String,
        /// The request (method, and which transaction).
        what: String,
        /// The transport's or node's error.
        reason: String,
    },
    /// A note string or file is malformed.
    #[error("invalid note: {0}")]
    Note(String),
    /// Reading or writing a file failed (the OS error is in the message,
    /// not also a source, so that it is printed once).
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
}

impl PoolError {
    pub(crate) fn io(path: impl Into<PathBuf>, error: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            error,
        }
    }
}
