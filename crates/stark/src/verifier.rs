//! The verifier: Plonky3's `p3_uni_stark::verify`, given the AIR's
//! constraint degree instead of re-inferring it at every call.
//!
//! `p3_uni_stark::verify` (0.8.0) sizes the quotient (how many chunks the
//! proof must open) from the AIR's constraint degree, which it infers on
//! every call by a symbolic walk of the whole AIR (~10 ms here, most of a
//! verify). It is handed [`AirView`] instead, whose degree is inferred once
//! per AIR ([`crate::view`]); every other step is Plonky3's verifier as it
//! is, and the out-of-domain check evaluates the AIR's own constraints.
//! Proofs of another trace height than the AIR's (for which the degree was
//! not inferred) are rejected before it runs; the prover never proves at
//! another height.
//!
//! The verifier is the STARK verifier of Ben-Sasson, Bentov, Horesh and
//! Riabzev (ePrint 2018/046) as Plonky3 builds it.

use p3_uni_stark::StarkGenericConfig;

use crate::air::NoteAir;
use crate::native::Val;
use crate::params::{config, SecurityLevel};
use crate::prover::StarkProof;
use crate::view::AirView;

/// Whether `proof` verifies for `public_values` (never panics: a panic of
/// the verifier on a malformed proof counts as a rejection). A proof of
/// another trace height than `air`'s is rejected.
pub fn verify(
    level: SecurityLevel,
    air: &NoteAir,
    public_values: &[Val],
    proof: &StarkProof,
) -> bool {
    let cfg = config(level, 0);
    let degree_bits = air.height().trailing_zeros() as usize + cfg.is_zk();
    if proof.degree_bits != degree_bits {
        return false;
    }
    let view = AirView::new(air);
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        p3_uni_stark::verify(&cfg, &view, proof, public_values).is_ok()
    }))
    .unwrap_or(false)
}
