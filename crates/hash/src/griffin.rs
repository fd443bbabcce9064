//! Griffin over the BN254 scalar field, as the zkfriendlyhashzoo and noir-griffin.
//!
//! * Paper: Grassi, Hao, Rechberger, Schofnegger, Walch, Wang, "Horst Meets Fluid-SPN:
//!   Griffin for Zero-Knowledge Applications", IACR eprint 2022/403.
//! * Reference implementations: IAIK zkfriendlyhashzoo (`griffin/griffin_params.rs`
//!   `GriffinParams::new(t, 5, rounds)`, `griffin/griffin.rs`) and
//!   TaceoLabs/noir-griffin (`src/bn254/perm.nr`, `src/bn254/consts.nr`,
//!   `src/bn254/math.nr`), whose test vectors this module reproduces.
//!
//! ## Instances
//! `d = 5`, `d_inv = 5^-1 mod (r - 1)`; widths and rounds: **t = 3 → 14**,
//! **t = 4 → 11**, **t = 8 → 9** (noir-griffin's instances).
//!
//! ## Constants (`GriffinParams::new`)
//! A SHAKE128 stream is seeded with the bytes `"Griffin"` followed by the four
//! 64-bit limbs of `r`, least significant limb first, each as 8 little-endian
//! bytes.  A field element is drawn by reading 32 bytes, taking them as a
//! little-endian integer with the top 2 bits cleared, and rejecting it if `>= r`.
//! Drawn in this order:
//! 1. round constants: `rounds - 1` rows of `t` elements;
//! 2. `(alpha_2, beta_2)`: repeatedly draw a non-zero `alpha` and a non-zero
//!    `beta != alpha` until `alpha^2 - 4 beta` is a quadratic non-residue;
//! 3. for `i = 3..t`: `alpha_i = (i-1)·alpha_2`, `beta_i = (i-1)^2·beta_2`.
//!
//! ## Permutation
//! `state ← M·state`, then for each round `r = 0..rounds`: the non-linear layer,
//! `state ← M·state`, and `+ rc[r]` except in the last round.
//! Non-linear layer on input `x`: `y0 = x0^(1/d)`, `y1 = x1^d`, and for `i >= 2`
//! `y_i = x_i · (L_i^2 + alpha_i L_i + beta_i)` with
//! `L_2 = y0 + y1` and `L_i = (i-1)·y0 + y1 + x_{i-1}` for `i >= 3`
//! (`x_{i-1}` the layer's *input*, as in both references).
//! Linear layer `M`: `circ(2, 1, 1)` for t = 3; for t = 4
//! `M4 = [[5,7,1,3],[4,6,1,1],[1,3,5,7],[1,1,4,6]]`; for t = 8 the block matrix
//! `diag(2·M4, 2·M4) + offdiag(M4)` (M4 on each 4-block, then each element plus
//! the sum of the same position over the blocks).
//! `x^(1/d)` uses the precomputed fixed-window [`FixedExponent`].
//!
//! ## Merkle nodes
//! [`node_hasher`] of arity `A` is the crate's [`SpongeNodeHasher`] (capacity 1
//! at index 0, iv 0, rate `t - 1`, output `state[0]`) over the smallest width
//! `t >= A + 1`: `A = 2 → t = 3`, `A = 3 → t = 4`, `A = 4..7 → t = 8` (one
//! permutation each), and for `A >= 8` the t = 8 sponge absorbing 7 children per
//! permutation (`ceil(A/7)` permutations).  noir-griffin's own `hash_t(x) = perm(x)[0]`
//! takes t inputs with no capacity element and is exposed as [`GriffinHasher`].

use crate::cache::cached_get;
use crate::error::check_min_arity;
use crate::traits::{family_and_width, getters};
use std::sync::{Arc, OnceLock};

use ark_ff::{AdditiveGroup, BigInt, Field, LegendreSymbol, PrimeField, Zero};
use sha3::digest::{ExtendableOutput, Update, XofReader};

use crate::rescue_prime::{inverse_exponent, FixedExponent};
use crate::{
    params, FieldHasher, Fr, HashError, NodeHasher, Params, Permutation, SpongeNodeHasher,
};

/// Family name used by the registry.
pub const FAMILY: &str = "griffin";

/// S-box degree `d`.
pub const D: u64 = 5;

/// Seed prefix of the SHAKE128 constant stream.
pub const INIT_SHAKE: &str = "Griffin";

const WIDTHS: [usize; 3] = [3, 4, 8];
const ROUNDS: [usize; 3] = [14, 11, 9];
const MAX_WIDTH: usize = 8;

/// The widths with an instance.
pub fn supported_widths() -> Vec<usize> {
    WIDTHS.to_vec()
}

