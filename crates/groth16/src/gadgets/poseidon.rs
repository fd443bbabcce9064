//! Poseidon (HADES) permutation gadget: `R_F/2` full rounds, `R_P` partial
//! rounds, `R_F/2` full rounds; each round adds the round constants, applies
//! `x^alpha` to the whole state (full) or to `state[0]` (partial), and
//! multiplies by the MDS matrix.
//!
//! Cost: `(R_F · t + R_P) · cost(x^alpha)` constraints, minus S-boxes whose
//! input is a constant (circomlib's hash starts from `[0, inputs...]`, so the
//! first S-box of `state[0]` is free): circomlib Poseidon t = 3 costs
//! `8·3·3 + 57·3 − 3 = 240`, as circom reports.
//!
//! The constants come from the native implementation ([`PoseidonSpec`] is
//! filled from `zkbench_hash::poseidon`); the spec also evaluates natively, so
//! the gadget can be checked against its own spec and against the library.

use ark_relations::r1cs::SynthesisError;
use zkbench_hash::{params, Fr, Params, Permutation};

use ark_ff::Field;

use super::{mat_vec, PermutationGadget};
use crate::lc::{Cs, LinVar};

/// Every parameter and constant of a HADES/Poseidon permutation.
#[derive(Clone, Debug)]
pub struct PoseidonSpec {
    /// Family name reported by the gadget.
    pub family: &'static str,
    /// State width `t`.
    pub width: usize,
    /// Number of full rounds `R_F` (even; half before, half after).
    pub rounds_full: usize,
    /// Number of partial rounds `R_P`.
    pub rounds_partial: usize,
    /// S-box exponent.
    pub alpha: u64,
    /// Round constants, `R_F + R_P` rows of `t` elements.
    pub round_constants: Vec<Vec<Fr>>,
    /// The `t × t` MDS matrix (row-major; `new_state[i] = Σ_j mds[i][j]·state[j]`).
    pub mds: Vec<Vec<Fr>>,
}

impl PoseidonSpec {
    /// Native evaluation of the permutation described by this spec.
    pub fn permute_native(&self, state: &mut [Fr]) {
        let t = self.width;
        let half = self.rounds_full / 2;
        let mut tmp = vec![Fr::from(0u64); t];
        for r in 0..self.rounds_full + self.rounds_partial {
            for (s, c) in state.iter_mut().zip(&self.round_constants[r]) {
                *s += c;
            }
            if r < half || r >= half + self.rounds_partial {
                for s in state.iter_mut() {
                    *s = s.pow([self.alpha]);
                }
            } else {
                state[0] = state[0].pow([self.alpha]);
            }
            for (i, out) in tmp.iter_mut().enumerate() {
                *out = self.mds[i]
                    .iter()
                    .zip(state.iter())
                    .map(|(m, s)| *m * s)
                    .sum();
            }
            state.copy_from_slice(&tmp);
        }
    }
}

/// The Poseidon permutation gadget.
#[derive(Clone, Debug)]
pub struct PoseidonGadget {
    spec: PoseidonSpec,
}

impl PoseidonGadget {
    /// Gadget for `spec`.
    ///
    /// # Panics
    /// If the constant tables do not match the round numbers and width.
    pub fn new(spec: PoseidonSpec) -> Self {
        assert_eq!(
            spec.round_constants.len(),
            spec.rounds_full + spec.rounds_partial
        );
        assert!(spec.round_constants.iter().all(|r| r.len() == spec.width));
        assert!(spec.mds.len() == spec.width && spec.mds.iter().all(|r| r.len() == spec.width));
        Self { spec }
    }

    /// The spec it was built from.
    pub fn spec(&self) -> &PoseidonSpec {
        &self.spec
    }
}

impl PermutationGadget for PoseidonGadget {
    fn family(&self) -> &'static str {
        self.spec.family
    }

    fn width(&self) -> usize {
        self.spec.width
    }

    fn permute(&self, cs: &Cs, state: &[LinVar]) -> Result<Vec<LinVar>, SynthesisError> {
        let sp = &self.spec;
        assert_eq!(state.len(), sp.width, "poseidon gadget: wrong state width");
        let half = sp.rounds_full / 2;
        let mut st: Vec<LinVar> = state.to_vec();
        for r in 0..sp.rounds_full + sp.rounds_partial {
            for (s, c) in st.iter_mut().zip(&sp.round_constants[r]) {
                *s = s.add_const(*c);
            }
            if r < half || r >= half + sp.rounds_partial {
                for s in st.iter_mut() {
                    *s = cs.pow(s, sp.alpha)?;
                }
            } else {
                st[0] = cs.pow(&st[0], sp.alpha)?;
            }
            st = mat_vec(&sp.mds, &st);
        }
        Ok(st)
    }

    fn constraints_per_permutation(&self) -> usize {
        (self.spec.rounds_full * self.spec.width + self.spec.rounds_partial)
            * Cs::pow_cost(self.spec.alpha)
    }
}

/// The spec as a native permutation (used to cross-check gadgets against
/// their own constants, and as a stand-in hash in unit tests).
impl Permutation for PoseidonSpec {
    fn family(&self) -> &'static str {
        self.family
    }

    fn width(&self) -> usize {
        self.width
    }

    fn params(&self) -> Params {
        params! {
            "width" => self.width,
            "rounds_full" => self.rounds_full,
            "rounds_partial" => self.rounds_partial,
            "alpha" => self.alpha,
        }
    }

    fn permute_mut(&self, state: &mut [Fr]) {
        assert_eq!(state.len(), self.width);
        self.permute_native(state);
    }
}

impl PoseidonSpec {
    /// The spec of the library's circomlib Poseidon of width `width`
    /// (`zkbench_hash::poseidon::PoseidonBn254`), constants copied from it.
    pub fn circomlib(width: usize) -> Result<Self, zkbench_hash::HashError> {
        let n = zkbench_hash::poseidon::PoseidonBn254::new(width)?;
        Ok(Self {
            family: zkbench_hash::poseidon::FAMILY,
            width: n.width(),
            rounds_full: n.rounds_full(),
            rounds_partial: n.rounds_partial(),
            alpha: n.alpha(),
            round_constants: (0..n.rounds_full() + n.rounds_partial())
                .map(|r| n.round_constants_of(r).to_vec())
                .collect(),
            mds: n.mds().to_vec(),
        })
    }
}
