//! # zkbench-halo2
//!
//! Note-spend, membership-only and batch-root proofs on Halo2 (halo2-axiom:
//! BN254, KZG, SHPLONK multi-opening, Blake2b transcript) with a Poseidon2
//! chip built for few rows.
//!
//! * [`params`]: Poseidon2 instances from the native library, in halo2's field;
//! * [`chip`]: the Poseidon2 chip ([`chip::Poseidon2Instructions`]);
//! * [`statement`]: the statements (mirrored from the Groth16 backend);
//! * [`circuit`]: the statement circuits and their layout;
//! * [`api`]: configuration, SRS, keys, prove/verify with timed phases,
//!   artifacts, row/column accounting.
//!
//! **Test SRS.** [`api::Srs::TestSetup`] draws τ from a seeded ChaCha20 RNG:
//! anyone who knows the seed can forge proofs. It is labelled `UNSAFE` in
//! code, output and files; use [`api::Srs::File`] with a real ceremony's
//! parameters in halo2's format for anything that matters.
#![deny(missing_docs)]

pub mod api;
pub mod chip;
pub mod circuit;
pub mod error;
pub mod params;
pub mod statement;

pub use error::Halo2Error;
pub use halo2_axiom;
