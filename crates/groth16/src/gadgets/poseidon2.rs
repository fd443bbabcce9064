//! Poseidon2 permutation gadget (eprint 2023/323): an initial external linear
//! layer `M_E`, `R_F/2` full rounds (constants on every element, `x^alpha` on
//! every element, `M_E`), `R_P` partial rounds (one constant and one S-box on
//! `state[0]`, then `M_I`), and `R_F/2` full rounds.
//!
//! Cost: `(R_F · t + R_P) · cost(x^alpha)` constraints (`x^5` = 3, `x^7` = 4);
//! both linear layers are free. The internal matrix `M_I = J + diag(d)` is
//! applied as `sum + d_i · x_i` so that its cost stays linear in `t`.
//!
//! The constants come from the native implementation (`zkbench_hash::poseidon2`).

use ark_ff::One;
use ark_relations::r1cs::SynthesisError;
use zkbench_hash::{poseidon2::Poseidon2Bn254, Fr};

use super::{mat_vec, PermutationGadget};
use crate::lc::{Cs, LinVar};

/// The Poseidon2 permutation gadget over a library instance (the native
/// implementation is the one source of the round numbers and constants).
#[derive(Clone, Debug)]
pub struct Poseidon2Gadget {
    instance: &'static Poseidon2Bn254,
    /// External matrix `M_E`, `t × t`, row-major.
    external_matrix: Vec<Vec<Fr>>,
    /// Internal matrix `M_I`, `t × t`, row-major.
    internal_matrix: Vec<Vec<Fr>>,
    /// `Some(d)` when `M_I = J + diag(d)` (all off-diagonal entries 1).
    internal_diag: Option<Vec<Fr>>,
}

impl Poseidon2Gadget {
    /// Gadget for a library instance.
    pub fn new(instance: &'static Poseidon2Bn254) -> Self {
        let t = instance.width();
        let m = instance.internal_matrix();
        let ones_off_diag = (0..t).all(|i| (0..t).all(|j| i == j || m[i][j].is_one()));
        let internal_diag =
            ones_off_diag.then(|| (0..t).map(|i| m[i][i] - Fr::one()).collect::<Vec<_>>());
        Self {
            instance,
            external_matrix: instance.external_matrix(),
            internal_matrix: m,
            internal_diag,
        }
    }

    /// The gadget of the library's instance of width `width` and exponent
    /// `alpha` (`zkbench_hash::poseidon2::instance`).
    pub fn library(width: usize, alpha: u64) -> Result<Self, zkbench_hash::HashError> {
        Ok(Self::new(zkbench_hash::poseidon2::instance(width, alpha)?))
    }

    /// The native instance it computes.
    pub fn instance(&self) -> &'static Poseidon2Bn254 {
        self.instance
    }

    fn internal_layer(&self, st: &[LinVar]) -> Vec<LinVar> {
        match &self.internal_diag {
            Some(d) => {
                let sum = LinVar::sum(st);
                st.iter()
                    .zip(d)
                    .map(|(x, di)| sum.add(&x.scale(*di)))
                    .collect()
            }
            None => mat_vec(&self.internal_matrix, st),
        }
    }
}

impl PermutationGadget for Poseidon2Gadget {
    fn family(&self) -> &'static str {
        self.instance.family()
    }

    fn width(&self) -> usize {
        self.instance.width()
    }

    fn permute(&self, cs: &Cs, state: &[LinVar]) -> Result<Vec<LinVar>, SynthesisError> {
        let n = self.instance;
        let alpha = n.alpha();
        assert_eq!(
            state.len(),
            n.width(),
            "poseidon2 gadget: wrong state width"
        );
        let mut st = mat_vec(&self.external_matrix, state);
        let half = n.rounds_full() / 2;
        for r in 0..n.rounds_full() {
            if r == half {
                for c in n.internal_round_constants() {
                    st[0] = cs.pow(&st[0].add_const(*c), alpha)?;
                    st = self.internal_layer(&st);
                }
            }
            for (s, c) in st.iter_mut().zip(&n.external_round_constants()[r]) {
                *s = cs.pow(&s.add_const(*c), alpha)?;
            }
            st = mat_vec(&self.external_matrix, &st);
        }
        Ok(st)
    }

    fn constraints_per_permutation(&self) -> usize {
        let n = self.instance;
        (n.rounds_full() * n.width() + n.rounds_partial()) * Cs::pow_cost(n.alpha())
    }
}

/// Poseidon2 compression-mode node hash: `P(x)[k] + x[k]` with the children
/// as the whole state, `k = 0` for the library's compression mode (`arity =
/// width`) and `k = 1` for gnark's `Compress(l, r) = P(l, r)[1] + r`
/// (`poseidon2-gnark`).
pub struct Poseidon2CompressionGadget {
    perm: Poseidon2Gadget,
    /// The state word that is output and fed forward.
    word: usize,
}

impl Poseidon2CompressionGadget {
    /// Compression of `arity` children with the width-`arity` permutation.
    pub fn new(arity: usize, alpha: u64) -> Result<Self, zkbench_hash::HashError> {
        Ok(Self {
            perm: Poseidon2Gadget::library(arity, alpha)?,
            word: 0,
        })
    }

    /// gnark's `Compress` over gnark-crypto's default instance
    /// (`zkbench_hash::poseidon2_gnark`).
    pub fn gnark() -> Self {
        Self {
            perm: Poseidon2Gadget::new(zkbench_hash::poseidon2_gnark::instance()),
            word: 1,
        }
    }
}

impl super::NodeHashGadget for Poseidon2CompressionGadget {
    fn family(&self) -> &'static str {
        self.perm.instance.family()
    }

    fn arity(&self) -> usize {
        self.perm.width()
    }

    fn hash_node(&self, cs: &Cs, children: &[LinVar]) -> Result<LinVar, SynthesisError> {
        assert_eq!(children.len(), self.perm.width());
        let out = self.perm.permute(cs, children)?;
        Ok(out[self.word].add(&children[self.word]))
    }

    fn constraints_per_node(&self) -> usize {
        self.perm.constraints_per_permutation()
    }
}
