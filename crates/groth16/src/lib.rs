//! # zkbench-groth16
//!
//! Note-spend, membership and batch-root circuits over the hashes of
//! `zkbench-hash`, proved with Groth16 on BN254 (arkworks), with R1CS gadgets
//! for the hash families and snarkjs-compatible artifacts.
//!
//! * [`statement`]: the statements (re-exported `zkbench-statement`, defined
//!   once for every backend) and the native computation of their public inputs;
//! * [`gadgets`]: [`gadgets::PermutationGadget`] / [`gadgets::NodeHashGadget`]
//!   and one gadget per hash family;
//! * [`circuits`]: the circuits (membership product for positions);
//! * [`Circuit`] and [`Keys`] (the types behind [`Groth16`]'s
//!   `ProofSystem` impl, with separately timed phases, the key cache, ptau
//!   keys and the snarkjs artifacts' needs), [`SpendConfig`], [`verify`],
//!   [`proof_size`]: the crate's direct surface for what the `ProofSystem`
//!   trait does not cover (the CLI's snarkjs-format proofs, the pool); the
//!   front door by system name is `zkbench-systems`;
//! * [`prover`]: the Groth16 prover used by [`Circuit::prove_assignment`]
//!   (ark-groth16's proofs, with `zkbench-msm`'s fixed-base MSM tables, whose
//!   crate also holds the field arithmetic the MSMs use in WebAssembly and
//!   the AVX-512 IFMA kernel of their batched affine additions on x86_64);
//! * [`pool`]: the private pool's slot-insert (batch) circuit;
//! * [`system`]: [`Groth16`], this crate as a `zkbench_core::ProofSystem`;
//! * [`keys`]: binary key files; [`snarkjs`]: `proof.json`, `public.json`,
//!   `verification_key.json`; [`artifacts`]: writing and reading a proof
//!   directory; [`zkey`]: snarkjs `.zkey` proving keys and `.wtns` witnesses
//!   (snarkjs proves with a zkbench key).
//!
//! **All keys made here come from a test setup** (toxic waste derived from a
//! seed); they are labelled `test_setup: true` everywhere.
#![deny(missing_docs)]

mod api;
pub mod artifacts;
pub mod audit;
pub mod backend;
pub mod balance;
pub mod circuits;
pub mod error;
pub mod gadgets;
pub mod keys;
pub mod lc;
#[cfg(unix)]
pub mod mapped;
pub mod pool;
pub mod prover;
pub mod prover_cache;
pub mod ptau;
mod qap;
pub mod snarkjs;
pub mod streamed;
pub mod system;
pub mod testing;
pub mod zkey;

/// Both closures, side by side on the thread pool with the `parallel`
/// feature, one after the other without it.
pub(crate) fn join<A: Send, B: Send>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    #[cfg(feature = "parallel")]
    return rayon::join(a, b);
    #[cfg(not(feature = "parallel"))]
    (a(), b())
}

/// The statements, from `zkbench-statement` (one definition for every backend).
pub use zkbench_statement as statement;

pub use api::{
    num_constraints, proof_size, prove, setup, verify, Assignment, Circuit, ConstraintCounts, Keys,
    PhaseTimings, SpendConfig, R1CS_LAYOUT,
};
pub use backend::HashBackend;
pub use error::Groth16Error;
pub use statement::{CircuitKind, MerklePath, PublicInputs, TreeShape, Witness};
pub use system::Groth16;

pub use ark_bn254::Bn254;
/// A Groth16 proof on BN254.
pub type Proof = ark_groth16::Proof<Bn254>;
/// A Groth16 verifying key on BN254.
pub type VerifyingKey = ark_groth16::VerifyingKey<Bn254>;
