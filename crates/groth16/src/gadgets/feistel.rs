//! GMiMC-erf and Neptune gadgets (the seed-003 instances of
//! `zkbench_hash::gmimc` and `zkbench_hash::neptune`), built from the native
//! instances' constants; their node hashes are the capacity-1 sponge
//! ([`super::SpongeNodeGadget`]), as natively.
//!
//! * GMiMC-erf round `r`: `s = (x_0 + c_r)^5`, `x_i += s` for `i ≥ 1`, then a
//!   right rotation (not after the last round): 3 constraints per round,
//!   `226 · 3 = 678` per permutation.
//! * Neptune (t = 4): `M_E` first; 3 external rounds `x ← M_E·S_E(x) + c`, 68
//!   internal rounds `x ← M_I·(x_0^5, x_1, ..) + c`, 3 external rounds. The
//!   pair S-box `S'` costs 2 constraints (`z^2` and the square of
//!   `z − x_2 − z^2 + γ`), so an external round costs `t` constraints and the
//!   permutation `6·4 + 68·3 = 228`.

use ark_relations::r1cs::SynthesisError;
use zkbench_hash::{gmimc::GmimcErfBn254, neptune::NeptuneBn254, Fr};

use super::{mat_vec, native_family_and_width, PermutationGadget};
use crate::lc::{Cs, LinVar};

/// GMiMC-erf permutation gadget.
#[derive(Clone, Debug)]
pub struct GmimcGadget {
    native: &'static GmimcErfBn254,
}

impl GmimcGadget {
    /// The gadget of the native instance of width `width` (3).
    pub fn new(width: usize) -> Result<Self, zkbench_hash::HashError> {
        Ok(Self {
            native: GmimcErfBn254::instance(width)?,
        })
    }
}

impl PermutationGadget for GmimcGadget {
    native_family_and_width!(gmimc);

    fn permute(&self, cs: &Cs, state: &[LinVar]) -> Result<Vec<LinVar>, SynthesisError> {
        assert_eq!(state.len(), self.width());
        let mut st = state.to_vec();
        let cts = self.native.round_constants();
        let last = cts.len() - 1;
        for (r, c) in cts.iter().enumerate() {
            let s = cs.pow(&st[0].add_const(*c), self.native.alpha())?;
            for x in st[1..].iter_mut() {
                *x = x.add(&s);
            }
            if r < last {
                st.rotate_right(1);
            }
        }
        Ok(st)
    }

    fn constraints_per_permutation(&self) -> usize {
        self.native.rounds() * Cs::pow_cost(self.native.alpha())
    }
}

/// Neptune permutation gadget.
#[derive(Clone, Debug)]
pub struct NeptuneGadget {
    native: &'static NeptuneBn254,
}

impl NeptuneGadget {
    /// The gadget of the native instance of width `width` (4).
    pub fn new(width: usize) -> Result<Self, zkbench_hash::HashError> {
        Ok(Self {
            native: NeptuneBn254::instance(width)?,
        })
    }

    fn sbox_pair(
        cs: &Cs,
        x1: &LinVar,
        x2: &LinVar,
        gamma: Fr,
    ) -> Result<(LinVar, LinVar), SynthesisError> {
        let z = x1.sub(x2);
        let z2 = cs.square(&z)?;
        let q = cs.square(&z.sub(x2).sub(&z2).add_const(gamma))?;
        let two = Fr::from(2u64);
        let y1 = x1.scale(two).add(x2).add(&z2.scale(Fr::from(3u64))).add(&q);
        let y2 = x1
            .add(&x2.scale(Fr::from(3u64)))
            .add(&z2.scale(Fr::from(4u64)))
            .add(&q);
        Ok((y1, y2))
    }
}

impl PermutationGadget for NeptuneGadget {
    native_family_and_width!(neptune);

    fn permute(&self, cs: &Cs, state: &[LinVar]) -> Result<Vec<LinVar>, SynthesisError> {
        let n = self.native;
        let t = n.width();
        assert_eq!(state.len(), t);
        let m = n.matrices();
        let gamma = n.gamma();
        let mut x = mat_vec(&m.external, state);
        let half = n.rounds_full() / 2;
        for r in 0..n.rounds_full() + n.rounds_partial() {
            if r < half || r >= half + n.rounds_partial() {
                for i in 0..t / 2 {
                    let (a, b) = Self::sbox_pair(cs, &x[2 * i], &x[2 * i + 1], gamma)?;
                    x[2 * i] = a;
                    x[2 * i + 1] = b;
                }
                x = mat_vec(&m.external, &x);
            } else {
                x[0] = cs.pow(&x[0], n.alpha())?;
                let sum = LinVar::sum(&x);
                x = x
                    .iter()
                    .zip(&m.internal_diagonal)
                    .map(|(xi, u)| sum.add(&xi.scale(*u)))
                    .collect();
            }
            for (xi, c) in x.iter_mut().zip(n.round_constants(r)) {
                *xi = xi.add_const(*c);
            }
        }
        Ok(x)
    }

    fn constraints_per_permutation(&self) -> usize {
        let n = self.native;
        n.rounds_full() * n.width() + n.rounds_partial() * Cs::pow_cost(n.alpha())
    }
}
