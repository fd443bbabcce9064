//! Gadgets of the families with an inverse S-box `x^(1/5)` (cheap in R1CS:
//! the root is a witness `w` and `w^5 = x` is enforced, 3 constraints):
//! Rescue-Prime, Griffin and Anemoi, from the native instances of
//! `zkbench_hash`. Linear layers are read off the native implementation by
//! applying it to unit vectors, so they cannot drift from it.
//!
//! * Rescue-Prime round: `x^5`, MDS, `+c`, `x^(1/5)`, MDS, `+c`: `6m`
//!   constraints per round (m = 3, 14 rounds: 252; m = 2, 20 rounds: 240).
//! * Griffin round: `y0 = x0^(1/5)` (3), `y1 = x1^5` (3), and for `i ≥ 2`
//!   `y_i = x_i · (L_i^2 + α_i L_i + β_i)` (2 each), then `M` and `+c`
//!   (t = 3: 8 per round, 112 per permutation).
//! * Anemoi round (per column): constants, linear layer, open Flystel
//!   `x −= g y²; y −= x^(1/5); x += g y² + δ` with `y²` (1), the root (3, the
//!   last one enforcing `w^5 = x − g y²`) and the new `y²` (1): 5 per column
//!   per round (l = 1, 21 rounds: 105; l = 2, 14 rounds: 140). Jive adds the
//!   sums of input and output (free).

use std::sync::Arc;

use ark_ff::{One, Zero};
use ark_relations::r1cs::SynthesisError;
use zkbench_hash::{
    anemoi::AnemoiBn254,
    griffin::GriffinBn254,
    rescue_prime::{FixedExponent, RescuePrimeBn254},
    Fr,
};

use super::{
    mat_vec, native_family_and_width, NodeHashGadget, PermutationGadget, SpongeNodeGadget,
};
use crate::lc::{Cs, LinVar};

/// The matrix of a linear map of `Fr^t` given as an in-place function.
pub fn matrix_of(t: usize, f: impl Fn(&mut [Fr])) -> Vec<Vec<Fr>> {
    let mut m = vec![vec![Fr::zero(); t]; t];
    for j in 0..t {
        let mut e = vec![Fr::zero(); t];
        e[j] = Fr::one();
        f(&mut e);
        for i in 0..t {
            m[i][j] = e[i];
        }
    }
    m
}

/// Rescue-Prime permutation gadget.
pub struct RescuePrimeGadget {
    native: &'static Arc<RescuePrimeBn254>,
    mds: Vec<Vec<Fr>>,
    inv_exp: FixedExponent,
}

impl RescuePrimeGadget {
    /// The gadget of the native instance of width `m` (2 or 3).
    pub fn new(width: usize) -> Result<Self, zkbench_hash::HashError> {
        let native = RescuePrimeBn254::get(width)?;
        let mds = native.mds_rows();
        let inv_exp = FixedExponent::from_biguint(&native.alpha_inv());
        Ok(Self {
            native,
            mds,
            inv_exp,
        })
    }
}

impl PermutationGadget for RescuePrimeGadget {
    native_family_and_width!(rescue_prime);

    fn permute(&self, cs: &Cs, state: &[LinVar]) -> Result<Vec<LinVar>, SynthesisError> {
        let w = self.width();
        assert_eq!(state.len(), w);
        let alpha = self.native.alpha();
        let mut st = state.to_vec();
        for rc in self.native.round_constants().chunks_exact(2 * w) {
            for s in st.iter_mut() {
                *s = cs.pow(s, alpha)?;
            }
            st = mat_vec(&self.mds, &st)
                .into_iter()
                .zip(&rc[..w])
                .map(|(s, c)| s.add_const(*c))
                .collect();
            for s in st.iter_mut() {
                *s = cs.root(s, alpha, &self.inv_exp)?;
            }
            st = mat_vec(&self.mds, &st)
                .into_iter()
                .zip(&rc[w..])
                .map(|(s, c)| s.add_const(*c))
                .collect();
        }
        Ok(st)
    }

    fn constraints_per_permutation(&self) -> usize {
        self.native.rounds() * 2 * self.width() * Cs::pow_cost(self.native.alpha())
    }
}

/// Griffin permutation gadget.
pub struct GriffinGadget {
    native: &'static Arc<GriffinBn254>,
    m: Vec<Vec<Fr>>,
    d_inv: FixedExponent,
}

impl GriffinGadget {
    /// The gadget of the native instance of width `t` (3, 4 or 8).
    pub fn new(width: usize) -> Result<Self, zkbench_hash::HashError> {
        let native = GriffinBn254::get(width)?;
        let m = matrix_of(width, |s| native.linear_layer(s));
        let d_inv = FixedExponent::new(native.d_inv_limbs());
        Ok(Self { native, m, d_inv })
    }
}

impl PermutationGadget for GriffinGadget {
    native_family_and_width!(griffin);

    fn permute(&self, cs: &Cs, state: &[LinVar]) -> Result<Vec<LinVar>, SynthesisError> {
        let n = self.native;
        let t = n.width();
        assert_eq!(state.len(), t);
        let d = n.d();
        let mut s = mat_vec(&self.m, state);
        for r in 0..n.rounds() {
            // non-linear layer
            let x = s.clone();
            let y0 = cs.root(&x[0], d, &self.d_inv)?;
            let y1 = cs.pow(&x[1], d)?;
            let mut acc = y0.add(&y1);
            s[0] = y0.clone();
            s[1] = y1;
            for (i, ab) in n.alpha_beta().iter().enumerate() {
                let idx = i + 2;
                let l = if i == 0 {
                    acc.clone()
                } else {
                    acc = acc.add(&y0);
                    acc.add(&x[idx - 1])
                };
                let l2 = cs.square(&l)?;
                let poly = l2.add(&l.scale(ab[0])).add_const(ab[1]);
                s[idx] = cs.mul(&x[idx], &poly)?;
            }
            s = mat_vec(&self.m, &s);
            if r + 1 < n.rounds() {
                for (si, c) in s.iter_mut().zip(n.round_constants(r)) {
                    *si = si.add_const(*c);
                }
            }
        }
        Ok(s)
    }

