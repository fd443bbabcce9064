//! # zkbench-stark
//!
//! The note spend and membership statements of `zkbench-statement` as
//! small-field STARKs: AIRs over BabyBear with Poseidon2 as the tree hash
//! (width 16 for binary trees, a width-24 sponge for arity 4 and 8) and
//! 8-limb digests, proved with Plonky3's uni-STARK and hiding
//! FRI (Plonky3 0.8.0) with Keccak-256 commitments and transcript.
//!
//! * [`native`]: the small-field values (how an `Fr` witness becomes
//!   BabyBear limbs, how digests become `Fr` public inputs), the native
//!   Poseidon2 compression and tree: the reference the AIR is checked
//!   against;
//! * [`air`]: the AIR ([`NoteAir`]) and its trace;
//! * [`params`]: the STARK configuration and the FRI parameters of the two
//!   conjectured security levels ([`SecurityLevel`]);
//! * [`prover`]: witness → trace, prove, proof bytes; [`verifier`]: verify;
//!   [`view`]: the AIR as both hand it to Plonky3, its constraint degree and
//!   count inferred once;
//! * [`audit`]: the mutation audit of the AIR's trace cells and public values;
//! * [`system`]: [`Stark`], this crate as a `zkbench_core::ProofSystem`
//!   (`stark-babybear`, `stark-babybear-128`); [`dir`]: proof directories
//!   for `zkbench prove` / `zkbench verify`.
//!
//! Constructions: STARK (Ben-Sasson, Bentov, Horesh, Riabzev, ePrint
//! 2018/046), FRI (the same authors, ICALP 2018), Poseidon2 (Grassi,
//! Khovratovich, Schofnegger, ePrint 2023/323); the security levels are
//! conjectured ones (ePrint 2025/2010 §1.5, as Plonky3 computes them).
#![deny(missing_docs)]

pub mod air;
pub mod audit;
pub mod dir;
pub mod native;
pub mod params;
pub mod prover;
pub mod system;
pub mod verifier;
pub mod view;

pub use air::{AirKind, NoteAir};
pub use params::{security_bits, SecurityLevel};
pub use prover::{air_for, prepare, prove, verify, Prepared, StarkProof};
pub use system::{Stark, StarkCircuit, StarkKeys};

/// An error of the STARK backend.
#[derive(Debug, thiserror::Error)]
pub enum StarkError {
    /// A configuration this backend cannot prove (family, arity, circuit).
    #[error("configuration: {0}")]
    Config(String),
    /// A witness or public inputs that do not fit the statement.
    #[error("witness: {0}")]
    Witness(String),
    /// The prover failed.
    #[error("prover: {0}")]
    Prove(String),
    /// Bytes that are not what they should be (a proof, a key file).
    #[error("decode: {0}")]
    Decode(String),
    /// A file that could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

impl From<zkbench_statement::StatementError> for StarkError {
    fn from(e: zkbench_statement::StatementError) -> Self {
        use zkbench_statement::StatementError as S;
        match e {
            S::Hash(h) => StarkError::Config(h.to_string()),
            S::Config(m) => StarkError::Config(m),
            S::Witness(m) => StarkError::Witness(m),
        }
    }
}
