//! Errors returned by the Merkle trees and path verifiers.

use zkbench_hash::HashError;

/// What went wrong when building, updating or verifying a Merkle tree.
///
/// Every variant carries what was given and what is accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MerkleError {
    /// A leaf index beyond the tree's leaf capacity.
    #[error("leaf index {index} is out of range: the tree holds {capacity} leaves (indices 0..{capacity})")]
    IndexOutOfRange {
        /// The index given.
        index: u128,
        /// Number of leaves the tree holds.
        capacity: u128,
    },
    /// The hasher's arity differs from the tree's or the path's.
    #[error("arity mismatch: expected a {expected}-ary node hasher/path, got arity {got}")]
    ArityMismatch {
        /// Arity of the tree or path.
        expected: usize,
        /// Arity found.
        got: usize,
    },
    /// An arity outside `2..=16`.
    #[error("unsupported arity {arity}: Merkle trees here have arity 2..=16")]
    UnsupportedArity {
        /// The arity given.
        arity: usize,
    },
    /// A tree whose `arity^height` leaf positions do not fit in `u64` indices,
    /// or an empty/zero-sized configuration.
    #[error("invalid tree shape: {reason}")]
    InvalidShape {
        /// Why the shape was rejected.
        reason: String,
    },
    /// A path (or slot) whose lengths do not match.
    #[error("malformed {what}: got length {got}, expected {expected}")]
    Length {
        /// Which list had the wrong length.
        what: String,
        /// Length found.
        got: usize,
        /// Length expected.
        expected: usize,
    },
    /// A base-A position digit that is not below the arity.
    #[error(
        "malformed path: position digit {digit} at level {level} is not below the arity {arity}"
    )]
    PositionOutOfRange {
        /// Level (0 = leaves).
        level: usize,
        /// The digit found.
        digit: u8,
        /// The path's arity.
        arity: usize,
    },
    /// The path's `leaf_index` disagrees with its position digits.
    #[error("malformed path: leaf_index {leaf_index} does not match the position digits, which encode {encoded}")]
    LeafIndexMismatch {
        /// `leaf_index` stored in the path.
        leaf_index: u64,
        /// Index the digits encode (`None` shown as a too-large value).
        encoded: String,
    },
    /// An incremental tree (or era tree) with every leaf used.
    #[error("Merkle tree is full: all {capacity} leaves are used")]
    TreeFull {
        /// Number of leaves the tree holds.
        capacity: u128,
    },
    /// A slot that has not been committed.
    #[error("slot {slot} has not been committed ({committed} slot(s) so far)")]
    UnknownSlot {
        /// Slot index asked for.
        slot: u64,
        /// Number of committed slots.
        committed: u64,
    },
    /// An error of the hash library.
    #[error(transparent)]
    Hash(#[from] HashError),
    /// JSON (de)serialisation failed.
    #[error("JSON: {0}")]
    Json(String),
}

impl From<serde_json::Error> for MerkleError {
    fn from(e: serde_json::Error) -> Self {
        MerkleError::Json(e.to_string())
    }
}