/// Number of rounds of the width-`width` instance.
pub fn rounds_for_width(width: usize) -> Result<usize, HashError> {
    WIDTHS
        .iter()
        .position(|&w| w == width)
        .map(|i| ROUNDS[i])
        .ok_or_else(|| HashError::unsupported_width(FAMILY, width, supported_widths()))
}

/// The Griffin permutation of width `width` (3, 4 or 8).
pub fn permutation(width: usize) -> Result<Arc<dyn Permutation>, HashError> {
    Ok(GriffinBn254::get(width)?.clone())
}

/// Width of the permutation [`node_hasher`] uses for `arity` children.
pub fn node_width(arity: usize) -> usize {
    WIDTHS
        .iter()
        .copied()
        .find(|&w| w > arity)
        .unwrap_or(MAX_WIDTH)
}

/// Merkle node hasher for `arity >= 2` (see the module docs).
pub fn node_hasher(arity: usize) -> Result<Arc<dyn NodeHasher>, HashError> {
    check_min_arity(FAMILY, arity)?;
    let perm: Arc<dyn Permutation> = GriffinBn254::get(node_width(arity))?.clone();
    Ok(Arc::new(SpongeNodeHasher::new(perm, arity)))
}

/// A Griffin-π permutation instance over BN254 Fr.
#[derive(Clone, Debug)]
pub struct GriffinBn254 {
    width: usize,
    rounds: usize,
    d: u64,
    d_inv: FixedExponent,
    alpha_beta: Vec<[Fr; 2]>,
    round_constants: Vec<Fr>,
}

/// Draws one field element from the stream: 32 bytes little-endian, top 2 bits
/// cleared, rejected if `>= r`.
fn field_element_from_shake(reader: &mut impl XofReader) -> Fr {
    let mut buf = [0u8; 32];
    loop {
        reader.read(&mut buf);
        buf[31] &= 0x3f;
        let mut limbs = [0u64; 4];
        for (l, chunk) in limbs.iter_mut().zip(buf.chunks_exact(8)) {
            *l = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        }
        if let Some(x) = Fr::from_bigint(BigInt::new(limbs)) {
            return x;
        }
    }
}

fn field_element_from_shake_without_0(reader: &mut impl XofReader) -> Fr {
    loop {
        let x = field_element_from_shake(reader);
        if !x.is_zero() {
            return x;
        }
    }
}

/// `(round constants (rounds-1 rows of t), alpha_beta (t-2 pairs))` as
/// `GriffinParams::new(t, 5, rounds)` draws them.
pub fn generate_constants(t: usize, rounds: usize) -> (Vec<Vec<Fr>>, Vec<[Fr; 2]>) {
    let mut shake = sha3::Shake128::default();
    shake.update(INIT_SHAKE.as_bytes());
    for limb in Fr::MODULUS.0 {
        shake.update(&limb.to_le_bytes());
    }
    let mut reader = shake.finalize_xof();
    let rc: Vec<Vec<Fr>> = (0..rounds - 1)
        .map(|_| {
            (0..t)
                .map(|_| field_element_from_shake(&mut reader))
                .collect()
        })
        .collect();
    let mut alpha_beta: Vec<[Fr; 2]> = Vec::with_capacity(t - 2);
    loop {
        let alpha = field_element_from_shake_without_0(&mut reader);
        let mut beta = field_element_from_shake_without_0(&mut reader);
        while alpha == beta {
            beta = field_element_from_shake_without_0(&mut reader);
        }
        let symbol = alpha.square() - beta.double().double();
        if symbol.legendre() == LegendreSymbol::QuadraticNonResidue {
            alpha_beta.push([alpha, beta]);
            break;
        }
    }
    for i in 2..t - 1 {
        let alpha = alpha_beta[0][0] * Fr::from(i as u64);
        let mut beta = alpha_beta[0][1] * Fr::from((i * i) as u64);
        while alpha == beta {
            beta = field_element_from_shake_without_0(&mut reader);
        }
        alpha_beta.push([alpha, beta]);
    }
    (rc, alpha_beta)
}

impl GriffinBn254 {
    /// Builds the instance of width `width` (3, 4 or 8) from scratch.
    pub fn new(width: usize) -> Result<Self, HashError> {
        let rounds = rounds_for_width(width)?;
        let (rc, alpha_beta) = generate_constants(width, rounds);
        let d_inv = inverse_exponent(D).expect("gcd(5, r - 1) = 1");
        Ok(Self {
            width,
            rounds,
            d: D,
            d_inv: FixedExponent::from_biguint(&d_inv),
            alpha_beta,
            round_constants: rc.into_iter().flatten().collect(),
        })
    }

