//! # zkbench-halo2
//!
//! Note-spend, membership-only and batch-root proofs on Halo2 (halo2-axiom:
//! BN254, KZG, SHPLONK multi-opening, Blake2b transcript) with a Poseidon2
//! chip built for few rows.
//!
//! * [`params`]: Poseidon2 instances from the native library, in halo2's field;
//! * [`chip`]: the Poseidon2 chip ([`chip::Poseidon2Instructions`]);
//! * [`statement`]: the statements (re-exported `zkbench-statement`, shared
//!   with every backend);
//! * [`circuit`]: the statement circuits and their layout;
//! * [`system`]: [`Halo2Kzg`], this crate as a `zkbench_core::ProofSystem`;
//! * [`Halo2Circuit`] (with [`Halo2Config`], [`Srs`], [`Keys`],
//!   [`Transcript`]): configuration, SRS, keys (cached on disk), proving
//!   with timed phases, row/column accounting; [`verify_for`] /
//!   [`verify_with`]: verification; [`write_artifacts`], [`ProofDir`],
//!   [`verify_dir`]: proof directories; [`DirProver`]: `zkbench prove
//!   --system halo2-kzg` in one place (keys from the cache, a proof, its
//!   check, its directory); [`run_once`]: keys, a proof and its check,
//!   timed. These are the crate's direct surface for what
//!   the `ProofSystem` trait does not cover (SRS files, transcripts,
//!   artifacts, the EVM verifier's keys); the front door by system name is
//!   `zkbench-systems`.
//!
//! # Layout (what was chosen and why)
//!
//! One hash is a block of `T = R_F + ⌈R_P / p⌉` rows (details in [`chip`]):
//! one row per full round, `p` partial rounds per row (`p − 1` S-box output
//! columns, `2p − 1` helper columns with split S-boxes), the initial linear layer folded into the first round's gate,
//! and the output written into the *next* row, which is also the next hash's
//! input row. A Merkle level therefore costs exactly `T` rows: the
//! membership check `Π (child_i − cur) = 0` sits on the input row (no extra
//! row, and no extra column up to arity `d − 1` for constraint-system degree
//! `d`: 4 by default, α unsplit), and the path's current node never needs a
//! copy constraint. Only three columns take part in the permutation argument
//! (state 0, `e0`, the instance column), so at degree ≥ 5 there is one grand
//! product polynomial.
//!
//! Every gate is written with one S-box per constraint: full rounds as
//! `M_E⁻¹·next = (cur + c)^α`, partial rows as linear forms of the row's cells
//! (no expression blow-up). By default each S-box is *split* (a helper cell
//! `a = x^((α−1)/2)` and `y = a²·x`, see [`chip`]): all gates have degree 4,
//! so the quotient lives on the 4n extended domain (the default layout pins
//! the degree to 5: the same domain, fewer fixed columns, one permutation
//! product). Unsplit ([`chip::ChipLayout::unsplit`]) the gates have degree
//! α + 1 — 8 for α = 7, whose 8n extended domain is the same as α = 5's
//! degree 6. α = 7 has fewer partial rounds (Poseidon2 t = 8: 48 vs 57), so
//! it wins on rows at equal cost per row.
//!
//! Spend, 2^36 leaves, Poseidon2 α = 7, arity 7 (height 13, zkOS' shape),
//! default (split) layout: `p = 6` gives 241 rows at k = 8 with 19 advice
//! columns and 14 fixed (zkOS: 518 rows, k = 10, 9 advice). Unsplit:
//! `p = 2` gives 479 rows at k = 9 with 10 advice columns; `p = 4` gives 301
//! rows (k = 9, 11 advice); `p ≥ 6` fits k = 8 (241 rows with 13 advice; 211
//! with 15). Run the `halo2_layouts` example (`--sbox both`) for the table
//! with timings.
//!
//! **Folded for the chain.** An EVM verifier pays one ecMul (6,000 gas) per
//! column commitment. [`chip::ChipLayout::fold`] spreads each logical row
//! over `B` physical rows (logical column `i` → physical column `i / B`,
//! row `i % B`): the same gates over a `B`-th of the columns. Proofs with the
//! Keccak transcript use [`chip::ChipLayout::evm`] (`B = 4`): the spend above
//! then has 5 advice and 8 fixed columns at k = 10, and its Solidity
//! verifier costs 321,754 gas instead of 448,619, for 2.1-2.4x the prove
//! time (`docs/evm.md`).
//!
//! **halo2-axiom quirk.** `ConstraintSystem::degree()` in halo2-axiom is
//! capped by the `MAX_DEGREE` environment variable (default 5); with
//! degree-8 gates that would silently give a too-small extended domain. The
//! circuits pin their true degree with `set_minimum_degree`, which takes
//! precedence, so no environment variable is needed.
//!
//! **Test SRS.** [`Srs::TestSetup`] draws τ from a seeded ChaCha20 RNG:
//! anyone who knows the seed can forge proofs. It is labelled `UNSAFE` in
//! code, output and files; use [`Srs::File`] with a real ceremony's
//! parameters in halo2's format for anything that matters.
#![deny(missing_docs)]

mod api;
pub mod audit;
pub mod chip;
pub mod circuit;
mod commit;
pub mod error;
pub mod params;
pub mod system;

/// The statements, from `zkbench-statement` (one definition for every backend).
pub use zkbench_statement as statement;

// The crate's direct surface (see the list above); the rest of `api` is
// internal.
pub use api::{
    run_once, verify_dir, verify_for, verify_with, write_artifacts, ArtifactMeta, DirProof,
    DirProver, Halo2Circuit, Halo2Config, Keys, PhaseTimings, ProofDir, ProofOutput, Srs,
    TimedKeys, Transcript, MAX_FOLD,
};
pub use error::Halo2Error;
pub use halo2_axiom;
pub use system::Halo2Kzg;
