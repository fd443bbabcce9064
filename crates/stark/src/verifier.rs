//! The verifier: Plonky3's `p3_uni_stark::verify`, given the AIR's
//! constraint degree instead of re-inferring it at every call.
//!
//! `p3_uni_stark::verify` (0.8.0) sizes the quotient (how many chunks the
//! proof must open) from the AIR's constraint degree, which it infers on
//! every call by evaluating the AIR symbolically and walking every
//! constraint's expression for its polynomial degree. For this AIR (Poseidon2
//! partial rounds: deep shared expressions, and periodic selectors, which
//! take the walk off Plonky3's cached-degree fast path) that walk is ~10 ms,
//! most of a verify. Plonky3 0.8 has no verifier entry point that takes a
//! precomputed degree; its documented hint, `BaseAir::max_constraint_degree`,
//! is maxed with the inferred degree (`p3_uni_stark::get_log_num_quotient_chunks`).
//!
//! So the verifier is handed [`VerifierAir`], a view of [`NoteAir`] that
//! evaluates its real constraints under the verifier's folder (the
//! out-of-domain check, unchanged) and states its degree through that hint,
//! with [`NoteAir::constraint_degree`] (inferred once, by Plonky3's own
//! function, over the AIR's trace height) as the value, and an empty
//! symbolic evaluation. The quotient is then sized exactly as before, every
//! other step is Plonky3's verifier as it is, and proofs of another trace
//! height (for which the degree was not inferred) are rejected before it
//! runs; the prover never proves at another height. Tests check that the
//! view sizes the quotient as the AIR does, and that tampered proofs and
//! changed statements are rejected through it.
//!
//! The verifier is the STARK verifier of Ben-Sasson, Bentov, Horesh and
//! Riabzev (ePrint 2018/046) as Plonky3 builds it.

use p3_air::symbolic::SymbolicAirBuilder;
use p3_air::{Air, BaseAir};
use p3_uni_stark::{StarkGenericConfig, VerifierConstraintFolder};

use crate::air::NoteAir;
use crate::native::Val;
use crate::params::{config, Config, SecurityLevel};
use crate::prover::StarkProof;

/// [`NoteAir`] as the verifier sees it: the same shape and constraints, its
/// constraint degree given (see the module documentation). Only the
/// verifier's folder evaluates its constraints; its symbolic evaluation is
/// empty, so it is no AIR to prove with or to size anything but a verify by.
#[derive(Clone, Copy, Debug)]
pub struct VerifierAir<'a> {
    air: &'a NoteAir,
    degree: usize,
    /// The AIR's own hint (none).
    count: Option<usize>,
}

impl<'a> VerifierAir<'a> {
    /// The view of `air` (infers its constraint degree on first use).
    pub fn new(air: &'a NoteAir) -> Self {
        Self {
            air,
            degree: air.constraint_degree(),
            count: BaseAir::<Val>::num_constraints(air),
        }
    }
}

view_base_air!(VerifierAir);

/// Empty: the degree this evaluation would be walked for is
/// [`BaseAir::max_constraint_degree`]'s.
impl Air<SymbolicAirBuilder<Val>> for VerifierAir<'_> {
    fn eval(&self, _builder: &mut SymbolicAirBuilder<Val>) {}
}

/// The AIR's own constraints at the out-of-domain point.
impl<'f> Air<VerifierConstraintFolder<'f, Config>> for VerifierAir<'_> {
    fn eval(&self, builder: &mut VerifierConstraintFolder<'f, Config>) {
        self.air.eval(builder);
    }
}

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
    let view = VerifierAir::new(air);
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        p3_uni_stark::verify(&cfg, &view, proof, public_values).is_ok()
    }))
    .unwrap_or(false)
}
