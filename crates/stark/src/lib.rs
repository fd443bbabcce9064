//! # zkbench-stark
//!
//! The note spend and membership statements of `zkbench-statement` as
//! small-field STARKs: AIRs over BabyBear with Poseidon2 (width 16) as the
//! tree hash and 8-limb digests, proved with Plonky3's uni-STARK and hiding
//! FRI (Plonky3 0.8.0) with Keccak-256 commitments and transcript.
//!
//! * [`native`]: the small-field values (how an `Fr` witness becomes
//!   BabyBear limbs, how digests become `Fr` public inputs), the native
//!   Poseidon2 compression and tree: the reference the AIR is checked
//!   against;
//! * [`air`]: the AIR ([`NoteAir`]) and its trace;
//! * [`params`]: the STARK configuration and the FRI parameters of the two
//!   conjectured security levels ([`SecurityLevel`]);
//! * [`prover`]: witness → trace, prove, proof bytes; [`prover_air`]: the
//!   prover's view of the AIR, its constraint degree and count inferred once;
//! * [`verifier`]: verify, with the AIR's constraint degree inferred once;
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

/// `BaseAir<Val>` for a view of [`NoteAir`] (a struct with fields `air:
/// &NoteAir`, `degree: usize` and `count: Option<usize>`): the AIR's shape
/// forwarded, its constraint degree and count given by the view.
macro_rules! view_base_air {
    ($view:ident) => {
        impl p3_air::BaseAir<$crate::native::Val> for $view<'_> {
            fn width(&self) -> usize {
                p3_air::BaseAir::<Val>::width(self.air)
            }
            fn preprocessed_trace(&self) -> Option<p3_matrix::dense::RowMajorMatrix<Val>> {
                self.air.preprocessed_trace()
            }
            fn preprocessed_width(&self) -> usize {
                p3_air::BaseAir::<Val>::preprocessed_width(self.air)
            }
            fn num_periodic_columns(&self) -> usize {
                p3_air::BaseAir::<Val>::num_periodic_columns(self.air)
            }
            fn periodic_columns(&self) -> std::borrow::Cow<'_, [Vec<Val>]> {
                self.air.periodic_columns()
            }
            fn main_next_row_columns(&self) -> Vec<usize> {
                p3_air::BaseAir::<Val>::main_next_row_columns(self.air)
            }
            fn preprocessed_next_row_columns(&self) -> Vec<usize> {
                p3_air::BaseAir::<Val>::preprocessed_next_row_columns(self.air)
            }
            fn num_constraints(&self) -> Option<usize> {
                self.count
            }
            fn max_constraint_degree(&self) -> Option<usize> {
                Some(self.degree)
            }
            fn num_public_values(&self) -> usize {
                p3_air::BaseAir::<Val>::num_public_values(self.air)
            }
            fn public_boundary_io(&self) -> &[p3_air::BoundaryPublic] {
                p3_air::BaseAir::<Val>::public_boundary_io(self.air)
            }
            fn assumes_boolean_trace(&self) -> bool {
                p3_air::BaseAir::<Val>::assumes_boolean_trace(self.air)
            }
        }
    };
}

pub mod air;
pub mod audit;
pub mod dir;
pub mod native;
pub mod params;
pub mod prover;
pub mod prover_air;
pub mod system;
pub mod verifier;

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