    fn constraints_per_permutation(&self) -> usize {
        let n = self.native;
        n.rounds() * (2 * Cs::pow_cost(n.d()) + 2 * (n.width() - 2))
    }
}

/// Anemoi permutation gadget (state `x ‖ y`, `l` columns).
pub struct AnemoiGadget {
    native: &'static Arc<AnemoiBn254>,
    linear: Vec<Vec<Fr>>,
    alpha_inv: FixedExponent,
}

impl AnemoiGadget {
    /// The gadget of the native instance with `columns` = 1 or 2 (width 2 or 4).
    pub fn new(columns: usize) -> Result<Self, zkbench_hash::HashError> {
        let native = AnemoiBn254::with_columns(columns)?;
        let linear = matrix_of(2 * columns, |s| native.linear_layer(s));
        let alpha_inv = FixedExponent::new(native.alpha_inv());
        Ok(Self {
            native,
            linear,
            alpha_inv,
        })
    }

    /// Jive: `Σ in + Σ P(in)`.
    pub fn jive(&self, cs: &Cs, input: &[LinVar]) -> Result<LinVar, SynthesisError> {
        let out = self.permute(cs, input)?;
        Ok(LinVar::sum(input).add(&LinVar::sum(&out)))
    }
}

impl PermutationGadget for AnemoiGadget {
    fn family(&self) -> &'static str {
        zkbench_hash::anemoi::FAMILY
    }

    fn width(&self) -> usize {
        2 * self.native.columns()
    }

    fn permute(&self, cs: &Cs, state: &[LinVar]) -> Result<Vec<LinVar>, SynthesisError> {
        let n = self.native;
        let l = n.columns();
        assert_eq!(state.len(), 2 * l);
        let (g, delta) = (n.beta(), n.delta());
        let mut st = state.to_vec();
        for (c, d) in n.round_constants_c().iter().zip(n.round_constants_d()) {
            for i in 0..l {
                st[i] = st[i].add_const(c[i]);
                st[l + i] = st[l + i].add_const(d[i]);
            }
            st = mat_vec(&self.linear, &st);
            for i in 0..l {
                let (x, y) = (st[i].clone(), st[l + i].clone());
                // x1 = x − g·y²; w = x1^(1/α) (enforced as w^α = x1); y' = y − w;
                // x' = x1 + g·y'² + δ.
                let ysq = cs.square(&y)?;
                let x1 = x.sub(&ysq.scale(g));
                let w = cs.root(&x1, n.alpha(), &self.alpha_inv)?;
                let y2 = y.sub(&w);
                let y2sq = cs.square(&y2)?;
                st[i] = x1.add(&y2sq.scale(g)).add_const(delta);
                st[l + i] = y2;
            }
        }
        Ok(mat_vec(&self.linear, &st))
    }

    fn constraints_per_permutation(&self) -> usize {
        let n = self.native;
        n.rounds() * n.columns() * (2 + Cs::pow_cost(n.alpha()))
    }
}

/// Anemoi node hash as natively: Jive for arity 2 (`l = 1`), 3 (`[c0, c1] ‖
/// [c2, 0]`, `l = 2`) and 4 (`l = 2`); the width-4 sponge otherwise.
pub struct AnemoiNodeGadget {
    arity: usize,
    jive: Option<AnemoiGadget>,
    sponge: Option<SpongeNodeGadget>,
}

impl AnemoiNodeGadget {
    /// Node gadget of `arity` children.
    pub fn new(arity: usize) -> Result<Self, zkbench_hash::HashError> {
        Ok(match arity {
            2 => Self {
                arity,
                jive: Some(AnemoiGadget::new(1)?),
                sponge: None,
            },
            3 | 4 => Self {
                arity,
                jive: Some(AnemoiGadget::new(2)?),
                sponge: None,
            },
            _ => Self {
                arity,
                jive: None,
                sponge: Some(SpongeNodeGadget::new(
                    Arc::new(AnemoiGadget::new(2)?),
                    arity,
                )),
            },
        })
    }
}

impl NodeHashGadget for AnemoiNodeGadget {
    fn family(&self) -> &'static str {
        zkbench_hash::anemoi::FAMILY
    }

    fn arity(&self) -> usize {
        self.arity
    }

    fn hash_node(&self, cs: &Cs, children: &[LinVar]) -> Result<LinVar, SynthesisError> {
        assert_eq!(children.len(), self.arity);
        match (&self.jive, &self.sponge) {
            (Some(j), _) => {
                let mut input = children.to_vec();
                if self.arity == 3 {
                    input.push(LinVar::zero());
                }
                j.jive(cs, &input)
            }
            (None, Some(s)) => s.hash_node(cs, children),
            _ => unreachable!(),
        }
    }

    fn constraints_per_node(&self) -> usize {
        match (&self.jive, &self.sponge) {
            (Some(j), _) => j.constraints_per_permutation(),
            (None, Some(s)) => s.constraints_per_node(),
            _ => unreachable!(),
        }
    }
}
