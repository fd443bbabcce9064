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

use ark_ff::{Field, One};
use ark_relations::r1cs::SynthesisError;
use zkbench_hash::{params, Fr, Params, Permutation};

use super::{mat_vec, PermutationGadget};
use crate::lc::{Cs, LinVar};

/// Every parameter and constant of a Poseidon2 permutation.
#[derive(Clone, Debug)]
pub struct Poseidon2Spec {
    /// Family name reported by the gadget.
    pub family: &'static str,
    /// State width `t`.
    pub width: usize,
    /// Number of full rounds `R_F` (half before, half after the partial rounds).
    pub rounds_full: usize,
    /// Number of partial rounds `R_P`.
    pub rounds_partial: usize,
    /// S-box exponent (5 or 7).
    pub alpha: u64,
    /// Constants of the full rounds, `R_F` rows of `t` elements, in order.
    pub external_round_constants: Vec<Vec<Fr>>,
    /// Constants of the partial rounds (added to `state[0]`), `R_P` elements.
    pub internal_round_constants: Vec<Fr>,
    /// External matrix `M_E`, `t × t`, row-major.
    pub external_matrix: Vec<Vec<Fr>>,
    /// Internal matrix `M_I`, `t × t`, row-major.
    pub internal_matrix: Vec<Vec<Fr>>,
}

impl Poseidon2Spec {
    /// Native evaluation of the permutation described by this spec.
    pub fn permute_native(&self, state: &mut [Fr]) {
        let mul = |m: &[Vec<Fr>], s: &mut [Fr]| {
            let out: Vec<Fr> = m
                .iter()
                .map(|row| row.iter().zip(s.iter()).map(|(a, b)| *a * b).sum())
                .collect();
            s.copy_from_slice(&out);
        };
        mul(&self.external_matrix, state);
        let half = self.rounds_full / 2;
        for r in 0..self.rounds_full {
            if r == half {
                for c in &self.internal_round_constants {
                    state[0] += c;
                    state[0] = state[0].pow([self.alpha]);
                    mul(&self.internal_matrix, state);
                }
            }
            for (s, c) in state.iter_mut().zip(&self.external_round_constants[r]) {
                *s += c;
                *s = s.pow([self.alpha]);
            }
            mul(&self.external_matrix, state);
        }
    }
}

/// The Poseidon2 permutation gadget.
#[derive(Clone, Debug)]
pub struct Poseidon2Gadget {
    spec: Poseidon2Spec,
    /// `Some(d)` when `M_I = J + diag(d)` (all off-diagonal entries 1).
    internal_diag: Option<Vec<Fr>>,
}

impl Poseidon2Gadget {
    /// Gadget for `spec`.
    ///
    /// # Panics
    /// If the tables do not match the round numbers and width.
    pub fn new(spec: Poseidon2Spec) -> Self {
        let t = spec.width;
        assert_eq!(spec.external_round_constants.len(), spec.rounds_full);
        assert!(spec.external_round_constants.iter().all(|r| r.len() == t));
        assert_eq!(spec.internal_round_constants.len(), spec.rounds_partial);
        for m in [&spec.external_matrix, &spec.internal_matrix] {
            assert!(m.len() == t && m.iter().all(|r| r.len() == t));
        }
        let m = &spec.internal_matrix;
        let ones_off_diag = (0..t).all(|i| (0..t).all(|j| i == j || m[i][j].is_one()));
        let internal_diag =
            ones_off_diag.then(|| (0..t).map(|i| m[i][i] - Fr::one()).collect::<Vec<_>>());
        Self {
            spec,
            internal_diag,
        }
    }

    /// The spec it was built from.
    pub fn spec(&self) -> &Poseidon2Spec {
        &self.spec
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
            None => mat_vec(&self.spec.internal_matrix, st),
        }
    }
}

impl PermutationGadget for Poseidon2Gadget {
    fn family(&self) -> &'static str {
        self.spec.family
    }

    fn width(&self) -> usize {
        self.spec.width
    }

    fn permute(&self, cs: &Cs, state: &[LinVar]) -> Result<Vec<LinVar>, SynthesisError> {
        let sp = &self.spec;
        assert_eq!(state.len(), sp.width, "poseidon2 gadget: wrong state width");
        let mut st = mat_vec(&sp.external_matrix, state);
        let half = sp.rounds_full / 2;
        for r in 0..sp.rounds_full {
            if r == half {
                for c in &sp.internal_round_constants {
                    st[0] = cs.pow(&st[0].add_const(*c), sp.alpha)?;
                    st = self.internal_layer(&st);
                }
            }
            for (s, c) in st.iter_mut().zip(&sp.external_round_constants[r]) {
                *s = cs.pow(&s.add_const(*c), sp.alpha)?;
            }
            st = mat_vec(&sp.external_matrix, &st);
        }
        Ok(st)
    }

    fn constraints_per_permutation(&self) -> usize {
        (self.spec.rounds_full * self.spec.width + self.spec.rounds_partial)
            * Cs::pow_cost(self.spec.alpha)
    }
}

/// The spec as a native permutation (cross-checks and unit tests).
impl Permutation for Poseidon2Spec {
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

impl Poseidon2Spec {
    /// The spec of the library's Poseidon2 instance of width `width` and
    /// exponent `alpha` (`zkbench_hash::poseidon2::instance`).
    pub fn library(width: usize, alpha: u64) -> Result<Self, zkbench_hash::HashError> {
        let n = zkbench_hash::poseidon2::instance(width, alpha)?;
        Ok(Self {
            family: zkbench_hash::poseidon2::FAMILY,
            width: n.width(),
            rounds_full: n.rounds_full(),
            rounds_partial: n.rounds_partial(),
            alpha: n.alpha(),
            external_round_constants: n.external_round_constants().to_vec(),
            internal_round_constants: n.internal_round_constants().to_vec(),
            external_matrix: n.external_matrix(),
            internal_matrix: n.internal_matrix(),
        })
    }
}

/// Poseidon2 compression-mode node hash (`arity = width`):
/// `P(x)[0] + x[0]` with the children as the whole state.
pub struct Poseidon2CompressionGadget {
    perm: Poseidon2Gadget,
}

impl Poseidon2CompressionGadget {
    /// Compression of `arity` children with the width-`arity` permutation.
    pub fn new(arity: usize, alpha: u64) -> Result<Self, zkbench_hash::HashError> {
        Ok(Self {
            perm: Poseidon2Gadget::new(Poseidon2Spec::library(arity, alpha)?),
        })
    }
}

impl super::NodeHashGadget for Poseidon2CompressionGadget {
    fn family(&self) -> &'static str {
        zkbench_hash::poseidon2::FAMILY
    }

    fn arity(&self) -> usize {
        self.perm.width()
    }

    fn hash_node(&self, cs: &Cs, children: &[LinVar]) -> Result<LinVar, SynthesisError> {
        assert_eq!(children.len(), self.perm.width());
        let out = self.perm.permute(cs, children)?;
        Ok(out[0].add(&children[0]))
    }

    fn constraints_per_node(&self) -> usize {
        self.perm.constraints_per_permutation()
    }
}