    cached_get!(GriffinBn254, 3);

    getters! {
        /// State width `t`.
        width: usize,
        /// Number of rounds.
        rounds: usize,
        /// S-box degree `d` (5).
        d: u64,
    }

    /// `d^-1 mod (r - 1)` as little-endian limbs.
    pub fn d_inv_limbs(&self) -> &[u64] {
        self.d_inv.limbs()
    }

    /// `(alpha_i, beta_i)` for `i = 2..t` (index 0 is `i = 2`).
    pub fn alpha_beta(&self) -> &[[Fr; 2]] {
        &self.alpha_beta
    }

    /// Round constants of round `round` (`0..rounds-1`).
    pub fn round_constants(&self, round: usize) -> &[Fr] {
        &self.round_constants[round * self.width..(round + 1) * self.width]
    }

    /// The linear layer `M` (no constants): Poseidon2's external layer
    /// (`circ(2, 1, 1)` for t = 3, `M4` for t = 4, `M4` blocks plus their sum for t = 8).
    #[inline]
    pub fn linear_layer(&self, s: &mut [Fr]) {
        crate::poseidon2::external_layer(self.width, s);
    }

    /// The non-linear layer.
    #[inline]
    pub fn non_linear_layer(&self, s: &mut [Fr]) {
        let y0 = self.d_inv.pow(&s[0]);
        let mut prev_in = s[1];
        let x1 = s[1];
        let x1_2 = x1.square();
        let y1 = x1_2.square() * x1;
        s[0] = y0;
        s[1] = y1;
        let mut acc = y0 + y1;
        for (i, ab) in self.alpha_beta.iter().enumerate() {
            let idx = i + 2;
            let l = if i == 0 {
                acc
            } else {
                acc += y0;
                acc + prev_in
            };
            prev_in = s[idx];
            let poly = l.square() + ab[0] * l + ab[1];
            s[idx] *= poly;
        }
    }
}

impl Permutation for GriffinBn254 {
    family_and_width!();

    fn params(&self) -> Params {
        params! {
            "family" => FAMILY,
            "width" => self.width,
            "rounds" => self.rounds,
            "d" => self.d,
            "linear_layer" => match self.width { 3 => "circ(2,1,1)", 4 => "M4", _ => "diag(2*M4)+offdiag(M4)" },
            "constants" => "SHAKE128(\"Griffin\" || r as 4 LE u64), 32-byte LE reads, top 2 bits cleared, reject >= r; rc then alpha/beta",
            "reference" => "zkfriendlyhashzoo GriffinParams; TaceoLabs/noir-griffin src/bn254; eprint 2022/403",
        }
    }

    fn permute_mut(&self, state: &mut [Fr]) {
        assert_eq!(state.len(), self.width, "griffin state has wrong width");
        self.linear_layer(state);
        for r in 0..self.rounds {
            self.non_linear_layer(state);
            self.linear_layer(state);
            if r + 1 < self.rounds {
                for (s, c) in state.iter_mut().zip(self.round_constants(r)) {
                    *s += c;
                }
            }
        }
    }
}

/// noir-griffin's `hash_3` / `hash_4` / `hash_8`: exactly `t` inputs,
/// output `perm(inputs)[0]` (no capacity element).
#[derive(Clone, Debug)]
pub struct GriffinHasher {
    perm: Arc<GriffinBn254>,
}

impl GriffinHasher {
    /// The hasher of width `width` (3, 4 or 8).
    pub fn new(width: usize) -> Result<Self, HashError> {
        Ok(Self {
            perm: GriffinBn254::get(width)?.clone(),
        })
    }
}

