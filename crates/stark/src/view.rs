//! [`AirView`]: the AIR as Plonky3's prover and verifier are handed it, its
//! constraint degree and count given instead of re-inferred at every proof
//! and every verify.
//!
//! Plonky3 0.8.0 evaluates the AIR symbolically before any real work: to size
//! the quotient (`get_log_num_quotient_chunks_for_domain`, in `prove` and in
//! `verify`: every constraint's expression walked for its polynomial degree,
//! off Plonky3's cached-degree fast path because the AIR has periodic
//! selectors) and, in the prover, once more to count the base- and
//! extension-field constraints and order the powers of the random
//! combination by them (`get_constraint_layout`). For this AIR (Poseidon2
//! partial rounds: deep shared expressions) the walk is ~10 ms, most of a
//! verify and a third of a proof, and its answers never change for an AIR.
//! Plonky3 has no entry point that takes them precomputed; its documented
//! hint, `BaseAir::max_constraint_degree`, is maxed with the inferred degree.
//!
//! So both are handed [`AirView`]: its symbolic evaluation emits
//! [`NoteAir::constraint_count`] base-field constraints that are the
//! constant zero (the layout Plonky3 builds from them is the AIR's own:
//! base-field indices `0..n` in order, the AIR has no extension-field
//! constraint; their inferred degree is 0), and it states
//! [`NoteAir::constraint_degree`] through the hint, so the quotient is sized
//! exactly as for the AIR. Both values are computed once per AIR by
//! Plonky3's own functions. Every folder that evaluates constraints for real
//! (the prover's on the LDE, the debug builder of debug builds, the
//! verifier's at the out-of-domain point) runs the AIR's own `eval`, so the
//! proofs and the verdicts are the AIR's: tests check that a proof made
//! through the view verifies with `p3_uni_stark::verify` of [`NoteAir`],
//! that the layout and the quotient's size are the AIR's, and that tampered
//! proofs are rejected. The view is only valid at the AIR's own trace height
//! (the degree was inferred there): [`crate::prover::prove`] proves any
//! other trace through the AIR itself and [`crate::verifier::verify`] rejects
//! proofs of another height.
//!
//! The prover and verifier are the STARK of Ben-Sasson, Bentov, Horesh and
//! Riabzev (ePrint 2018/046) as Plonky3 builds it.

use std::borrow::Cow;

use p3_air::symbolic::SymbolicAirBuilder;
use p3_air::{Air, AirBuilder, BaseAir, BoundaryPublic, DebugConstraintBuilder};
use p3_field::PrimeCharacteristicRing;
use p3_matrix::dense::RowMajorMatrix;
use p3_uni_stark::{ProverConstraintFolder, VerifierConstraintFolder};

use crate::air::NoteAir;
use crate::native::Val;
use crate::params::Config;

/// [`NoteAir`] with its constraint degree and count given (see the module
/// documentation): the same shape and constraints wherever they are
/// evaluated for real, constant zeros where Plonky3 only sizes and lays out.
#[derive(Clone, Copy, Debug)]
pub struct AirView<'a> {
    air: &'a NoteAir,
    degree: usize,
    count: usize,
}

impl<'a> AirView<'a> {
    /// The view of `air` (infers its constraint degree and count on first
    /// use).
    pub fn new(air: &'a NoteAir) -> Self {
        Self {
            air,
            degree: air.constraint_degree(),
            count: air.constraint_count(),
        }
    }
}

/// The AIR's shape forwarded; its constraint degree and count given.
impl BaseAir<Val> for AirView<'_> {
    fn width(&self) -> usize {
        BaseAir::<Val>::width(self.air)
    }
    fn preprocessed_trace(&self) -> Option<RowMajorMatrix<Val>> {
        self.air.preprocessed_trace()
    }
    fn preprocessed_width(&self) -> usize {
        BaseAir::<Val>::preprocessed_width(self.air)
    }
    fn num_periodic_columns(&self) -> usize {
        BaseAir::<Val>::num_periodic_columns(self.air)
    }
    fn periodic_columns(&self) -> Cow<'_, [Vec<Val>]> {
        self.air.periodic_columns()
    }
    fn main_next_row_columns(&self) -> Vec<usize> {
        BaseAir::<Val>::main_next_row_columns(self.air)
    }
    fn preprocessed_next_row_columns(&self) -> Vec<usize> {
        BaseAir::<Val>::preprocessed_next_row_columns(self.air)
    }
    fn num_constraints(&self) -> Option<usize> {
        Some(self.count)
    }
    fn max_constraint_degree(&self) -> Option<usize> {
        Some(self.degree)
    }
    fn num_public_values(&self) -> usize {
        BaseAir::<Val>::num_public_values(self.air)
    }
    fn public_boundary_io(&self) -> &[BoundaryPublic] {
        BaseAir::<Val>::public_boundary_io(self.air)
    }
    fn assumes_boolean_trace(&self) -> bool {
        BaseAir::<Val>::assumes_boolean_trace(self.air)
    }
}

/// The AIR's number of base-field constraints, each the constant zero: the
/// layout and count are the AIR's, the degree is
/// `BaseAir::max_constraint_degree`'s.
impl Air<SymbolicAirBuilder<Val>> for AirView<'_> {
    fn eval(&self, builder: &mut SymbolicAirBuilder<Val>) {
        for _ in 0..self.count {
            builder.assert_zero(<SymbolicAirBuilder<Val> as AirBuilder>::Expr::ZERO);
        }
    }
}

/// The AIR's own constraints on the quotient domain.
impl<'f> Air<ProverConstraintFolder<'f, Config>> for AirView<'_> {
    fn eval(&self, builder: &mut ProverConstraintFolder<'f, Config>) {
        self.air.eval(builder);
    }
}

/// The AIR's own constraints on every trace row (`p3_uni_stark::prove`'s
/// check in debug builds).
impl<'f> Air<DebugConstraintBuilder<'f, Val>> for AirView<'_> {
    fn eval(&self, builder: &mut DebugConstraintBuilder<'f, Val>) {
        self.air.eval(builder);
    }
}

/// The AIR's own constraints at the out-of-domain point.
impl<'f> Air<VerifierConstraintFolder<'f, Config>> for AirView<'_> {
    fn eval(&self, builder: &mut VerifierConstraintFolder<'f, Config>) {
        self.air.eval(builder);
    }
}

/// The AIR's own constraints on the quotient domain, NEON's lockstep folder
/// (`p3_uni_stark::QuotientAir` asks for it on `aarch64`).
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
impl<'f> Air<p3_uni_stark::VectorizedConstraintFolder<'f, Config, { p3_uni_stark::QUOTIENT_ILP }>>
    for AirView<'_>
{
    fn eval(
        &self,
        builder: &mut p3_uni_stark::VectorizedConstraintFolder<
            'f,
            Config,
            { p3_uni_stark::QUOTIENT_ILP },
        >,
    ) {
        self.air.eval(builder);
    }
}
