//! The prover's view of the AIR: Plonky3's `p3_uni_stark::prove`, given the
//! AIR's constraint degree and count instead of re-inferring them at every
//! proof.
//!
//! `p3_uni_stark::prove` (0.8.0) evaluates the AIR symbolically twice per
//! proof before any of its real work: once to size the quotient
//! (`get_log_num_quotient_chunks_for_domain`: every constraint's expression
//! walked for its degree, off Plonky3's cached-degree fast path because the
//! AIR has periodic selectors) and once more in `quotient_values`
//! (`get_constraint_layout`), only to count the base- and extension-field
//! constraints and order the powers of the random combination by them. For
//! this AIR (Poseidon2 partial rounds: deep shared expressions) the two are
//! several milliseconds of a ~30 ms proof, and their answers never change
//! for an AIR.
//!
//! So the prover is handed [`ProverAir`], a view of [`NoteAir`] whose
//! symbolic evaluation emits [`NoteAir::constraint_count`] base-field
//! constraints that are the constant zero (the layout Plonky3 builds from
//! them is the AIR's own: base-field indices `0..n` in order, the AIR has no
//! extension-field constraint) and states [`NoteAir::constraint_degree`]
//! through `BaseAir::max_constraint_degree` (Plonky3 maxes that hint with
//! the inferred degree, which for constant zeros is 0, so the quotient is
//! sized exactly as for the AIR). Both values are computed once per AIR by
//! Plonky3's own functions. The prover's constraint folder (the quotient on
//! the LDE) and the debug builder (`p3_uni_stark::prove`'s constraint check
//! in debug builds) evaluate the AIR's real constraints, so the proof is the
//! one the AIR itself gives: tests check that it verifies with
//! `p3_uni_stark::verify` of [`NoteAir`], and that the layout and the
//! quotient's size are the AIR's. The view proves only traces of the AIR's
//! own height ([`crate::prover::prove`] hands any other to the AIR itself).
//!
//! The prover is the STARK prover of Ben-Sasson, Bentov, Horesh and Riabzev
//! (ePrint 2018/046) as Plonky3 builds it.

use p3_air::symbolic::SymbolicAirBuilder;
use p3_air::{Air, AirBuilder, DebugConstraintBuilder};
use p3_field::PrimeCharacteristicRing;
use p3_uni_stark::ProverConstraintFolder;

use crate::air::NoteAir;
use crate::native::Val;
use crate::params::Config;

/// [`NoteAir`] as the prover sees it: the same shape and constraints, its
/// constraint degree and count given (see the module documentation). Its
/// symbolic evaluation emits only constant-zero constraints, so it sizes and
/// lays out a proof of the AIR's height, nothing else.
#[derive(Clone, Copy, Debug)]
pub struct ProverAir<'a> {
    air: &'a NoteAir,
    degree: usize,
    count: Option<usize>,
}

impl<'a> ProverAir<'a> {
    /// The view of `air` (infers its constraint degree and count on first
    /// use).
    pub fn new(air: &'a NoteAir) -> Self {
        Self {
            air,
            degree: air.constraint_degree(),
            count: Some(air.constraint_count()),
        }
    }
}

view_base_air!(ProverAir);

/// The AIR's number of base-field constraints, each the constant zero: the
/// layout and count are the AIR's, the degree is
/// `BaseAir::max_constraint_degree`'s.
impl Air<SymbolicAirBuilder<Val>> for ProverAir<'_> {
    fn eval(&self, builder: &mut SymbolicAirBuilder<Val>) {
        for _ in 0..self.count.unwrap_or(0) {
            builder.assert_zero(<SymbolicAirBuilder<Val> as AirBuilder>::Expr::ZERO);
        }
    }
}

/// The AIR's own constraints on the quotient domain.
impl<'f> Air<ProverConstraintFolder<'f, Config>> for ProverAir<'_> {
    fn eval(&self, builder: &mut ProverConstraintFolder<'f, Config>) {
        self.air.eval(builder);
    }
}

/// The AIR's own constraints on every trace row (`p3_uni_stark::prove`'s
/// check in debug builds).
impl<'f> Air<DebugConstraintBuilder<'f, Val>> for ProverAir<'_> {
    fn eval(&self, builder: &mut DebugConstraintBuilder<'f, Val>) {
        self.air.eval(builder);
    }
}

/// The AIR's own constraints on the quotient domain, NEON's lockstep folder
/// (`p3_uni_stark::QuotientAir` asks for it on `aarch64`).
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
impl<'f> Air<p3_uni_stark::VectorizedConstraintFolder<'f, Config, { p3_uni_stark::QUOTIENT_ILP }>>
    for ProverAir<'_>
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