impl FieldHasher for GriffinHasher {
    fn family(&self) -> &'static str {
        FAMILY
    }

    fn params(&self) -> Params {
        let mut p = self.perm.params();
        p.extend(params! { "mode" => "noir-griffin hash_t: perm(inputs)[0], exactly t inputs" });
        p
    }

    fn hash(&self, inputs: &[Fr]) -> Result<Fr, HashError> {
        let t = self.perm.width;
        if inputs.len() != t {
            return Err(HashError::InputLength {
                what: format!("griffin hash_{t}"),
                got: inputs.len(),
                expected: format!("exactly {t}"),
            });
        }
        let mut s = [Fr::zero(); MAX_WIDTH];
        s[..t].copy_from_slice(inputs);
        self.perm.permute_mut(&mut s[..t]);
        Ok(s[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::fr_const;
    use crate::test_support::check_registry;
    use ark_ff::One;

    #[test]
    fn constants_match_noir_griffin_consts() {
        // TaceoLabs/noir-griffin src/bn254/consts.nr x5_3_config
        let g = GriffinBn254::get(3).unwrap();
        assert_eq!(
            g.alpha_beta()[0][0],
            fr_const("0x16a2d6af5595e96b6af9a3585a58267e36ed309299558a78ca02d23b86038f00")
        );
        assert_eq!(
            g.alpha_beta()[0][1],
            fr_const("0x2dbfb5efc8271e3c08c1f953619e5a578cbb6f891a5c18ce00b33bed129d7426")
        );
        assert_eq!(
            g.round_constants(0)[0],
            fr_const("0x2fb30cafdb1f76156dfabf0cd0af4b895e764ac2a84386c9d0d7aed6a7f4eac9")
        );
        assert_eq!(
            g.round_constants(1)[2],
            fr_const("0x0cc9dfabbeaef7982543453ea3ac37ef2bfefd35a7e7070aa39b021035852d5b")
        );
        // d_inv = 0x26b6a528b427b35493736af8679aad17535cb9d394945a0dcfe7f7a98ccccccd
        let d_inv = Fr::from_bigint(BigInt::new(g.d_inv_limbs().try_into().unwrap())).unwrap();
        assert_eq!(
            d_inv,
            fr_const("0x26b6a528b427b35493736af8679aad17535cb9d394945a0dcfe7f7a98ccccccd")
        );
    }

    fn hexes(v: &[&str]) -> Vec<Fr> {
        v.iter().map(|s| fr_const(s)).collect()
    }

    #[test]
    fn non_linear_layer_matches_noir_math_tests() {
        // TaceoLabs/noir-griffin src/bn254/math.nr test_non_linear_4 / test_non_linear_8
        let g4 = GriffinBn254::get(4).unwrap();
        let mut s = hexes(&["0x40", "0x30", "0x40", "0x30"]);
        g4.non_linear_layer(&mut s);
        assert_eq!(
            s,
            hexes(&[
                "0x2583d7714e3b74553fece7da4af7bfca52635c47d955dc108188ceb122f18c4c",
                "0x0f300000",
                "0x0bbd4148554f2b6d810e78c71f3aa53cdd4484c2a2500b8401da572b7f7ff5ef",
                "0x0ff68b6467b51c03739243d481f14d7a9ff986a101f04fbd7d126cb437a525de",
            ])
        );
        let g8 = GriffinBn254::get(8).unwrap();
        let mut s = hexes(&[
            "0x180", "0x120", "0x180", "0x120", "0x180", "0x120", "0x180", "0x120",
        ]);
        g8.non_linear_layer(&mut s);
        assert_eq!(
            s,
            hexes(&[
                "0x290e81e04f49eb2256b83a2e09d63fcd3ecfb0c77f3af3b1bfefdf6077e5b429",
                "0x1cd52000000",
                "0x20e39fb5c23dd899498ebc4edf52492669492f78c8ba96a15164207f76fdd5e1",
                "0x2fe1ad915c279c3493fcfd21a5c7a6b926de8e758cbe4c3f981e478dab4ef214",
                "0x1aff7bb565d780b45e1641ee67dd6fbe81fcf2e7ee5eaf328a2214640f1c1df8",
                "0x03ef136f2245cb9780000af3f216a2111ef8a2d021acfa1b7455417cd8919b44",
                "0x251f975ba89701a1adcab02c9c81505dadf9d78460477ec24f9ccb6fc4b90dcf",
                "0x0d551cf1f5ef6ea5ecf9fa9a6970fb1f60e9f5e92f9f95c372dfc3495a4ffb93",
            ])
        );
        // perm.nr test_affine_8_mat
        let mut s: Vec<Fr> = vec![Fr::from(8u64); 8];
        g8.linear_layer(&mut s);
        assert_eq!(
            s,
            hexes(&["0x180", "0x120", "0x180", "0x120", "0x180", "0x120", "0x180", "0x120"])
        );
    }

    #[test]
    fn node_widths_and_errors() {
        assert_eq!(node_width(2), 3);
        assert_eq!(node_width(3), 4);
        for a in 4..=16 {
            assert_eq!(node_width(a), 8);
        }
        check_registry(permutation, 5, node_hasher, 1);
        let h = node_hasher(3).unwrap();
        let p = permutation(4).unwrap();
        let kids = [Fr::from(7u64), Fr::from(8u64), Fr::from(9u64)];
        let expect = p.permute(&[Fr::zero(), kids[0], kids[1], kids[2]]).unwrap()[0];
        assert_eq!(h.hash_node(&kids), expect);
        assert!(GriffinHasher::new(3).unwrap().hash(&[Fr::one()]).is_err());
    }
}
